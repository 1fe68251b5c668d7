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
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date

from projections.runtime import ProjectionRuntime

MAX_PAGES = 2_000
MAX_BYTES = 16 * 1024 * 1024  # bodies; a listing page is about 10-40 KiB


@dataclass(frozen=True)
class CachedPage:
    """A rendered page: its body, the headers it was sent with (cookies excepted) and what it was about."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    listing_id: int


Key = tuple[str, str, date]  # path, raw query, the site's day
Stamp = tuple[tuple[int, int], ...]  # (position, generation) of each projection the page reads


class PageCache:
    """Bodies per (path, query, day), valid while `projections` stay where they were when it was rendered."""

    def __init__(self, runtime: ProjectionRuntime, projections: tuple[str, ...]) -> None:
        self.runtime = runtime
        self.projections = projections
        self._pages: OrderedDict[Key, tuple[Stamp, CachedPage]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def stamp(self) -> Stamp:
        positions, generations = self.runtime.positions, self.runtime.generations
        return tuple((positions.get(p, 0), generations.get(p, 0)) for p in self.projections)

    def get(self, key: Key) -> CachedPage | None:
        with self._lock:
            entry = self._pages.get(key)
            if entry is None:
                return None
            if entry[0] != self.stamp():
                self._drop(key)
                return None
            self._pages.move_to_end(key)
            return entry[1]

    def put(self, key: Key, stamp: Stamp, page: CachedPage) -> None:
        """Keep `page` rendered at `stamp`; not kept when a projection moved while it was rendered."""
        with self._lock:
            if stamp != self.stamp():
                return
            self._drop(key)
            self._pages[key] = (stamp, page)
            self._bytes += len(page.body)
            while self._pages and (len(self._pages) > MAX_PAGES or self._bytes > MAX_BYTES):
                self._drop(next(iter(self._pages)))

    def _drop(self, key: Key) -> None:
        entry = self._pages.pop(key, None)
        if entry is not None:
            self._bytes -= len(entry[1].body)
