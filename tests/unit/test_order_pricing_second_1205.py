"""Pricing rules of the founder pages' second round (2026-12-05), without a database.

- A trophy is made for a Launch of the Week award the listing won, chosen by the `award` option.
- A featured week the listing is featured in already is refused (it would pay for nothing).
- A Launch bundle for a free listing that has its week is an upgrade: the paid sections and a featured week, no
  second launch; fulfilled as such.
- Refusals say a listing's status and weeks in words.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from aggregates import awards, listing, order
from aggregates.listing import ListingState
from aggregates.order import awards as won
from aggregates.order.awards import WonAward
from aggregates.order.pricing import is_upgrade
from events.awards import LaunchWeekAwardsRecomputed, LaunchWeekClosed
from events.errors import InvalidInput
from events.listing import (
    ListingCreated,
    ListingFeatured,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingScheduled,
    ListingSectionsUnlocked,
)
from events.order import OrderLineFulfilled, OrderLineNotFulfilled, OrderStaffTaskOpened
from tests.unit.test_orders_decider import AT, CATALOG, ME, META, NO_VAT, TODAY, _apply, _paid

WEEKS = order.offered_weeks(TODAY, [1, 8])  # 2026-03-09 .. 2026-04-27


def _listing(listing_id: int, status: str, plan: str | None, week: str | None = None,
             **more: Any) -> ListingState:
    return ListingState(id=listing.listing_stream(listing_id), version=3, listing_id=listing_id, slug=f"l{listing_id}",
                        owner_ids=(ME,), status=status, week=week, categories=("developer-tools",), plan=plan, **more)


LISTINGS = {
    1: _listing(1, "draft", None),
    2: _listing(2, "live", "free", "2026-02-02"),  # launched free a month ago
    3: _listing(3, "scheduled", "free", WEEKS[2]),  # badge found, waits for its week
    4: _listing(4, "live", "paid", "2026-02-02"),
    5: _listing(5, "live", "free", "2026-02-02", unlocked=frozenset({"story", "milestones", "media"})),
    6: _listing(6, "live", "free", "2026-01-05", featured_weeks=(WEEKS[0],)),
    7: _listing(7, "awaiting_badge", "free", "2026-03-30"),
}
AWARDS = {2: [WonAward("2026-02-02", 2)], 6: [WonAward("2026-01-05", 1), WonAward("2026-02-16", 3)]}


def price(items: list[dict[str, Any]]) -> order.Quote:
    return order.price_items(items, CATALOG, LISTINGS, ME, TODAY, NO_VAT, AWARDS)


def problem(items: list[dict[str, Any]]) -> tuple[str, str, str]:
    with pytest.raises(InvalidInput) as caught:
        price(items)
    first = caught.value.problems[0]
    return first.field, first.rule, first.message


# ---------------------------------------------------------------- the trophy cabinet


def test_a_trophy_is_only_for_a_listing_that_won_an_award() -> None:
    field, rule, message = problem([{"product": "trophy_cabinet", "listing_id": 4, "options": {"award": "2026-02-02"}}])
    assert (field, rule) == ("items.0.listing_id", "no_award")
    assert "has won none" in message


def test_a_trophy_names_one_of_the_listings_awards() -> None:
    field, rule, message = problem([{"product": "trophy_cabinet", "listing_id": 6}])
    assert (field, rule) == ("items.0.options.award", "required")
    assert "2026-01-05 (Launch of the Week #1, 5–11 Jan 2026)" in message and "2026-02-16 (Launch of the Week #3" in message
    field, rule, message = problem([{"product": "trophy_cabinet", "listing_id": 6, "options": {"award": "2026-02-02"}}])
    assert (field, rule) == ("items.0.options.award", "enum")
    assert "no award in the week of 2–8 Feb 2026" in message
    quote = price([{"product": "trophy_cabinet", "listing_id": 6, "options": {"award": "2026-02-16", "format": "metal"}}])
    assert quote.lines[0]["options"] == {"award": "2026-02-16", "format": "metal"}


def test_a_trophy_without_the_awards_handed_in_is_refused() -> None:
    """Pricing knows a listing's awards only from its caller: none given, none won."""
    with pytest.raises(InvalidInput) as caught:
        order.price_items([{"product": "trophy_cabinet", "listing_id": 2, "options": {"award": "2026-02-02"}}],
                          CATALOG, LISTINGS, ME, TODAY, NO_VAT)
    assert caught.value.problems[0].rule == "no_award"


def _placed(number: str, items: list[dict[str, Any]]) -> order.OrderState:
    state = order.initial(order.order_stream(number))
    for event in order.decide_place(state, number=number, account_id=ME, quote=price(items), token="t",
                                    expires_at=AT + order.TTL, meta=META):
        state = order.evolve(event, state)
    return state


def test_a_trophy_tasks_staff_with_its_award() -> None:
    state = _paid(_placed("ABCDE-FGHJK", [{"product": "trophy_cabinet", "listing_id": 2,
                                           "options": {"award": "2026-02-02"}}]))
    events = order.decide_line(state, 0, lambda s, _d: LISTINGS[2], "2026-03-02", META)
    assert [type(e) for e in events] == [OrderStaffTaskOpened]
    assert events[0].task == "make and send the trophy for the Launch of the Week award of the week of 2026-02-02"  # type: ignore[attr-defined]


def test_the_weeks_a_listing_launched_in_give_its_awards() -> None:
    stream = listing.listing_stream(8)
    state = won.initial(stream)
    for version, event in enumerate([
        ListingCreated(originator_id=stream, originator_version=1, timestamp=AT, actor="a", channel="web",
                       listing_id=8, slug="l8", owner_ids=["a"], source="api", draft_id=None, profile={"name": "L8"},
                       categories=["ai"], socials={}, faqs=[], founders=[], story={}, milestones=[],
                       not_found_on_website=[], evidence={}),
        ListingLaunched(originator_id=stream, originator_version=2, timestamp=AT, actor="a", channel="web",
                        week="2026-01-05", plan="free"),
        ListingPublishedByStaff(originator_id=stream, originator_version=3, timestamp=AT, actor="a", channel="web",
                                week="2026-02-16", plan="free"),
    ], start=1):
        state = won.evolve(event, state)
        assert state.version == version
    assert state.weeks == ("2026-01-05", "2026-02-16")

    def week(monday: str, *events: Any) -> awards.WeekState:
        folded = awards.initial(awards.week_stream(monday))
        for e in events:
            folded = awards.evolve(e, folded)
        return folded

    meta = dict(originator_id=awards.week_stream("2026-01-05"), timestamp=AT, actor="system", channel="system")
    first = week("2026-01-05", LaunchWeekClosed(originator_version=1, week="2026-01-05", **meta,  # type: ignore[arg-type]
                                                winners=[{"rank": 1, "listing_id": 9, "votes": 5}]),
                 LaunchWeekAwardsRecomputed(originator_version=2, week="2026-01-05", **meta,  # type: ignore[arg-type]
                                            winners=[{"rank": 1, "listing_id": 9, "votes": 6},
                                                     {"rank": 2, "listing_id": 8, "votes": 4}], previous=[]))
    open_week = week("2026-02-16")
    assert won.won(8, [first, open_week]) == [WonAward("2026-01-05", 2)]
    assert WonAward("2026-01-05", 2).name() == "Launch of the Week #2, 5–11 Jan 2026"


# ---------------------------------------------------------------- featured, once a week


def test_a_week_the_listing_is_featured_in_already_is_refused() -> None:
    field, rule, message = problem([{"product": "featured", "listing_id": 6, "week": WEEKS[0]}])
    assert (field, rule) == ("items.0.week", "already_featured")
    assert message == "the listing is featured in the week of 9–15 Mar 2026 already: choose another week"
    assert price([{"product": "featured", "listing_id": 6, "week": WEEKS[1]}]).lines[0]["week"] == WEEKS[1]


# ---------------------------------------------------------------- the Launch bundle as an upgrade


def test_a_free_live_listing_can_buy_the_bundle_as_an_upgrade() -> None:
    quote = price([{"product": "launch_bundle", "listing_id": 2, "week": WEEKS[0]}])
    assert quote.lines[0]["week"] == WEEKS[0]
    assert is_upgrade("launch_bundle", LISTINGS[2]) and not is_upgrade("launch", LISTINGS[2])
    assert problem([{"product": "launch", "listing_id": 2}])[1] == "already_launched"  # a launch stays refused


def test_the_upgrade_is_refused_where_it_would_add_nothing_or_show_nothing() -> None:
    assert problem([{"product": "launch_bundle", "listing_id": 4, "week": WEEKS[0]}])[:2] == (
        "items.0", "already_launched")  # a paid listing has the sections
    assert problem([{"product": "launch_bundle", "listing_id": 5, "week": WEEKS[0]}])[:2] == (
        "items.0", "sections_unlocked")
    assert problem([{"product": "launch_bundle", "listing_id": 3, "week": WEEKS[0]}])[:2] == (
        "items.0.week", "before_launch")  # scheduled: its featured week is its launch week or later
    assert price([{"product": "launch_bundle", "listing_id": 3, "week": WEEKS[2]}]).lines[0]["week"] == WEEKS[2]
    # a featured line of the same order keeps the scheduled listing's own week
    assert price([{"product": "launch_bundle", "listing_id": 3, "week": WEEKS[4]},
                  {"product": "featured", "listing_id": 3, "week": WEEKS[2]}]).lines[1]["week"] == WEEKS[2]


def test_the_upgrade_unlocks_the_sections_and_features_the_week_without_a_launch() -> None:
    placed = _placed("ABCDE-FGHJ2", [{"product": "launch_bundle", "listing_id": 2, "week": WEEKS[1]}])
    state = _paid(placed)
    events = order.decide_line(state, 0, lambda s, _d: LISTINGS[2], "2026-03-02", META)
    assert [type(e) for e in events] == [ListingSectionsUnlocked, ListingFeatured, OrderLineFulfilled]
    assert not any(isinstance(e, (ListingLaunched, ListingScheduled)) for e in events)
    assert set(events[0].sections) == {"story", "milestones", "media"}  # type: ignore[attr-defined]
    assert events[1].week == WEEKS[1]  # type: ignore[attr-defined]
    done = _apply(state, events)
    assert done.status == "fulfilled"
    # paid again for a listing that has both by now: nothing to add, staff decide
    both = replace(LISTINGS[2], unlocked=frozenset({"story", "milestones", "media"}), featured_weeks=(WEEKS[1],))
    events = order.decide_line(state, 0, lambda s, _d: both, "2026-03-02", META)
    assert [type(e) for e in events] == [OrderLineNotFulfilled]


# ---------------------------------------------------------------- refusals in words


def test_refusals_say_the_status_and_the_weeks_in_words() -> None:
    message = problem([{"product": "skip_queue", "listing_id": 1, "week": order.offered_weeks(TODAY, [1, 5])[0]}])[2]
    assert message.endswith("this listing is saved but not launched or queued yet") and "draft" not in message
    message = problem([{"product": "skip_queue", "listing_id": 7, "week": "2026-04-06"}])[2]
    assert message == "the listing is queued for the week of 30 Mar – 5 Apr 2026: choose an earlier week"
    message = problem([{"product": "launch", "listing_id": 3}])[2]
    assert message.startswith("the listing is already scheduled for the week of 23–29 Mar 2026:")
    message = problem([{"product": "relaunch", "listing_id": 2, "week": WEEKS[0]}])[2]
    assert "launched in the week of 2–8 Feb 2026" in message and "from the week of 30 Mar – 5 Apr 2026" in message
    message = problem([{"product": "relaunch", "listing_id": 7, "week": WEEKS[0]}])[2]
    assert message.endswith("this listing is queued on the free plan, waiting for its badge (the week of 30 Mar – 5 Apr 2026)")
    field, rule, message = problem([{"product": "featured", "listing_id": 2}])
    assert (field, rule) == ("items.0.week", "required")
    assert "a Monday from 2026-03-02 to 2026-04-27 (the week of 2–8 Mar 2026 to the week of 27 Apr – 3 May 2026)" in message


def test_dates_used_are_real_weeks() -> None:
    assert date.fromisoformat(WEEKS[0]).weekday() == 0 and WEEKS[2] == "2026-03-23"
