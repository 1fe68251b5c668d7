"""Counting listing views without a database write per read.

get_listing calls `ViewCounter.hit(listing_id)`: a dictionary increment under
a lock. A flusher thread turns the tally into one `ListingViewsCounted` event
every `interval` seconds (and once more at shutdown), so most_viewed moves with
one append per interval whatever the traffic. A failed flush puts its counts
back, so views are delayed, never lost while the process lives; a crash loses
at most one interval of views.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from aggregates.base import Meta
from commands import community
from commands.store import EventStore
from projections.periodic import Periodic

log = logging.getLogger(__name__)


class ViewCounter:
    """A thread-safe in-memory tally of views per listing id."""

    def __init__(self) -> None:
        self._counts: dict[int, int] = {}
        self._lock = threading.Lock()

    def hit(self, listing_id: int, n: int = 1) -> None:
        with self._lock:
            self._counts[listing_id] = self._counts.get(listing_id, 0) + n

    def take(self) -> dict[int, int]:
        """Hand over the tally and start a new one."""
        with self._lock:
            counts, self._counts = self._counts, {}
        return counts

    def put_back(self, counts: dict[int, int]) -> None:
        with self._lock:
            for listing_id, n in counts.items():
                self._counts[listing_id] = self._counts.get(listing_id, 0) + n

    def pending(self) -> int:
        with self._lock:
            return sum(self._counts.values())


class ViewFlusher:
    """Appends the counter's tally as one event every `interval` seconds, in a daemon thread."""

    def __init__(self, counter: ViewCounter, store: EventStore, meta: Callable[[], Meta], interval: float = 30.0) -> None:
        self.counter = counter
        self.store = store
        self.meta = meta
        self.interval = interval
        self._loop = Periodic("view-flusher", interval, self.flush, final=self.flush)

    def flush(self) -> int | None:
        """Append the current tally now; the event's position, or None when there was nothing to count."""
        counts = self.counter.take()
        if not counts:
            return None
        try:
            return community.count_views(self.store, counts, self.meta())
        except Exception:
            self.counter.put_back(counts)
            raise

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        """Stop the thread and flush what is left."""
        self._loop.stop()
