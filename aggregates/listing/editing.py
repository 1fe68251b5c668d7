"""Editing a listing: profile facts and categories, story, milestones, updates, paid sections, owners, verification."""

from __future__ import annotations

from typing import Any

from aggregates.base import Meta, one
from aggregates.listing.state import EDITABLE, MAX_EXTRA_CATEGORIES, PAID_SECTIONS, ListingState, require_listing
from events.base import Event
from events.errors import FieldProblem, InvalidInput, NotFound
from events.evidence_keys import names_item
from events.listing import (
    ListingAlternativesApproved,
    ListingEdited,
    ListingEvidenceSet,
    ListingMilestoneAdded,
    ListingMilestoneDeleted,
    ListingOwnerAdded,
    ListingSectionsUnlocked,
    ListingStorySet,
    ListingUpdatePosted,
    ListingVerified,
)


def decide_edit(state: ListingState, changes: dict[str, Any], meta: Meta) -> list[Event]:
    """Edit profile facts, categories, socials, FAQs or founders; unchanged keys are dropped."""
    require_listing(state)
    unknown = sorted(set(changes) - EDITABLE)
    if unknown:
        raise InvalidInput("unknown listing fields", [FieldProblem(f"fields.{k}", "unknown_field", "not editable") for k in unknown])
    if "categories" in changes:
        _check_categories(state, list(changes["categories"] or []))
    current = _current_values(state)
    real = {k: v for k, v in changes.items() if current.get(k) != v}
    if not real:
        return []
    return one(state, meta, ListingEdited, changes=real, before={k: current.get(k) for k in real})


def decide_set_story(state: ListingState, story: dict[str, str], meta: Meta) -> list[Event]:
    require_listing(state)
    if story == state.story:
        return []
    return one(state, meta, ListingStorySet, story=dict(story), before=dict(state.story))


def decide_add_milestone(state: ListingState, milestone: dict[str, Any], meta: Meta) -> list[Event]:
    require_listing(state)
    return one(
        state, meta, ListingMilestoneAdded, milestone_id=state.next_milestone_id, date=str(milestone["date"]),
        title=str(milestone["title"]), description=str(milestone.get("description") or ""),
        url=str(milestone.get("url") or ""),
    )


def decide_delete_milestone(state: ListingState, milestone_id: int, meta: Meta) -> list[Event]:
    require_listing(state)
    if milestone_id not in state.milestones:
        raise NotFound(f"no milestone {milestone_id} on this listing")
    return one(state, meta, ListingMilestoneDeleted, milestone_id=milestone_id)


def decide_post_update(state: ListingState, title: str, body: str, meta: Meta) -> list[Event]:
    require_listing(state)
    return one(state, meta, ListingUpdatePosted, update_id=state.next_update_id, title=title, body=body)


def decide_unlock(state: ListingState, sections: list[str], reason: str, meta: Meta) -> list[Event]:
    require_listing(state)
    bad = [s for s in sections if s not in PAID_SECTIONS]
    if bad:
        raise InvalidInput("unknown section", [FieldProblem("sections", "enum", f"one of {PAID_SECTIONS}")])
    new = [s for s in sections if s not in state.unlocked]
    if not new:
        return []
    return one(state, meta, ListingSectionsUnlocked, sections=new, reason=reason)


def decide_approve_alternatives(state: ListingState, slugs: list[str], meta: Meta) -> list[Event]:
    require_listing(state)
    if tuple(slugs) == state.alternatives:
        return []
    return one(state, meta, ListingAlternativesApproved, slugs=list(slugs))


def decide_set_evidence(state: ListingState, evidence: dict[str, list[dict[str, str]]], meta: Meta) -> list[Event]:
    """The site quotes behind the drafted values (only fields and items the listing holds); the same evidence changes nothing."""
    require_listing(state)
    known = {k: [dict(q) for q in v] for k, v in evidence.items()
             if v and (k in state.profile or names_item(k, state.faqs, state.founders, state.socials))}
    if known == state.evidence:
        return []
    return one(state, meta, ListingEvidenceSet, evidence=known)


def decide_add_owner(state: ListingState, account_id: str, meta: Meta) -> list[Event]:
    require_listing(state)
    if account_id in state.owner_ids:
        return []
    return one(state, meta, ListingOwnerAdded, account_id=account_id)


def decide_verify(state: ListingState, method: str, meta: Meta) -> list[Event]:
    require_listing(state)
    if state.verified:
        return []
    return one(state, meta, ListingVerified, method=method)


def _check_categories(state: ListingState, categories: list[str]) -> None:
    if not categories:
        raise InvalidInput("a listing needs a primary category", [FieldProblem("fields.categories", "required", "at least one")])
    extra_allowed = MAX_EXTRA_CATEGORIES if (state.is_paid or "extra_categories" in state.unlocked) else 0
    if len(categories) - 1 > extra_allowed:
        raise InvalidInput(
            "too many categories for this listing",
            [FieldProblem("fields.categories", "max_items", f"primary plus at most {extra_allowed} more")],
        )
    if len(set(categories)) != len(categories):
        raise InvalidInput("duplicate categories", [FieldProblem("fields.categories", "unique", "no repeats")])


def _current_values(state: ListingState) -> dict[str, Any]:
    return {
        **state.profile,
        "categories": list(state.categories),
        "socials": dict(state.socials),
        "faqs": list(state.faqs),
        "founders": list(state.founders),
        "not_found_on_website": list(state.not_found_on_website),
    }
