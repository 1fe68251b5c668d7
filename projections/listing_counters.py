"""The listing view's community counters in SQL: votes with the trending log-sum, followers, and view counts.

A vote adds 2 ** x to a listing's trending sum (x: `listing_docs.trend_exponent`
of its time); the sum is kept as its base-2 logarithm so it never overflows,
and a withdrawn vote recomputes it from the listing's remaining votes. Counter
events patch these columns and the document in SQL instead of rebuilding the
document, which keeps a vote cheap. Each statement updates the listings row
and copies the new values into the search row (searches order by them), so
the two never differ after a transaction.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from projections.base import Tables


def _copied(t: Tables, columns: str) -> str:
    """A data-modifying CTE step copying `columns` from the updated listings rows (CTE `l`) into the search rows."""
    sets = ", ".join(f"{c} = l.{c}" for c in columns.split(", "))
    return f"UPDATE {t['search']} s SET {sets} FROM l WHERE s.listing_id = l.listing_id"


def cast_vote(cur: Cursor[Any], t: Tables, listing_id: int, account_id: str, x: float) -> None:
    """Count one vote (a repeated one changes nothing) and fold it into the trending log-sum."""
    cur.execute(
        f"""WITH v AS (INSERT INTO {t['votes']} (listing_id, account_id, x) VALUES (%(id)s, %(acct)s, %(x)s)
                      ON CONFLICT DO NOTHING RETURNING listing_id),
                 l AS (UPDATE {t['listings']} SET votes = votes + 1,
                trend_log = CASE WHEN trend_log IS NULL THEN %(x)s
                    ELSE greatest(trend_log, %(x)s)
                         + ln(1 + power(2::float8, greatest(-1000, -abs(trend_log - %(x)s)))) / ln(2) END
            WHERE listing_id = (SELECT listing_id FROM v) RETURNING listing_id, votes, trend_log)
            {_copied(t, 'votes, trend_log')}""",
        {"id": listing_id, "acct": account_id, "x": x},
    )


def withdraw_vote(cur: Cursor[Any], t: Tables, listing_id: int, account_id: str) -> bool:
    """Remove one vote and recompute the trending log-sum; False when there was no such vote."""
    deleted = cur.execute(
        f"DELETE FROM {t['votes']} WHERE listing_id = %s AND account_id = %s RETURNING 1", (listing_id, account_id)
    ).fetchone()
    if deleted is None:
        return False
    cur.execute(
        f"""WITH l AS (UPDATE {t['listings']} SET votes = greatest(votes - 1, 0), trend_log = (
                SELECT max(m) + ln(sum(power(2::float8, greatest(-1000, x - m)))) / ln(2)
                FROM (SELECT x, max(x) OVER () AS m FROM {t['votes']} WHERE listing_id = %(id)s) s)
            WHERE listing_id = %(id)s RETURNING listing_id, votes, trend_log)
            {_copied(t, 'votes, trend_log')}""",
        {"id": listing_id},
    )
    return True


def follow(cur: Cursor[Any], t: Tables, listing_id: int, step: int) -> None:
    """Add `step` (1 or -1) to the listing's followers, never below zero."""
    cur.execute(
        f"""WITH l AS (UPDATE {t['listings']} SET followers = greatest(followers + %s, 0) WHERE listing_id = %s
                       RETURNING listing_id, followers)
            {_copied(t, 'followers')}""",
        (step, listing_id),
    )


def add_views(cur: Cursor[Any], t: Tables, pairs: list[tuple[int, int]]) -> None:
    """Add counted views (listing id, count) to the rows and to the documents' community section."""
    cur.execute(
        f"""WITH c AS (SELECT * FROM unnest(%s::int[], %s::bigint[]) AS c(id, n)),
                 l AS (UPDATE {t['listings']} SET views = views + c.n FROM c WHERE listing_id = c.id
                       RETURNING listing_id, views),
                 s AS ({_copied(t, 'views')})
            UPDATE {t['profiles']} p SET doc = jsonb_set(p.doc, '{{community,views}}', to_jsonb(l.views))
            FROM l WHERE p.listing_id = l.listing_id""",
        ([p[0] for p in pairs], [p[1] for p in pairs]),
    )
