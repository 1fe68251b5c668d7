"""A catch-up reads its next batch while the current one is applied: the same events, exactly once, in order."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from eventsourcing.utils import get_topic

from events.catalog import ProductPriceSet
from projections.read_ahead import ReadAhead
from tests.integration.poison_helpers import Picky, id_of_price, make, prices
from tests.integration.tally import append_price_events

TOPICS = [get_topic(ProductPriceSet)]


def _one_by_one(runtime: Any, head: int, limit: int) -> list[list[int]]:
    """The ids of each batch as a step without a reader ahead reads them."""
    out, after = [], 0
    while after < head:
        notes = runtime.events.read(after, head, TOPICS, limit)
        out.append([i for i, _ in notes])
        after = notes[-1][0] if len(notes) == limit else head
    return out


def test_batches_read_ahead_are_the_batches_read_one_by_one(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [Picky(set())])
    try:
        head = append_price_events(store, 350)
        ahead = ReadAhead(runtime.events, TOPICS, head, 100)
        batches, after = [], 0
        try:
            while after < head:
                clean: set[int] = set()
                notes = ahead.read(after, clean)
                batches.append([i for i, _ in notes])
                assert clean == {i for i, _ in notes}  # plain prices keep the text rule: known clean, ahead or not
                after = notes[-1][0] if len(notes) == 100 else head
        finally:
            ahead.close()
        assert batches == _one_by_one(runtime, head, 100)
        assert len(batches) == 4 and ahead.taken == 3  # every batch after the first was read ahead
    finally:
        runtime.stop()
        pool.close()


def test_a_batch_read_ahead_from_another_place_is_thrown_away(fresh_db: str) -> None:
    store, runtime, pool = make(fresh_db, [Picky(set())])
    try:
        head = append_price_events(store, 250)
        ahead = ReadAhead(runtime.events, TOPICS, head, 100)
        try:
            first = ahead.read(0, set())  # the batch after its last event is now being read
            elsewhere = first[50][0]  # as when a batch stopped at its 51st event
            got = ahead.read(elsewhere, set())
        finally:
            ahead.close()
        assert [i for i, _ in got] == [i for i, _ in runtime.events.read(elsewhere, head, TOPICS, 100)]
        assert ahead.taken == 0
    finally:
        runtime.stop()
        pool.close()


def test_a_catch_up_reads_ahead_and_applies_each_event_once(fresh_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Picky, "catch_up_batch", 100)
    store, runtime, pool = make(fresh_db, [Picky(set())])
    threads: list[str] = []
    read = runtime.events.read

    def recorded(*args: Any, **kwargs: Any) -> Any:  # which thread read each batch
        threads.append(threading.current_thread().name)
        return read(*args, **kwargs)

    monkeypatch.setattr(runtime.events, "read", recorded)
    try:
        head = append_price_events(store, 450)  # prices 2..451
        assert runtime.catch_up("picky") == head
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 452))
        assert len(threads) == 5 and sum(t.startswith("launchdir-read-ahead") for t in threads) == 4
    finally:
        runtime.stop()
        pool.close()


def test_a_catch_up_stopped_at_an_event_mid_way_resumes_there_once_fixed(fresh_db: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch read ahead of the failing one starts at the wrong place: thrown away, nothing applied twice."""
    monkeypatch.setattr(Picky, "catch_up_batch", 100)
    picky = Picky({250})
    store, runtime, pool = make(fresh_db, [picky])
    try:
        head = append_price_events(store, 450)
        poison = id_of_price(runtime, 250)
        assert runtime.catch_up("picky") == poison - 1
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 250))
        picky.poison.clear()  # the code is fixed
        runtime.retry_now()
        assert runtime.catch_up("picky") == head
        assert prices(pool, runtime.tables("picky")["prices"]) == list(range(2, 452))
    finally:
        runtime.stop()
        pool.close()
