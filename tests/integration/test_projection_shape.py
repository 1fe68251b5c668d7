"""A projection whose stored shape changed rebuilds itself when a process that runs it starts.

`Shelf` (shape 1) stores each price change; `DoubledShelf`, the same
projection after a deploy (shape 2), also stores a new column filled from the
events. Its `upgrade` adds the column to the old generation, so the new code
can keep that one current while the rebuild fills the next from event 0.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from psycopg import Cursor

from aggregates import catalog
from events.catalog import ProductPriceSet
from launchdir.cli_projections import projections
from projections.base import Projection, Tables, handles
from projections.failures import META
from projections.generations import REBUILD_LOCK
from projections.leases import holders
from projections.runtime import ProjectionRuntime, RetryPolicy
from tests.integration.poison_helpers import id_of_price
from tests.integration.tally import META as OPS
from tests.integration.tally import append_price_events, make

NAME = "shelf"
STARTS = "so it is rebuilt while its current generation serves"


class Shelf(Projection):
    """Shape 1: one row per price change."""

    name = NAME
    tables = ("items",)
    catch_up_batch = 10  # a rebuild over the test's events takes several batches

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(f"CREATE TABLE {t['items']} (stream uuid NOT NULL, version int NOT NULL, cents int NOT NULL)")

    @handles(ProductPriceSet)
    def _price(self, cur: Cursor[Any], t: Tables, e: ProductPriceSet) -> None:
        cur.execute(f"INSERT INTO {t['items']} VALUES (%s, %s, %s)", (e.originator_id, e.originator_version,
                                                                         e.price_cents))


class DoubledShelf(Projection):
    """Shape 2: each row also holds twice the price, a column filled from the events.

    `hold_at`: the price at which a rebuild (generation 2 or later) waits until
    `go` is set, so the test appends events while it is under way.
    """

    name = NAME
    tables = ("items",)
    shape = 2
    catch_up_batch = 10

    def __init__(self, hold_at: int | None = None) -> None:
        self.hold_at = hold_at
        self.held = threading.Event()
        self.go = threading.Event()

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(f"CREATE TABLE {t['items']} (stream uuid NOT NULL, version int NOT NULL, cents int NOT NULL, "
                    "doubled int)")

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        """The old generation gets the column too (empty), so this code can keep it current until the switch."""
        have = cur.execute("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                           "AND table_name = %s AND column_name = 'doubled'", (t["items"],)).fetchone()
        if have is None:
            cur.execute(f"ALTER TABLE {t['items']} ADD COLUMN IF NOT EXISTS doubled int")

    @handles(ProductPriceSet)
    def _price(self, cur: Cursor[Any], t: Tables, e: ProductPriceSet) -> None:
        if t.generation > 1 and e.price_cents == self.hold_at and not self.held.is_set():
            self.held.set()
            assert self.go.wait(30), "the test never let the rebuild go on"
        cur.execute(f"INSERT INTO {t['items']} VALUES (%s, %s, %s, %s)", (e.originator_id, e.originator_version,
                                                                             e.price_cents, 2 * e.price_cents))


class PickyDoubledShelf(DoubledShelf):
    """Shape 2 code that cannot apply one price change (a poison event for the new code only)."""

    def __init__(self, refuse: int) -> None:
        super().__init__()
        self.refuse = refuse

    @handles(ProductPriceSet)
    def _price(self, cur: Cursor[Any], t: Tables, e: ProductPriceSet) -> None:
        if e.price_cents == self.refuse:
            raise ValueError("this code cannot apply that price")
        super()._price(cur, t, e)


class Crashed(Exception):
    """Stands for the process being killed in the middle of a rebuild."""


def _until(condition: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def _generations(conninfo: str) -> list[tuple[int, str, int | None]]:
    with psycopg.connect(conninfo) as conn:
        return [(int(r[0]), str(r[1]), r[2]) for r in conn.execute(
            f"SELECT generation, status, shape FROM {META} WHERE name = %s ORDER BY generation", (NAME,))]


def _rows(conninfo: str, table: str) -> list[tuple[int, int, int | None]]:
    with psycopg.connect(conninfo) as conn:
        return [(int(r[0]), int(r[1]), r[2]) for r in conn.execute(
            f"SELECT version, cents, doubled FROM {table} ORDER BY version")]


def _lowest_price(conninfo: str) -> int:
    """The first price the projection stored (the prices count up from it)."""
    with psycopg.connect(conninfo) as conn:
        row = conn.execute(f"SELECT min(cents) FROM {NAME}_g1_items").fetchone()
    assert row is not None
    return int(row[0])


def _exists(conninfo: str, table: str) -> bool:
    with psycopg.connect(conninfo) as conn:
        return conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() != (None,)


def _serving(conninfo: str, projection: Projection) -> tuple[Any, ProjectionRuntime, Any]:
    """A runtime started as a serving process starts it: set-up, then the listener and the runner."""
    store, runtime, pool = make(conninfo, [projection])
    runtime.drop_grace = 0.0
    runtime.start()
    return store, runtime, pool


def _built_with_shape_1(conninfo: str, prices: int) -> tuple[Any, int]:
    """The old deploy: `Shelf` built over `prices` price changes, then stopped; (its store, the log's head)."""
    store, old, pool = make(conninfo, [Shelf()])
    spec = {"products": [{"code": "bench", "name": "Bench", "price_cents": 100}]}  # the prices count up from it
    store.append(catalog.decide_load(store.load(catalog.CATALOG_ID, catalog), spec, OPS))
    head = append_price_events(store, prices)
    old.catch_up(NAME)
    old.stop()
    pool.close()
    return store, head


def _switched(runtime: ProjectionRuntime, conninfo: str, gen: int) -> Callable[[], bool]:
    return lambda: runtime.tables(NAME).generation == gen and _generations(conninfo) == [(gen, "active", 2)]


def test_a_start_rebuilds_a_projection_whose_stored_shape_is_behind_its_code(
        fresh_db: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="projections")
    store, head = _built_with_shape_1(fresh_db, 40)
    with psycopg.connect(fresh_db) as conn:  # a database from before shapes were recorded: upgrade_meta adds it
        conn.execute(f"ALTER TABLE {META} DROP COLUMN shape")
    old_table = f"{NAME}_g1_items"
    first_price = _lowest_price(fresh_db)
    shelf = DoubledShelf(hold_at=first_price + 20)
    _, runtime, pool = _serving(fresh_db, shelf)
    beside, pool2 = None, None
    try:
        _until(shelf.held.is_set, "the rebuild started")
        _, beside, pool2 = _serving(fresh_db, DoubledShelf())  # a second serving process starts beside it
        assert _generations(fresh_db) == [(1, "active", None), (2, "building", 2)]  # no shape recorded: counts as 1
        assert runtime.tables(NAME).generation == 1 and beside.tables(NAME).generation == 1  # the old one serves
        assert runtime.reshaping() == {NAME: (1, 2)}
        building = next(s for s in runtime.status() if s.status == "building")
        assert (building.generation, building.interrupted) == (2, False)

        during = append_price_events(store, 15)  # appended while the rebuild is under way
        assert during > head
        shelf.go.set()
        _until(_switched(runtime, fresh_db, 2), "the switch to generation 2")
        _until(lambda: beside.tables(NAME).generation == 2, "the process beside heard the switch")
        _until(lambda: runtime.positions.get(NAME) == during, "generation 2 caught up")
        _until(lambda: not _exists(fresh_db, old_table), "the old generation's table dropped")

        rows = _rows(fresh_db, runtime.tables(NAME)["items"])
        assert len(rows) == 55 and len({v for v, _, _ in rows}) == 55  # every price change once, those during too
        assert all(doubled == 2 * cents for _, cents, doubled in rows)  # the new column, filled for the old events
        assert runtime.reshaping() == {}
        starts = [r for r in caplog.records if STARTS in r.getMessage()]
        assert len(starts) == 1 and "stored shape 1, code shape 2" in starts[0].getMessage()
        assert any("reads switched to generation 2 from generation 1" in r.getMessage() for r in caplog.records)
    finally:
        shelf.go.set()
        runtime.stop()
        pool.close()
        if beside is not None and pool2 is not None:
            beside.stop()
            pool2.close()


def test_a_rebuild_another_process_holds_is_left_to_it_and_taken_up_when_it_is_gone(
        fresh_db: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="projections.reshape")
    _, head = _built_with_shape_1(fresh_db, 30)
    with psycopg.connect(fresh_db, autocommit=True) as other:  # another process rebuilding `shelf` (its lock)
        other.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (REBUILD_LOCK, NAME))
        _, runtime, pool = make(fresh_db, [DoubledShelf()])
        runtime.drop_grace, runtime.reshape_recheck = 0.0, 0.05
        runtime.start()
        try:
            _until(lambda: "another process is rebuilding it" in caplog.text, "the start left the rebuild alone")
            assert _generations(fresh_db) == [(1, "active", 1)]  # it made no generation of its own
            assert [r.levelno for r in caplog.records if "another process" in r.getMessage()][0] == logging.DEBUG
            other.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (REBUILD_LOCK, NAME))  # it went away
            _until(_switched(runtime, fresh_db, 2), "the rebuild taken up")
            _until(lambda: runtime.positions.get(NAME) == head, "generation 2 caught up")
            rows = _rows(fresh_db, runtime.tables(NAME)["items"])
            assert len(rows) == 30 and all(doubled == 2 * cents for _, cents, doubled in rows)
        finally:
            runtime.stop()
            pool.close()


def test_an_interrupted_shape_rebuild_is_resumed_by_the_next_start(
        fresh_db: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="projections")
    _, head = _built_with_shape_1(fresh_db, 60)
    _, killed, pool = make(fresh_db, [DoubledShelf()])
    stopped_at: list[int] = []

    def crash(position: int, _target: int) -> None:  # the process dies after two batches of its rebuild
        stopped_at.append(position)
        if len(stopped_at) == 2:
            raise Crashed

    with pytest.raises(Crashed):
        killed.rebuild(NAME, crash)
    pool.close()
    assert _generations(fresh_db) == [(1, "active", 1), (2, "building", 2)]

    _, runtime, pool = _serving(fresh_db, DoubledShelf())
    try:
        _until(_switched(runtime, fresh_db, 2), "the resumed rebuild switched")  # the same generation, finished
        assert any(f"resuming the interrupted rebuild of shelf: generation 2 from position {stopped_at[-1]}"
                   in r.getMessage() for r in caplog.records)
        _until(lambda: runtime.positions.get(NAME) == head, "generation 2 caught up")
        rows = _rows(fresh_db, runtime.tables(NAME)["items"])
        assert len(rows) == 60 and len({v for v, _, _ in rows}) == 60
    finally:
        runtime.stop()
        pool.close()


def test_a_server_stopping_mid_rebuild_ends_it_after_the_batch_in_hand_and_the_next_start_resumes_it(
        fresh_db: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="projections")
    _, head = _built_with_shape_1(fresh_db, 60)
    shelf = DoubledShelf(hold_at=_lowest_price(fresh_db) + 25)
    _, runtime, pool = _serving(fresh_db, shelf)
    try:
        _until(shelf.held.is_set, "the rebuild started")
        stopping = threading.Thread(target=runtime.stop)
        stopping.start()
        with psycopg.connect(fresh_db) as conn:  # the runner gave its lease up: the process is stopping
            _until(lambda: holders(conn, [NAME]) == {}, "the runner stopped")
        shelf.go.set()  # the batch in hand ends; the rebuild stops after it
        stopping.join(30)
        _until(lambda: any("the rebuild stops with the process" in r.getMessage() for r in caplog.records),
               "the rebuild stopped")
        building = next(s for s in runtime.status() if s.status == "building")
        assert (building.generation, building.interrupted) == (2, True)
        assert 0 < building.position < head
    finally:
        shelf.go.set()
        runtime.stop()
        pool.close()

    _, again, pool = _serving(fresh_db, DoubledShelf())
    try:
        _until(_switched(again, fresh_db, 2), "the resumed rebuild switched")
        assert any(f"resuming the interrupted rebuild of shelf: generation 2 from position {building.position}"
                   in r.getMessage() for r in caplog.records)
        _until(lambda: again.positions.get(NAME) == head, "generation 2 caught up")
        rows = _rows(fresh_db, again.tables(NAME)["items"])
        assert len(rows) == 60 and len({v for v, _, _ in rows}) == 60
    finally:
        again.stop()
        pool.close()


def test_code_with_a_lower_shape_than_the_stored_one_starts_nothing_and_leaves_the_generation_to_newer_code(
        fresh_db: str, caplog: pytest.LogCaptureFixture) -> None:
    """A rolling deploy: an old process must neither rebuild back nor write old-shape rows into the new generation."""
    caplog.set_level(logging.INFO, logger="projections")
    store, before = _built_with_shape_1(fresh_db, 10)
    _, new, pool = _serving(fresh_db, DoubledShelf())
    try:
        _until(_switched(new, fresh_db, 2), "the new deploy's rebuild")
        _until(lambda: new.positions.get(NAME) == before, "generation 2 caught up")
    finally:
        new.stop()
        pool.close()
    caplog.clear()

    _, old, pool = _serving(fresh_db, Shelf())  # an old process of a rolling deploy starts again
    beside, pool2 = None, None
    try:
        head = append_price_events(store, 5)
        _until(lambda: "leaves it to one with newer code" in caplog.text, "the old process saw the newer shape")
        with psycopg.connect(fresh_db) as conn:
            _until(lambda: holders(conn, [NAME]) == {}, "the old process gave the lease up")
        assert old.step(NAME) == -1  # asked directly, it applies nothing either (checked under the row's lock)
        assert old.run_round([NAME]) is False
        assert [r[0] for r in _positions(fresh_db)] == [before]
        assert len(_rows(fresh_db, f"{NAME}_g2_items")) == 10
        assert old.reshaping() == {}
        assert _generations(fresh_db) == [(2, "active", 2)]  # no rebuild back to shape 1
        assert not [r for r in caplog.records if STARTS in r.getMessage()]

        _, beside, pool2 = _serving(fresh_db, DoubledShelf())  # a process of the new deploy comes up beside it
        _until(lambda: beside.positions.get(NAME) == head, "the new process ran the projection")
        _until(lambda: old.positions.get(NAME) == head, "the old process heard the move")
        rows = _rows(fresh_db, f"{NAME}_g2_items")
        assert len(rows) == 15 and all(doubled == 2 * cents for _, cents, doubled in rows)
    finally:
        old.stop()
        pool.close()
        if beside is not None and pool2 is not None:
            beside.stop()
            pool2.close()


def _positions(conninfo: str) -> list[tuple[int]]:
    with psycopg.connect(conninfo) as conn:
        return [(int(r[0]),) for r in conn.execute(f"SELECT position FROM {META} WHERE name = %s", (NAME,))]


def test_a_shape_rebuild_stopped_at_an_event_goes_on_as_soon_as_staff_skip_it(
        fresh_db: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="projections")
    _, head = _built_with_shape_1(fresh_db, 30)
    refused = _lowest_price(fresh_db) + 10
    _, runtime, pool = make(fresh_db, [PickyDoubledShelf(refused)])
    runtime.drop_grace = 0.0
    runtime.retry_policy = RetryPolicy(first=0.01, cap=0.01, attempts=2)  # failing at once; the slow retry is 300 s
    runtime.start()
    try:
        _until(lambda: "tried again in 300 s" in caplog.text, "the rebuild stopped at the event")
        assert _generations(fresh_db) == [(1, "active", 1), (2, "building", 2)]
        runtime.skip(NAME, id_of_price(runtime, refused), "the new code drops it", "staff:ops")
        _until(_switched(runtime, fresh_db, 2), "the rebuild went on after the skip")  # long before 300 s
        _until(lambda: runtime.positions.get(NAME) == head, "generation 2 caught up")
        rows = _rows(fresh_db, runtime.tables(NAME)["items"])
        assert len(rows) == 29 and refused not in {cents for _, cents, _ in rows}
    finally:
        runtime.stop()
        pool.close()


def test_a_one_shot_runtime_starts_no_rebuild(fresh_db: str) -> None:
    _built_with_shape_1(fresh_db, 10)
    store, cli, pool = make(fresh_db, [DoubledShelf()])  # as a CLI command: set-up and catch-up, no runner
    try:
        head = append_price_events(store, 3)
        assert cli.catch_up(NAME) == head
        assert cli.reshaping() == {NAME: (1, 2)}
        assert _generations(fresh_db) == [(1, "active", 1)]
    finally:
        cli.stop()
        pool.close()


def test_status_says_why_a_projection_is_being_rebuilt(fresh_db: str) -> None:
    _built_with_shape_1(fresh_db, 30)
    _, here, pool = make(fresh_db, [DoubledShelf()])  # the status command's own runtime
    runner = CliRunner()
    shelf = DoubledShelf(hold_at=-1)
    runtime = None
    try:
        due = runner.invoke(projections, ["status"], obj=SimpleNamespace(runtime=here))
        assert due.exit_code == 0, due.output
        assert ("shelf generation 1: stored shape 1, code shape 2; the process that runs the projections "
                "rebuilds it") in due.output

        shelf.hold_at = _lowest_price(fresh_db) + 15
        _, runtime, pool2 = _serving(fresh_db, shelf)
        _until(shelf.held.is_set, "the rebuild started")
        building = runner.invoke(projections, ["status"], obj=SimpleNamespace(runtime=here))
        assert building.exit_code == 0, building.output
        assert "shelf generation 2: rebuilding: stored shape 1, code shape 2" in building.output
        assert "stored shape 1, code shape 2; the process" not in building.output
        shelf.go.set()
        _until(_switched(runtime, fresh_db, 2), "the switch")
        done = runner.invoke(projections, ["status"], obj=SimpleNamespace(runtime=here))
        assert "shape" not in done.output
    finally:
        shelf.go.set()
        if runtime is not None:
            runtime.stop()
            pool2.close()
        here.stop()
        pool.close()
