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

After the first submit the listing has a life of its own (its owners edit it
with update_my_listing). A sync therefore carries only the *parts* that
changed in the draft since the draft last reached the listing: the draft
remembers what it sent (`DraftSubmittedAsListing.sent`, then
`DraftListingSynced.sent`), and a part the draft left alone keeps the
listing's own, possibly newer, value (docs/submission.md, "Becoming a listing").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from aggregates import draft as d
from aggregates import listing
from aggregates.base import Emitter, Meta
from aggregates.draft.state import DraftState
from aggregates.listing import ListingState, SlugState
from events.base import Event
from events.draft import DraftListingSynced
from events.draft_fields import LIST_FIELDS, STORY_SECTIONS, STRING_FIELDS
from events.evidence_keys import section_of

SYNCED_PROFILE_KEYS: tuple[str, ...] = tuple(n for n in STRING_FIELDS + LIST_FIELDS if n != "categories") + (
    "website_url", "seo_title", "seo_description",
)
"""Profile keys the listing takes from its draft (an absent key clears the listing's value)."""

SECTION_PARTS: tuple[str, ...] = ("categories", "socials", "faqs", "founders", "not_found_on_website")
"""Listing fields the draft sends whole (each one part)."""

STORY_PART = "story."
MILESTONES = "milestones"


def fold(state: Any, events: Sequence[Event], evolve: Callable[[Any, Any], Any]) -> Any:
    """The state after `events` (so a later decision in the same move numbers its events after them)."""
    for event in events:
        state = evolve(event, state)
    return state


def sync_parts(content: dict[str, Any]) -> dict[str, Any]:
    """What the listing takes from the draft (`listing_content`), part by part: the unit a sync compares and sends.

    A part is a profile key, a whole section (categories, company links, FAQs,
    founders, not_found_on_website), one story section (`story.title`) or the
    milestones. An absent value is None, so a value the draft removed is a change too.
    """
    parts: dict[str, Any] = {k: content["profile"].get(k) for k in SYNCED_PROFILE_KEYS}
    for key in SECTION_PARTS:
        parts[key] = content[key]
    for section in STORY_SECTIONS:
        parts[STORY_PART + section] = content["story"].get(section)
    parts[MILESTONES] = content["milestones"]
    return parts


def parts_to_send(current: ListingState, draft: DraftState) -> dict[str, Any]:
    """The parts a sync of `draft` would carry into `current`: those changed in the draft since they last reached it.

    Every part when the draft does not know what it last sent (a listing linked
    after an interrupted submit, or a history stored before drafts kept it).
    """
    return _unsent(sync_parts(d.listing_content(draft, _extra_categories(current))), draft.listing_sent)


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
    link = d.decide_link_listing(draft, listing_id, slug, meta, sent=sync_parts(content))
    return [*claim, *created, *link]


def decide_sync(current: ListingState, draft: DraftState, meta: Meta) -> list[Event]:
    """Bring `current` along with what changed in the draft since the draft last reached it.

    Only those parts move (`parts_to_send`); the rest keep the listing's own
    values, so an owner's edit of the listing is never undone by a later draft
    edit, redraft or resubmit. Returns the listing's events (an edit with
    before and after, the story, milestones, evidence) and the draft's
    `DraftListingSynced` with what it sent, for one append; nothing when
    nothing changed.
    """
    content = d.listing_content(draft, _extra_categories(current))
    send = _unsent(sync_parts(content), draft.listing_sent)
    if not send:
        return []
    events: list[Event] = []
    state = current

    def then(decided: list[Event]) -> None:
        nonlocal state
        events.extend(decided)
        state = fold(state, decided, listing.evolve)

    changes = {k: v for k, v in send.items() if k in SYNCED_PROFILE_KEYS or k in SECTION_PARTS}
    for required in ("name", "categories"):  # a listing keeps its name and primary category
        if not changes.get(required):
            changes.pop(required, None)
    then(listing.decide_edit(state, changes, meta))
    story = {k[len(STORY_PART):]: v for k, v in send.items() if k.startswith(STORY_PART)}
    if story:
        kept = {k: v for k, v in state.story.items() if k not in story}
        then(listing.decide_set_story(state, {**kept, **{k: v for k, v in story.items() if v}}, meta))
    if MILESTONES in send:
        before = (draft.listing_sent or {}).get(MILESTONES)
        gone, new = _milestone_moves(state, send[MILESTONES], before)
        for milestone_id in gone:
            then(listing.decide_delete_milestone(state, milestone_id, meta))
        for milestone in new:
            then(listing.decide_add_milestone(state, milestone, meta))
    evidence = {k: v for k, v in state.evidence.items() if section_of(k) not in send}  # after the edit, which drops
    evidence.update({k: v for k, v in content["evidence"].items() if section_of(k) in send})  # edited fields'
    then(listing.decide_set_evidence(state, evidence, meta))
    record = Emitter(draft, meta)
    record(DraftListingSynced, listing_id=current.listing_id, sent=send)
    return [*events, *record.events]


def decide_resubmit(current: ListingState, draft: DraftState, meta: Meta) -> list[Event]:
    """submit_draft again: the listing follows the draft's changes, and the draft records that it was submitted again."""
    d.decide_resubmitted(draft, meta)  # checks ready, listable and linked before the listing moves
    synced = decide_sync(current, draft, meta)
    after = fold(draft, [e for e in synced if e.originator_id == draft.id], d.evolve)
    return [*synced, *d.decide_resubmitted(after, meta)]


def _extra_categories(current: ListingState) -> int:
    return listing.MAX_EXTRA_CATEGORIES if (current.is_paid or "extra_categories" in current.unlocked) else 0


def _unsent(parts: dict[str, Any], last: dict[str, Any] | None) -> dict[str, Any]:
    if last is None:
        return parts
    return {k: v for k, v in parts.items() if k not in last or last[k] != v}


def _milestone_moves(
    state: ListingState, now: list[dict[str, Any]], before: list[dict[str, Any]] | None,
) -> tuple[list[int], list[dict[str, Any]]]:
    """Listing milestones to delete and draft milestones to add.

    With what was sent before: the ones removed from the draft since go, the
    ones added to it since come (the listing's own milestones stay). Without:
    the listing's milestones become the draft's.
    """
    have = {_milestone_key(m): mid for mid, m in state.milestones.items()}
    wanted = [_milestone_key(m) for m in now]
    if before is None:
        gone = [mid for key, mid in have.items() if key not in wanted]
        new = [m for m, key in zip(now, wanted, strict=True) if key not in have]
        return gone, new
    was = list(dict.fromkeys(_milestone_key(m) for m in before))
    gone = [have[key] for key in was if key not in wanted and key in have]
    new = [m for m, key in zip(now, wanted, strict=True) if key not in was and key not in have]
    return gone, new


def _milestone_key(m: dict[str, Any]) -> tuple[str, str, str, str]:
    return (str(m.get("date") or ""), str(m.get("title") or ""), str(m.get("description") or ""), str(m.get("url") or ""))
