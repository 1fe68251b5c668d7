"""What one person did on listings: which they voted for and which they follow.

The website marks vote and follow buttons with these (pressed or not) and lists
followed listings on the account page. Read from the projections that already
keep one row per person and listing: `launches_view.votes` (standing votes)
and `updates_view.followers`.
"""

from __future__ import annotations

from typing import Any

from projections.reads import ReadStore

VOTES_VIEW = "launches_view"
FOLLOWS_VIEW = "updates_view"


def my_marks(reads: ReadStore, account_id: str, listing_ids: list[int]) -> dict[str, set[int]]:
    """Of `listing_ids`, the ones the account has a standing vote on and the ones it follows."""
    ids = sorted(set(listing_ids))
    votes, follows = reads.tables(VOTES_VIEW)["votes"], reads.tables(FOLLOWS_VIEW)["followers"]
    with reads.pool.connection() as conn:
        voted = conn.execute(f"SELECT listing_id FROM {votes} WHERE account_id = %s AND listing_id = ANY(%s)",
                             (account_id, ids)).fetchall()
        following = conn.execute(f"SELECT listing_id FROM {follows} WHERE account_id = %s AND listing_id = ANY(%s)",
                                 (account_id, ids)).fetchall()
    return {"voted": {int(r[0]) for r in voted}, "following": {int(r[0]) for r in following}}


def followed_listings(reads: ReadStore, account_id: str, limit: int = 100) -> list[dict[str, Any]]:
    """The listings the account follows, newest follow first: slug, name and since when."""
    t = reads.tables(FOLLOWS_VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT f.listing_id, l.slug, l.name, f.since FROM {t['followers']} f
                JOIN {t['listings']} l USING (listing_id) WHERE f.account_id = %s
                ORDER BY f.since DESC, f.listing_id LIMIT %s""",
            (account_id, limit),
        ).fetchall()
    return [{"listing_id": r[0], "slug": r[1], "name": r[2] or r[1], "since": r[3]} for r in rows]


def ids_by_slug(reads: ReadStore, slugs: list[str]) -> dict[str, int]:
    """Listing ids of the given slugs (search and category cards carry slugs only; vote buttons need the id)."""
    t = reads.tables(FOLLOWS_VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT slug, listing_id FROM {t['listings']} WHERE slug = ANY(%s)",
                            (sorted(set(slugs)),)).fetchall()
    return {str(r[0]): int(r[1]) for r in rows}
