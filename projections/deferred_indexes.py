"""A rebuild fills its generation without GIN indexes and builds them once, before the switch.

A GIN index (full text, trigrams, arrays, jsonb) costs far more to keep up
row by row than to build in one pass over a filled table, and a rebuild
writes every row of its generation. So a new building generation's GIN
indexes are dropped as soon as its tables exist, their definitions are kept
in `launchdir_projection_deferred_indexes` (so a resumed rebuild still knows
them), and they are made again, in bulk, just before the generation serves.
Unique and b-tree indexes stay: handlers look rows up by them and `ON
CONFLICT` needs the unique ones. A handler that searches by a GIN index
during a rebuild (a renamed category) scans instead, which is rare. A
projection whose handlers never read a table by its other b-tree indexes
(only queries do: `search_view`'s sort orders) names that table in
`deferred_btrees`, and those are deferred too: kept up row by row, the
search table's seven of them cost about a tenth of its catch-up
(docs/performance.md, "Sort indexes built after the catch-up").
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from projections.base import Tables

DEFERRED = "launchdir_projection_deferred_indexes"
DDL = f"CREATE TABLE IF NOT EXISTS {DEFERRED} (name text NOT NULL, generation int NOT NULL, definition text NOT NULL)"
BUILD_MEMORY = "256MB"  # maintenance_work_mem of the one transaction that builds them


def defer(conn: psycopg.Connection[Any], name: str, tables: Tables, btrees: Iterable[str] = ()) -> int:
    """Drop the GIN indexes of a new generation's tables, and the non-unique b-tree indexes of its tables named in
    `btrees` (short names: the projection's `deferred_btrees`), keeping their definitions; return how many."""
    conn.execute(DDL)
    rows = conn.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_am a ON a.oid = x.relam "
        "WHERE i.indrelid = ANY(%s::regclass[]) AND NOT i.indisunique "
        "AND (a.amname = 'gin' OR (a.amname = 'btree' AND i.indrelid = ANY(%s::regclass[])))",
        (tables.all(), [tables[b] for b in btrees]),
    ).fetchall()
    for index, definition in rows:
        conn.execute(f"INSERT INTO {DEFERRED} (name, generation, definition) VALUES (%s, %s, %s)",
                     (name, tables.generation, definition))
        conn.execute(f"DROP INDEX {index}")
    return len(rows)


def build(conn: psycopg.Connection[Any], name: str, generation: int) -> int:
    """Make the deferred indexes of a generation (in the caller's transaction); return how many."""
    conn.execute(DDL)
    rows = conn.execute(f"DELETE FROM {DEFERRED} WHERE name = %s AND generation = %s RETURNING definition",
                        (name, generation)).fetchall()
    if rows:
        conn.execute(f"SET LOCAL maintenance_work_mem = '{BUILD_MEMORY}'")
    for (definition,) in rows:
        conn.execute(definition)
    return len(rows)


WORKERS = 2
"""Indexes built at once by `build_in_parallel` (each by its own connection, so its own PostgreSQL process)."""


def build_in_parallel(pool: ConnectionPool, name: str, generation: int, workers: int = WORKERS) -> int:
    """Make the deferred indexes of a generation `workers` at a time, each in its own transaction; return how many.

    At the end of a long catch-up nothing else runs: one build after the other
    kept one PostgreSQL process busy while the catching-up process waited
    (`listing_view`: seven GIN indexes, the full-text one half the time of
    all). Each definition is deleted in the transaction that makes its index,
    so an interruption leaves exactly the ones still to build (`build` makes
    them on the next start, or the resumed rebuild here).
    """
    with pool.connection() as conn:
        conn.execute(DDL)
        rows = conn.execute(f"SELECT definition FROM {DEFERRED} WHERE name = %s AND generation = %s",
                            (name, generation)).fetchall()
    definitions = sorted((str(r[0]) for r in rows), key=lambda d: " USING gin " not in d)  # the longest first

    def one(definition: str) -> int:
        with pool.connection() as conn, conn.transaction():
            taken = conn.execute(f"DELETE FROM {DEFERRED} WHERE name = %s AND generation = %s AND definition = %s "
                                 "RETURNING 1", (name, generation, definition)).fetchone()
            if taken is None:  # built meanwhile by another process
                return 0
            conn.execute(f"SET LOCAL maintenance_work_mem = '{BUILD_MEMORY}'")
            conn.execute(definition)
            return 1

    if len(definitions) <= 1:
        return sum(one(d) for d in definitions)
    with ThreadPoolExecutor(max_workers=workers) as builders:
        return sum(builders.map(one, definitions))


def forget(conn: psycopg.Connection[Any], name: str, generation: int) -> None:
    """A building generation thrown away: its deferred definitions go with it."""
    conn.execute(DDL)
    conn.execute(f"DELETE FROM {DEFERRED} WHERE name = %s AND generation = %s", (name, generation))
