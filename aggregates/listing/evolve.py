"""How each listing event changes a listing state (and each slug event a slug state)."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch
from typing import Any

from aggregates.listing.state import ListingState, SlugState
from events.base import Event
from events.evidence_keys import kept_after_edit
from events.listing import (
    ListingAlternativesApproved,
    ListingBadgeFound,
    ListingBadgeLost,
    ListingBadgeMissing,
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingEvidenceSet,
    ListingFeatured,
    ListingLaunched,
    ListingMilestoneAdded,
    ListingMilestoneDeleted,
    ListingOwnerAdded,
    ListingOwnerRemoved,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingSectionsUnlocked,
    ListingStorySet,
    ListingUnpublished,
    ListingUpdatePosted,
    ListingUpdateRemoved,
    ListingVerified,
    ListingVerificationWithdrawn,
    ListingVersionAccepted,
    SlugClaimed,
    SlugReleased,
)


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: ListingCreated, s: ListingState) -> ListingState:
    ms = {int(m["milestone_id"]): dict(m) for m in e.milestones}
    return replace(
        s, version=e.originator_version, listing_id=e.listing_id, slug=e.slug, owner_ids=tuple(e.owner_ids),
        status="draft", profile=dict(e.profile), categories=tuple(e.categories), socials=dict(e.socials),
        faqs=tuple(e.faqs), founders=tuple(e.founders), story=dict(e.story), milestones=ms,
        next_milestone_id=len(ms) + 1, not_found_on_website=tuple(e.not_found_on_website),
        evidence=dict(e.evidence or {}),
    )


@evolve.register
def _(e: ListingEdited, s: ListingState) -> ListingState:
    return _changed(s, e.changes, e.originator_version)


@evolve.register
def _(e: ListingEditReverted, s: ListingState) -> ListingState:
    """Staff put fields back: applied like an edit; `story` replaces the story, `milestones` the milestones."""
    s = _changed(s, {k: v for k, v in e.changes.items() if k not in ("story", "milestones")}, e.originator_version)
    if "story" in e.changes:
        s = replace(s, story=dict(e.changes["story"] or {}))
    if "milestones" in e.changes:
        ms = {int(m["milestone_id"]): dict(m) for m in e.changes["milestones"] or []}
        s = replace(s, milestones=ms, next_milestone_id=max(s.next_milestone_id, max(ms, default=0) + 1))
    return replace(s, reviews=s.reviews | {e.version_id: "reverted"})


@evolve.register
def _(e: ListingVersionAccepted, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, reviews=s.reviews | {e.version_id: "accepted"})


@evolve.register
def _(e: ListingUpdateRemoved, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, reviews=s.reviews | {e.version_id: "removed"},
                   removed_updates=s.removed_updates | {e.update_id})


def _changed(s: ListingState, changes: dict[str, Any], version: int) -> ListingState:
    """The state with edited keys of the profile, categories, socials, FAQs, founders or `not_found_on_website`."""
    profile = dict(s.profile)
    extra: dict[str, Any] = {}
    for key, value in changes.items():
        if key == "categories":
            extra["categories"] = tuple(value or ())
        elif key == "socials":
            extra["socials"] = dict(value or {})
        elif key in ("faqs", "founders", "not_found_on_website"):
            extra[key] = tuple(value or ())
        elif value is None:
            profile.pop(key, None)
        else:
            profile[key] = value
    evidence = kept_after_edit(s.evidence, changes)  # an edited value is no longer the site's
    return replace(s, version=version, profile=profile, evidence=evidence, **extra)


@evolve.register
def _(e: ListingEvidenceSet, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, evidence=dict(e.evidence))


@evolve.register
def _(e: ListingStorySet, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, story=dict(e.story))


@evolve.register
def _(e: ListingMilestoneAdded, s: ListingState) -> ListingState:
    m = {"milestone_id": e.milestone_id, "date": e.date, "title": e.title, "description": e.description, "url": e.url}
    return replace(s, version=e.originator_version, milestones=s.milestones | {e.milestone_id: m},
                   next_milestone_id=max(s.next_milestone_id, e.milestone_id + 1))


@evolve.register
def _(e: ListingMilestoneDeleted, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, milestones={k: v for k, v in s.milestones.items() if k != e.milestone_id})


@evolve.register
def _(e: ListingUpdatePosted, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, next_update_id=max(s.next_update_id, e.update_id + 1))


@evolve.register
def _(e: ListingSectionsUnlocked, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, unlocked=s.unlocked | set(e.sections))


@evolve.register
def _(e: ListingAlternativesApproved, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, alternatives=tuple(e.slugs))


@evolve.register
def _(e: ListingOwnerAdded, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, owner_ids=(*s.owner_ids, e.account_id))


@evolve.register
def _(e: ListingVerified, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, verified=True)


@evolve.register
def _(e: ListingVerificationWithdrawn, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, verified=False)


@evolve.register
def _(e: ListingQueuedForFree, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, status="awaiting_badge", plan="free", week=e.week)


@evolve.register
def _(e: ListingBadgeFound, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version)


@evolve.register
def _(e: ListingBadgeMissing, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version)


@evolve.register
def _(e: ListingBadgeLost, s: ListingState) -> ListingState:
    """No badge when its week began: the free listing waits for it again, still in that week."""
    return replace(s, version=e.originator_version, status="awaiting_badge")


@evolve.register
def _(e: ListingScheduled, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, status="scheduled", plan=e.plan, week=e.week)


@evolve.register
def _(e: ListingLaunched, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, status="live", plan=e.plan, week=e.week)


@evolve.register
def _(e: ListingPublishedByStaff, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, status="live", plan=e.plan, week=e.week)


@evolve.register
def _(e: ListingFeatured, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, featured_weeks=(*s.featured_weeks, e.week))


@evolve.register
def _(e: ListingUnpublished, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, status="unpublished")


@evolve.register
def _(e: SlugClaimed, s: SlugState) -> SlugState:
    return replace(s, version=e.originator_version, slug=e.slug, listing_id=e.listing_id)


@evolve.register
def _(e: SlugReleased, s: SlugState) -> SlugState:
    return replace(s, version=e.originator_version, listing_id=None)


@evolve.register
def _(e: ListingOwnerRemoved, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, owner_ids=tuple(o for o in s.owner_ids if o != e.account_id))
