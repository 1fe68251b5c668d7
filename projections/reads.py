"""Read access for queries: active table names, connections, and a document cache.

The cache keeps finished responses per projection and drops them the moment
that projection moves, so a hot read costs no database round trip and is
never older than the projection itself.

Queries read through `pool`: the primary, or a streaming replica when one is
configured (`projections/replica.py`: the runtime then counts a move once the
replica has replayed it, so waits and the cache agree with what the replica
answers). What writes (sessions, keys, secrets, the search index's position)
uses `primary`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from psycopg_pool import ConnectionPool

from projections.base import Tables
from projections.replica import ReadPool
from projections.runtime import ProjectionRuntime

T = TypeVar("T")
MAX_ENTRIES = 10_000


class ReadStore:
    """What a query needs to read projections."""

    def __init__(self, pool: ConnectionPool, runtime: ProjectionRuntime, replica: ConnectionPool | None = None) -> None:
        """`pool`: the primary's; `replica`: a streaming replica's, read from while the runtime finds it caught up."""
        gate = runtime.replica
        self.primary = pool
        self.pool = ReadPool(pool, replica if gate is not None else None, (lambda: gate.on_replica) if gate else None)
        self.runtime = runtime
        self._cache: dict[str, dict[Hashable, Any]] = {}
        self._lock = threading.Lock()
        runtime.on_move(self._invalidate)

    def close(self) -> None:
        """Stop watching the replica and close its pool (the primary's belongs to the container)."""
        if self.runtime.replica is not None:
            self.runtime.replica.close()
        self.pool.close()

    def tables(self, projection: str) -> Tables:
        return self.runtime.tables(projection)

    def position(self, projection: str) -> int:
        return self.runtime.positions.get(projection, 0)

    def _invalidate(self, projection: str, _position: int) -> None:
        with self._lock:
            self._cache.pop(projection, None)

    def cached(self, projections: tuple[str, ...], key: Hashable, compute: Callable[[], T]) -> T:
        """Return the cached value for `key`, computing it when any of `projections` has moved."""
        first = projections[0]
        with self._lock:
            hit = self._cache.get(first, {}).get(key)
        if hit is not None and hit[0] == self._positions(projections):
            return hit[1]  # type: ignore[no-any-return]
        before = self._positions(projections)
        value = compute()
        if self._positions(projections) == before:
            with self._lock:
                bucket = self._cache.setdefault(first, {})
                if len(bucket) >= MAX_ENTRIES:
                    bucket.clear()
                bucket[key] = (before, value)
        return value

    def _positions(self, projections: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(self.runtime.positions.get(p, 0) for p in projections)
