"""Public pages as a signed-out visitor sees them, kept until a projection they read moves.

A signed-out visitor's page carries nothing of the visitor: no session, no
CSRF token in its forms (vote, follow and review forms are sign-in links
then), no pressed buttons. So its body depends only on the address, the day
and the projections it reads, like the API's documents in the executor's
response cache, and is kept the same way: stamped with those projections'
positions and generations and dropped when any of them moves (every process
hears every move, `projections/runtime.py`). No single part of the listing
page's build dominated its CPU (the render, the reads, the hand-offs to worker
threads: docs/performance.md, "The website's pages"), so the whole page is
kept. What a signed-out visit still does per request (count a view, give a new
browser its CSRF cookie) stays with the caller.

When the process is busy (`api/in_flight.py`: a vote burst moves the
rankings with nearly every request), a page whose projections have moved is
still answered while it is at most `stale_seconds` old, so a page is rendered
at most a few times a second however many visitors ask for it, and the
renders stop queueing behind the votes. Past half that age the next visitor
still gets the kept page, and one render of it starts in the background
(`claim_refresh`): the renders, slow behind the votes for the interpreter lock,
are no visitor's wait, and the page kept is renewed before it is too old to
answer. A quiet process never answers an outdated page; a signed-in person's
pages are never kept at all, so whoever has just voted sees the vote
(docs/performance.md, "Pages under a burst").
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from projections.runtime import ProjectionRuntime

MAX_PAGES = 2_000
MAX_BYTES = 16 * 1024 * 1024  # bodies; a listing page is about 10-40 KiB
STALE_SECONDS = 0.5  # how old a kept page may be when the process is busy (LAUNCHDIR_BUSY_STALE_SECONDS)


@dataclass(frozen=True)
class CachedPage:
    """A rendered page: its body, the headers it was sent with (cookies excepted) and what it was about."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    listing_id: int | None = None  # the listing a page shows (its view is counted on every answer)


Key = tuple[str, str, date]  # path, raw query, the site's day
Stamp = tuple[tuple[int, int], ...]  # (position, generation) of each projection the page reads


@dataclass(frozen=True)
class Taken:
    """What a render is about to read: the projections' stamp, and when it was taken (monotonic seconds)."""

    stamp: Stamp
    at: float


def never_busy() -> bool:
    return False


class PageCache:
    """Bodies per (path, query, day), valid while `projections` stay where they were when it was rendered.

    `busy`: whether the process is busy now; then a page up to `stale_seconds` old is answered even though
    its projections have moved. `clock`: monotonic seconds.
    """

    def __init__(self, runtime: ProjectionRuntime, projections: tuple[str, ...], busy: Callable[[], bool] = never_busy,
                 stale_seconds: float = STALE_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.runtime = runtime
        self.projections = projections
        self.busy = busy
        self.stale_seconds = stale_seconds
        self.clock = clock
        self._pages: OrderedDict[Key, tuple[Taken, CachedPage]] = OrderedDict()
        self._bytes = 0
        self._refreshing: set[Key] = set()
        self._lock = threading.Lock()

    def stamp(self) -> Stamp:
        positions, generations = self.runtime.positions, self.runtime.generations
        return tuple((positions.get(p, 0), generations.get(p, 0)) for p in self.projections)

    def take(self) -> Taken:
        """The stamp and time to render a page at (before its first read)."""
        return Taken(self.stamp(), self.clock())

    def get(self, key: Key) -> CachedPage | None:
        """The kept page while its projections are where they were, or, when busy, while it is young enough."""
        with self._lock:
            entry = self._pages.get(key)
            if entry is None:
                return None
            taken, page = entry
            if taken.stamp != self.stamp() and not (self.busy() and self.clock() - taken.at <= self.stale_seconds):
                self._drop(key)
                return None
            self._pages.move_to_end(key)
            return page

    def claim_refresh(self, key: Key) -> bool:
        """Whether the caller should render `key` again in the background now (then it must `release` it).

        True once per kept page whose projections have moved, while the process is busy, when it is
        older than half of `stale_seconds` and no other render of it is under way.
        """
        with self._lock:
            entry = self._pages.get(key)
            if entry is None or key in self._refreshing or entry[0].stamp == self.stamp():
                return False
            if not self.busy() or self.clock() - entry[0].at < self.stale_seconds / 2:
                return False
            self._refreshing.add(key)
            return True

    def release(self, key: Key) -> None:
        """The background render claimed for `key` has ended (kept with `put`, or failed)."""
        with self._lock:
            self._refreshing.discard(key)

    def put(self, key: Key, taken: Taken, page: CachedPage) -> None:
        """Keep `page`, rendered from what `taken` stamped, unless a younger render is kept already.

        A page whose projections moved while it was rendered is kept with the older stamp: a quiet
        process drops it at the next `get`, a busy one may answer it while it is young enough.
        """
        with self._lock:
            kept = self._pages.get(key)
            if kept is not None and kept[0].at > taken.at:
                return
            self._drop(key)
            self._pages[key] = (taken, page)
            self._bytes += len(page.body)
            while self._pages and (len(self._pages) > MAX_PAGES or self._bytes > MAX_BYTES):
                self._drop(next(iter(self._pages)))

    def _drop(self, key: Key) -> None:
        entry = self._pages.pop(key, None)
        if entry is not None:
            self._bytes -= len(entry[1].body)
