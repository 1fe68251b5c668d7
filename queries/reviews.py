"""Review texts: a listing's shown reviews (newest first, paged), a person's own review, the staff's list.

Read from `reviews_view` (texts and states); the staff list names listings
from `updates_view.listings` (slug and name) and authors from
`accounts_view.accounts` (email), which only staff pages show. The public
never sees who wrote a review beyond "a verified member".
"""

from __future__ import annotations

import json
from typing import Any

from projections.reads import ReadStore
from queries.paging import Paging, page_of

VIEW = "reviews_view"
LISTINGS_VIEW = "updates_view"
ACCOUNTS_VIEW = "accounts_view"
STAFF_STATES = ("all", "approved", "hidden", "pending", "rejected")
COLUMNS = "review_id, listing_id, account_id, rating, text, state, written_at, edited_at, hidden_reason, hidden_by, hidden_at"


def _row(r: tuple[Any, ...]) -> dict[str, Any]:
    keys = [c.strip() for c in COLUMNS.split(",")]
    return dict(zip(keys, r, strict=False))


def listing_reviews(reads: ReadStore, listing_id: int, paging: Paging) -> dict[str, Any]:
    """The listing's shown (genuine, not hidden) reviews, newest first; no author identities."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT review_id, rating, text, written_at, edited_at, count(*) OVER (),
                       account_id LIKE 'former:%%' FROM {t['reviews']}
                WHERE listing_id = %s AND state = 'approved' ORDER BY written_at DESC, review_id
                LIMIT %s OFFSET %s""",
            (listing_id, paging.per_page, paging.offset),
        ).fetchall()
        total = rows[0][5] if rows else (0 if paging.page == 1 else _count(conn, t["reviews"], listing_id))
    items = [{"review_id": r[0], "rating": r[1], "text": r[2], "written_at": r[3], "edited_at": r[4],
              "by_former_member": bool(r[6])} for r in rows]  # the author closed their account
    return page_of(items, paging, int(total))


def _count(conn: Any, table: str, listing_id: int) -> int:
    row = conn.execute(f"SELECT count(*) FROM {table} WHERE listing_id = %s AND state = 'approved'",
                       (listing_id,)).fetchone()
    return int(row[0]) if row else 0


def my_review(reads: ReadStore, listing_id: int, account_id: str) -> dict[str, Any] | None:
    """The person's own review of the listing (whatever its state), for the form to edit."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT {COLUMNS} FROM {t['reviews']} WHERE listing_id = %s AND account_id = %s "
                           "ORDER BY written_at DESC LIMIT 1", (listing_id, account_id)).fetchone()
    return _row(row) if row else None


def staff_reviews(reads: ReadStore, state: str, paging: Paging) -> dict[str, Any]:
    """Every review newest first (or those in one state), with the listing's slug and name and the author's email."""
    t, lt, at = reads.tables(VIEW), reads.tables(LISTINGS_VIEW), reads.tables(ACCOUNTS_VIEW)
    where, args = ("", ()) if state == "all" else ("WHERE r.state = %s", (state,))
    cols = ", ".join(f"r.{c.strip()}" for c in COLUMNS.split(","))
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT {cols}, l.slug, l.name, a.email, count(*) OVER () FROM {t['reviews']} r
                LEFT JOIN {lt['listings']} l ON l.listing_id = r.listing_id
                LEFT JOIN {at['accounts']} a ON a.account_id::text = r.account_id
                {where} ORDER BY r.written_at DESC, r.review_id LIMIT %s OFFSET %s""",
            (*args, paging.per_page, paging.offset),
        ).fetchall()
    n = len(COLUMNS.split(","))
    items = [{**_row(r[:n]), "slug": r[n], "name": r[n + 1], "email": r[n + 2]} for r in rows]
    return page_of(items, paging, int(rows[0][-1]) if rows else 0)


def review(reads: ReadStore, review_id: str) -> dict[str, Any] | None:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT {COLUMNS} FROM {t['reviews']} WHERE review_id = %s", (review_id,)).fetchone()
    return _row(row) if row else None


def owns_listing(reads: ReadStore, listing_id: int, account_id: str) -> bool:
    """Whether the account is an owner or co-founder of the listing (the page shows a note instead of the form)."""
    profiles = reads.tables("listing_view")["profiles"]
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT 1 FROM {profiles} WHERE listing_id = %s AND state->'owner_ids' @> %s::jsonb",
                           (listing_id, json.dumps([account_id]))).fetchone()
    return row is not None
