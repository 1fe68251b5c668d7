"""People's founder-interview answers, and whether each person owns a live listing (who may show them).

Tables (per generation):

- `answers`: one row per person and question (`InterviewAnswered`; an empty
  answer deletes the row).
- `listings`: each listing's stream, id and whether it is live now.
- `owners`: who owns which listing (`ListingCreated.owner_ids`, `ListingOwnerAdded`).

A founder profile shows its person's answers only while that person owns a
live listing (`queries/interview.py`); both facts live here, so the founder
page's cache follows this projection and `content_view` only.

Listings created in a batch are kept in memory with their owners, changed
there by the status events that follow, and written at `flush` in two
statements (the pattern of `launches_view`, docs/projections.md): a catch-up
over a directory's history sent three statements a listing before.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.account import AccountClosed, InterviewAnswered
from events.listing import ListingCreated, ListingOwnerAdded, ListingOwnerRemoved
from projections import bulk
from projections.base import Projection, Tables, handles
from projections.kept_rows import KeptRows
from projections.listing_status import LIVE, STATUS_EVENTS, status_after

NAME = "interview_view"
LISTING_ROW = (("stream_id", "uuid"), ("listing_id", "int"), ("live", "boolean"))
OWNER_ROW = (("account_id", "text"), ("listing_id", "int"))


class InterviewView(KeptRows, Projection):
    name = NAME
    tables = ("answers", "listings", "owners")
    # Answers touch no listing row, so they leave the kept rows kept too.
    kept_events = frozenset({ListingCreated, InterviewAnswered, *STATUS_EVENTS})

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['answers']} (account_id text NOT NULL, question_id int NOT NULL, answer text NOT NULL,
                answered_at timestamptz NOT NULL, PRIMARY KEY (account_id, question_id))"""
        )
        cur.execute(
            f"""CREATE TABLE {t['listings']} (stream_id uuid PRIMARY KEY, listing_id int NOT NULL UNIQUE,
                live boolean NOT NULL)"""
        )
        cur.execute(
            f"""CREATE TABLE {t['owners']} (account_id text NOT NULL, listing_id int NOT NULL,
                PRIMARY KEY (account_id, listing_id))"""
        )

    @handles(InterviewAnswered)
    def _answered(self, cur: Cursor[Any], t: Tables, e: InterviewAnswered) -> None:
        for key, text in e.answers.items():
            if text:
                cur.execute(
                    f"""INSERT INTO {t['answers']} (account_id, question_id, answer, answered_at) VALUES (%s, %s, %s, %s)
                        ON CONFLICT (account_id, question_id)
                        DO UPDATE SET answer = EXCLUDED.answer, answered_at = EXCLUDED.answered_at""",
                    (e.account_id, int(key), text, e.timestamp),
                )
            else:
                cur.execute(f"DELETE FROM {t['answers']} WHERE account_id = %s AND question_id = %s",
                            (e.account_id, int(key)))

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        row = {"stream_id": e.originator_id, "listing_id": e.listing_id, "live": False, "owners": e.owner_ids}
        if self._keep(cur, e.originator_id, e.listing_id, row):
            return
        self.flush(cur, t)  # created twice in one batch: written as it comes, the first one stays
        cur.execute(f"INSERT INTO {t['listings']} (stream_id, listing_id, live) VALUES (%s, %s, false) "
                    "ON CONFLICT DO NOTHING", (e.originator_id, e.listing_id))
        for account_id in e.owner_ids:
            cur.execute(f"INSERT INTO {t['owners']} (account_id, listing_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                        (account_id, e.listing_id))

    @handles(ListingOwnerAdded)
    def _owner(self, cur: Cursor[Any], t: Tables, e: ListingOwnerAdded) -> None:
        cur.execute(
            f"""INSERT INTO {t['owners']} (account_id, listing_id)
                SELECT %s, listing_id FROM {t['listings']} WHERE stream_id = %s ON CONFLICT DO NOTHING""",
            (e.account_id, e.originator_id),
        )

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """A closed account's interview answers go (they showed on founder pages); so do its ownerships."""
        self.flush(cur, t)
        cur.execute(f"DELETE FROM {t['answers']} WHERE account_id = %s", (str(e.originator_id),))
        cur.execute(f"DELETE FROM {t['owners']} WHERE account_id = %s", (str(e.originator_id),))

    @handles(ListingOwnerRemoved)
    def _owner_removed(self, cur: Cursor[Any], t: Tables, e: ListingOwnerRemoved) -> None:
        self.flush(cur, t)  # a listing kept back in this batch is written first, then loses the owner
        cur.execute(
            f"""DELETE FROM {t['owners']} WHERE account_id = %s
                AND listing_id IN (SELECT listing_id FROM {t['listings']} WHERE stream_id = %s)""",
            (e.account_id, e.originator_id),
        )

    @handles(*STATUS_EVENTS)
    def _status(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        live = status_after(e) == LIVE
        if self._kept(cur, e.originator_id, live=live):
            return
        cur.execute(f"UPDATE {t['listings']} SET live = %s WHERE stream_id = %s", (live, e.originator_id))

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the listings kept back and their owners: one statement each."""
        self._batch(cur)
        rows = self._taken()
        bulk.insert(cur, t["listings"], LISTING_ROW, [(r["stream_id"], r["listing_id"], r["live"]) for r in rows],
                    "ON CONFLICT DO NOTHING")
        bulk.insert(cur, t["owners"], OWNER_ROW, [(a, r["listing_id"]) for r in rows for a in r["owners"]],
                    "ON CONFLICT DO NOTHING")
