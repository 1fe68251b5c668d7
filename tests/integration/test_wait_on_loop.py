"""Read-your-writes on the event loop (`ProjectionRuntime.wait_for_async`), the wait of a vote's answer.

The answer of a vote waits until the views show it; that wait is awaited on
the server's event loop so it holds no thread. These tests check that it ends
with the write shown, in a process that runs the projection and in one that
only listens to another process's moves (`launchdir serve --workers N`), for
many waits at once, and that it stays bounded when no projection runs.
"""

from __future__ import annotations

import asyncio
import threading

from tests.integration.tally import EventTally, append_price_events, make


def _tallied(pool, table: str) -> int:  # type: ignore[no-untyped-def]
    with pool.connection() as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_a_wait_on_the_loop_ends_with_the_write_shown(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    runtime.start()
    try:
        position = append_price_events(store, 5)
        assert asyncio.run(runtime.wait_for_async(["event_tally"], position, timeout=5.0))
        assert runtime.positions["event_tally"] >= position
        assert _tallied(pool, runtime.tables("event_tally")["seen"]) == 6
        assert asyncio.run(runtime.wait_for_async(["event_tally"], position, timeout=5.0))  # already there
    finally:
        runtime.stop()
        pool.close()


def test_the_wait_is_bounded_when_no_projection_runs(fresh_db: str) -> None:
    store, listener, pool = make(fresh_db, [EventTally()])
    listener.start(run_projectors=False)  # a server whose projections run elsewhere, and nowhere runs them
    try:
        position = append_price_events(store, 3)
        assert asyncio.run(listener.wait_for_async(["event_tally"], position, timeout=0.3)) is False
        assert listener.positions.get("event_tally", 0) < position
        assert asyncio.run(listener.wait_for_async(["event_tally"], position, timeout=0.3)) is False  # again
    finally:
        listener.stop()
        pool.close()


def test_many_waits_in_a_process_without_projections_end_when_another_process_runs_them(fresh_db: str) -> None:
    """As a vote answered by one of `--workers N` that does not hold the projections' leases."""
    store, listener, pool = make(fresh_db, [EventTally()])
    _, runner, runner_pool = make(fresh_db, [EventTally()])
    listener.start(run_projectors=False)
    positions = [append_price_events(store, 1) for _ in range(40)]
    pending_when_runner_started: list[int] = []

    async def all_waits() -> list[bool]:
        waits = [asyncio.ensure_future(listener.wait_for_async(["event_tally"], p, timeout=10.0)) for p in positions]
        await asyncio.sleep(0.2)  # every wait is registered and none can end: nothing runs the projection
        pending_when_runner_started.append(sum(not w.done() for w in waits))
        threading.Thread(target=runner.start, daemon=True).start()  # the other process takes the projection
        return list(await asyncio.gather(*waits))

    try:
        assert asyncio.run(all_waits()) == [True] * 40
        assert pending_when_runner_started == [40]
        assert listener.positions["event_tally"] >= positions[-1]
        assert _tallied(pool, listener.tables("event_tally")["seen"]) == 41
    finally:
        runner.stop()
        listener.stop()
        runner_pool.close()
        pool.close()


def test_without_threads_the_wait_polls_the_database(fresh_db: str) -> None:
    """A runtime that was never started (a command-line use) learns positions by asking the database."""
    store, runtime, pool = make(fresh_db, [EventTally()])
    try:
        position = append_price_events(store, 2)
        assert asyncio.run(runtime.wait_for_async(["event_tally"], position, timeout=0.2)) is False
        runtime.catch_up("event_tally")
        assert asyncio.run(runtime.wait_for_async(["event_tally"], position, timeout=5.0))
    finally:
        pool.close()
