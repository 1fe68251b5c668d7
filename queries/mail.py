"""Outbox reads: the staff outbox page, messages to one address (tests), and what the sender should send."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from projections.reads import ReadStore

VIEW = "mail_view"
COLUMNS = "message_id, to_address, subject, text, kind, account_id, status, attempts, queued_at, sent_at, retry_at, last_error"


def _doc(r: tuple[Any, ...]) -> dict[str, Any]:
    keys = [c.strip() for c in COLUMNS.split(",")]
    doc = dict(zip(keys, r))
    doc["to"] = doc.pop("to_address")
    return doc


def outbox(reads: ReadStore, limit: int = 100, offset: int = 0, to: str | None = None) -> list[dict[str, Any]]:
    """Messages newest first, optionally only those to one address."""
    t = reads.tables(VIEW)
    where, args = ("WHERE to_address = %s", [to]) if to else ("", [])
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM {t['outbox']} {where} ORDER BY seq DESC LIMIT %s OFFSET %s", (*args, limit, offset)
        ).fetchall()
    return [_doc(r) for r in rows]


def message(reads: ReadStore, message_id: UUID) -> dict[str, Any] | None:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT {COLUMNS} FROM {t['outbox']} WHERE message_id = %s", (message_id,)).fetchone()
    return _doc(row) if row else None


def due(reads: ReadStore, now: datetime, stale_before: datetime, limit: int = 50) -> list[UUID]:
    """Ids of messages a sender may claim now: queued, failed and due for retry, or claimed long ago."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT message_id FROM {t['outbox']} WHERE status = 'queued' "
            "OR (status = 'failed' AND retry_at <= %s) OR (status = 'sending' AND claimed_at <= %s) "
            "ORDER BY seq LIMIT %s",
            (now, stale_before, limit),
        ).fetchall()
    return [r[0] for r in rows]


def status_counts(reads: ReadStore) -> dict[str, int]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT status, count(*) FROM {t['outbox']} GROUP BY status").fetchall()
    return {r[0]: int(r[1]) for r in rows}
