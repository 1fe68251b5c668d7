"""Integer ids for resources the spec numbers (listings, claims, orders), from PostgreSQL sequences."""

from __future__ import annotations

import re

from psycopg_pool import ConnectionPool

NAME = re.compile(r"^[a-z_]{1,40}$")


class IdAllocator:
    """`next("listing")` returns 1, 2, 3...; gaps after failed commands are harmless."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool
        self._made: set[str] = set()

    def next(self, kind: str) -> int:
        return self.next_many(kind, 1)[0]

    def next_many(self, kind: str, n: int) -> list[int]:
        """`n` fresh ids in one round trip (batched creation)."""
        if not NAME.match(kind):
            raise ValueError(f"bad id kind {kind!r}")
        sequence = f"launchdir_{kind}_ids"
        with self._pool.connection() as conn:
            if kind not in self._made:
                with conn.transaction():  # CREATE ... IF NOT EXISTS still races without the lock
                    conn.execute("SELECT pg_advisory_xact_lock(7311002)")
                    conn.execute(f"CREATE SEQUENCE IF NOT EXISTS {sequence}")
                self._made.add(kind)
            rows = conn.execute(f"SELECT nextval('{sequence}') FROM generate_series(1, %s)", (n,)).fetchall()
        return [int(r[0]) for r in rows]
