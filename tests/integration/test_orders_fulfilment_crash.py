"""Fulfilment survives a crash between lines: a process killed after its first line leaves that line applied once,
and the next run applies the others, each exactly once (against PostgreSQL, with a real SIGKILL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import datetime, timezone
from typing import Any
from uuid import uuid4

from aggregates import listing, metrics
from aggregates.base import Meta
from commands import listing as listing_cmd
from commands import orders as orders_cmd
from commands.order_inputs import CreateCheckout
from events.listing import ListingLaunched, ListingSectionsUnlocked
from events.metrics import BillboardContributed
from events.order import OrderLineFulfilled
from workers.fulfilment import Fulfilment

STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")
CRASHER = """
import os, signal, sys
from datetime import datetime, timezone
from aggregates.base import Meta
from commands import orders
from launchdir.bootstrap import bootstrap
from tests.conftest import test_settings

c = bootstrap(test_settings(sys.argv[1]))
number = sys.argv[2]
for index in orders.load(c.store, number).open_lines():
    orders.fulfil_line(c.store, number, index, Meta(at=datetime.now(timezone.utc), actor="system", channel="system"))
    print("applied", index, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # dies between two lines, without any cleanup
"""


def _paid_order(c: Any, account_id: str, listing_id: int) -> str:
    meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{account_id}", channel="rest")
    body = CreateCheckout.model_validate({"items": [
        {"product": "launch", "listing_id": listing_id},
        {"product": "billboard_min", "listing_id": listing_id, "amount_cents": 5000},
        {"product": "ai_review", "listing_id": listing_id}], "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, account_id, meta, meta.at.date(), c.services.orders)
    orders_cmd.set_billing(c.store, placed.token, "Buyer", "US", "", "", meta, c.services.orders)
    orders_cmd.start_payment(c.store, placed.number, "test", "test_1", meta)
    total = orders_cmd.load(c.store, placed.number).total_cents
    orders_cmd.confirm_payment(c.store, placed.number, provider="test", reference="test_1", amount_cents=total,
                               source="test", event_id="", meta=meta)
    return placed.number


def _count(c: Any, stream: Any, cls: type) -> int:
    return sum(1 for e in c.store.stream(stream) if isinstance(e, cls))


def test_a_killed_fulfilment_applies_each_line_exactly_once(container: Any) -> None:
    c = container
    account_id = str(uuid4())
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Crashproof"}, categories=["developer-tools"], owner_ids=[account_id]), STAFF)
    number = _paid_order(c, account_id, created.listing_id)
    order_stream = orders_cmd.load(c.store, number).id

    run = subprocess.run([sys.executable, "-c", CRASHER, c.conninfo, number], cwd=os.getcwd(), capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == -signal.SIGKILL, run.stderr
    assert run.stdout.split() == ["applied", "0"]
    state = orders_cmd.load(c.store, number)
    assert set(state.fulfilled) == {0} and state.open_lines() == [1, 2]
    assert _count(c, listing.listing_stream(created.listing_id), ListingLaunched) == 1

    c.runtime.catch_up("orders_view")
    fulfilment = Fulfilment(c.store, c.services.reads, c.services.clock)
    assert fulfilment.run_once() == 2
    c.runtime.catch_up("orders_view")
    assert fulfilment.run_once() == 0  # nothing left: a second run applies nothing again
    assert orders_cmd.fulfil(c.store, number, STAFF) >= 0  # nor does asking for the whole order again

    state = orders_cmd.load(c.store, number)
    assert state.status == "fulfilled" and set(state.fulfilled) == {0, 1, 2}
    assert _count(c, order_stream, OrderLineFulfilled) == 3
    assert _count(c, listing.listing_stream(created.listing_id), ListingLaunched) == 1
    assert _count(c, listing.listing_stream(created.listing_id), ListingSectionsUnlocked) == 1
    assert _count(c, metrics.metrics_stream(created.listing_id), BillboardContributed) == 1
