"""Generation rows: the channel moves are announced on, the advisory locks, and creating a generation.

Each projection has one row per generation in `launchdir_projections`
(`projections/failures.py` holds its DDL). A runtime creates the first
generation at set-up and a rebuild creates the next; both announce changes on
one `NOTIFY` channel that every process's runtime listens to. The payloads are
`kind:name:generation:value`, where kind is `move`, `fail`, `retry` or
`switch`. Each row records the `Projection.shape` of the code that created the
generation (`STORED_SHAPE` reads rows from before that column as shape 1).
"""

from __future__ import annotations

from typing import Any

import psycopg

from projections.base import Projection, Tables
from projections.failures import META, code_fingerprint

CHANNEL = "launchdir_projections"
SETUP_LOCK = 7311001  # advisory lock of set-up and of creating generations
REBUILD_LOCK = 7311003  # with hashtext(name): held by the process rebuilding that projection
STORED_SHAPE = "coalesce(shape, 1)"  # a generation's shape in SQL: rows created before shapes were recorded hold 1


def create_generation(conn: psycopg.Connection[Any], p: Projection, gen: int, status: str) -> Tables:
    """Create generation `gen` of `p`: fresh tables (dropping leftovers of that number) and its row at position 0.

    The row records the code's fingerprint (a rebuild resumes only the same code) and its shape (a lower one
    than the code's later makes the projection rebuild itself, `projections/reshape.py`).
    """
    tables = Tables(p.name, gen, p.tables)
    with conn.cursor() as cur:
        for table in tables.all():
            cur.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
        p.create(cur, tables)
        cur.execute(
            f"INSERT INTO {META} (name, generation, position, status, code, shape) VALUES (%s, %s, 0, %s, %s, %s)",
            (p.name, gen, status, code_fingerprint(p), p.shape),
        )
    return tables
