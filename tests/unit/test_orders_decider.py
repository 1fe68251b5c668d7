"""The order decider without a database: every rule of the order body, the lifecycle, and a line's fulfilment."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, datetime, timedelta, timezone
from importlib import resources
from typing import Any

import pytest

from aggregates import catalog, listing, metrics, order
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.order import OrderState, Quote
from aggregates.order.awards import WonAward
from aggregates.order.review import WrittenReview, rule_review
from events.errors import Conflict, InvalidInput, NotFound
from events.listing import ListingFeatured, ListingLaunched, ListingQueuedForFree, ListingScheduled, ListingSectionsUnlocked
from events.metrics import BillboardContributed
from events.order import OrderLineFulfilled, OrderLineNotFulfilled, OrderPaid, OrderStaffTaskOpened

TODAY = date(2026, 3, 4)  # a Wednesday; this week's Monday is 2026-03-02
AT = datetime(2026, 3, 4, 12, tzinfo=timezone.utc)
META = Meta(at=AT, actor="account:a", channel="rest")
ME, OTHER = "acct-me", "acct-other"
NO_VAT = order.decide_vat("IE", None, None)


def _catalog() -> catalog.CatalogState:
    spec = json.loads(resources.files("launchdir").joinpath("data/catalog.json").read_text(encoding="utf-8"))
    state = catalog.initial()
    for event in catalog.decide_load(state, spec, META):
        state = catalog.evolve(event, state)
    return state


CATALOG = _catalog()


def _listing(listing_id: int, status: str = "draft", owners: tuple[str, ...] = (ME,), week: str | None = None,
             categories: tuple[str, ...] = ("developer-tools",)) -> ListingState:
    return ListingState(id=listing.listing_stream(listing_id), version=3, listing_id=listing_id, slug=f"l{listing_id}",
                        owner_ids=owners, status=status, week=week, categories=categories,
                        plan="free" if status == "awaiting_badge" else None)


LISTINGS = {1: _listing(1), 2: _listing(2, "live"), 3: _listing(3, "awaiting_badge", week="2026-04-13"),
            9: _listing(9, owners=(OTHER,))}


AWARDS = {2: [WonAward("2026-01-05", 2)]}  # listing 2 won Launch of the Week #2 of 5-11 Jan 2026


def price(items: list[dict[str, Any]], vat: order.VatDecision = NO_VAT) -> Quote:
    return order.price_items(items, CATALOG, LISTINGS, ME, TODAY, vat, AWARDS)


def refused(items: list[dict[str, Any]]) -> tuple[str, str]:
    with pytest.raises(InvalidInput) as caught:
        price(items)
    problem = caught.value.problems[0]
    return problem.field, problem.rule


def test_prices_come_from_the_catalogue_and_vat_is_added_once() -> None:
    vat = order.decide_vat("IE", "DE", None)
    q = price([{"product": "launch", "listing_id": 1}, {"product": "ai_review", "listing_id": 1}], vat)
    prices = {p.code: p.price_cents for p in CATALOG.products.values()}
    assert q.subtotal_cents == prices["launch"] + prices["ai_review"]
    assert q.vat_cents == order.vat_cents(q.subtotal_cents, 1900) and q.total_cents == q.subtotal_cents + q.vat_cents
    assert [line["index"] for line in q.lines] == [0, 1]


def test_billboard_costs_the_amount_chosen_at_least_the_minimum() -> None:
    minimum = CATALOG.products["billboard_min"].price_cents
    assert price([{"product": "billboard_min", "listing_id": 1, "amount_cents": minimum + 1}]).subtotal_cents == minimum + 1
    assert price([{"product": "billboard_min", "listing_id": 1}]).subtotal_cents == minimum
    assert refused([{"product": "billboard_min", "listing_id": 1, "amount_cents": minimum - 1}]) == (
        "items.0.amount_cents", "minimum")
    assert refused([{"product": "launch", "listing_id": 1, "amount_cents": 5000}]) == ("items.0.amount_cents",
                                                                                         "not_allowed")


def test_unknown_products_and_missing_or_foreign_listings() -> None:
    assert refused([{"product": "gold_plating"}]) == ("items.0.product", "enum")
    assert refused([{"product": "launch"}]) == ("items.0.listing_id", "required")
    for listing_id in (9, 404):
        with pytest.raises(NotFound):
            price([{"product": "launch", "listing_id": listing_id}])


def test_weeks_must_be_among_those_offered() -> None:
    offered = order.offered_weeks(TODAY, [1, 5])
    assert price([{"product": "skip_queue", "listing_id": 3, "week": offered[0]}]).lines[0]["week"] == offered[0]
    assert refused([{"product": "skip_queue", "listing_id": 3}]) == ("items.0.week", "required")
    assert refused([{"product": "skip_queue", "listing_id": 3, "week": "2026-03-03"}]) == ("items.0.week", "enum")
    assert refused([{"product": "relaunch", "listing_id": 2, "week": "2030-01-07"}]) == ("items.0.week", "enum")
    assert refused([{"product": "ai_review", "listing_id": 1, "week": offered[0]}]) == ("items.0.week", "not_allowed")
    assert refused([{"product": "launch", "listing_id": 1, "week": "2026-03-03"}]) == ("items.0.week", "format_week")
    assert price([{"product": "launch", "listing_id": 1, "week": "2026-03-16"}]).lines[0]["week"] == "2026-03-16"


def test_extra_categories_rules() -> None:
    ok = price([{"product": "extra_categories", "listing_id": 1, "categories": ["ai", "devops"]}])
    assert ok.lines[0]["categories"] == ["ai", "devops"]
    base = {"product": "extra_categories", "listing_id": 1}
    assert refused([{**base, "categories": ["ai", "devops", "testing", "apis-sdks"]}]) == ("items.0.categories",
                                                                                          "max_items")
    assert refused([{**base, "categories": ["nope"]}]) == ("items.0.categories", "enum")
    assert refused([{**base, "categories": ["developer-tools"]}]) == ("items.0.categories", "not_primary")
    assert refused([{**base, "categories": ["ai", "ai"]}]) == ("items.0.categories", "unique")
    assert refused([base]) == ("items.0.categories", "required")
    assert refused([{"product": "launch", "listing_id": 1, "categories": ["ai"]}]) == ("items.0.categories",
                                                                                      "not_allowed")


def test_options_only_where_declared_and_valid() -> None:
    won = {"award": "2026-01-05"}
    q = price([{"product": "trophy_cabinet", "listing_id": 2, "options": won | {"engraving": "Launch of the Week"}}])
    assert q.lines[0]["options"] == {"award": "2026-01-05", "format": "digital", "engraving": "Launch of the Week"}
    assert refused([{"product": "trophy_cabinet", "listing_id": 2, "options": {"format": "gold"}}]) == (
        "items.0.options.format", "enum")
    assert refused([{"product": "trophy_cabinet", "listing_id": 2, "options": {"colour": "red"}}]) == (
        "items.0.options.colour", "unknown_option")
    assert refused([{"product": "trophy_cabinet", "listing_id": 2, "options": {"engraving": "x" * 61}}]) == (
        "items.0.options.engraving", "max_length")
    assert refused([{"product": "launch", "listing_id": 1, "options": {}}]) == ("items.0.options", "not_allowed")


def test_lines_that_cannot_apply_to_the_listing_now_name_the_item_and_the_rule() -> None:
    week = order.offered_weeks(TODAY, [1, 5])[0]
    assert refused([{"product": "ai_review", "listing_id": 1}, {"product": "launch", "listing_id": 2}]) == (
        "items.1", "already_launched")
    assert refused([{"product": "skip_queue", "listing_id": 1, "week": week}]) == ("items.0", "not_in_free_queue")
    assert refused([{"product": "relaunch", "listing_id": 1, "week": order.offered_weeks(TODAY, [1, 8])[0]}]) == (
        "items.0", "not_live")
    assert refused([{"product": "launch", "listing_id": 1}, {"product": "launch", "listing_id": 1}]) == (
        "items.1.product", "duplicate")


def _placed(items: list[dict[str, Any]]) -> OrderState:
    quote = price(items, order.decide_vat("IE", "DE", None))
    state = order.initial(order.order_stream("ABCDE-FGHJK"))
    for event in order.decide_place(state, number="ABCDE-FGHJK", account_id=ME, quote=quote, token="t",
                                    expires_at=AT + order.TTL, meta=META):
        state = order.evolve(event, state)
    return state


def _apply(state: OrderState, events: list[Any]) -> OrderState:
    for event in events:
        if event.originator_id == state.id:
            state = order.evolve(event, state)
    return state


def _paid(state: OrderState) -> OrderState:
    events = order.decide_paid(state, provider="test", reference="r", amount_cents=state.total_cents, source="test",
                               event_id="", invoice_number="2026-000001", meta=META)
    assert [type(e) for e in events] == [OrderPaid]
    state = _apply(state, events)
    assert order.decide_paid(state, provider="test", reference="r", amount_cents=state.total_cents, source="test",
                             event_id="", invoice_number="x", meta=META) == []  # a repeat is recorded once
    return state


def test_payment_must_match_the_total_and_expiry_closes_pending_orders() -> None:
    state = _placed([{"product": "launch", "listing_id": 1}])
    assert state.status == "pending" and state.total_cents == 4900 + order.vat_cents(4900, 1900)
    with pytest.raises(Conflict):
        order.decide_paid(state, provider="test", reference="r", amount_cents=1, source="test", event_id="",
                          invoice_number="x", meta=META)
    assert order.decide_expire(state, META) == []
    later = Meta(at=AT + order.TTL, actor="system", channel="system")
    assert order.evolve(order.decide_expire(state, later)[0], state).status == "expired"
    with pytest.raises(Conflict):
        order.decide_refund(state, "no", "", META)


def test_fulfilling_launch_featured_and_billboard_lines() -> None:
    week = order.offered_weeks(TODAY, [1, 8])[0]
    state = _paid(_placed([{"product": "launch_bundle", "listing_id": 1, "week": week},
                           {"product": "billboard_min", "listing_id": 2, "amount_cents": 2500},
                           {"product": "done_for_you", "listing_id": 2}]))
    streams: dict[Any, Any] = {listing.listing_stream(1): LISTINGS[1], listing.listing_stream(2): LISTINGS[2],
                               metrics.metrics_stream(2): metrics.initial(metrics.metrics_stream(2))}

    def load(stream_id: Any, _decider: Any) -> Any:
        return streams[stream_id]

    events = order.decide_line(state, 0, load, "2026-03-02", META)
    kinds = [type(e) for e in events]
    assert kinds == [ListingScheduled, ListingSectionsUnlocked, ListingFeatured, OrderLineFulfilled]
    assert events[0].week == week and events[2].week == week  # type: ignore[attr-defined]
    state = _apply(state, events)
    assert order.decide_line(state, 0, load, "2026-03-02", META) == []  # applied once
    events = order.decide_line(state, 1, load, "2026-03-02", META)
    assert [type(e) for e in events] == [BillboardContributed, OrderLineFulfilled]
    assert events[0].amount_cents == 2500 and events[0].order_number == state.number  # type: ignore[attr-defined]
    state = _apply(state, events)
    events = order.decide_line(state, 2, load, "2026-03-02", META)
    assert [type(e) for e in events] == [OrderStaffTaskOpened]
    state = _apply(state, events)
    assert state.status == "paid" and state.open_lines() == []
    state = _apply(state, order.decide_task_closed(state, 2, "done", META))
    assert state.status == "fulfilled"


def test_launch_without_week_is_live_now_and_skip_queue_moves_the_free_week() -> None:
    week = order.offered_weeks(TODAY, [1, 5])[0]
    state = _paid(_placed([{"product": "launch", "listing_id": 1}, {"product": "skip_queue", "listing_id": 3,
                                                                     "week": week}]))
    streams = {listing.listing_stream(1): LISTINGS[1], listing.listing_stream(3): LISTINGS[3]}
    events = order.decide_line(state, 0, lambda s, _d: streams[s], "2026-03-02", META)
    assert isinstance(events[0], ListingLaunched) and events[0].plan == "paid"
    events = order.decide_line(state, 1, lambda s, _d: streams[s], "2026-03-02", META)
    assert isinstance(events[0], ListingQueuedForFree) and events[0].week == week


def test_a_line_that_no_longer_applies_is_recorded_as_not_fulfilled() -> None:
    state = _paid(_placed([{"product": "launch", "listing_id": 1}]))
    live = _listing(1, "live")
    events = order.decide_line(state, 0, lambda s, _d: live, "2026-03-02", META)
    assert [type(e) for e in events] == [OrderLineNotFulfilled]
    assert events[0].reason == "already_launched"  # type: ignore[attr-defined]


def test_refund_after_payment() -> None:
    state = _paid(_placed([{"product": "ai_review", "listing_id": 1}]))
    refunded = _apply(state, order.decide_refund(state, "asked", "", META))
    assert refunded.status == "refunded" and refunded.refunded_cents == state.total_cents
    assert order.decide_refund(refunded, "again", "", META) == []


def test_billing_details_decide_vat_again_with_frozen_prices() -> None:
    state = _placed([{"product": "launch", "listing_id": 1}])
    events = order.decide_billing(state, name="Acme GmbH", address="Berlin",
                                  vat=order.decide_vat("IE", "DE", "DE136695976"), meta=META)
    after = order.evolve(events[0], state)
    assert after.vat["treatment"] == "reverse_charge" and after.total_cents == after.subtotal_cents == 4900
    with pytest.raises(InvalidInput):
        order.decide_billing(state, name="x", address="", vat=order.decide_vat("IE", None, None), meta=META)


def test_numbers_are_short_and_drawn_from_an_unambiguous_alphabet() -> None:
    from commands.orders import new_number

    numbers = {new_number() for _ in range(200)}
    assert len(numbers) == 200
    assert all(len(n) <= order.NUMBER_MAX and set(n) <= set(order.NUMBER_ALPHABET + "-") for n in numbers)


def test_an_order_stream_is_placed_once() -> None:
    state = _placed([{"product": "launch", "listing_id": 1}])
    with pytest.raises(Conflict):
        order.decide_place(state, number=state.number, account_id=ME, quote=price([{"product": "ai_review",
                           "listing_id": 1}]), token="t2", expires_at=AT + timedelta(days=1), meta=META)


def test_relaunch_waits_for_its_week_then_launches_the_live_listing_again() -> None:
    week = order.offered_weeks(TODAY, [1, 8])[0]
    state = _paid(_placed([{"product": "relaunch", "listing_id": 2, "week": week}]))
    live = replace(LISTINGS[2], week="2025-06-02", plan="paid")
    assert order.decide_line(state, 0, lambda s, _d: live, "2026-03-02", META) == []  # not its week yet
    assert state.open_lines() == [0]
    events = order.decide_line(state, 0, lambda s, _d: live, week, META)
    assert [type(e) for e in events] == [ListingLaunched, OrderLineFulfilled]
    assert events[0].week == week and events[0].plan == "paid"  # type: ignore[attr-defined]
    assert events[1].result == {"week": week}  # type: ignore[attr-defined]
    assert listing.evolve(events[0], live).status == "live"
    state = _apply(state, events)
    assert state.status == "fulfilled" and order.decide_line(state, 0, lambda s, _d: live, week, META) == []
    gone = replace(live, status="unpublished")
    fresh = _paid(_placed([{"product": "relaunch", "listing_id": 2, "week": week}]))
    refused_line = order.decide_line(fresh, 0, lambda s, _d: gone, week, META)
    assert [type(e) for e in refused_line] == [OrderLineNotFulfilled]


def test_relaunch_is_refused_while_the_launch_week_is_recent() -> None:
    week = order.offered_weeks(TODAY, [1, 8])[0]
    recent = {2: replace(LISTINGS[2], week="2026-01-12")}  # seven weeks before this week
    with pytest.raises(InvalidInput) as caught:
        order.price_items([{"product": "relaunch", "listing_id": 2, "week": week}], CATALOG, recent, ME, TODAY,
                          NO_VAT)
    assert (caught.value.problems[0].field, caught.value.problems[0].rule) == ("items.0", "launched_recently")
    old = {2: replace(LISTINGS[2], week="2026-01-05")}  # eight weeks before: may relaunch
    assert order.price_items([{"product": "relaunch", "listing_id": 2, "week": week}], CATALOG, old, ME, TODAY,
                             NO_VAT).lines[0]["week"] == week


def test_the_review_line_uses_the_review_written_beforehand_or_the_rules() -> None:
    state = _paid(_placed([{"product": "ai_review", "listing_id": 1}]))
    load = lambda s, _d: LISTINGS[1]  # noqa: E731  (no owner account stream: nobody to email)
    written = WrittenReview("Review of l1\n\n1. Say who it is for.", "anthropic:claude-test")
    events = order.decide_line(state, 0, load, "2026-03-02", META, written)
    assert [type(e) for e in events] == [OrderLineFulfilled]
    assert events[0].result == {"review": written.text, "made_by": "anthropic:claude-test"}  # type: ignore[attr-defined]
    events = order.decide_line(state, 0, load, "2026-03-02", META)
    assert events[0].result["made_by"] == "rules"  # type: ignore[attr-defined]
    assert events[0].result["review"] == rule_review(LISTINGS[1]).text  # type: ignore[attr-defined]
    assert "Write a description of at least 300 characters" in events[0].result["review"]  # type: ignore[attr-defined]


def test_a_featured_week_is_one_the_listing_is_live_in() -> None:
    """Featured shows only while the listing is live: on or after its launch week (docs/orders.md)."""
    weeks = order.offered_weeks(TODAY, [0, 8])
    assert price([{"product": "featured", "listing_id": 2, "week": weeks[0]}]).lines  # live: any offered week
    assert refused([{"product": "featured", "listing_id": 1, "week": weeks[1]}]) == ("items.0", "not_launching")
    assert refused([{"product": "featured", "listing_id": 3, "week": weeks[1]}]) == (  # queued for 2026-04-13
        "items.0.week", "before_launch")
    assert price([{"product": "featured", "listing_id": 3, "week": "2026-04-13"}]).lines
    # with a launch in the same order, in either order of lines: from the launch week on
    assert price([{"product": "featured", "listing_id": 1, "week": weeks[2]},
                  {"product": "launch_bundle", "listing_id": 1, "week": weeks[2]}]).lines
    assert refused([{"product": "launch_bundle", "listing_id": 1, "week": weeks[3]},
                    {"product": "featured", "listing_id": 1, "week": weeks[2]}]) == ("items.1.week", "before_launch")
    assert price([{"product": "launch", "listing_id": 1}, {"product": "featured", "listing_id": 1,
                                                           "week": weeks[0]}]).lines  # live at once


def test_skip_queue_also_moves_a_free_listing_whose_badge_was_found() -> None:
    """Scheduled on the free plan (badge found), it may still buy an earlier week; a paid or live one may not."""
    week = order.offered_weeks(TODAY, [1, 5])[0]
    scheduled = replace(_listing(4, "scheduled", week="2026-04-20"), plan="free")
    paid = replace(_listing(5, "scheduled", week="2026-04-20"), plan="paid")
    listings = {**LISTINGS, 4: scheduled, 5: paid}
    line = order.price_items([{"product": "skip_queue", "listing_id": 4, "week": week}], CATALOG, listings, ME, TODAY,
                             NO_VAT).lines[0]
    assert line["week"] == week
    with pytest.raises(InvalidInput) as caught:
        order.price_items([{"product": "skip_queue", "listing_id": 5, "week": week}], CATALOG, listings, ME, TODAY, NO_VAT)
    assert caught.value.problems[0].rule == "not_in_free_queue" and "skip_queue" not in caught.value.problems[0].message
    state = _paid(_placed([{"product": "launch", "listing_id": 1}, {"product": "skip_queue", "listing_id": 3,
                                                                     "week": week}]))
    events = order.decide_line(state, 1, lambda s, _d: scheduled, "2026-03-02", META)
    assert isinstance(events[0], ListingScheduled) and (events[0].week, events[0].plan) == (week, "free")
    assert type(events[-1]).__name__ == "OrderLineFulfilled"


def test_every_rule_broken_by_every_line_is_in_one_refusal() -> None:
    """Given an order with four mistakes on three lines, when it is priced, then one 400 names all four."""
    items = [
        {"product": "skip_queue", "listing_id": 3, "week": "2026-03-03"},  # not a week offered
        {"product": "extra_categories", "listing_id": 1, "categories": ["nope"]},  # unknown category
        {"product": "trophy_cabinet", "listing_id": 2, "options": {"award": "2026-01-05", "format": "gold", "colour": "red"}},
    ]
    with pytest.raises(InvalidInput) as caught:
        price(items)
    found = {(p.field, p.rule) for p in caught.value.problems}
    assert found == {("items.0.week", "enum"), ("items.1.categories", "enum"),
                     ("items.2.options.format", "enum"), ("items.2.options.colour", "unknown_option")}
    assert caught.value.detail == ("invalid value for: items.0.week, items.1.categories, items.2.options.colour, "
                                   "items.2.options.format")


def test_a_line_whose_field_is_refused_is_still_checked_against_the_listing() -> None:
    """A launch of a live listing with a week that is no Monday: the week and the listing's state, both at once."""
    with pytest.raises(InvalidInput) as caught:
        price([{"product": "launch", "listing_id": 2, "week": "2026-03-03", "amount_cents": 5}])
    assert {(p.field, p.rule) for p in caught.value.problems} == {
        ("items.0.week", "format_week"), ("items.0.amount_cents", "not_allowed"), ("items.0", "already_launched")}
