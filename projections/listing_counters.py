"""The listing view's withdrawn votes, in SQL: the count and the trending log-sum recomputed from the votes left.

A vote adds 2 ** x to a listing's trending sum (x: `listing_docs.trend_exponent`
of its time); the sum is kept as its base-2 logarithm so it never overflows.
Casting a vote folds it in (`listing_rows.folded_vote`, in memory, with the
votes, follows and views of the batch); a withdrawn or voided vote recomputes
the sum here from the listing's remaining votes. The statement updates the
listings row and copies the new values into the search row (searches order by
them), so the two never differ after a transaction.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from projections.base import Tables


def _copied(t: Tables, columns: str) -> str:
    """A data-modifying CTE step copying `columns` from the updated listings rows (CTE `l`) into the search rows."""
    sets = ", ".join(f"{c} = l.{c}" for c in columns.split(", "))
    return f"UPDATE {t['search']} s SET {sets} FROM l WHERE s.listing_id = l.listing_id"


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
