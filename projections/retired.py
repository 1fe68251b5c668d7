"""Dropping a projection's retired generations without stalling or deadlocking their last readers.

After a rebuild switches, other processes hear the switch (NOTIFY) within
milliseconds, but a read that resolved the old tables just before may still be
running, in a transaction that holds a share lock on some of them and will
ask for others (a search reads `search`, then `listings`). Dropping the tables
one by one with waiting locks deadlocked with such a read (the drop held the
first table and waited for the second, the read held the second and asked for
the first) and, while it waited, queued every new read of those tables behind
it. So the drop waits `grace` after the switch (every process has moved on by
then), then takes all the generation's tables at once with `NOWAIT`, and when
any is still in use lets go of everything and tries again shortly: it never
waits holding a lock, and no reader ever waits for it. A generation still in
use after `patience` stays retired (logged) and the next rebuild drops it.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from projections.base import Projection, Tables
from projections.ddl import exists
from projections.failures import META

log = logging.getLogger(__name__)

DROP_GRACE = 1.0  # seconds from the switch to the first attempt (a switch is heard within milliseconds)
DROP_PATIENCE = 60.0  # seconds of attempts before a generation in use is left to the next rebuild
RETRY_EVERY = 0.05  # seconds between attempts while the last readers finish


def drop_retired(pool: ConnectionPool, projection: Projection, grace: float = DROP_GRACE,
                 patience: float = DROP_PATIENCE) -> list[int]:
    """Drop every retired generation of `projection` (this rebuild's and any an earlier one left); the dropped."""
    name = projection.name
    with pool.connection() as conn:
        retired = [int(r[0]) for r in conn.execute(
            f"SELECT generation FROM {META} WHERE name=%s AND status='retired' ORDER BY generation", (name,)
        ).fetchall()]
    if not retired:
        return []
    time.sleep(grace)
    deadline = time.monotonic() + patience
    dropped = []
    for gen in retired:
        if _drop_when_free(pool, name, Tables(name, gen, projection.tables), gen, deadline):
            dropped.append(gen)
        else:
            log.warning("%s: generation %d is still read after %.0f s; it stays retired and the next rebuild "
                        "drops it", name, gen, patience)
    return dropped


def _no_longer_named(conn: psycopg.Connection[Any], name: str, gen: int) -> set[str]:
    """The generation's tables its projection no longer names: made by an older release that kept more tables
    (a `listing_view` generation made before the search view had its own `search` and `words`)."""
    prefix = f"{name}_g{gen}_".replace("_", "\\_")
    rows = conn.execute("SELECT c.relname FROM pg_class c WHERE c.relkind = 'r' AND c.relname LIKE %s "
                        "AND pg_table_is_visible(c.oid)", (prefix + "%",)).fetchall()
    return {str(r[0]) for r in rows}


def _drop_when_free(pool: ConnectionPool, name: str, tables: Tables, gen: int, deadline: float) -> bool:
    while True:
        try:
            with pool.connection() as conn, conn.transaction():
                # The generation's row first, as a batch takes it before its tables: a batch still applying to the
                # retired generation finishes first (or finds the row gone); only this waits, and holds nothing.
                conn.execute("SET LOCAL lock_timeout = '10s'")
                if conn.execute(f"SELECT 1 FROM {META} WHERE name=%s AND generation=%s AND status='retired' "
                                "FOR UPDATE", (name, gen)).fetchone() is None:
                    return True  # another process dropped it
                present = sorted({t for t in tables.all() if exists(conn, t)} | _no_longer_named(conn, name, gen))
                if present:
                    conn.execute(f"LOCK TABLE {', '.join(present)} IN ACCESS EXCLUSIVE MODE NOWAIT")
                for table in present:
                    conn.execute(f"DROP TABLE {table} CASCADE")
                conn.execute(f"DELETE FROM {META} WHERE name=%s AND generation=%s", (name, gen))
            return True
        except psycopg.errors.LockNotAvailable:
            if time.monotonic() >= deadline:
                return False
            time.sleep(RETRY_EVERY)
