"""A real projection for runtime tests: one row per event it applies (duplicates would show)."""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime, timezone
from functools import reduce
from typing import Any

from psycopg import Cursor
from psycopg_pool import ConnectionPool

from aggregates import catalog
from aggregates.base import Emitter, Meta
from commands.store import EventStore, LaunchdirEvents
from events.catalog import ProductAdded, ProductPriceSet
from launchdir.database import eventsourcing_env
from projections.base import Projection, Tables, handles
from projections.log import EventLog
from projections.runtime import ProjectionRuntime

META = Meta(at=datetime(2026, 11, 16, tzinfo=timezone.utc), actor="staff:bench", channel="cli")


class EventTally(Projection):
    name = "event_tally"
    tables = ("seen",)
    catch_up_batch = 1000  # a few thousand events make several batches: tests see a catch-up move batch by batch
    delay = float(os.environ.get("TALLY_DELAY", "0"))

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(f"CREATE TABLE {t['seen']} (stream uuid NOT NULL, version int NOT NULL, cents int)")

    @handles(ProductPriceSet, ProductAdded)
    def _seen(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        if self.delay:
            time.sleep(self.delay)
        cur.execute(
            f"INSERT INTO {t['seen']} (stream, version, cents) VALUES (%s, %s, %s)",
            (e.originator_id, e.originator_version, e.price_cents),
        )


def make(conninfo: str, projections: list[Projection]) -> tuple[EventStore, ProjectionRuntime, ConnectionPool]:
    app = LaunchdirEvents(env=eventsourcing_env(conninfo, 10))
    store = EventStore(app)
    pool = ConnectionPool(conninfo, min_size=1, max_size=10, open=True)
    runtime = ProjectionRuntime(pool, conninfo, EventLog(app), projections)
    runtime.setup()
    store.on_append(runtime.wake)
    return store, runtime, pool


def append_price_events(store: EventStore, count: int, batch: int = 1000) -> int:
    """Append `count` price changes to the catalogue stream in batches; return the last position."""
    state = store.load(catalog.CATALOG_ID, catalog)
    if "bench" not in state.products:  # appended as is: prices from 1 cent up, below the price rule loads keep
        emit = Emitter(state, META)
        emit(ProductAdded, code="bench", name="Bench", description="", price_cents=1, needs_listing=False,
             options=None, week_window=None, position=0)
        store.append(emit.events)
        state = store.load(catalog.CATALOG_ID, catalog)
    position = 0
    price = state.products["bench"].price_cents
    made = 0
    while made < count:
        emit = Emitter(state, META)
        for _ in range(min(batch, count - made)):
            emit(ProductPriceSet, code="bench", price_cents=price + 1, previous_cents=price)
            price += 1
        position = store.append(emit.events)
        state = reduce(lambda s, e: catalog.evolve(e, s), emit.events, state)
        made += len(emit.events)
    return position


if __name__ == "__main__":
    # Used by the crash-resume test: catch up slowly until killed.
    _, runtime, _ = make(sys.argv[1], [EventTally()])
    print("ready", flush=True)
    runtime.catch_up("event_tally")
    print("done", flush=True)
