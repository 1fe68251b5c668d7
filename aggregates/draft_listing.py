"""The draft -> listing move as pure decisions over both streams.

A draft becomes a listing (submit_draft) and keeps it current afterwards
(update_draft, a redraft, submitting again). Each of those moves is decided
here as one list of events for the draft stream, the listing stream and the
slug stream together, and the handler appends them in one transaction
(`EventStore.decide_across`): either the whole move is stored or none of it,
so a crash can never leave a listing half updated (docs/architecture.md,
"Moves between aggregates").

The listing's events are the listing decider's own (an edit with before and
after, the story, milestones added and deleted), so version history shows a
draft-driven change exactly like an owner's edit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from aggregates import draft as d
from aggregates import listing
from aggregates.base import Meta
from aggregates.draft.state import DraftState
from aggregates.listing import ListingState, SlugState
from events.base import Event
from events.draft_fields import LIST_FIELDS, STRING_FIELDS

SYNCED_PROFILE_KEYS: tuple[str, ...] = tuple(n for n in STRING_FIELDS + LIST_FIELDS if n != "categories") + (
    "website_url", "seo_title", "seo_description",
)
"""Profile keys the listing takes from its draft (an absent key clears the listing's value)."""


def fold(state: Any, events: Sequence[Event], evolve: Callable[[Any, Any], Any]) -> Any:
    """The state after `events` (so a later decision in the same move numbers its events after them)."""
    for event in events:
        state = evolve(event, state)
    return state


def decide_create_from_draft(
    draft: DraftState, fresh: ListingState, slug_state: SlugState, *, listing_id: int, slug: str, meta: Meta,
) -> list[Event]:
    """First submit_draft: claim the slug, create the listing from the draft, and link the draft to it."""
    d.check_listable(draft)
    content = d.listing_content(draft)
    created = listing.decide_create(
        fresh, listing_id=listing_id, slug=slug, owner_ids=content["owner_ids"], source="draft",
        draft_id=str(draft.id), profile=content["profile"], categories=content["categories"],
        socials=content["socials"], faqs=content["faqs"], founders=content["founders"], story=content["story"],
        milestones=content["milestones"], not_found_on_website=content["not_found_on_website"],
        evidence=content["evidence"], meta=meta,
    )
    claim = listing.decide_claim_slug(slug_state, slug, listing_id, meta)
    link = d.decide_link_listing(draft, listing_id, slug, meta)
    return [*claim, *created, *link]


def decide_sync(current: ListingState, draft: DraftState, meta: Meta) -> list[Event]:
    """The listing events that bring `current` up to the draft: profile edit, story, milestones."""
    extra = listing.MAX_EXTRA_CATEGORIES if (current.is_paid or "extra_categories" in current.unlocked) else 0
    content = d.listing_content(draft, extra)
    changes: dict[str, Any] = {k: content["profile"].get(k) for k in SYNCED_PROFILE_KEYS}
    for key in ("socials", "faqs", "founders", "not_found_on_website"):
        changes[key] = content[key]
    if content["categories"]:
        changes["categories"] = content["categories"]
    if not content["profile"].get("name"):
        changes.pop("name", None)
    events: list[Event] = []
    state = current

    def then(decided: list[Event]) -> None:
        nonlocal state
        events.extend(decided)
        state = fold(state, decided, listing.evolve)

    then(listing.decide_edit(state, changes, meta))
    then(listing.decide_set_story(state, content["story"], meta))
    wanted = [_milestone_key(m) for m in content["milestones"]]
    have = {_milestone_key(m): mid for mid, m in state.milestones.items()}
    for had, milestone_id in have.items():
        if had not in wanted:
            then(listing.decide_delete_milestone(state, milestone_id, meta))
    for milestone, want in zip(content["milestones"], wanted, strict=True):
        if want not in have:
            then(listing.decide_add_milestone(state, milestone, meta))
    then(listing.decide_set_evidence(state, content["evidence"], meta))  # after the edit, which drops edited fields'
    return events


def decide_resubmit(current: ListingState, draft: DraftState, meta: Meta) -> list[Event]:
    """submit_draft again: the listing follows the draft, and the draft records that it was submitted again."""
    resubmitted = d.decide_resubmitted(draft, meta)  # checks ready and listable before the listing moves
    return [*decide_sync(current, draft, meta), *resubmitted]


def _milestone_key(m: dict[str, Any]) -> tuple[str, str, str, str]:
    return (str(m.get("date") or ""), str(m.get("title") or ""), str(m.get("description") or ""), str(m.get("url") or ""))
