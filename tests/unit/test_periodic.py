"""The one background loop: ticks until stopped, survives a failing tick, runs its last step on stopping."""

from __future__ import annotations

import threading

from projections.periodic import Periodic


def test_a_failing_tick_does_not_end_the_loop_and_the_final_step_runs_once() -> None:
    calls: list[str] = []
    ticked = threading.Event()

    def tick() -> None:
        calls.append("tick")
        if len(calls) == 1:
            raise RuntimeError("the database is away for a moment")
        ticked.set()

    loop = Periodic("test-loop", 0.01, tick, final=lambda: calls.append("final"))
    loop.start()
    assert ticked.wait(5)
    loop.stop()
    assert calls.count("tick") >= 2 and calls[-1] == "final" and calls.count("final") == 1
    assert not loop.running


def test_at_start_ticks_at_once_and_wake_ticks_again_before_the_interval() -> None:
    seen = threading.Semaphore(0)
    loop = Periodic("test-loop", 3600, seen.release, at_start=True)
    loop.start()
    try:
        assert seen.acquire(timeout=5)  # no hour-long wait for the first tick
        loop.wake()
        assert seen.acquire(timeout=5)
    finally:
        loop.stop()


def test_a_due_moment_shortens_the_wait() -> None:
    seen = threading.Semaphore(0)
    loop = Periodic("test-loop", 3600, seen.release, until_due=lambda: 0.05)
    loop.start()
    try:
        assert seen.acquire(timeout=5)  # due in 50 ms: no hour-long wait
    finally:
        loop.stop()


def test_the_scheduler_wakes_just_after_the_site_week_starts() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from workers.scheduler import WEEK_START_MARGIN, Scheduler

    berlin = ZoneInfo("Europe/Berlin")
    sunday_evening = datetime(2026, 11, 29, 23, 59, 0, tzinfo=berlin)
    scheduler = Scheduler(None, None, None, now=lambda: sunday_evening)  # type: ignore[arg-type]
    assert scheduler.until_week_starts() == 60 + WEEK_START_MARGIN
    monday = datetime(2026, 11, 30, 0, 0, 1, tzinfo=berlin)
    scheduler.now = lambda: monday
    assert scheduler.until_week_starts() == 7 * 86400 - 1 + WEEK_START_MARGIN
