"""Pooled connections lent in autocommit: one round trip per read statement instead of three.

The pools' connections start a transaction on their first statement (psycopg
sends `BEGIN` and waits for it) and the pool's context commits on the way out,
so a read of one row cost three round trips, two of them for nothing: in READ
COMMITTED each statement reads its own snapshot whether or not a transaction
is open. Measured on one pooled connection: 341 against 144 µs of wall time and
168 against 73 µs of client CPU per `SELECT 1` (docs/performance.md, "Reads in
autocommit"). Under a burst every round trip also gives up the interpreter lock
and waits to take it back, so the saving counts twice there.

A reader that needs a transaction (transaction-local settings, as search's
forced plans) opens one itself with `conn.transaction()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool


@contextmanager
def autocommit(pool: ConnectionPool, timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
    """A connection of `pool` in autocommit, given back in the pool's own mode for its other users (writers)."""
    with pool.connection(timeout) as conn:
        conn.autocommit = True
        try:
            yield conn
        finally:
            try:
                conn.autocommit = False
            except psycopg.Error:
                pass  # a broken connection: the pool discards it
