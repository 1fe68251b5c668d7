"""Projection throughput over the directory's bench history: catch-up and rebuild, one row per projection.

Generates the directory benchmark's history (`bench/bench_directory.py`:
listings created and published in batches, Zipf-spread votes) in a scratch
database, or reuses one (`--database`). First, on a copy of it, every
projection caught up from position 0 as a server's start does it
(`ProjectionRuntime.catch_up_all`, several at a time). Then, for every
projection the service runs:

- **catch-up**: the first pass from position 0 (what a fresh database or a
  new projection does while the log is already long);
- **rebuild**: `launchdir projections rebuild NAME` (a new generation from
  event 0, switch, catch up the tail, drop the old tables).

Each row: the events the projection reads (its topics), the log positions
scanned, seconds, events/s. Then the rebuild of every projection one after
the other and two at a time (threads, own connections), and, for `listing_view`, the time from the start of its rebuild
until a read in this process is answered from the new generation.

With `--keep` the generated history is kept before any projection ran, and
its URL printed; `--database URL` reuses it. Each run then works on a copy
of it (dropped afterwards), so every run catches up from position 0 over
the same log.

    python -m bench.rebuild [--listings 10000] [--votes 5000] [--database URL] [--keep] [--only a,b]
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from bench.bench_directory import generate
from bench.common import copied_database, scratch_database
from bench.record import Run

RECORDED_FROM = 1_000  # events a projection reads before its rates are recorded (the rest read almost none)


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


PARALLEL = 2  # rebuilds at once: the machine's cores (each rebuild is one Python thread and one connection)


def rebuild_in_parallel(c: Any, names: list[str]) -> None:
    """Rebuild every projection in `names`, `PARALLEL` at a time, each in its own thread and connections."""
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        for done in [pool.submit(c.runtime.rebuild, name) for name in names]:
            done.result()


def start_catch_up(db: str, names: list[str] | None, run: Run | None = None) -> None:
    """Every projection (or `names`) caught up from 0 as a server's start does it (`catch_up_all`), timed."""
    from launchdir import heap
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings
    from projections.runtime import CATCH_UPS_AT_ONCE

    c = bootstrap(Settings(database_url=db, data_dir=Path("/tmp"), rate_limits=False))
    try:
        ensure_catalog(c)
        heap.settle()
        head, counts = c.store.position(), c.runtime.events.topic_counts()
        names = names or list(c.runtime.projections)
        seconds = _timed(lambda: c.runtime.catch_up_all(names))
        every = sum(read_events(c, counts, n) for n in names)
        print(f"start from an empty read side (`catch_up_all`, {CATCH_UPS_AT_ONCE} at a time)\n"
              "| projection | events read | log positions | seconds | events/s | positions/s |\n|---|---|---|---|---|---|")
        print(_row("all, caught up as a start does", every, head * len(names), seconds) + "\n", flush=True)
        if run is not None:
            run.add(f"every projection caught up from 0 as a start does ({CATCH_UPS_AT_ONCE} at a time)", seconds, "s")
    finally:
        c.close()


def measure(db: str, names: list[str] | None, run: Run | None = None) -> None:
    """Catch-up of every projection (or `names`) from where it is, then a rebuild of each, then the switch time.

    `run`: where the figures are recorded (projections that read at least `RECORDED_FROM` events of the history).
    """
    from launchdir import heap
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    c = bootstrap(Settings(database_url=db, data_dir=Path("/tmp"), rate_limits=False))
    try:
        ensure_catalog(c)
        heap.settle()  # as the CLI's container does (`launchdir projections rebuild`)
        # The second a rebuild waits after its switch before dropping the old tables lets other processes' reads
        # move on (projections/retired.py); nothing else reads this copy, and waiting is not work.
        c.runtime.drop_grace = 0.0
        head = c.store.position()
        counts = c.runtime.events.topic_counts()
        names = names or list(c.runtime.projections)
        print(f"log head {head:,}; {sum(counts.values()):,} stored events\n")
        header = "| projection | events read | log positions | seconds | events/s | positions/s |\n|---|---|---|---|---|---|"
        print("catch-up from position 0 (skipped when the reused database is caught up)\n" + header)
        for name in names:
            if c.runtime.positions.get(name, 0) < head:
                events, seconds = read_events(c, counts, name), _timed(lambda n=name: c.runtime.catch_up(n))
                print(_row(name, events, head, seconds), flush=True)
                if run is not None and events >= RECORDED_FROM:
                    run.add(f"`{name}` catch-up from 0 ({events:,} events)", events / seconds, "events/s",
                            target="≥ 20,000", met=events / seconds >= 20_000)
        print("\nrebuild (new generation from event 0, switch, drop the old one at once: no other process reads "
              "this copy)\n" + header)
        total = 0.0
        for name in names:
            seconds = _timed(lambda n=name: c.runtime.rebuild(n))
            total += seconds
            events = read_events(c, counts, name)
            print(_row(name, events, head, seconds), flush=True)
            if run is not None and events >= RECORDED_FROM:
                run.add(f"`{name}` rebuild ({events:,} events)", events / seconds, "events/s", target="≥ 20,000",
                        met=events / seconds >= 20_000)
        every = sum(read_events(c, counts, n) for n in names)
        print(_row("all, one after the other", every, head * len(names), total))
        together = _timed(lambda: rebuild_in_parallel(c, names))
        print(_row(f"all, {PARALLEL} at a time", every, head * len(names), together), flush=True)
        if run is not None:
            run.data = f"{head:,} log positions, {sum(counts.values()):,} stored events"
            run.add(f"every projection rebuilt, {PARALLEL} at a time", together, "s")
        if "listing_view" in names:
            answered, whole = switch_time(c, "listing_view")
            print(f"\nlisting_view rebuilt again while serving: reads answered from the new generation "
                  f"{answered:.1f} s after the rebuild started (rebuild with drop: {whole:.1f} s)")
            if run is not None:
                run.add("`listing_view` rebuilt while serving: new generation answering after", answered, "s")
    finally:
        c.close()


def generated(listings: int, votes: int | None, keep: bool) -> Iterator[str]:
    """A scratch database holding the directory history (no projection has run yet); kept when `keep`."""
    from launchdir.bootstrap import bootstrap, ensure_catalog
    from launchdir.settings import Settings

    with scratch_database(keep=keep) as db:
        c = bootstrap(Settings(database_url=db, data_dir=Path("/tmp"), rate_limits=False))
        try:
            ensure_catalog(c)
            votes = listings // 2 if votes is None else votes
            took, head = generate(c, listings, votes)
            print(f"history: {listings:,} listings, {votes:,} votes: {head:,} events appended in {took:.1f} s")
        finally:
            c.close()
        if keep:
            print(f"kept (no projection ran in it; runs work on a copy): --database '{db}'")
        yield db


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listings", type=int, default=10_000)
    parser.add_argument("--votes", type=int, default=None, help="default: half the listings")
    parser.add_argument("--database", default=None,
                        help="reuse a history a run kept (--keep): skips generation; the run works on a copy of it")
    parser.add_argument("--keep", action="store_true", help="keep the generated history and print its URL")
    parser.add_argument("--only", default=None, help="comma-separated projection names (default: all)")
    parser.add_argument("--record", action="store_true", help="write the figures to bench/results/ (`bench.table`)")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else None

    with ExitStack() as stack:
        source = args.database or stack.enter_context(contextmanager(generated)(args.listings, args.votes, args.keep))
        run = Run("rebuild", "") if args.record else None
        with copied_database(source) as fresh:
            start_catch_up(fresh, names, run)
        db = stack.enter_context(copied_database(source)) if (args.database or args.keep) else source
        measure(db, names, run)
        if run is not None:
            run.save()


if __name__ == "__main__":
    main()
