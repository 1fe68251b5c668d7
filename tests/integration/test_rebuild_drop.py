"""A rebuild's old tables go without deadlocking, stalling or failing the reads still in them.

Found by rebuilding `listing_view` while two servers answered searches: a
search's transaction held the old `search` table and asked for `listings`
while the drop held `listings` and waited for `search`, and the rebuild
command ended with "deadlock detected" after its switch, its old tables left
behind for good.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from psycopg import Cursor

from events.catalog import ProductAdded, ProductPriceSet
from projections.base import Projection, Tables, handles
from projections.failures import META
from tests.integration.tally import append_price_events, make


class PairedTally(Projection):
    """Two tables, as a search reads two: one row per event in each."""

    name = "paired_tally"
    tables = ("seen", "beside")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        for table in t.all():
            cur.execute(f"CREATE TABLE {table} (stream uuid NOT NULL, version int NOT NULL)")

    @handles(ProductPriceSet, ProductAdded)
    def _seen(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        for table in t.all():
            cur.execute(f"INSERT INTO {table} VALUES (%s, %s)", (e.originator_id, e.originator_version))


def _exists(conninfo: str, table: str) -> bool:
    with psycopg.connect(conninfo) as conn:
        return conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() != (None,)


def _retired(conninfo: str) -> list[int]:
    with psycopg.connect(conninfo) as conn:
        return [int(r[0]) for r in conn.execute(
            f"SELECT generation FROM {META} WHERE name = 'paired_tally' AND status = 'retired' ORDER BY 1")]


def _rebuild_in_thread(runtime: Any) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["status"] = runtime.rebuild("paired_tally")
        except Exception as exc:  # the test reports it
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def _wait_switched(conninfo: str, old: int) -> None:
    deadline = time.monotonic() + 30
    while _retired(conninfo) != [old]:
        assert time.monotonic() < deadline, "the rebuild never switched"
        time.sleep(0.02)


def test_a_read_holding_one_old_table_and_asking_for_another_neither_deadlocks_nor_fails(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [PairedTally()])
    try:
        runtime.drop_grace = 0.2
        append_price_events(store, 50)
        runtime.catch_up("paired_tally")
        old = runtime.tables("paired_tally")
        first, second = old.all()  # the order a drop goes through them
        with psycopg.connect(fresh_db) as reader:  # a search's transaction: one table now, the other later
            reader.execute("SET statement_timeout = '5s'")
            assert reader.execute(f"SELECT count(*) FROM {second}").fetchone() == (51,)
            thread, outcome = _rebuild_in_thread(runtime)
            _wait_switched(fresh_db, 1)
            time.sleep(0.6)  # past the grace: the drop is trying now
            assert reader.execute(f"SELECT count(*) FROM {first}").fetchone() == (51,)  # not blocked, no deadlock
            assert "status" not in outcome  # the drop waits for the read's end
            reader.commit()
        thread.join(30)
        assert "error" not in outcome, outcome.get("error")
        assert outcome["status"].generation == 2 and outcome["status"].status == "active"
        assert not _exists(fresh_db, first) and not _exists(fresh_db, second)
        assert _retired(fresh_db) == []
    finally:
        runtime.stop()
        pool.close()


def test_new_reads_of_the_old_tables_are_not_queued_behind_the_drop(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [PairedTally()])
    try:
        runtime.drop_grace = 0.0
        append_price_events(store, 20)
        runtime.catch_up("paired_tally")
        seen = runtime.tables("paired_tally")["seen"]
        with psycopg.connect(fresh_db) as holder, psycopg.connect(fresh_db, autocommit=True) as late:
            holder.execute(f"SELECT count(*) FROM {seen}").fetchone()  # a slow read still in its transaction
            late.execute("SET statement_timeout = '2s'")
            thread, outcome = _rebuild_in_thread(runtime)
            _wait_switched(fresh_db, 1)
            started = time.monotonic()
            while time.monotonic() - started < 0.5:  # reads that resolved the old generation just before the switch
                assert late.execute(f"SELECT count(*) FROM {seen}").fetchone() == (21,)
            holder.commit()
        thread.join(30)
        assert "error" not in outcome, outcome.get("error")
        assert not _exists(fresh_db, seen)
    finally:
        runtime.stop()
        pool.close()


def test_a_generation_still_read_after_the_patience_is_left_retired_and_the_next_rebuild_drops_it(
        fresh_db: str, caplog: pytest.LogCaptureFixture) -> None:
    store, runtime, pool = make(fresh_db, [PairedTally()])
    try:
        runtime.drop_grace, runtime.drop_patience = 0.0, 0.3
        append_price_events(store, 10)
        runtime.catch_up("paired_tally")
        first_tables = runtime.tables("paired_tally").all()
        with psycopg.connect(fresh_db) as holder:
            holder.execute(f"SELECT count(*) FROM {first_tables[0]}").fetchone()
            status = runtime.rebuild("paired_tally")  # returns: the switch is done, the drop gave up
            assert status.generation == 2 and status.status == "active"
            assert _retired(fresh_db) == [1] and all(_exists(fresh_db, t) for t in first_tables)
            assert "generation 1 is still read" in caplog.text
        second_tables = runtime.tables("paired_tally").all()
        status = runtime.rebuild("paired_tally")
        assert status.generation == 3
        assert _retired(fresh_db) == []
        assert not any(_exists(fresh_db, t) for t in [*first_tables, *second_tables])
        assert runtime.catch_up("paired_tally") > 0
        with pool.connection() as conn:
            assert conn.execute(f"SELECT count(*) FROM {runtime.tables('paired_tally')['seen']}").fetchone() == (11,)
    finally:
        runtime.stop()
        pool.close()
