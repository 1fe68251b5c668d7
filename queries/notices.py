"""What the owners' notices need: the notices left to mail, and each one's listing or order and recipients.

The notices live in `notices_view`; a listing's slug, name and owners are read
from `listing_view`, an order from `orders_view`, the addresses from
`accounts_view`. The projections move apart, so a notice whose listing or order
a view has not met yet is left for the next run (`subject_of` returns None).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from projections.reads import ReadStore

VIEW = "notices_view"
LISTINGS = "listing_view"
ORDERS = "orders_view"
ACCOUNTS = "accounts_view"
CATALOG = "catalog_view"
ORDER_KINDS = frozenset({"paid", "refunded"})


def pending(reads: ReadStore, since: datetime, limit: int = 50) -> list[dict[str, Any]]:
    """Notices made at or after `since` and not mailed yet; oldest first."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT key, kind, stream_id, week, plan, checked_url, reason, happened_at FROM {t['notices']}
                WHERE mailed_at IS NULL AND happened_at >= %s ORDER BY happened_at, key LIMIT %s""",
            (since, limit),
        ).fetchall()
    keys = ("key", "kind", "stream_id", "week", "plan", "checked_url", "reason", "happened_at")
    return [dict(zip(keys, r, strict=True)) for r in rows]


def listing_of(reads: ReadStore, stream_id: UUID) -> dict[str, Any] | None:
    """The listing of a notice: id, slug, name, status and owners; None while `listing_view` has not met it."""
    t = reads.tables(LISTINGS)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"""SELECT listing_id, slug, status, state->'profile'->>'name', state->'owner_ids'
                FROM {t['profiles']} WHERE stream_id = %s""",
            (stream_id,),
        ).fetchone()
    if row is None:
        return None
    return {"listing_id": int(row[0]), "slug": str(row[1]), "status": str(row[2]), "name": row[3] or str(row[1]),
            "owner_ids": [str(a) for a in (row[4] or [])]}


def order_of(reads: ReadStore, stream_id: UUID) -> dict[str, Any] | None:
    """The order of a notice as `orders_view` keeps it (number, account, lines, totals, invoice); None if not met yet."""
    t = reads.tables(ORDERS)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT doc FROM {t['orders']} WHERE stream_id = %s", (stream_id,)).fetchone()
    if row is None or not row[0].get("invoice_number"):
        return None  # not paid yet in this view: the next run reads it again (a refund follows a payment)
    doc: dict[str, Any] = row[0]
    return doc


def addresses(reads: ReadStore, account_ids: list[str]) -> list[tuple[str, str]]:
    """(account id, email) of these accounts whose address is confirmed, in account order."""
    t = reads.tables(ACCOUNTS)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT account_id, email FROM {t['accounts']} WHERE account_id = ANY(%s) AND email_verified "
            "ORDER BY account_id",
            (account_ids,),
        ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]


def contact_address(reads: ReadStore) -> str | None:
    """The site's contact address (site setting `contact_email`), if one is set."""
    t = reads.tables(CATALOG)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT doc->>'contact_email' FROM {t['site']} WHERE key = 'site'").fetchone()
    return str(row[0]) if row and row[0] else None
