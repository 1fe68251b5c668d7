"""The Listing decider: profile, categories, status and launch week, paid sections, owners.

Statuses: `draft` (saved, not published), `awaiting_badge` (free plan, queued
for a week, waiting for our badge on the homepage), `scheduled` (a week is
set and nothing else is needed), `live`, `unpublished` (taken down). A
scheduled listing goes live when its week starts; a free listing whose badge
is found after its week began goes live at once.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Emitter, Meta, StreamKind, one
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound
from events.listing import (
    ListingAlternativesApproved,
    ListingBadgeFound,
    ListingCreated,
    ListingEdited,
    ListingFeatured,
    ListingLaunched,
    ListingMilestoneAdded,
    ListingMilestoneDeleted,
    ListingOwnerAdded,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingSectionsUnlocked,
    ListingStorySet,
    ListingUnpublished,
    ListingUpdatePosted,
    ListingVerified,
    SlugClaimed,
    SlugReleased,
)

SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,219}$")
STATUSES = ("draft", "awaiting_badge", "scheduled", "live", "unpublished")
PAID_SECTIONS = ("story", "milestones", "media", "extra_categories")
MAX_EXTRA_CATEGORIES = 3
PROFILE_FIELDS = frozenset({
    "name", "tagline", "short_description", "description", "stage", "pricing_model", "pricing_summary",
    "country", "city", "founded_year", "contact_email", "demo_video_url", "logo_url", "website_url",
    "tags", "features", "usps", "keywords", "headline", "summary", "seo_title", "seo_description", "media",
    "attributes",  # category facts compare_listings shows side by side, e.g. {"open_source": true}
})
EDITABLE = PROFILE_FIELDS | {"categories", "socials", "faqs", "founders", "not_found_on_website"}


def listing_stream(listing_id: int) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:listing:{listing_id}")


def slug_stream(slug: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:slug:{slug}")


def slugify(text: str) -> str:
    """A slug from a product name: ASCII, lower case, hyphens; never empty."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:200]
    return slug or "listing"


@dataclass(frozen=True)
class ListingState:
    id: UUID
    version: int = 0
    listing_id: int = 0
    slug: str = ""
    owner_ids: tuple[str, ...] = ()
    status: str = "draft"
    plan: str | None = None
    week: str | None = None
    profile: dict[str, Any] = field(default_factory=dict)
    categories: tuple[str, ...] = ()
    socials: dict[str, str] = field(default_factory=dict)
    faqs: tuple[dict[str, str], ...] = ()
    founders: tuple[dict[str, Any], ...] = ()
    story: dict[str, str] = field(default_factory=dict)
    milestones: dict[int, dict[str, Any]] = field(default_factory=dict)
    next_milestone_id: int = 1
    next_update_id: int = 1
    unlocked: frozenset[str] = frozenset()
    alternatives: tuple[str, ...] = ()
    verified: bool = False
    featured_weeks: tuple[str, ...] = ()
    not_found_on_website: tuple[str, ...] = ()

    @property
    def exists(self) -> bool:
        return self.version > 0

    @property
    def is_paid(self) -> bool:
        return self.plan == "paid"


@dataclass(frozen=True)
class SlugState:
    id: UUID
    version: int = 0
    slug: str = ""
    listing_id: int | None = None


def initial(stream_id: UUID) -> ListingState:
    return ListingState(id=stream_id)


def initial_slug(stream_id: UUID) -> SlugState:
    return SlugState(id=stream_id)


# ---------------------------------------------------------------- decisions: creation and slugs


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
        not_found_on_website=list(not_found_on_website or []),
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


# ---------------------------------------------------------------- decisions: content


def decide_edit(state: ListingState, changes: dict[str, Any], meta: Meta) -> list[Event]:
    """Edit profile facts, categories, socials, FAQs or founders; unchanged keys are dropped."""
    _require(state)
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
    _require(state)
    if story == state.story:
        return []
    return one(state, meta, ListingStorySet, story=dict(story), before=dict(state.story))


def decide_add_milestone(state: ListingState, milestone: dict[str, Any], meta: Meta) -> list[Event]:
    _require(state)
    return one(
        state, meta, ListingMilestoneAdded, milestone_id=state.next_milestone_id, date=str(milestone["date"]),
        title=str(milestone["title"]), description=str(milestone.get("description") or ""),
        url=str(milestone.get("url") or ""),
    )


def decide_delete_milestone(state: ListingState, milestone_id: int, meta: Meta) -> list[Event]:
    _require(state)
    if milestone_id not in state.milestones:
        raise NotFound(f"no milestone {milestone_id} on this listing")
    return one(state, meta, ListingMilestoneDeleted, milestone_id=milestone_id)


def decide_post_update(state: ListingState, title: str, body: str, meta: Meta) -> list[Event]:
    _require(state)
    return one(state, meta, ListingUpdatePosted, update_id=state.next_update_id, title=title, body=body)


def decide_unlock(state: ListingState, sections: list[str], reason: str, meta: Meta) -> list[Event]:
    _require(state)
    bad = [s for s in sections if s not in PAID_SECTIONS]
    if bad:
        raise InvalidInput("unknown section", [FieldProblem("sections", "enum", f"one of {PAID_SECTIONS}")])
    new = [s for s in sections if s not in state.unlocked]
    if not new:
        return []
    return one(state, meta, ListingSectionsUnlocked, sections=new, reason=reason)


def decide_approve_alternatives(state: ListingState, slugs: list[str], meta: Meta) -> list[Event]:
    _require(state)
    if tuple(slugs) == state.alternatives:
        return []
    return one(state, meta, ListingAlternativesApproved, slugs=list(slugs))


def decide_add_owner(state: ListingState, account_id: str, meta: Meta) -> list[Event]:
    _require(state)
    if account_id in state.owner_ids:
        return []
    return one(state, meta, ListingOwnerAdded, account_id=account_id)


def decide_verify(state: ListingState, method: str, meta: Meta) -> list[Event]:
    _require(state)
    if state.verified:
        return []
    return one(state, meta, ListingVerified, method=method)


# ---------------------------------------------------------------- decisions: publishing


def decide_queue_free(state: ListingState, week: str, meta: Meta) -> list[Event]:
    """Free plan: queue for `week` (chosen by the caller from the site's free-queue window)."""
    _require(state)
    if state.status in ("awaiting_badge", "scheduled", "live"):
        raise Conflict(f"the listing is already {state.status}")
    return one(state, meta, ListingQueuedForFree, week=week)


def decide_badge_found(state: ListingState, checked_url: str, current_week: str, meta: Meta) -> list[Event]:
    """The badge is on the homepage: schedule, or launch at once when the queued week has begun."""
    _require(state)
    if state.status != "awaiting_badge":
        return []
    emit = Emitter(state, meta)
    emit(ListingBadgeFound, checked_url=checked_url)
    week = state.week or current_week
    if week <= current_week:
        emit(ListingLaunched, week=current_week, plan=state.plan or "free")
    else:
        emit(ListingScheduled, week=week, plan=state.plan or "free")
    return emit.events


def decide_schedule_paid(state: ListingState, week: str, current_week: str, meta: Meta) -> list[Event]:
    """A paid launch: live at once when `week` is this week (or past), else scheduled for it."""
    _require(state)
    if state.status == "live":
        raise Conflict("the listing is already live")
    emit = Emitter(state, meta)
    if week <= current_week:
        emit(ListingLaunched, week=current_week, plan="paid")
    else:
        emit(ListingScheduled, week=week, plan="paid")
    return emit.events


def decide_launch_if_due(state: ListingState, current_week: str, meta: Meta) -> list[Event]:
    """Called when a week starts: scheduled listings of that week (or earlier) go live."""
    if state.status != "scheduled" or state.week is None or state.week > current_week:
        return []
    return one(state, meta, ListingLaunched, week=state.week, plan=state.plan or "free")


def decide_staff_publish(state: ListingState, week: str, plan: str, meta: Meta) -> list[Event]:
    """Staff put a listing live in `week` directly (recorded with who and when)."""
    _require(state)
    if state.status == "live":
        return []
    return one(state, meta, ListingPublishedByStaff, week=week, plan=plan)


def decide_feature(state: ListingState, week: str, meta: Meta) -> list[Event]:
    _require(state)
    if week in state.featured_weeks:
        return []
    return one(state, meta, ListingFeatured, week=week)


def decide_unpublish(state: ListingState, reason: str, meta: Meta) -> list[Event]:
    _require(state)
    if state.status == "unpublished":
        return []
    return one(state, meta, ListingUnpublished, reason=reason)


# ---------------------------------------------------------------- evolution


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
    )


@evolve.register
def _(e: ListingEdited, s: ListingState) -> ListingState:
    profile = dict(s.profile)
    extra: dict[str, Any] = {}
    for key, value in e.changes.items():
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
    return replace(s, version=e.originator_version, profile=profile, **extra)


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
def _(e: ListingQueuedForFree, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version, status="awaiting_badge", plan="free", week=e.week)


@evolve.register
def _(e: ListingBadgeFound, s: ListingState) -> ListingState:
    return replace(s, version=e.originator_version)


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


# ---------------------------------------------------------------- stream kinds

SLUG: StreamKind[SlugState] = StreamKind(initial_slug, evolve)
"""The slug streams (`slug_stream(slug)`): which listing holds a slug. The module itself folds listing streams."""


# ---------------------------------------------------------------- helpers


def _require(state: ListingState) -> None:
    if not state.exists:
        raise NotFound("no such listing")


def _check_profile_keys(profile: dict[str, Any]) -> None:
    unknown = sorted(set(profile) - PROFILE_FIELDS)
    if unknown:
        raise InvalidInput("unknown profile fields", [FieldProblem(f"fields.{k}", "unknown_field", "not a profile field") for k in unknown])


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
