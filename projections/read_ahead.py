"""A catch-up's next batch of the log, read while the current batch is applied.

A catch-up alternates two halves: reading and decoding a batch of the log
(Python, about 16 µs an event at 100,000 listings) and applying it (Python,
then PostgreSQL writing the rows and committing while Python waits). Done
one after the other, the machine's second core idles through both. The next
batch starts where the current one ends (its last event, or the catch-up's
target), which is known before the current batch is applied, so it is read
in a thread meanwhile: the decoding runs while PostgreSQL writes.

Nothing read ahead is trusted blindly: a batch is taken only when the
projection's position is exactly where it was read from (a batch that
stopped at an event, or a generation moved by another runner, starts
somewhere else, and the read is thrown away and done again from there).
The read itself is the same `EventLog.read` a step makes, so the events
and their order are the same with or without it
(`tests/integration/test_read_ahead.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from projections.log import EventLog

Notes = list[tuple[int, Any]]


class ReadAhead:
    """Reads one projection's batches of (after, upto], each next one in a thread while the caller applies it."""

    def __init__(self, events: EventLog, topics: Sequence[str], upto: int, limit: int) -> None:
        self._events = events
        self._topics = topics
        self._upto = upto
        self._limit = limit
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="launchdir-read-ahead")
        self._pending: tuple[int, Future[tuple[Notes, set[int]]]] | None = None
        self.taken = 0  # batches served from a read made ahead (tests, benchmarks)

    def read(self, after: int, clean: set[int]) -> Notes:
        """The batch after `after` (ids of its events known clean added to `clean`); the next one starts reading."""
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] == after:
            notes, known = pending[1].result()
            clean |= known
            self.taken += 1
        else:
            if pending is not None:
                self._discard(pending[1])
            notes = self._events.read(after, self._upto, self._topics, self._limit, clean)
        end = notes[-1][0] if len(notes) == self._limit else self._upto
        if end < self._upto:
            self._pending = (end, self._pool.submit(self._read, end))
        return notes

    def close(self) -> None:
        """Wait for a read in flight (its connection goes back to the pool) and end the thread."""
        if self._pending is not None:
            self._discard(self._pending[1])
            self._pending = None
        self._pool.shutdown(wait=True)

    def _read(self, after: int) -> tuple[Notes, set[int]]:
        clean: set[int] = set()
        return self._events.read(after, self._upto, self._topics, self._limit, clean), clean

    @staticmethod
    def _discard(future: Future[tuple[Notes, set[int]]]) -> None:
        """A read nobody will use: wait for it, and drop what it read or raised (the caller reads again)."""
        try:
            future.result()
        except Exception:  # noqa: BLE001 - the batch is read again from the right place, which reports a real failure
            pass
