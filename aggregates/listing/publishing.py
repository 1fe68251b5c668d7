"""The status machine: queued for a free week, badge found, scheduled, launched, published by staff, featured, unpublished.

Statuses: `draft` (saved, not published), `awaiting_badge` (free plan, queued
for a week, waiting for our badge on the homepage), `scheduled` (a week is
set and nothing else is needed), `live`, `unpublished` (taken down). A
scheduled listing goes live when its week starts; a free listing whose badge
is found after its week began goes live at once.
"""

from __future__ import annotations

from datetime import date, timedelta

from aggregates.base import Emitter, Meta, one
from aggregates.listing.state import ListingState, require_listing
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput
from events.listing import (
    ListingBadgeFound,
    ListingFeatured,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingUnpublished,
)


def decide_queue_free(state: ListingState, week: str, meta: Meta) -> list[Event]:
    """Free plan: queue for `week` (chosen by the caller from the site's free-queue window)."""
    require_listing(state)
    if state.status in ("awaiting_badge", "scheduled", "live"):
        raise Conflict(f"the listing is already {state.status}")
    return one(state, meta, ListingQueuedForFree, week=week)


def decide_badge_found(state: ListingState, checked_url: str, current_week: str, meta: Meta) -> list[Event]:
    """The badge is on the homepage: schedule, or launch at once when the queued week has begun."""
    require_listing(state)
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


def decide_reschedule_free(state: ListingState, week: str, current_week: str, meta: Meta) -> list[Event]:
    """A scheduled free listing moved to another week (Skip the queue): scheduled for it, or live at once when it has
    begun; the badge was found already, so it is not asked for again."""
    require_listing(state)
    if state.status != "scheduled":
        raise Conflict(f"the listing is {state.status}, not scheduled")
    emit = Emitter(state, meta)
    if week <= current_week:
        emit(ListingLaunched, week=current_week, plan=state.plan or "free")
    else:
        emit(ListingScheduled, week=week, plan=state.plan or "free")
    return emit.events


def decide_schedule_paid(state: ListingState, week: str, current_week: str, meta: Meta) -> list[Event]:
    """A paid launch: live at once when `week` is this week (or past), else scheduled for it."""
    require_listing(state)
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


def decide_relaunch(state: ListingState, week: str, meta: Meta) -> list[Event]:
    """A paid relaunch: a live listing launches again in `week` (it stays live; nothing when it is in `week` already).

    It is the same `ListingLaunched` as a first launch, so every view moves the
    listing into `week`'s launches and counts its launch-week votes again
    (docs/orders.md, "Relaunch").
    """
    require_listing(state)
    if state.status != "live":
        raise Conflict(f"the listing is {state.status}; only a live listing can be relaunched")
    if state.week == week:
        return []
    return one(state, meta, ListingLaunched, week=week, plan=state.plan or "paid")


def decide_staff_publish(state: ListingState, week: str, plan: str, meta: Meta) -> list[Event]:
    """Staff put a listing live in `week` directly (recorded with who and when).

    `week` is a real date, taken as its week's Monday: an event with text that
    is no date would stop every projection that reads launch weeks.
    """
    require_listing(state)
    try:
        day = date.fromisoformat(week)
    except (TypeError, ValueError):
        rule = "A launch week is a date like 2026-11-30 (its Monday is taken)."
        raise InvalidInput(f"invalid value for: week ({week!r})", [FieldProblem("week", "format_date", rule)]) from None
    week = (day - timedelta(days=day.weekday())).isoformat()
    if plan not in ("free", "paid"):
        raise InvalidInput(f"invalid value for: plan ({plan!r})",
                           [FieldProblem("plan", "enum", "A plan is free or paid.")])
    if state.status == "live":
        return []
    return one(state, meta, ListingPublishedByStaff, week=week, plan=plan)


def decide_put_back(state: ListingState, current_week: str, meta: Meta) -> list[Event]:
    """Staff put a taken-down listing back where it stood in time: live when its launch week has begun (or it has
    none), else scheduled for that week. A free listing scheduled so is checked for its badge when the week begins,
    as every free listing is, so putting one back never lets it skip the badge."""
    require_listing(state)
    if state.status != "unpublished":
        raise Conflict(f"the listing is {state.status.replace('_', ' ')}, not taken down")
    plan = state.plan or "free"
    if state.week and state.week > current_week:
        return one(state, meta, ListingScheduled, week=state.week, plan=plan)
    return one(state, meta, ListingPublishedByStaff, week=state.week or current_week, plan=plan)


def decide_feature(state: ListingState, week: str, meta: Meta) -> list[Event]:
    require_listing(state)
    if week in state.featured_weeks:
        return []
    return one(state, meta, ListingFeatured, week=week)


TAKE_DOWN_REASON = (3, 500)  # characters; the owners are mailed it (docs/notices.md)


def decide_unpublish(state: ListingState, reason: str, meta: Meta) -> list[Event]:
    """Staff take a listing down (from every public read), saying why; nothing when it is down already."""
    require_listing(state)
    why = " ".join(reason.split())
    low, high = TAKE_DOWN_REASON
    if not low <= len(why) <= high:
        rule = f"Give a reason of {low} to {high} characters: the owners are told it."
        raise InvalidInput(f"say why the listing is taken down. {rule}", [FieldProblem("reason", "length", rule)])
    if state.status == "unpublished":
        return []
    return one(state, meta, ListingUnpublished, reason=why)
