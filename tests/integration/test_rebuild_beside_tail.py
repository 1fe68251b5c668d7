"""A rebuild on one thread while the runner applies the tail on another, with the same projection object.

Projections keep a batch's rows on the projection object until `flush`
(`content_view`, `launches_view`, `history_view`, ...), and a rebuild in a
serving process fills the new generation on its own thread while the runner
applies new events to the active one with the same object. Two batches at
once would mix their kept rows; `projections/batches.py` lets one thread at a
time apply a batch with a given object.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from psycopg import Cursor

from events.catalog import ProductAdded, ProductPriceSet
from projections.base import Tables, handles
from tests.integration.tally import EventTally, append_price_events, make


class OverlapProbe(EventTally):
    """The tally, noting when two threads are between a batch's first event and its `flush` at once."""

    name = "overlap_probe"
    catch_up_batch = 5  # many small batches: many chances to meet

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.inside: set[int] = set()
        self.overlaps = 0

    @handles(ProductPriceSet, ProductAdded)
    def _seen(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        with self.guard:
            self.inside.add(threading.get_ident())
            self.overlaps += len(self.inside) > 1
        time.sleep(0.001)  # a handler that takes a moment, as a real one waiting on its connection does
        cur.execute(f"INSERT INTO {t['seen']} (stream, version, cents) VALUES (%s, %s, %s)",
                    (e.originator_id, e.originator_version, e.price_cents))

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        with self.guard:
            self.inside.discard(threading.get_ident())


def _seen(pool: Any, runtime: Any) -> tuple[int, int]:
    with pool.connection() as conn:
        row = conn.execute(f"SELECT count(*), count(DISTINCT (stream, version)) FROM {runtime.tables('overlap_probe')['seen']}").fetchone()
    return int(row[0]), int(row[1])


def test_a_rebuild_beside_the_tail_never_applies_two_batches_with_one_object_at_once(fresh_db: str) -> None:
    probe = OverlapProbe()
    store, runtime, pool = make(fresh_db, [probe])
    append_price_events(store, 300)
    runtime.catch_up("overlap_probe")
    done = threading.Event()
    errors: list[BaseException] = []

    def rebuild() -> None:
        try:
            runtime.rebuild("overlap_probe")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=rebuild)
    thread.start()
    tails = 0
    while not done.is_set():  # the runner's part: new events applied to the active generation as they come
        append_price_events(store, 5)
        runtime.catch_up("overlap_probe")
        tails += 1
    thread.join(timeout=60)
    runtime.catch_up("overlap_probe")
    assert not errors and tails >= 2
    assert probe.overlaps == 0
    total, distinct = _seen(pool, runtime)
    assert total == distinct >= 300  # every event once in the rebuilt generation
    pool.close()
