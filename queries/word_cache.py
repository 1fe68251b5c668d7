"""Typo corrections and completions of single words, kept until the search vocabulary may have changed.

Queries share words far more often than whole texts (a search box sees
`notion`, `notin` and `notion calendar`), so a correction is kept per word,
not per query. Correcting an unknown word costs a trigram search over the
whole vocabulary in PostgreSQL and, for words the close step misses, several
hundred one-edit variants looked up in the btree: a few milliseconds of the
server's CPU and the database's per search (docs/performance.md, "Search under
distinct queries"). The vocabulary lives in the search view, so every entry
is stamped with that view's position and generation and dropped when they
move, like the read store's documents: a cached word is never older than the
vocabulary it was corrected against.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping

from projections.reads import ReadStore

VIEW = "search_view"
Key = tuple[str, str]  # (what, word): ("fix", word) or ("begins", word)
MAX_WORDS = 20_000  # entries per read store; the whole cache is dropped when it fills (a few MiB at most)


class WordCache:
    """Values per word, valid for one position and generation of the search view."""

    def __init__(self, reads: ReadStore) -> None:
        self.reads = reads
        self._stamp: tuple[int, int] = (-1, -1)
        self._values: dict[Key, object] = {}
        self._lock = threading.Lock()

    def stamp(self) -> tuple[int, int]:
        """The vocabulary's version as this process knows it: the view's position and generation."""
        runtime = self.reads.runtime
        return runtime.positions.get(VIEW, 0), runtime.generations.get(VIEW, 0)

    def get(self, key: Key) -> object | None:
        with self._lock:
            if self._stamp != self.stamp():
                return None
            return self._values.get(key)

    def put(self, stamp: tuple[int, int], values: Mapping[Key, object]) -> None:
        """Keep `values` computed at `stamp`; values computed before the view moved are not kept."""
        with self._lock:
            if stamp != self.stamp():
                return
            if stamp != self._stamp or len(self._values) + len(values) > MAX_WORDS:
                self._values, self._stamp = {}, stamp
            self._values.update(values)


_caches: weakref.WeakKeyDictionary[ReadStore, WordCache] = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


def word_cache(reads: ReadStore) -> WordCache:
    """The one cache of this read store (one per process and database)."""
    with _caches_lock:
        cache = _caches.get(reads)
        if cache is None:
            cache = _caches[reads] = WordCache(reads)
        return cache
