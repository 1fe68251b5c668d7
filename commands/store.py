"""The event store the handlers use: load a decider state, append its events, retry on conflict.

Wraps an `eventsourcing` application. States are immutable, so a small
in-process cache keeps the last state of each stream and only events newer
than it are read on the next load (the cache is never trusted for writes:
optimistic concurrency in the database decides).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError

from events.base import Event
from events.errors import Unavailable

log = logging.getLogger(__name__)
S = TypeVar("S")
R = TypeVar("R")

MAX_ATTEMPTS = 10


class Decider(Protocol[S]):
    """What `load` needs from an aggregate module."""

    def initial(self, stream_id: UUID) -> S: ...

    def evolve(self, event: Any, state: S) -> S: ...


class LaunchdirEvents(Application[UUID]):
    """The one event-sourced application: its events table is `launchdir_events`."""

    name = "launchdir"


class EventStore:
    """Loads decider states and appends events under optimistic concurrency."""

    def __init__(self, app: Application[UUID], ids: Any = None, cache_size: int = 2048) -> None:
        self.app = app
        self.ids = ids  # an IdAllocator (commands/ids.py); wired by the composition root
        self._cache: OrderedDict[tuple[UUID, int], Any] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._listeners: list[Callable[[int], None]] = []

    def on_append(self, listener: Callable[[int], None]) -> None:
        """Call `listener(position)` after each successful append (wakes in-process projectors)."""
        self._listeners.append(listener)

    def load(self, stream_id: UUID, initial: Callable[[UUID], S], evolve: Callable[[Any, Any], Any]) -> S:
        """Fold the stream's events into a state, starting from the cached state when there is one."""
        key = (stream_id, id(evolve))
        with self._lock:
            state = self._cache.get(key)
        if state is None:
            state = initial(stream_id)
        version = getattr(state, "version", 0)
        for event in self.app.events.get(stream_id, gt=version or None):
            state = evolve(event, state)  # evolve keeps the state's type (singledispatch hides it)
        with self._lock:
            self._cache[key] = state
            self._cache.move_to_end(key)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return state

    def append(self, events: Sequence[Event]) -> int:
        """Store the events atomically; return the notification position of the last one.

        Raises `IntegrityError` when another writer got there first; use `retrying`.
        With no events, returns the current head so callers can still wait on it.
        """
        if not events:
            return self.position()
        recordings = self.app.save(*events)
        position = max(r.notification.id for r in recordings)
        for listener in self._listeners:
            listener(position)
        return position

    def position(self) -> int:
        """The highest notification id stored so far (0 when empty)."""
        return self.app.recorder.max_notification_id() or 0

    def stream(self, stream_id: UUID) -> list[Event]:
        """Every event of one stream, oldest first (version history, audit)."""
        return list(self.app.events.get(stream_id))  # type: ignore[arg-type]


def retrying(attempt: Callable[[], R], attempts: int = MAX_ATTEMPTS) -> R:
    """Run load-decide-append again when a concurrent writer wins, a bounded number of times."""
    for n in range(1, attempts + 1):
        try:
            return attempt()
        except IntegrityError:
            log.info("concurrency conflict, attempt %d of %d", n, attempts)
            if n < attempts:
                time.sleep(random.uniform(0, min(0.2, 0.004 * 2**n)))  # jitter spreads racing writers apart
    raise Unavailable(f"the resource changed {attempts} times while we tried to update it; retry later")
