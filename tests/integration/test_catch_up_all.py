"""A start catches its projections up several at a time: each to the head or to an event it cannot apply."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.integration.poison_helpers import Picky, id_of_price, make, prices
from tests.integration.tally import EventTally, append_price_events


def test_every_projection_is_caught_up_side_by_side_and_a_poison_event_stops_only_its_own(
        fresh_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store, runtime, pool = make(fresh_db, [EventTally(), Picky({300})])
    threads: dict[str, str] = {}
    catch_up = runtime.catch_up

    def recorded(name: str, *args: Any, **kwargs: Any) -> int:  # which thread caught each projection up
        threads[name] = threading.current_thread().name
        return catch_up(name, *args, **kwargs)

    monkeypatch.setattr(runtime, "catch_up", recorded)
    try:
        head = append_price_events(store, 1200)  # prices 2..1201
        poison = id_of_price(runtime, 300)
        assert runtime.catch_up_all(at_once=2) == {}  # a stop at an event is not an error of the start
        assert runtime._position_of("event_tally", None) == head
        assert runtime._position_of("picky", None) == poison - 1
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 300))
        assert sorted(threads) == ["event_tally", "picky"]
        assert all(t.startswith("launchdir-catch-up") for t in threads.values())
    finally:
        runtime.stop()
        pool.close()


def test_a_catch_up_that_cannot_run_is_reported_and_the_others_still_run(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [EventTally()])
    try:
        head = append_price_events(store, 50)
        failed = runtime.catch_up_all(["no_such_view", "event_tally"], at_once=2)
        assert list(failed) == ["no_such_view"] and isinstance(failed["no_such_view"], KeyError)
        assert runtime._position_of("event_tally", None) == head
    finally:
        runtime.stop()
        pool.close()
