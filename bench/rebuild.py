"""Projection throughput over the directory's bench history: catch-up and rebuild, one row per projection.

Generates the directory benchmark's history (`bench/bench_directory.py`:
listings created and published in batches, Zipf-spread votes) in a scratch
database, or reuses one (`--database`). Then, for every projection the
service runs:

- **catch-up**: the first pass from position 0 (what a fresh database or a
  new projection does while the log is already long);
- **rebuild**: `launchdir projections rebuild NAME` (a new generation from
  event 0, switch, catch up the tail, drop the old tables).

Each row: the events the projection reads (its topics), the log positions
scanned, seconds, events/s. Then the rebuild of every projection one after
the other, and, for `listing_view`, the time from the start of its rebuild
until a read in this process is answered from the new generation.

    python -m bench.rebuild [--listings 10000] [--votes 5000] [--database URL] [--keep]
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from bench.bench_directory import generate
from bench.common import scratch_database


def _row(label: str, events: int, positions: int, seconds: float) -> str:
    return (f"| {label} | {events:,} | {positions:,} | {seconds:.1f} | {events / seconds:,.0f} | "
            f"{positions / seconds:,.0f} |")


def _timed(run: Callable[[], Any]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def read_events(c: Any, counts: dict[str, int], name: str) -> int:
    """How many stored events projection `name` reads."""
    return sum(counts.get(topic, 0) for topic in c.runtime.projections[name].topics())


def switch_time(c: Any, name: str) -> tuple[float, float]:
    """Rebuild `name` while a reader polls which generation answers; (seconds until the new one answered, total)."""
    old = c.runtime.generations[name]
    answered: list[float] = []
    started = time.perf_counter()
    done = threading.Event()

    def reader() -> None:
        while not done.is_set():
            if c.runtime.generations.get(name) != old:
                tables = c.runtime.tables(name)
                with c.pool.connection() as conn:  # a read of the new generation's tables
                    conn.execute(f"SELECT count(*) FROM {tables.all()[0]}").fetchone()
                answered.append(time.perf_counter() - started)
                return
            time.sleep(0.01)

    c.runtime.start(run_projectors=False)  # the listener: a server hears the switch by NOTIFY, as here
    poller = threading.Thread(target=reader, daemon=True)
    poller.start()
    try:
        c.runtime.rebuild(name)
    finally:
        total = time.perf_counter() - started
        poller.join(timeout=5)
        done.set()
        c.runtime.stop()
    return (answered[0] if answered else float("nan")), total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listings", type=int, default=10_000)
    parser.add_argument("--votes", type=int, default=None, help="default: half the listings")
    parser.add_argument("--database", default=None, help="reuse a database a run kept (--keep): skips generation")
    parser.add_argument("--keep", action="store_true", help="keep the generated database and print its URL")
    parser.add_argument("--only", default=None, help="comma-separated projection names (default: all)")
    args = parser.parse_args()

    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    with (nullcontext(args.database) if args.database else scratch_database(keep=args.keep)) as db:
        c = bootstrap(Settings(database_url=db, data_dir=Path("/tmp"), rate_limits=False))
        try:
            ensure_catalog(c)
            if not args.database:
                votes = args.listings // 2 if args.votes is None else args.votes
                took, head = generate(c, args.listings, votes)
                print(f"history: {args.listings:,} listings, {votes:,} votes: {head:,} events appended in {took:.1f} s")
            if args.keep:
                print(f"kept: --database '{db}'")
            head = c.store.position()
            counts = c.runtime.events.topic_counts()
            names = args.only.split(",") if args.only else list(c.runtime.projections)
            print(f"log head {head:,}; {sum(counts.values()):,} stored events\n")
            header = "| projection | events read | log positions | seconds | events/s | positions/s |\n|---|---|---|---|---|---|"
            print("catch-up from position 0 (skipped when the reused database is caught up)\n" + header)
            for name in names:
                if c.runtime.positions.get(name, 0) < head:
                    print(_row(name, read_events(c, counts, name), head, _timed(lambda n=name: c.runtime.catch_up(n))),
                          flush=True)
            print("\nrebuild (new generation from event 0, switch, drop the old one)\n" + header)
            total = 0.0
            for name in names:
                seconds = _timed(lambda n=name: c.runtime.rebuild(n))
                total += seconds
                print(_row(name, read_events(c, counts, name), head, seconds), flush=True)
            every = sum(read_events(c, counts, n) for n in names)
            print(_row("all, one after the other", every, head * len(names), total))
            if "listing_view" in names:
                answered, whole = switch_time(c, "listing_view")
                print(f"\nlisting_view rebuilt again while serving: reads answered from the new generation "
                      f"{answered:.1f} s after the rebuild started (rebuild with drop: {whole:.1f} s)")
        finally:
            c.close()


if __name__ == "__main__":
    main()
