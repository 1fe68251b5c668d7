"""A paid relaunch against PostgreSQL: the live listing stays public, and when the chosen week begins the
fulfilment manager launches it again in that week (ranked there by its standing votes) and records the line."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from typing import Any
from uuid import uuid4

from aggregates import listing, order
from aggregates.base import Meta
from aggregates.weeks import week_of
from commands import community as community_cmd
from commands import listing as listing_cmd
from commands import orders as orders_cmd
from commands.order_inputs import CreateCheckout
from events.listing import ListingLaunched
from events.order import OrderLineFulfilled
from queries import orders as orders_q
from queries.awards import week_standings
from queries.launches import GetLaunchWeek, get_launch_week
from workers.fulfilment import Fulfilment

NOW = datetime.now(timezone.utc)
STAFF = Meta(at=NOW, actor="staff:test", channel="cli")


def _paid_relaunch(c: Any, account_id: str, listing_id: int, week: str) -> str:
    meta = Meta(at=NOW, actor=f"account:{account_id}", channel="rest")
    body = CreateCheckout.model_validate({"items": [{"product": "relaunch", "listing_id": listing_id, "week": week}],
                                          "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, account_id, meta, NOW.date(), c.services.orders)
    orders_cmd.set_billing(c.store, placed.token, "Buyer", "US", "", "", meta, c.services.orders)
    total = orders_cmd.load(c.store, placed.number).total_cents
    orders_cmd.start_payment(c.store, placed.number, "test", "test_1", meta)
    orders_cmd.confirm_payment(c.store, placed.number, provider="test", reference="test_1", amount_cents=total,
                               source="test", event_id="", meta=meta)
    return placed.number


def test_a_paid_relaunch_launches_the_live_listing_again_when_its_week_begins(container: Any) -> None:
    c = container
    owner = str(uuid4())
    lid = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Second Wind"}, categories=["developer-tools"], owner_ids=[owner]), STAFF).listing_id
    first_week = week_of((NOW - timedelta(weeks=20)).date())
    listing_cmd.staff_publish(c.store, lid, STAFF, week=first_week, plan="paid")
    community_cmd.cast_vote(c.store, lid, str(uuid4()), Meta(at=NOW, actor="account:voter", channel="rest"))
    week = order.offered_weeks(NOW.date(), [1, 8])[0]
    number = _paid_relaunch(c, owner, lid, week)
    c.runtime.catch_up("orders_view")

    before = Fulfilment(c.store, c.services.reads, lambda: NOW)
    assert orders_q.with_open_lines(c.services.reads, week_of(NOW.date())) == []  # waiting: not picked up
    assert before.run_once() == 0
    state = orders_cmd.load(c.store, number)
    assert state.status == "paid" and state.open_lines() == [0]
    waiting = listing_cmd.load(c.store, lid)
    assert waiting.status == "live" and waiting.week == first_week  # public throughout, in its first week still

    monday = datetime.combine(date.fromisoformat(week), time(0, 5), tzinfo=timezone.utc)
    assert orders_q.with_open_lines(c.services.reads, week) == [number]
    assert Fulfilment(c.store, c.services.reads, lambda: monday).run_once() == 1
    state = orders_cmd.load(c.store, number)
    assert state.status == "fulfilled" and state.fulfilled[0] == monday
    relaunched = listing_cmd.load(c.store, lid)
    assert relaunched.status == "live" and relaunched.week == week and relaunched.plan == "paid"
    stream = c.store.stream(listing.listing_stream(lid))
    assert [e.week for e in stream if isinstance(e, ListingLaunched)] == [week]
    recorded = [e for e in c.store.stream(state.id) if isinstance(e, OrderLineFulfilled)]
    assert [(e.line, e.result) for e in recorded] == [(0, {"week": week})]

    c.runtime.catch_up("orders_view")
    c.runtime.catch_up("launches_view")
    assert Fulfilment(c.store, c.services.reads, lambda: monday).run_once() == 0  # applied once
    shown = get_launch_week(c.services.reads, GetLaunchWeek(week=week), monday)
    ranked = [(e["listing"]["slug"], e["week_votes"]) for e in shown["launches"]]
    assert ranked == [(relaunched.slug, 1)]  # the vote cast before the relaunch counts in the new week
    assert week_standings(c.services.reads, date.fromisoformat(first_week)) == []  # moved out of its first week
