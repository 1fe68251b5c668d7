"""Arrays built by `projections.binary_arrays` arrive in PostgreSQL as the driver's own arrays of the same values."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any
from uuid import UUID

import psycopg

from projections import binary_arrays, bulk

COLUMNS = (("i", "int"), ("b", "bigint"), ("f", "float8"), ("t", "text"), ("j", "jsonb"), ("y", "bool"),
           ("u", "uuid"), ("at", "timestamptz"), ("d", "date"))
ROWS = [
    (1, 2**40, 0.1, "plain", {"a": [1, 2.5, None], "é": "ü"}, True, "9b2f6d1e-3c4a-4f5b-8a6c-7d8e9f0a1b2c",
     "2026-11-18T12:00:00+00:00", "2026-11-16"),
    (-2**31, -1, -1e300, "", [], False, None, None, None),
    (None, None, None, None, None, None, None, None, None),
    (7, 0, float("inf"), "naïve — “quoted” 日本", {"big": 2**70}, True, "00000000-0000-0000-0000-000000000000",
     "2026-01-01T00:00:00.123456+02:00", "1999-12-31"),
]


def _stored(cur: psycopg.Cursor[Any], params: list[Any]) -> list[tuple[Any, ...]]:
    """The rows as PostgreSQL reads them, as text (what a table would hold)."""
    names = ", ".join(f"{name}::text" for name, _ in COLUMNS)
    return cur.execute(f"SELECT {names} FROM {bulk.unnested(COLUMNS)}",  # a function scan keeps the order
                       params).fetchall()


def test_encoded_arrays_hold_what_the_drivers_arrays_hold(session_db: str) -> None:
    with psycopg.connect(session_db) as conn, conn.cursor() as cur:
        wrapped = [tuple(bulk.jsonb(v) if kind == "jsonb" and v is not None else v
                         for v, (_, kind) in zip(row, COLUMNS, strict=True)) for row in ROWS]
        expected = _stored(cur, bulk.params(wrapped, len(COLUMNS)))  # the driver's own arrays
        got = _stored(cur, binary_arrays.columns(cur, COLUMNS, ROWS))
        assert got == expected
        assert got[0][4] == '{"a": [1, 2.5, null], "é": "ü"}' and got[2] == (None,) * len(COLUMNS)


def test_ids_and_aware_times_go_in_binary_and_anything_else_as_text(session_db: str) -> None:
    """UUIDs and aware datetimes are sent in PostgreSQL's binary form; strings, naive times and dates as text."""
    objects = [
        (1, 0, 0.0, "a", None, True, UUID("9b2f6d1e-3c4a-4f5b-8a6c-7d8e9f0a1b2c"),
         datetime(2026, 11, 18, 12, 0, tzinfo=timezone.utc), date(2026, 11, 16)),
        (2, 0, 0.0, "b", None, True, UUID(int=0), datetime(1999, 12, 31, 23, 59, 59, 999999,
                                                          tzinfo=timezone(timedelta(hours=-5))), date(1999, 12, 31)),
        (3, 0, 0.0, "c", None, True, None, None, None),
        (4, 0, 0.0, "d", None, True, UUID(int=2**128 - 1), datetime(2026, 1, 1, 0, 0, 0, 123456,
                                                                     tzinfo=timezone(timedelta(hours=2))), date(1, 1, 1)),
    ]
    mixed = [row[:6] + ("00000000-0000-0000-0000-000000000001", datetime(2026, 11, 18, 12, 0), "2026-11-16")
             for row in objects[:2]]
    mixed += [row[:6] + (UUID(int=5), date(2026, 11, 18), date(2026, 11, 17)) for row in objects[2:]]
    with psycopg.connect(session_db) as conn, conn.cursor() as cur:
        cur.execute("SET TIME ZONE 'Europe/Paris'")  # a naive time is read in the session's zone, as the driver's is
        # the driver's own arrays of the objects, and of the mixed columns' texts (it dumps no mixed list)
        expected = _stored(cur, bulk.params(objects, len(COLUMNS)))
        assert _stored(cur, binary_arrays.columns(cur, COLUMNS, objects)) == expected
        as_text = [row[:6] + tuple(None if v is None else str(v) for v in row[6:]) for row in mixed]
        assert _stored(cur, binary_arrays.columns(cur, COLUMNS, mixed)) == _stored(cur, bulk.params(as_text, len(COLUMNS)))
        assert expected[1][7] == "2000-01-01 05:59:59.999999+01"  # before PostgreSQL's epoch, in the session's zone
        binary = binary_arrays.columns(cur, COLUMNS, objects)
        assert [type(a).oid for a in binary[6:]] == [2951, 1185, 1182]  # uuid[], timestamptz[], date[]
        assert [type(a).oid for a in binary_arrays.columns(cur, COLUMNS, mixed)[6:]] == [1009] * 3  # text[]


def test_no_rows_make_empty_arrays(session_db: str) -> None:
    with psycopg.connect(session_db) as conn, conn.cursor() as cur:
        params = binary_arrays.columns(cur, COLUMNS, [])
        assert cur.execute(f"SELECT count(*) FROM {bulk.unnested(COLUMNS)}", params).fetchone() == (0,)


def test_insert_writes_the_rows_bulk_insert_writes_and_applies_its_tail(session_db: str) -> None:
    """`binary_arrays.insert` takes plain values for `jsonb` where `bulk.insert` takes `Jsonb`; the tables agree."""
    definition = ", ".join(f"{name} {kind}" for name, kind in COLUMNS)
    with psycopg.connect(session_db) as conn, conn.cursor() as cur:
        cur.execute(f"CREATE TEMP TABLE by_driver ({definition}, n serial PRIMARY KEY)")
        cur.execute(f"CREATE TEMP TABLE by_arrays ({definition}, n serial PRIMARY KEY)")
        cur.execute("CREATE UNIQUE INDEX ON by_arrays (i)")
        wrapped = [tuple(bulk.jsonb(v) if kind == "jsonb" and v is not None else v
                         for v, (_, kind) in zip(row, COLUMNS, strict=True)) for row in ROWS]
        bulk.insert(cur, "by_driver", COLUMNS, wrapped)
        binary_arrays.insert(cur, "by_arrays", COLUMNS, ROWS)
        binary_arrays.insert(cur, "by_arrays", COLUMNS, ROWS[:1], "ON CONFLICT (i) DO NOTHING")  # the tail applies
        binary_arrays.insert(cur, "by_arrays", COLUMNS, [])  # nothing to write: no statement
        names = ", ".join(f"{name}::text" for name, _ in COLUMNS)
        by_driver = cur.execute(f"SELECT {names} FROM by_driver ORDER BY n").fetchall()
        by_arrays = cur.execute(f"SELECT {names} FROM by_arrays ORDER BY n").fetchall()
        assert len(by_arrays) == len(ROWS) and by_arrays == by_driver
