"""The projection runtime on real PostgreSQL: batches, read-your-writes, rebuild, crash-resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.integration.tally import EventTally, append_price_events, make

ROOT = Path(__file__).resolve().parents[2]


def _rows(pool, table: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    with pool.connection() as conn:
        total, distinct = conn.execute(
            f"SELECT count(*), count(DISTINCT (stream, version)) FROM {table}"
        ).fetchone()
    return int(total), int(distinct)


def test_catch_up_applies_every_event_once_in_batches(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    head = append_price_events(store, 2500)
    first = runtime.step("event_tally")
    assert 1000 <= first < head  # one batch of 1,000 relevant events, not everything
    assert runtime.catch_up("event_tally") == head
    assert _rows(pool, runtime.tables("event_tally")["seen"]) == (2501, 2501)
    assert runtime.step("event_tally") == -1  # idle once caught up
    runtime.stop()
    pool.close()


def test_position_moves_past_events_the_projection_ignores(fresh_db: str) -> None:
    from projections.catalog_view import CatalogView

    store, runtime, pool = make(fresh_db, [EventTally(), CatalogView()])
    head = append_price_events(store, 10)
    runtime.catch_up("catalog_view")
    # catalog_view reads these events too, but the tally's position must also reach the head
    # even if the last events were not its own: waiting on any write's position must work.
    assert runtime.catch_up("event_tally") == head
    runtime.stop()
    pool.close()


def test_a_write_can_wait_for_its_projection(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    runtime.start()
    try:
        position = append_price_events(store, 5)
        assert runtime.wait_for(["event_tally"], position, timeout=5.0)
        assert runtime.positions["event_tally"] >= position
        assert _rows(pool, runtime.tables("event_tally")["seen"])[0] == 6
        assert not runtime.wait_for(["event_tally"], position + 10_000, timeout=0.2)
    finally:
        runtime.stop()
        pool.close()


def test_rebuild_builds_a_new_generation_while_the_old_one_serves(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    append_price_events(store, 3000)
    runtime.catch_up("event_tally")
    old_table = runtime.tables("event_tally")["seen"]
    seen_during: list[tuple[int, int]] = []
    progress: list[tuple[int, int]] = []

    def read_old_while_rebuilding(position: int, target: int) -> None:
        progress.append((position, target))
        seen_during.append(_rows(pool, old_table))

    status = runtime.rebuild("event_tally", read_old_while_rebuilding)
    assert status.generation == 2 and status.status == "active"
    assert runtime.tables("event_tally")["seen"] != old_table
    assert all(rows == (3001, 3001) for rows in seen_during)  # the old tables kept serving, complete
    assert len(progress) >= 3 and progress[-1][0] == progress[-1][1]
    assert _rows(pool, runtime.tables("event_tally")["seen"]) == (3001, 3001)
    with pool.connection() as conn:
        gone = conn.execute("SELECT to_regclass(%s)", (old_table,)).fetchone()[0]
    assert gone is None  # the old generation was dropped after the switch
    runtime.stop()
    pool.close()


def test_a_running_server_switches_to_the_rebuilt_generation(fresh_db: str) -> None:
    store, serving, pool = make(fresh_db, [EventTally()])
    serving.start()
    _, rebuilder, pool2 = make(fresh_db, [EventTally()])
    try:
        position = append_price_events(store, 50)
        assert serving.wait_for(["event_tally"], position, 5.0)
        rebuilder.rebuild("event_tally")
        deadline = time.monotonic() + 5
        while serving.generations["event_tally"] != 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert serving.generations["event_tally"] == 2
        position = append_price_events(store, 5)
        assert serving.wait_for(["event_tally"], position, 5.0)
        assert _rows(pool, serving.tables("event_tally")["seen"]) == (56, 56)
    finally:
        serving.stop()
        rebuilder.stop()
        pool.close()
        pool2.close()


def test_a_projector_killed_mid_batch_resumes_without_loss_or_double_apply(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    head = append_price_events(store, 4000)
    env = {**os.environ, "TALLY_DELAY": "0.0005", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.integration.tally", fresh_db],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 30
    position = 0
    while time.monotonic() < deadline:
        position = runtime._position_of("event_tally", None)
        if position > 0:
            break
        time.sleep(0.02)
    time.sleep(0.15)  # well inside the next batch (1,000 events take about 0.5 s here)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    killed_at = runtime._position_of("event_tally", None)
    assert 0 < killed_at < head, "the projector must be stopped part-way"
    total, distinct = _rows(pool, runtime.tables("event_tally")["seen"])
    assert total == distinct  # the half-done batch left nothing behind
    assert runtime.catch_up("event_tally") == head
    assert _rows(pool, runtime.tables("event_tally")["seen"]) == (4001, 4001)
    runtime.stop()
    pool.close()


def test_two_runners_on_one_projection_never_apply_an_event_twice(fresh_db: str) -> None:
    store, first, pool = make(fresh_db, [EventTally()])
    _, second, pool2 = make(fresh_db, [EventTally()])
    head = append_price_events(store, 3000)
    threads = [threading.Thread(target=r.catch_up, args=("event_tally",)) for r in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert first._position_of("event_tally", None) == head
    assert _rows(pool, first.tables("event_tally")["seen"]) == (3001, 3001)
    pool.close()
    pool2.close()


def test_a_followed_position_announced_by_another_process_reaches_every_runtime(fresh_db: str) -> None:
    """The search indexer's position: announced on commit, heard by runtimes that follow it, ignored by the rest."""
    _, listening, pool = make(fresh_db, [EventTally()])
    _, other, pool2 = make(fresh_db, [EventTally()])
    listening.follow("listing_search")
    heard: list[tuple[str, int]] = []
    listening.on_move(lambda name, position: heard.append((name, position)))
    listening.start(run_projectors=False)
    other.start(run_projectors=False)
    try:
        time.sleep(0.3)  # the listeners are connected
        with pool2.connection() as conn:
            other.announce(conn, "listing_search", 41)
            conn.rollback()  # not committed: nobody hears it
        with pool2.connection() as conn:
            other.announce(conn, "listing_search", 42)
        deadline = time.monotonic() + 5
        while listening.positions.get("listing_search") != 42 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert listening.positions["listing_search"] == 42
        assert ("listing_search", 42) in heard and ("listing_search", 41) not in heard
        assert "listing_search" not in other.positions  # not followed there
    finally:
        listening.stop()
        other.stop()
        pool.close()
        pool2.close()
