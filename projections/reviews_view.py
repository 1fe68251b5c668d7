"""The texts of people's reviews, for listing pages and the staff's review list.

One row per review (`reviews`): listing, author account, rating, text, when
written and last edited, its state (`approved` counts and shows, `pending`
and `rejected` are older reviews waiting for or refused by moderation,
`hidden` was taken off by staff) and, for a hidden one, the staff's reason,
who hid it and when. The rating tallies stay where the documents are built
(`projections/review_tally.py`); this view only keeps what people read.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.account import AccountClosed
from events.community import ReviewEdited, ReviewHidden, ReviewModerated, ReviewRestored, ReviewWritten
from projections.base import Projection, Tables, handles

NAME = "reviews_view"


class ReviewsView(Projection):
    name = NAME
    tables = ("reviews",)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['reviews']} (review_id text PRIMARY KEY, listing_id int NOT NULL,
                account_id text NOT NULL, rating int NOT NULL, text text NOT NULL, state text NOT NULL,
                written_at timestamptz NOT NULL, edited_at timestamptz, hidden_reason text, hidden_by text,
                hidden_at timestamptz)"""
        )
        cur.execute(f"CREATE INDEX ON {t['reviews']} (listing_id, written_at DESC) WHERE state = 'approved'")
        cur.execute(f"CREATE INDEX ON {t['reviews']} (listing_id, account_id)")
        cur.execute(f"CREATE INDEX ON {t['reviews']} (written_at DESC)")

    @handles(ReviewWritten)
    def _written(self, cur: Cursor[Any], t: Tables, e: ReviewWritten) -> None:
        state = "approved" if getattr(e, "genuine", False) else "pending"
        cur.execute(
            f"""INSERT INTO {t['reviews']} (review_id, listing_id, account_id, rating, text, state, written_at)
                VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (review_id) DO NOTHING""",
            (e.review_id, e.listing_id, e.account_id, e.rating, e.text, state, e.timestamp),
        )

    @handles(ReviewEdited)
    def _edited(self, cur: Cursor[Any], t: Tables, e: ReviewEdited) -> None:
        cur.execute(f"UPDATE {t['reviews']} SET rating = %s, text = %s, edited_at = %s WHERE review_id = %s",
                    (e.rating, e.text, e.timestamp, e.review_id))

    @handles(ReviewModerated)
    def _moderated(self, cur: Cursor[Any], t: Tables, e: ReviewModerated) -> None:
        cur.execute(f"UPDATE {t['reviews']} SET state = %s WHERE review_id = %s AND state <> 'hidden'",
                    (e.state, e.review_id))

    @handles(ReviewHidden)
    def _hidden(self, cur: Cursor[Any], t: Tables, e: ReviewHidden) -> None:
        cur.execute(
            f"""UPDATE {t['reviews']} SET state = 'hidden', hidden_reason = %s, hidden_by = %s, hidden_at = %s
                WHERE review_id = %s""",
            (e.reason, e.actor, e.timestamp, e.review_id),
        )

    @handles(ReviewRestored)
    def _restored(self, cur: Cursor[Any], t: Tables, e: ReviewRestored) -> None:
        cur.execute(
            f"""UPDATE {t['reviews']} SET state = 'approved', hidden_reason = NULL, hidden_by = NULL, hidden_at = NULL
                WHERE review_id = %s""",
            (e.review_id,),
        )

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """Reviews of a closed account stay as they are shown (by "a former member"), tied to no account."""
        cur.execute(f"UPDATE {t['reviews']} SET account_id = %s WHERE account_id = %s",
                    (e.former_account, str(e.originator_id)))
