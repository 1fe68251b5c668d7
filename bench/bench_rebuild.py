"""Rebuild benchmark: replay a projection over 100,000 stored events and report events/s.

Appends the events in batches through the catalogue's decider (price changes
of one product), catches the projection up once, then times
`ProjectionRuntime.rebuild` (a fresh generation from event 0, switch-over,
old tables dropped).

    python -m bench.bench_rebuild [--events 100000]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from functools import reduce
from pathlib import Path

from aggregates import catalog
from aggregates.base import Emitter, Meta
from bench.common import scratch_database
from events.catalog import ProductPriceSet
from launchdir.bootstrap import bootstrap, ensure_catalog
from launchdir.settings import Settings


def append_events(store, count: int, meta: Meta, batch: int = 2000) -> int:  # type: ignore[no-untyped-def]
    state = store.load(catalog.CATALOG_ID, catalog)
    price = state.products["featured"].price_cents
    made = 0
    while made < count:
        emit = Emitter(state, meta)
        for _ in range(min(batch, count - made)):
            emit(ProductPriceSet, code="featured", price_cents=price + 1, previous_cents=price)
            price += 1
        store.append(emit.events)
        state = reduce(lambda s, e: catalog.evolve(e, s), emit.events, state)
        made += len(emit.events)
    return made


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    args = parser.parse_args()
    with scratch_database() as db:
        settings = replace(Settings(), database_url=db, data_dir=Path("/nonexistent"))
        c = bootstrap(settings)
        try:
            ensure_catalog(c)
            meta = c.system_meta("staff:bench", "cli")
            started = time.perf_counter()
            made = append_events(c.store, args.events, meta)
            append_s = time.perf_counter() - started
            head = c.store.position()
            started = time.perf_counter()
            c.runtime.catch_up("catalog_view")
            catch_s = time.perf_counter() - started
            started = time.perf_counter()
            c.runtime.drop_grace = 0.0  # nothing else reads this database: the old tables go at once
            status = c.runtime.rebuild("catalog_view")
            rebuild_s = time.perf_counter() - started
            price = c.store.load(catalog.CATALOG_ID, catalog).products["featured"].price_cents
            with c.pool.connection() as conn:
                (shown,) = conn.execute(
                    f"SELECT (doc->>'price_cents')::int FROM {c.runtime.tables('catalog_view')['products']} WHERE code='featured'"
                ).fetchone()
            print(f"appended {made} events in {append_s:.1f} s ({made / append_s:,.0f} events/s, batches of 2,000)")
            print(f"first catch-up of {head} events: {catch_s:.1f} s ({head / catch_s:,.0f} events/s)")
            print(f"rebuild to generation {status.generation}: {head} events in {rebuild_s:.1f} s "
                  f"({head / rebuild_s:,.0f} events/s)  position {status.position}/{head}")
            print(f"check: rebuilt price {shown} == decider price {price}: {shown == price}")
        finally:
            c.close()


if __name__ == "__main__":
    main()
