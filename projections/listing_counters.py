"""Withdrawn votes, in SQL: the count and the trending log-sum recomputed from the votes left.

A vote adds 2 ** x to a listing's trending sum (x: `listing_docs.trend_exponent`
of its time); the sum is kept as its base-2 logarithm so it never overflows.
Casting a vote folds it in (`listing_rows.folded_vote`, in memory, with the
votes, follows and views of the batch); a withdrawn or voided vote recomputes
the sum here from the listing's remaining votes. The search view keeps its own
count the same way (`projections/search_rows.py`).
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from projections.base import Tables


def withdraw_vote(cur: Cursor[Any], t: Tables, listing_id: int, account_id: str, counted: str = "listings") -> bool:
    """Remove one vote from `t['votes']` and recompute the count and trending log-sum of `t[counted]` from the votes
    left; False when there was no such vote. The listing view counts in `listings`, the search view in `search`."""
    deleted = cur.execute(
        f"DELETE FROM {t['votes']} WHERE listing_id = %s AND account_id = %s RETURNING 1", (listing_id, account_id)
    ).fetchone()
    if deleted is None:
        return False
    cur.execute(
        f"""UPDATE {t[counted]} SET votes = greatest(votes - 1, 0), trend_log = (
                SELECT max(m) + ln(sum(power(2::float8, greatest(-1000, x - m)))) / ln(2)
                FROM (SELECT x, max(x) OVER () AS m FROM {t['votes']} WHERE listing_id = %(id)s) s)
            WHERE listing_id = %(id)s""",
        {"id": listing_id},
    )
    return True
