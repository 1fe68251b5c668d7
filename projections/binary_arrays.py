"""Columns sent as PostgreSQL binary arrays built in one pass, for the widest bulk writes.

psycopg dumps a list element by element (a dumper call, a `struct.pack` and
two list appends per element, in Python). `listing_view`'s catch-up sends
about 25 columns per listing, hundreds of thousands of elements for 10,000
listings: 0.74 s of a 4.4 s catch-up under the profiler (docs/performance.md).
Here each column's array is built with one precompiled `struct` per element
and one `bytes.join`, and handed to the driver as bytes it sends as they
are, typed as the array.

Only the element types the writers use are known. A `uuid`, `timestamptz` or
`date` column goes in PostgreSQL's binary form (16 bytes; microseconds or days
since 2000-01-01 UTC) when every value is a `UUID`, an aware `datetime`, or a
`date`; any other column of those types (strings, naive times) is sent as text and
cast in the statement (`%b::uuid[]`), as the driver's own text arrays were.
Text cost both sides a conversion per value: `str()` here, parsing there
(docs/performance.md).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta, timezone
from typing import Any
from uuid import UUID

from psycopg import Cursor
from psycopg.adapt import Dumper
from psycopg.pq import Format

from projections import bulk
from projections.bulk import dumps

_HEADER = struct.Struct(">iiIii")  # dimensions, has nulls, element type, length, lower bound
_EMPTY = struct.Struct(">iiI")
_LENGTH = struct.Struct(">i")
_NULL = _LENGTH.pack(-1)
_UUID_LENGTH = _LENGTH.pack(16)
_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)  # PostgreSQL's timestamp epoch
_MICROSECOND = timedelta(microseconds=1)
_EPOCH_DAY = date(2000, 1, 1).toordinal()


class _Array(bytes):
    """An encoded array; its dumper (one class per array type) sends the bytes as they are."""

    oid = 0


def _fixed(layout: str) -> Callable[[Any], bytes]:
    pack = struct.Struct(">i" + layout).pack
    size = struct.calcsize(">" + layout)
    return lambda value: pack(size, value)


def _text(value: Any) -> bytes:
    data = str(value).encode()
    return _LENGTH.pack(len(data)) + data


def _bytea(value: bytes) -> bytes:
    return _LENGTH.pack(len(value)) + value


def _uuid(value: UUID) -> bytes:
    return _UUID_LENGTH + value.bytes


_TIMESTAMP = _fixed("q")


def _timestamptz(value: datetime) -> bytes:
    return _TIMESTAMP((value - _EPOCH) // _MICROSECOND)


_DAY = _fixed("i")


def _date(value: date) -> bytes:
    return _DAY(value.toordinal() - _EPOCH_DAY)


def _jsonb(value: Any) -> bytes:
    data = dumps(value)
    data = data if isinstance(data, bytes) else data.encode()
    return _LENGTH.pack(len(data) + 1) + b"\x01" + data  # jsonb's binary form: version 1, then the text


# element type name -> (element oid, array oid, encoder of one non-null element with its length)
_KINDS: dict[str, tuple[int, int, Callable[[Any], bytes]]] = {
    "bool": (16, 1000, _fixed("?")),
    "int": (23, 1007, _fixed("i")),
    "bigint": (20, 1016, _fixed("q")),
    "float8": (701, 1022, _fixed("d")),
    "text": (25, 1009, _text),
    "bytea": (17, 1001, _bytea),
    "jsonb": (3802, 3807, _jsonb),
    "uuid": (2950, 2951, _uuid),
    "timestamptz": (1184, 1185, _timestamptz),
    "date": (1082, 1182, _date),
}
WIRE = {"uuid": "text", "timestamptz": "text", "date": "text"}
"""Element types sent as text and cast by the statement when a value is not of the binary form's Python type."""


def _binary(kind: str, values: Sequence[Any]) -> bool:
    """Whether every value of a `uuid`, `timestamptz` or `date` column has a binary form here (None aside)."""
    if kind == "uuid":
        return all(type(v) is UUID for v in values if v is not None)
    if kind == "date":
        return all(type(v) is date for v in values if v is not None)
    return all(isinstance(v, datetime) and v.tzinfo is not None and v.utcoffset() is not None
               for v in values if v is not None)


def _dump(self: Dumper, obj: Any) -> bytes:
    return bytes(obj)


# array oid -> (the bytes subclass of an encoded array of that type, its dumper); made once, at import
_CLASSES: dict[int, tuple[type[_Array], type[Dumper]]] = {
    array_oid: (type(f"Array{array_oid}", (_Array,), {"oid": array_oid}),
                type(f"Array{array_oid}Dumper", (Dumper,), {"format": Format.BINARY, "oid": array_oid, "dump": _dump}))
    for _, array_oid, _ in _KINDS.values()
}


def encode(kind: str, values: Sequence[Any]) -> _Array:
    """`values` (None for NULL) as a one-dimensional binary array of element type `kind`."""
    if kind in WIRE and not _binary(kind, values):
        kind = WIRE[kind]
    element, array_oid, one = _KINDS[kind]
    cls = _CLASSES[array_oid][0]
    if not values:
        return cls(_EMPTY.pack(0, 0, element))
    parts = [_NULL if value is None else one(value) for value in values]
    nulls = 1 if _NULL in parts else 0
    return cls(_HEADER.pack(1, nulls, element, len(parts), 1) + b"".join(parts))


def columns(cur: Cursor[Any], spec: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]) -> list[_Array]:
    """The parameters of `bulk.unnested(spec)` for `rows`: one encoded array per column.

    The dumpers are registered on the cursor's own adapters (a cursor copies
    its connection's when it is made), so any cursor can send them.
    """
    for kind in {k for _, k in spec} | {WIRE[k] for _, k in spec if k in WIRE}:
        cls, dumper = _CLASSES[_KINDS[kind][1]]
        cur.adapters.register_dumper(cls, dumper)
    transposed = list(zip(*rows, strict=True)) if rows else [() for _ in spec]
    return [encode(kind, list(values)) for (_, kind), values in zip(spec, transposed, strict=True)]


def insert(cur: Cursor[Any], table: str, spec: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]],
           tail: str = "") -> None:
    """`bulk.insert` with the columns encoded here: for a batch's widest table, where the driver's dumping shows.

    A `jsonb` column takes the plain value (a dict or list), not a `Jsonb`
    wrapper: it is encoded by orjson with the rest of its array.
    """
    if not rows:
        return
    cur.execute(bulk.insert_statement(table, spec, tail), columns(cur, spec, rows))
