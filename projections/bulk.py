"""Writing many rows in one statement: each column sent as one array and unnested.

A statement per event costs tens of microseconds of Python in the driver even
when pipelined, which caps a projection at a few thousand events a second.
Projections that keep a batch's rows in memory write them at `flush` with one
statement per table. The arrays go in binary (`%b`): the text form of an
array escapes every element in Python, which costs more than the statements saved.

Columns are given as (name, PostgreSQL type) pairs; a column of an array type
cannot be sent this way (PostgreSQL arrays are not nested lists).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson
from psycopg import Cursor
from psycopg.types.json import Jsonb

Columns = Sequence[tuple[str, str]]


def insert(cur: Cursor[Any], table: str, columns: Columns, rows: Sequence[Sequence[Any]], tail: str = "") -> None:
    """INSERT `rows` (tuples in the order of `columns`) into `table`, then `tail` (an ON CONFLICT clause)."""
    if not rows:
        return
    cur.execute(insert_statement(table, columns, tail), _transposed(rows, len(columns)))


def insert_statement(table: str, columns: Columns, tail: str = "") -> str:
    """The INSERT of `insert`, for any writer that sends one array per column (`binary_arrays.insert`)."""
    names = ", ".join(name for name, _ in columns)
    return f"INSERT INTO {table} ({names}) SELECT * FROM {unnested(columns)} {tail}"


def unnested(columns: Columns) -> str:
    """`unnest(%s::t1[], ...) AS v(c1, ...)`: the rows as a relation to join an UPDATE or DELETE against."""
    arrays = ", ".join(f"%b::{kind}[]" for _, kind in columns)
    return f"unnest({arrays}) AS v({', '.join(name for name, _ in columns)})"


def params(rows: Sequence[Sequence[Any]], width: int) -> list[list[Any]]:
    """The parameters of `unnested`: one list per column."""
    return _transposed(rows, width)


def jsonb(value: Any) -> Jsonb:
    """`value` as a `jsonb` parameter encoded by orjson (C) instead of the standard library's encoder (Python).

    PostgreSQL parses the text into its own form, so the stored value is the
    same whichever encoder wrote the text. `listing_view` sends three documents
    per listing written, which made the standard encoder a tenth of its catch-up.
    """
    return Jsonb(value, dumps=dumps)


def dumps(value: Any) -> bytes | str:
    """`value` as JSON text, by orjson where it can (`jsonb`, `binary_arrays`)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # what orjson refuses (an integer beyond 64 bits) the standard encoder may still write
        return json.dumps(value)


def _transposed(rows: Sequence[Sequence[Any]], width: int) -> list[list[Any]]:
    columns = [list(column) for column in zip(*rows, strict=True)]
    return columns if columns else [[] for _ in range(width)]
