"""A listing's reviews and the tally of its approved ratings, for the projections that show them.

`listing_view` (average and count, in its search rows and documents) and
`launches_view` (count and sum, for the top-rated badge) each own a `reviews`
table and tally columns in their own `listings` table; the table, the review
handlers and the recount are the same and live here. A review counts once it
is approved: a genuine review (written under the website's rules,
docs/reviews.md) at once, an older one once staff approved it. Every change
(moderation, an edit, staff hiding or restoring) recounts the listing from the
table, so no sequence of events can count a rating twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import Cursor

from events.community import ReviewEdited, ReviewHidden, ReviewModerated, ReviewRestored, ReviewWritten


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

    def written(self, cur: Cursor[Any], reviews: str, listings: str, e: ReviewWritten) -> None:
        """A genuine review (written under the website's rules) counts at once; an older one waits for moderation."""
        genuine = bool(getattr(e, "genuine", False))
        cur.execute(
            f"INSERT INTO {reviews} (review_id, listing_id, rating, state) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (review_id) DO NOTHING",
            (e.review_id, e.listing_id, e.rating, "approved" if genuine else "pending"),
        )
        if genuine:
            self.recount(cur, reviews, listings, e.listing_id)

    def moderated(self, cur: Cursor[Any], reviews: str, listings: str, e: ReviewModerated) -> None:
        """Set the review's state and recount the listing's tally from its approved reviews."""
        cur.execute(f"UPDATE {reviews} SET state = %s WHERE review_id = %s AND state <> 'hidden'", (e.state, e.review_id))
        self.recount(cur, reviews, listings, e.listing_id)

    def edited(self, cur: Cursor[Any], reviews: str, listings: str, e: ReviewEdited) -> None:
        """The author's new rating replaces the old one in the tally."""
        cur.execute(f"UPDATE {reviews} SET rating = %s WHERE review_id = %s", (e.rating, e.review_id))
        self.recount(cur, reviews, listings, e.listing_id)

    def hidden(self, cur: Cursor[Any], reviews: str, listings: str, e: ReviewHidden | ReviewRestored) -> None:
        """Hidden reviews do not count; a restored one counts again (it was approved or genuine to be shown)."""
        state = "hidden" if isinstance(e, ReviewHidden) else "approved"
        cur.execute(f"UPDATE {reviews} SET state = %s WHERE review_id = %s", (state, e.review_id))
        self.recount(cur, reviews, listings, e.listing_id)

    def recount(self, cur: Cursor[Any], reviews: str, listings: str, listing_id: int) -> None:
        """Recount the listing's tally from its approved reviews, so no event can count a rating twice."""
        key = self.listing_key
        cur.execute(
            f"""UPDATE {listings} l SET ({', '.join(self.columns)}) = (
                    SELECT {', '.join(self.columns.values())} FROM {reviews} r
                    WHERE r.listing_id = l.{key} AND r.state = 'approved')
                WHERE l.{key} = %s""",
            (listing_id,),
        )
