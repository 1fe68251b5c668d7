"""The one-round-trip recorder on real PostgreSQL: order of the log, conflicts, connections left clean."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest
from eventsourcing.persistence import IntegrityError

from aggregates import catalog
from aggregates.base import Meta
from commands import community as community_cmd
from commands.catalog import current_catalog
from commands.event_recorder import OneTripRecorder

META = Meta(at=datetime(2026, 11, 16, tzinfo=timezone.utc), actor="staff:test", channel="cli")


def test_the_application_appends_through_the_one_trip_recorder(container) -> None:  # type: ignore[no-untyped-def]
    assert type(container.store.app.recorder) is OneTripRecorder


def test_a_tailing_reader_sees_every_append_of_concurrent_writers(container) -> None:  # type: ignore[no-untyped-def]
    """Commit order is notification-id order: a reader that only ever asks for ids above the last it saw misses none."""
    store, recorder = container.store, container.store.app.recorder
    start = store.position()
    appended: list[int] = []
    errors: list[BaseException] = []
    done = threading.Event()
    seen: list[int] = []

    def writer(n: int) -> None:
        try:
            for i in range(25):
                appended.append(community_cmd.count_views(store, {n * 100 + i: 1}, META))
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    def tail() -> None:
        last = start
        while True:
            finished = done.is_set()
            batch = recorder.select_notifications(start=last + 1, limit=1000)
            seen.extend(n.id for n in batch)
            last = batch[-1].id if batch else last
            if finished and not batch:
                return

    reader = threading.Thread(target=tail)
    reader.start()
    writers = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    done.set()
    reader.join(timeout=30)
    assert errors == []
    assert len(appended) == 200
    assert seen == sorted(seen)
    assert set(appended) <= set(seen)  # nothing committed below a position the reader had passed
    assert store.position() == max(appended)


def test_a_conflict_is_an_integrity_error_and_stores_nothing(container) -> None:  # type: ignore[no-untyped-def]
    """A duplicate version raises the library's IntegrityError (what `retrying` catches), and the next append lands."""
    stale = current_catalog(container.store)
    container.store.append(catalog.decide_set_price(stale, "launch", 1111, META))
    head = container.store.position()
    for _ in range(3):
        with pytest.raises(IntegrityError):
            container.store.append(catalog.decide_set_price(stale, "launch", 2222, META))
    assert container.store.position() == head
    fresh = current_catalog(container.store)
    position = container.store.append(catalog.decide_set_price(fresh, "launch", 3333, META))
    assert position == container.store.position() > head
    assert current_catalog(container.store).products["launch"].price_cents == 3333
