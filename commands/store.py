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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError

from aggregates.base import Decider
from events.base import Event
from events.errors import Unavailable

log = logging.getLogger(__name__)
S = TypeVar("S")
R = TypeVar("R")

MAX_ATTEMPTS = 10


@dataclass(frozen=True)
class Appended:
    """What one decision stored: its events (ids of new parts are on them) and the log position.

    `states` are the states the stored decision was made on, by stream id, for
    answers that need more than the events (a token's resource, a draft's listing).
    """

    events: Sequence[Event]
    position: int
    states: Mapping[UUID, Any] = field(default_factory=dict)


class Loader(Protocol):
    """What a decision spanning several streams uses to read them (each stream loaded once per attempt)."""

    def __call__(self, stream_id: UUID, decider: Decider[S]) -> S: ...


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

    def load(self, stream_id: UUID, decider: Decider[S]) -> S:
        """Fold the stream's events into a state, starting from the cached state when there is one.

        `decider` is an aggregate module or a `StreamKind` (`aggregates/base.py`); the cache is
        keyed by its `evolve`, so two kinds of state never share an entry.
        """
        key = (stream_id, id(decider.evolve))
        with self._lock:
            state = self._cache.get(key)
        if state is None:
            state = decider.initial(stream_id)
        version = getattr(state, "version", 0)
        for event in self.app.events.get(stream_id, gt=version or None):
            state = decider.evolve(event, state)
        with self._lock:
            self._cache[key] = state
            self._cache.move_to_end(key)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return state

    def decide(self, stream_id: UUID, decider: Decider[S], decision: Callable[[S], Sequence[Event]]) -> Appended:
        """Load the stream once, decide, append under optimistic concurrency; on a conflict do it all again.

        The one load-decide-append of every handler. A decision that returns
        no events stores nothing and answers the current head.
        """
        def attempt() -> Appended:
            state = self.load(stream_id, decider)
            return self._append(decision(state), {stream_id: state})

        return retrying(attempt)

    def decide_across(self, decision: Callable[[Loader], Sequence[Event]]) -> Appended:
        """A decision over several streams: its events are appended in one transaction, or none are.

        `decision(load)` reads each stream it needs through `load(stream_id, decider)`;
        a conflict on any of them runs the whole decision again on fresh states.
        """
        def attempt() -> Appended:
            states: dict[UUID, Any] = {}

            def load(stream_id: UUID, decider: Decider[S]) -> S:
                states[stream_id] = state = self.load(stream_id, decider)
                return state

            return self._append(decision(load), states)

        return retrying(attempt)

    def _append(self, events: Sequence[Event], states: Mapping[UUID, Any]) -> Appended:
        return Appended(list(events), self.append(events), states)

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
