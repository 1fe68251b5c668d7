"""The free plan as pure decisions: choosing it from each status, and what each badge check means for the status."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from functools import reduce

import pytest

from aggregates import listing
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.listing.badge import decide_badge_checked, decide_choose_free
from events.base import Event
from events.errors import Conflict, NotFound
from events.listing import (
    ListingBadgeFound,
    ListingBadgeLost,
    ListingBadgeMissing,
    ListingLaunched,
    ListingQueuedForFree,
    ListingScheduled,
)
from projections.badge_checks_view import backoff_after, follow_up_after

AT = datetime(2026, 11, 25, 12, tzinfo=timezone.utc)  # a Wednesday
THIS_WEEK = "2026-11-23"
WEEK = "2027-01-11"  # 7 weeks on
OWNER = Meta(at=AT, actor="account:a", channel="rest", via="api_key:k1")
SYSTEM = Meta(at=AT, actor="system:badge-check", channel="system")
HOME = "https://acme.example/"


def fold(state: ListingState, events: Sequence[Event]) -> ListingState:
    return reduce(lambda s, e: listing.evolve(e, s), events, state)


def saved() -> ListingState:
    state = listing.initial(listing.listing_stream(7))
    return fold(state, listing.decide_create(
        state, listing_id=7, slug="acme", owner_ids=["a"], source="draft", draft_id=None,
        profile={"name": "Acme", "website_url": HOME}, categories=["analytics"], socials={}, faqs=[], founders=[],
        story={}, milestones=[], not_found_on_website=[], meta=OWNER))


def queued() -> ListingState:
    s = saved()
    return fold(s, decide_choose_free(s, WEEK, OWNER))


def scheduled() -> ListingState:
    s = queued()
    return fold(s, decide_badge_checked(s, HOME, True, None, None, THIS_WEEK, SYSTEM))


def kinds(events: Sequence[Event]) -> list[type[Event]]:
    return [type(e) for e in events]


def test_a_saved_listing_chooses_the_free_plan_for_the_week_given() -> None:
    (event,) = decide_choose_free(saved(), WEEK, OWNER)
    assert isinstance(event, ListingQueuedForFree) and event.week == WEEK
    state = fold(saved(), [event])
    assert (state.status, state.plan, state.week) == ("awaiting_badge", "free", WEEK)


@pytest.mark.parametrize("given, says", [
    (queued, "already on the free plan for the week of 2027-01-11"),
    (scheduled, "already scheduled to launch in the week of 2027-01-11"),
])
def test_a_queued_or_scheduled_listing_cannot_choose_again(given, says) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Conflict, match=says):
        decide_choose_free(given(), "2027-01-18", OWNER)


def test_a_live_or_taken_down_listing_cannot_choose_the_free_plan() -> None:
    live = fold(saved(), listing.decide_staff_publish(saved(), THIS_WEEK, "paid", OWNER))
    with pytest.raises(Conflict, match="already live"):
        decide_choose_free(live, WEEK, OWNER)
    down = fold(saved(), listing.decide_unpublish(saved(), "spam", OWNER))
    with pytest.raises(Conflict, match="taken down"):
        decide_choose_free(down, WEEK, OWNER)
    with pytest.raises(NotFound):
        decide_choose_free(listing.initial(listing.listing_stream(8)), WEEK, OWNER)


def test_badge_found_before_the_week_schedules_it() -> None:
    events = decide_badge_checked(queued(), HOME, True, None, None, THIS_WEEK, SYSTEM)
    assert kinds(events) == [ListingBadgeFound, ListingScheduled]
    state = fold(queued(), events)
    assert (state.status, state.week, state.plan) == ("scheduled", WEEK, "free")


def test_badge_found_once_the_week_began_launches_at_once() -> None:
    events = decide_badge_checked(queued(), HOME, True, None, None, "2027-01-13", SYSTEM)
    assert kinds(events) == [ListingBadgeFound, ListingLaunched]
    assert fold(queued(), events).status == "live"


def test_badge_missing_keeps_it_waiting_with_the_reason_and_the_next_check() -> None:
    nxt = (AT + timedelta(minutes=15)).isoformat()
    (event,) = decide_badge_checked(queued(), HOME, False, "unreachable", nxt, THIS_WEEK, SYSTEM)
    assert isinstance(event, ListingBadgeMissing)
    assert (event.reason, event.next_check_at, event.checked_url) == ("unreachable", nxt, HOME)
    assert fold(queued(), [event]).status == "awaiting_badge"


def test_at_go_live_found_launches_in_its_week() -> None:
    events = decide_badge_checked(scheduled(), HOME, True, None, None, WEEK, SYSTEM)
    assert kinds(events) == [ListingBadgeFound, ListingLaunched]
    launched = events[1]
    assert isinstance(launched, ListingLaunched) and (launched.week, launched.plan) == (WEEK, "free")


def test_at_go_live_missing_sends_it_back_to_awaiting_badge_then_a_later_find_launches_it() -> None:
    events = decide_badge_checked(scheduled(), HOME, False, "not_found", "2027-01-11T00:15:00+00:00", WEEK, SYSTEM)
    assert kinds(events) == [ListingBadgeMissing, ListingBadgeLost]
    lost = fold(scheduled(), events)
    assert (lost.status, lost.week) == ("awaiting_badge", WEEK)
    again = decide_badge_checked(lost, HOME, True, None, None, WEEK, SYSTEM)
    assert kinds(again) == [ListingBadgeFound, ListingLaunched]
    assert fold(lost, again).status == "live"


def test_a_scheduled_listing_checked_before_its_week_only_records_the_check() -> None:
    assert kinds(decide_badge_checked(scheduled(), HOME, False, "timeout", None, THIS_WEEK, SYSTEM)) == [ListingBadgeMissing]
    assert fold(scheduled(), decide_badge_checked(scheduled(), HOME, False, "timeout", None, THIS_WEEK, SYSTEM)).status \
        == "scheduled"
    assert kinds(decide_badge_checked(scheduled(), HOME, True, None, None, THIS_WEEK, SYSTEM)) == [ListingBadgeFound]


def test_a_live_free_listing_stays_live_when_its_badge_goes() -> None:
    live = fold(queued(), decide_badge_checked(queued(), HOME, True, None, None, WEEK, SYSTEM))
    events = decide_badge_checked(live, HOME, False, "not_found", None, "2027-01-18", SYSTEM)
    assert kinds(events) == [ListingBadgeMissing]
    assert fold(live, events).status == "live"


def test_nothing_to_check_records_nothing() -> None:
    assert decide_badge_checked(saved(), HOME, True, None, None, THIS_WEEK, SYSTEM) == []
    paid = fold(saved(), listing.decide_schedule_paid(saved(), WEEK, THIS_WEEK, OWNER))
    assert decide_badge_checked(paid, HOME, False, "not_found", None, WEEK, SYSTEM) == []


def test_backoff_and_follow_up_schedule() -> None:
    assert [backoff_after(n) for n in (1, 2, 3, 4, 5, 9)] == [
        timedelta(minutes=15), timedelta(hours=1), timedelta(hours=4), timedelta(hours=12), timedelta(days=1),
        timedelta(days=1)]
    launched = AT
    checks = [launched + timedelta(days=7)]
    while (nxt := follow_up_after(launched, checks[-1])) is not None:
        checks.append(nxt)
    assert [(c - launched).days for c in checks] == [7, 14, 21, 28]
