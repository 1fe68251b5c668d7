"""Where crawls of submitted sites are kept: evidence storage beside the event log, not in it.

A crawl's JSON (`CrawlResult.to_dict()`) can reach megabytes of page text,
too much for an event. It is stored once, zlib-compressed, under
(draft id, crawl id), and the draft's `DraftCrawled` event names it by id and
SHA-256 digest. Rows are written once and never changed; regenerate and the
competitor comparison read them back instead of crawling again. Like the
idempotency table this is infrastructure, not a read model: it is not derived
from events and is not rebuilt with the projections.

Retention (`prune`, run by the draft sweeper): a competitor's crawl is needed
only by its comparison job, whose result and evidence are in the draft's
events, and a failed draft's crawl by nothing (a new submission makes a new
draft); both go after the retention period. The crawl of a draft that can
still be edited stays: regenerate reads it.
"""

from __future__ import annotations

import hashlib
import zlib
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from psycopg_pool import ConnectionPool

TABLE = "launchdir_draft_crawls"
SETUP_LOCK = 7311010  # advisory lock id for the DDL

DDL = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    draft_id uuid NOT NULL,
    crawl_id text NOT NULL,
    kind text NOT NULL,
    url text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    raw_bytes int NOT NULL,
    digest text NOT NULL,
    body bytea NOT NULL,
    PRIMARY KEY (draft_id, crawl_id)
)
"""


class CrawlMissing(Exception):
    """The crawl a draft names is not in the table (or does not match its digest)."""


class CrawlStore:
    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def setup(self) -> None:
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
            conn.execute(DDL)

    def save(self, draft_id: UUID, crawl_id: str, kind: str, url: str, data: dict[str, Any]) -> tuple[int, str]:
        """Store a crawl once (a repeated save of the same id keeps the first); return (JSON bytes, sha256)."""
        raw = orjson.dumps(data)
        digest = hashlib.sha256(raw).hexdigest()
        with self._pool.connection() as conn:
            conn.execute(
                f"INSERT INTO {TABLE} (draft_id, crawl_id, kind, url, raw_bytes, digest, body) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (draft_id, crawl_id) DO NOTHING",
                (draft_id, crawl_id, kind, url, len(raw), digest, zlib.compress(raw, 6)),
            )
        return len(raw), digest

    def load(self, draft_id: UUID, crawl_id: str) -> dict[str, Any]:
        with self._pool.connection() as conn:
            row = conn.execute(
                f"SELECT digest, body FROM {TABLE} WHERE draft_id=%s AND crawl_id=%s", (draft_id, crawl_id)
            ).fetchone()
        if row is None:
            raise CrawlMissing(f"crawl {crawl_id} of draft {draft_id} is not stored")
        raw = zlib.decompress(bytes(row[1]))
        if hashlib.sha256(raw).hexdigest() != row[0]:
            raise CrawlMissing(f"crawl {crawl_id} of draft {draft_id} does not match its digest")
        return orjson.loads(raw)  # type: ignore[no-any-return]

    def prune(self, before: datetime, drafts_table: str) -> int:
        """Delete competitor crawls, and crawls of failed drafts, stored before `before`; how many went."""
        with self._pool.connection() as conn:
            cur = conn.execute(
                f"DELETE FROM {TABLE} c WHERE c.created_at < %s AND (c.kind = 'competitor' OR EXISTS "
                f"(SELECT 1 FROM {drafts_table} d WHERE d.id = c.draft_id AND d.status = 'failed'))",
                (before,),
            )
            return int(cur.rowcount)

    def stats(self, draft_id: UUID) -> list[dict[str, Any]]:
        """The stored crawls of a draft (without bodies): for operators and tests."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT crawl_id, kind, url, raw_bytes, octet_length(body) FROM {TABLE} WHERE draft_id=%s "
                "ORDER BY created_at", (draft_id,)
            ).fetchall()
        return [{"crawl_id": r[0], "kind": r[1], "url": r[2], "raw_bytes": r[3], "stored_bytes": r[4]} for r in rows]
