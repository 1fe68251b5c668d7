"""Who owns a listing and what is still open for it, as the staff pages and commands show them.

`owners` reads the owner ids `listing_view` keeps with each listing and the
addresses of `accounts_view`; `open_orders` names the orders for a listing
that are not settled yet (awaiting payment, or paid with lines still to be
fulfilled), which keep its last owner from being removed (docs/claims.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from projections.reads import ReadStore

LISTINGS = "listing_view"
ACCOUNTS = "accounts_view"
ORDERS = "orders_view"


def owners(reads: ReadStore, listing_id: int) -> list[dict[str, Any]]:
    """The listing's owners in the order they became owners: account id and address (None when unknown)."""
    t = reads.tables(LISTINGS)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT state->'owner_ids' FROM {t['profiles']} WHERE listing_id = %s",
                           (listing_id,)).fetchone()
        ids = [str(i) for i in (row[0] if row and row[0] else [])]
        emails: dict[str, str] = {}
        if ids and ACCOUNTS in reads.runtime.projections:
            a = reads.tables(ACCOUNTS)
            found = conn.execute(f"SELECT account_id, email FROM {a['accounts']} WHERE account_id = ANY(%s)",
                                 (ids,)).fetchall()
            emails = {str(r[0]): str(r[1]) for r in found}
    return [{"account_id": i, "email": emails.get(i)} for i in ids]


def open_orders(reads: ReadStore, listing_id: int, now: datetime) -> list[str]:
    """Numbers of the orders for this listing still awaiting payment or paid and not yet fulfilled."""
    if ORDERS not in reads.runtime.projections:
        return []
    t = reads.tables(ORDERS)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT number FROM {t['orders']}
                WHERE ((status = 'pending' AND expires_at > %s) OR (status = 'paid' AND (open_lines > 0 OR open_tasks > 0)))
                  AND doc->'lines' @> %s ORDER BY seq""",
            (now, Jsonb([{"listing_id": listing_id}])),
        ).fetchall()
    return [str(r[0]) for r in rows]
