"""Listing updates: the site-wide latest-updates feed, and the reads of the follower fan-out and unsubscribe page.

The feed is for the website (the public website renders it); SPEC fixes the
operation list, and no public operation has a place for it, so it has no
REST or MCP door of its own. Every listing's own latest updates are on
get_listing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from projections.reads import ReadStore
from queries.paging import PageInfo, Paging, page_of

VIEW = "updates_view"
ACCOUNTS = "accounts_view"


class LatestUpdates(Paging):
    """The latest updates of live listings, newest first."""


class LatestUpdate(BaseModel):
    listing_id: int
    listing_slug: str
    listing_name: str
    update_id: int
    title: str
    body: str = Field(description="Plain text.")
    posted_at: datetime


class LatestUpdatePage(PageInfo):
    items: list[LatestUpdate]


def latest_updates(reads: ReadStore, paging: Paging) -> dict[str, Any]:
    """Updates of live listings, newest first (an index scan of the live updates)."""
    def compute() -> dict[str, Any]:
        t = reads.tables(VIEW)
        with reads.pool.connection() as conn:
            (total,) = conn.execute(f"SELECT count(*) FROM {t['updates']} WHERE live").fetchone()  # type: ignore[misc]
            rows = conn.execute(
                f"""SELECT listing_id, slug, name, update_id, title, body, posted_at FROM {t['updates']} WHERE live
                    ORDER BY posted_at DESC, listing_id DESC, update_id DESC LIMIT %s OFFSET %s""",
                (paging.per_page, paging.offset),
            ).fetchall()
        items = [{"listing_id": r[0], "listing_slug": r[1], "listing_name": r[2], "update_id": r[3], "title": r[4],
                  "body": r[5], "posted_at": r[6]} for r in rows]
        return page_of(items, paging, int(total))

    return reads.cached((VIEW,), ("latest", paging.page, paging.per_page), compute)


def pending_notifications(reads: ReadStore, since: datetime, limit: int = 20) -> list[dict[str, Any]]:
    """Updates of live listings, posted at or after `since`, whose followers are not told yet; oldest first."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT f.listing_id, f.update_id, l.slug, l.name, u.title, u.body, f.author
                FROM {t['fanout']} f JOIN {t['updates']} u USING (listing_id, update_id)
                JOIN {t['listings']} l USING (listing_id)
                WHERE f.notified_at IS NULL AND f.posted_at >= %s AND l.status = 'live'
                ORDER BY f.posted_at, f.listing_id, f.update_id LIMIT %s""",
            (since, limit),
        ).fetchall()
    keys = ("listing_id", "update_id", "slug", "name", "title", "body", "author")
    return [dict(zip(keys, r, strict=True)) for r in rows]


def followers_to_tell(reads: ReadStore, listing_id: int, author: str | None = None) -> list[tuple[str, str]]:
    """(account id, email) of the listing's followers whose address is confirmed, the update's author left out."""
    t, a = reads.tables(VIEW), reads.tables(ACCOUNTS)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT f.account_id, acc.email FROM {t['followers']} f
                JOIN {a['accounts']} acc ON acc.account_id = f.account_id
                WHERE f.listing_id = %s AND acc.email_verified AND f.account_id IS DISTINCT FROM %s
                ORDER BY f.account_id""",
            (listing_id, author),
        ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]


def listing_named(reads: ReadStore, listing_id: int) -> dict[str, Any] | None:
    """The slug and name of a listing (the unsubscribe page names what it stops)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT slug, name, status FROM {t['listings']} WHERE listing_id = %s",
                           (listing_id,)).fetchone()
    return {"slug": row[0], "name": row[1] or row[0], "status": row[2]} if row else None


def listing_names(reads: ReadStore, listing_ids: set[int]) -> dict[int, str]:
    """The name of each listing (an order's lines name the listing they are for, in any status)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT listing_id, coalesce(name, slug) FROM {t['listings']} WHERE listing_id = ANY(%s)",
                            (sorted(listing_ids),)).fetchall()
    return {int(r[0]): str(r[1]) for r in rows}


def follows(reads: ReadStore, listing_id: int, account_id: str) -> bool:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT 1 FROM {t['followers']} WHERE listing_id = %s AND account_id = %s",
                           (listing_id, account_id)).fetchone()
    return row is not None
