"""The live runner's round (`ProjectionRuntime.run_round`, `projections/rounds.py`) on real PostgreSQL.

One read of the log shared out by topic, a transaction for each projection
with events to apply, one statement moving those with none: every event still
applied exactly once, every position at the head, and each move announced to
the other processes as a batch's is.
"""

from __future__ import annotations

import asyncio
from typing import Any

from psycopg import Cursor

from events.catalog import ProductAdded
from projections import rounds
from projections.base import Projection, Tables, handles
from tests.integration.tally import EventTally, append_price_events, make


class AddedTally(Projection):
    """Reads only products added: the price changes after the first are none of its events."""

    name = "added_tally"
    tables = ("seen",)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(f"CREATE TABLE {t['seen']} (stream uuid NOT NULL, version int NOT NULL)")

    @handles(ProductAdded)
    def _added(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        cur.execute(f"INSERT INTO {t['seen']} (stream, version) VALUES (%s, %s)", (e.originator_id, e.originator_version))


NAMES = ["event_tally", "added_tally"]


def _count(pool, table: str) -> int:  # type: ignore[no-untyped-def]
    with pool.connection() as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def _stored_positions(pool) -> dict[str, int]:  # type: ignore[no-untyped-def]
    with pool.connection() as conn:
        rows = conn.execute("SELECT name, position FROM launchdir_projections WHERE status = 'active'").fetchall()
    return {str(r[0]): int(r[1]) for r in rows}


def test_a_round_applies_each_event_once_and_moves_the_projections_without_events_together(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally(), AddedTally()])
    _, listener, listener_pool = make(fresh_db, [EventTally(), AddedTally()])
    listener.start(run_projectors=False)  # another process: learns every move from the channel
    try:
        head = append_price_events(store, 5)  # the product added, then five price changes
        assert runtime.run_round(NAMES)
        assert _stored_positions(pool) == {"event_tally": head, "added_tally": head}
        assert (_count(pool, runtime.tables("event_tally")["seen"]), _count(pool, runtime.tables("added_tally")["seen"])) == (6, 1)

        head = append_price_events(store, 3)  # none of these is added_tally's
        assert runtime.run_round(NAMES)
        assert _stored_positions(pool) == {"event_tally": head, "added_tally": head}
        assert runtime.positions["added_tally"] == head
        assert (_count(pool, runtime.tables("event_tally")["seen"]), _count(pool, runtime.tables("added_tally")["seen"])) == (9, 1)
        assert asyncio.run(listener.wait_for_async(NAMES, head, timeout=5.0))  # both moves were announced
        assert runtime.run_round(NAMES) is False  # nothing behind the head: idle
    finally:
        listener.stop()
        listener_pool.close()
        pool.close()


def test_more_than_a_batch_behind_the_round_steps_each_projection_batch_by_batch(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally(), AddedTally()])
    try:
        head = append_price_events(store, 2500)
        assert runtime.run_round(NAMES)
        assert runtime.positions["event_tally"] < head  # one batch of the tally's events, as `step` applies
        while runtime.run_round(NAMES):
            pass
        assert _stored_positions(pool) == {"event_tally": head, "added_tally": head}
        assert (_count(pool, runtime.tables("event_tally")["seen"]), _count(pool, runtime.tables("added_tally")["seen"])) == (2501, 1)
    finally:
        pool.close()


def test_the_shared_move_leaves_a_row_another_runner_moved(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally(), AddedTally()])
    try:
        head = append_price_events(store, 4)
        [seen] = [d for d in rounds.due(pool, {"added_tally": runtime.generations["added_tally"]}, head,
                                                    {"added_tally": 1})]
        runtime.catch_up("added_tally")  # another runner got there first
        runtime.step("added_tally")
        later = append_price_events(store, 2)
        assert rounds.move_idle(pool, [seen], later) == []  # read at an older position: not moved
        assert _stored_positions(pool)["added_tally"] == head
    finally:
        pool.close()
