"""A listing's reviews and the tally of its approved ratings, for the projections that show them.

`listing_view` (average and count, in its search rows and documents) and
`launches_view` (count and sum, for the top-rated badge) each own a `reviews`
table and tally columns in their own `listings` table; the table, the review
handlers and the recount are the same and live here. A review counts once it
is approved; moderation recounts the listing from the table, so approving,
rejecting or approving again can never count a rating twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import Cursor

from events.community import ReviewModerated, ReviewWritten


@dataclass(frozen=True)
class ReviewTally:
    """How one projection keeps its tally: the key of its listings table and the columns it fills.

    `columns` maps each tally column of the listings table to its SQL over
    the listing's approved reviews `r`, e.g. `{"rating_count": "count(*)"}`.
    """

    listing_key: str  # the id column of the projection's listings table
    id_type: str  # the SQL type of listing ids in it
    columns: dict[str, str]

    def create(self, cur: Cursor[Any], reviews: str) -> None:
        """Create the reviews table (one row per review: its rating and moderation state)."""
        cur.execute(f"CREATE TABLE {reviews} (review_id text PRIMARY KEY, listing_id {self.id_type} NOT NULL, "
                    "rating int NOT NULL, state text NOT NULL)")
        cur.execute(f"CREATE INDEX ON {reviews} (listing_id)")

    def written(self, cur: Cursor[Any], reviews: str, e: ReviewWritten) -> None:
        """A review is pending until moderated: it does not count yet."""
        cur.execute(
            f"INSERT INTO {reviews} (review_id, listing_id, rating, state) VALUES (%s, %s, %s, 'pending') "
            "ON CONFLICT (review_id) DO NOTHING",
            (e.review_id, e.listing_id, e.rating),
        )

    def moderated(self, cur: Cursor[Any], reviews: str, listings: str, e: ReviewModerated) -> None:
        """Set the review's state and recount the listing's tally from its approved reviews."""
        cur.execute(f"UPDATE {reviews} SET state = %s WHERE review_id = %s", (e.state, e.review_id))
        key = self.listing_key
        cur.execute(
            f"""UPDATE {listings} l SET ({', '.join(self.columns)}) = (
                    SELECT {', '.join(self.columns.values())} FROM {reviews} r
                    WHERE r.listing_id = l.{key} AND r.state = 'approved')
                WHERE l.{key} = %s""",
            (e.listing_id,),
        )
