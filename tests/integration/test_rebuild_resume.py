"""An interrupted `projections rebuild`: reported at start and in status, then resumed (or restarted after a code change)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from events.errors import Conflict
from tests.integration.poison_helpers import make
from tests.integration.tally import EventTally, append_price_events


class Interrupted(Exception):
    """Stands for Ctrl-C or a crash in the middle of a rebuild."""


def _rows(pool: Any, table: str) -> tuple[int, int]:
    with pool.connection() as conn:
        total, distinct = conn.execute(f"SELECT count(*), count(DISTINCT (stream, version)) FROM {table}").fetchone()
    return int(total), int(distinct)


def _interrupt_after(batches: int, seen: list[int]) -> Any:
    def progress(position: int, _target: int) -> None:
        seen.append(position)
        if len(seen) == batches:
            raise Interrupted

    return progress


def _building(runtime: Any) -> Any:
    return next(s for s in runtime.status() if s.name == "event_tally" and s.status == "building")


def test_an_interrupted_rebuild_is_reported_and_resumed_where_it_stopped(fresh_db: str, caplog: Any) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    try:
        head = append_price_events(store, 3500)
        runtime.catch_up("event_tally")
        seen: list[int] = []
        live: list[bool] = []

        def progress(position: int, target: int) -> None:
            live.append(_building(runtime).interrupted)  # a rebuild at work is not reported as interrupted
            _interrupt_after(2, seen)(position, target)

        with pytest.raises(Interrupted):
            runtime.rebuild("event_tally", progress)
        assert live == [False, False]
        left = _building(runtime)
        assert (left.generation, left.position, left.interrupted, left.state) == (2, seen[-1], True, "interrupted")
        assert runtime.tables("event_tally").generation == 1  # reads stay on the complete generation

        with caplog.at_level(logging.WARNING, logger="projections.runtime"):
            _, restarted, pool2 = make(fresh_db, [EventTally()])  # another process starts
        assert any("rebuild (generation 2) was interrupted" in r.getMessage() and "resumes it" in r.getMessage()
                   for r in caplog.records)

        resumed: list[int] = []
        done = restarted.rebuild("event_tally", lambda position, _t: resumed.append(position))
        assert done.generation == 2 and done.position == head  # the same generation, finished
        assert resumed[0] > seen[-1]  # went on from where it stopped, not from event 0
        assert _rows(pool, restarted.tables("event_tally")["seen"]) == (3501, 3501)  # each event once
        assert not [s for s in restarted.status() if s.status == "building"]
        restarted.stop()
        pool2.close()
    finally:
        runtime.stop()
        pool.close()


def test_an_interrupted_rebuild_starts_again_from_event_0_when_the_code_changed_or_when_asked(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    try:
        head = append_price_events(store, 3500)
        runtime.catch_up("event_tally")
        seen: list[int] = []
        with pytest.raises(Interrupted):
            runtime.rebuild("event_tally", _interrupt_after(2, seen))
        with pool.connection() as conn:  # as if the projection's module had changed since
            conn.execute("UPDATE launchdir_projections SET code='older' WHERE name='event_tally' AND status='building'")
        again: list[int] = []
        done = runtime.rebuild("event_tally", lambda position, _t: again.append(position))
        assert again[0] < seen[-1] and done.position == head  # from the start
        assert _rows(pool, runtime.tables("event_tally")["seen"]) == (3501, 3501)

        seen.clear()
        with pytest.raises(Interrupted):
            runtime.rebuild("event_tally", _interrupt_after(2, seen))
        again.clear()
        done = runtime.rebuild("event_tally", lambda position, _t: again.append(position), restart=True)
        assert again[0] < seen[-1] and done.position == head
        assert _rows(pool, runtime.tables("event_tally")["seen"]) == (3501, 3501)
    finally:
        runtime.stop()
        pool.close()


def test_a_second_rebuild_of_the_same_projection_is_refused_while_one_runs(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    _, other, pool2 = make(fresh_db, [EventTally()])
    try:
        append_price_events(store, 2500)
        refused: list[str] = []

        def progress(_position: int, _target: int) -> None:
            if not refused:
                with pytest.raises(Conflict) as clash:
                    other.rebuild("event_tally")
                refused.append(str(clash.value))

        runtime.rebuild("event_tally", progress)
        assert "running in another process" in refused[0]
    finally:
        runtime.stop()
        other.stop()
        pool.close()
        pool2.close()
