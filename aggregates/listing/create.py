"""Creation: a listing's first event, and the slug streams that keep each slug to one listing."""

from __future__ import annotations

from typing import Any

from aggregates.base import Meta, one
from aggregates.listing.editing import decide_edit, decide_unlock
from aggregates.listing.evolve import evolve
from aggregates.listing.state import PROFILE_FIELDS, SLUG_PATTERN, ListingState, SlugState
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput
from events.listing import ListingCreated, SlugClaimed, SlugReleased


def decide_claim_slug(state: SlugState, slug: str, listing_id: int, meta: Meta) -> list[Event]:
    """A slug belongs to one listing at a time."""
    if not SLUG_PATTERN.match(slug):
        raise InvalidInput("bad slug", [FieldProblem("slug", "pattern", SLUG_PATTERN.pattern)])
    if state.listing_id == listing_id:
        return []
    if state.listing_id is not None:
        raise Conflict(f"the slug {slug!r} is taken")
    return one(state, meta, SlugClaimed, slug=slug, listing_id=listing_id)


def decide_release_slug(state: SlugState, listing_id: int, meta: Meta) -> list[Event]:
    if state.listing_id != listing_id:
        return []
    return one(state, meta, SlugReleased, slug=state.slug, listing_id=listing_id)


def decide_create(
    state: ListingState,
    *,
    listing_id: int,
    slug: str,
    owner_ids: list[str],
    source: str,
    draft_id: str | None,
    profile: dict[str, Any],
    categories: list[str],
    socials: dict[str, str] | None = None,
    faqs: list[dict[str, str]] | None = None,
    founders: list[dict[str, Any]] | None = None,
    story: dict[str, str] | None = None,
    milestones: list[dict[str, Any]] | None = None,
    not_found_on_website: list[str] | None = None,
    evidence: dict[str, list[dict[str, str]]] | None = None,
    meta: Meta,
) -> list[Event]:
    if state.exists:
        raise Conflict(f"listing {listing_id} exists")
    _check_profile_keys(profile)
    if not str(profile.get("name") or "").strip():
        raise InvalidInput("a listing needs a name", [FieldProblem("fields.name", "required", "name is required")])
    if not categories:
        raise InvalidInput("a listing needs a primary category", [FieldProblem("fields.categories", "required", "at least one category")])
    if len(categories) > 1:
        raise InvalidInput(
            "extra categories need a paid listing",
            [FieldProblem("fields.categories", "max_items", "one category until extra categories are unlocked")],
        )
    ms = [dict(m, milestone_id=i) for i, m in enumerate(milestones or [], start=1)]
    return one(
        state, meta, ListingCreated, listing_id=listing_id, slug=slug, owner_ids=list(owner_ids), source=source,
        draft_id=draft_id, profile=dict(profile), categories=list(categories), socials=dict(socials or {}),
        faqs=list(faqs or []), founders=list(founders or []), story=dict(story or {}), milestones=ms,
        not_found_on_website=list(not_found_on_website or []), evidence=dict(evidence or {}),
    )


def decide_create_with_extras(state: ListingState, *, categories: list[str], meta: Meta, **fields: Any) -> list[Event]:
    """Create with the primary category; extra categories unlock their section and are set in the same decision.

    So a listing created with extra categories is stored whole (one append) or not at all.
    `fields` are the other keyword arguments of `decide_create`.
    """
    events = decide_create(state, categories=categories[:1], meta=meta, **fields)
    if len(categories) > 1:
        created = evolve(events[0], state)
        unlocked = decide_unlock(created, ["extra_categories"], "created with extra categories", meta)
        events += unlocked + decide_edit(evolve(unlocked[0], created), {"categories": categories}, meta)
    return events


def _check_profile_keys(profile: dict[str, Any]) -> None:
    unknown = sorted(set(profile) - PROFILE_FIELDS)
    if unknown:
        raise InvalidInput("unknown profile fields", [FieldProblem(f"fields.{k}", "unknown_field", "not a profile field") for k in unknown])
