"""Listing updates for the site-wide latest-updates feed, and what the follower fan-out needs.

Tables (per generation):

- `listings`: each listing's id, stream, slug, name and status (update events
  name their listing only by stream).
- `updates`: every update (`ListingUpdatePosted`) with its listing's slug and
  name, until staff remove it (`ListingUpdateRemoved`); `live` says whether the listing is live now. The feed shows live ones,
  newest first: an update posted before its listing went live appears in the
  feed when the listing does, at the time it was posted, and leaves it when
  the listing is taken down.
- `followers`: who follows which listing now.
- `fanout`: the updates whose followers are to be emailed: those posted while
  their listing was live (an update of a listing that is not live yet is never
  mailed, nor one staff removed before its mail went). `notified_at` is set by the fan-out marker
  (`UpdateFollowersNotified`), so the process manager (`workers/updates.py`)
  reads only what is left to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Cursor

from events.account import AccountClosed
from events.community import ListingFollowed, ListingUnfollowed
from events.listing import ListingCreated, ListingEdited, ListingEditReverted, ListingUpdatePosted, ListingUpdateRemoved
from events.updates import UpdateFollowersNotified
from projections import bulk
from projections.base import Projection, Tables, handles
from projections.listing_status import LIVE, STATUS_EVENTS, status_after

NAME = "updates_view"


class UpdatesView(Projection):
    name = NAME
    tables = ("listings", "updates", "followers", "fanout")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['listings']} (listing_id int PRIMARY KEY, stream_id uuid NOT NULL UNIQUE,
                slug text NOT NULL, name text NOT NULL, status text NOT NULL)"""
        )
        cur.execute(
            f"""CREATE TABLE {t['updates']} (listing_id int NOT NULL, update_id int NOT NULL, slug text NOT NULL,
                name text NOT NULL, title text NOT NULL, body text NOT NULL, posted_at timestamptz NOT NULL,
                live boolean NOT NULL, PRIMARY KEY (listing_id, update_id))"""
        )
        cur.execute(f"CREATE INDEX ON {t['updates']} (posted_at DESC, listing_id DESC, update_id DESC) WHERE live")
        cur.execute(
            f"""CREATE TABLE {t['followers']} (listing_id int NOT NULL, account_id text NOT NULL,
                since timestamptz NOT NULL, PRIMARY KEY (listing_id, account_id))"""
        )
        cur.execute(
            f"""CREATE TABLE {t['fanout']} (listing_id int NOT NULL, update_id int NOT NULL, author text,
                posted_at timestamptz NOT NULL, notified_at timestamptz, recipients int,
                PRIMARY KEY (listing_id, update_id))"""
        )
        cur.execute(f"CREATE INDEX ON {t['fanout']} (posted_at) WHERE notified_at IS NULL")

    # ------------------------------------------------------------ listings

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        self._batch(cur)
        name = str(e.profile.get("name") or "")
        if e.originator_id in self._known or e.listing_id in self._ids:  # created twice: written as it comes
            self.flush(cur, t)
            cur.execute(
                f"INSERT INTO {t['listings']} (listing_id, stream_id, slug, name, status) "
                "VALUES (%s, %s, %s, %s, 'draft') ON CONFLICT (listing_id) DO NOTHING",
                (e.listing_id, e.originator_id, e.slug, name),
            )
            return
        listing = self._known[e.originator_id] = _Listing(e.listing_id, e.slug, name, "draft", pending=True)
        self._new.append((e.originator_id, listing))
        self._ids.add(e.listing_id)

    @handles(ListingEdited, ListingEditReverted)
    def _renamed(self, cur: Cursor[Any], t: Tables, e: ListingEdited | ListingEditReverted) -> None:
        if "name" not in e.changes:
            return
        self._batch(cur)
        name = str(e.changes["name"] or "")
        listing = self._known.get(e.originator_id)
        if listing is not None:  # updates kept back take the listing's name when written
            listing.name = name
            if listing.pending:
                return
        # One statement, nothing fetched: it stays in the batch's pipeline.
        cur.execute(f"WITH l AS (UPDATE {t['listings']} SET name = %(name)s WHERE stream_id = %(stream)s "
                    f"RETURNING listing_id) "
                    f"UPDATE {t['updates']} SET name = %(name)s WHERE listing_id IN (SELECT listing_id FROM l)",
                    {"name": name, "stream": e.originator_id})

    @handles(*STATUS_EVENTS)
    def _status(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        self._batch(cur)
        status = status_after(e)
        listing = self._known.get(e.originator_id)
        if listing is not None:  # updates kept back take `live` from the listing when written
            listing.status = status
            if listing.pending:
                return
        cur.execute(f"WITH l AS (UPDATE {t['listings']} SET status = %(status)s WHERE stream_id = %(stream)s "
                    f"RETURNING listing_id) "
                    f"UPDATE {t['updates']} SET live = %(live)s WHERE listing_id IN (SELECT listing_id FROM l) "
                    f"AND live <> %(live)s",
                    {"status": status, "stream": e.originator_id, "live": status == LIVE})

    # ------------------------------------------------------------ updates and their fan-out

    @handles(ListingUpdatePosted)
    def _posted(self, cur: Cursor[Any], t: Tables, e: ListingUpdatePosted) -> None:
        listing = self._listing(cur, t, e.originator_id)
        if listing is None:  # a listing this generation never saw created
            return
        live = listing.status == LIVE
        self._updates.append((listing, e.update_id, e.title, e.body, e.timestamp))
        if live:
            author = e.actor.removeprefix("account:") if e.actor.startswith("account:") else None
            self._fanout.append((listing.listing_id, e.update_id, author, e.timestamp))

    @handles(ListingUpdateRemoved)
    def _removed(self, cur: Cursor[Any], t: Tables, e: ListingUpdateRemoved) -> None:
        """Staff removed an update: out of the feed, and out of the fan-out when its mail has not gone yet."""
        listing = self._listing(cur, t, e.originator_id)
        if listing is None:
            return
        self.flush(cur, t)  # the update may still be kept back in this batch
        for table in ("updates", "fanout"):
            cur.execute(f"DELETE FROM {t[table]} WHERE listing_id = %s AND update_id = %s",
                        (listing.listing_id, e.update_id))

    @handles(UpdateFollowersNotified)
    def _notified(self, cur: Cursor[Any], t: Tables, e: UpdateFollowersNotified) -> None:
        self.flush(cur, t)
        cur.execute(
            f"UPDATE {t['fanout']} SET notified_at = %s, recipients = %s WHERE listing_id = %s AND update_id = %s",
            (e.timestamp, e.recipients, e.listing_id, e.update_id),
        )

    # ------------------------------------------------------------ batch memory
    #
    # New listings, updates and fan-out rows are kept in memory and written at `flush`, one statement per
    # table (`projections/bulk.py`); an update takes its listing's name and `live` when written, as the
    # statements that rename a listing or change its status would have moved it. The memory belongs to
    # the batch's cursor (one transaction): a new cursor forgets it, so nothing survives a rollback.

    _batch_cursor: Any = None
    _known: dict[UUID, _Listing] = {}  # stream id -> listing, for the listings this batch has met
    _ids: set[int] = set()
    _new: list[tuple[UUID, _Listing]] = []  # the listings created in this batch and not written yet
    _updates: list[tuple[_Listing, int, str, str, datetime]] = []
    _fanout: list[tuple[int, int, str | None, datetime]] = []

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._known, self._ids, self._new, self._updates, self._fanout = cur, {}, set(), [], [], []

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the listings, updates and fan-out rows kept back, one statement per table."""
        self._batch(cur)
        pending, self._new = self._new, []
        bulk.insert(cur, t["listings"], LISTING_COLUMNS,
                    [(x.listing_id, stream, x.slug, x.name, x.status) for stream, x in pending],
                    "ON CONFLICT (listing_id) DO NOTHING")
        bulk.insert(cur, t["updates"], UPDATE_COLUMNS,
                    [(x.listing_id, update_id, x.slug, x.name, title, body, at, x.status == LIVE)
                     for x, update_id, title, body, at in self._updates], "ON CONFLICT DO NOTHING")
        bulk.insert(cur, t["fanout"], FANOUT_COLUMNS, self._fanout, "ON CONFLICT DO NOTHING")
        for _, listing in pending:
            listing.pending = False
        self._updates, self._fanout = [], []

    def _listing(self, cur: Cursor[Any], t: Tables, stream_id: UUID) -> _Listing | None:
        """The listing of a stream: from this batch's memory, else read once (it is then remembered)."""
        self._batch(cur)
        listing = self._known.get(stream_id)
        if listing is not None:
            return listing
        row = cur.execute(f"SELECT listing_id, slug, name, status FROM {t['listings']} WHERE stream_id = %s",
                          (stream_id,)).fetchone()
        if row is None:
            return None
        listing = self._known[stream_id] = _Listing(int(row[0]), str(row[1]), str(row[2]), str(row[3]), pending=False)
        return listing

    # ------------------------------------------------------------ followers

    @handles(ListingFollowed)
    def _followed(self, cur: Cursor[Any], t: Tables, e: ListingFollowed) -> None:
        cur.execute(
            f"INSERT INTO {t['followers']} (listing_id, account_id, since) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            (e.listing_id, e.account_id, e.timestamp),
        )

    @handles(ListingUnfollowed)
    def _unfollowed(self, cur: Cursor[Any], t: Tables, e: ListingUnfollowed) -> None:
        cur.execute(f"DELETE FROM {t['followers']} WHERE listing_id = %s AND account_id = %s",
                    (e.listing_id, e.account_id))

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """A closed account follows nothing any more: no update mail goes to its address."""
        cur.execute(f"DELETE FROM {t['followers']} WHERE account_id = %s", (str(e.originator_id),))


@dataclass
class _Listing:
    """A listing as this batch knows it; `pending` while its row is kept back (created in this batch)."""

    listing_id: int
    slug: str
    name: str
    status: str
    pending: bool


LISTING_COLUMNS = (("listing_id", "int"), ("stream_id", "uuid"), ("slug", "text"), ("name", "text"), ("status", "text"))
UPDATE_COLUMNS = (("listing_id", "int"), ("update_id", "int"), ("slug", "text"), ("name", "text"), ("title", "text"),
                  ("body", "text"), ("posted_at", "timestamptz"), ("live", "boolean"))
FANOUT_COLUMNS = (("listing_id", "int"), ("update_id", "int"), ("author", "text"), ("posted_at", "timestamptz"))
