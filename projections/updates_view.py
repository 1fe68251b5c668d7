"""Listing updates for the site-wide latest-updates feed, and what the follower fan-out needs.

Tables (per generation):

- `listings`: each listing's id, stream, slug, name and status (update events
  name their listing only by stream).
- `updates`: every update (`ListingUpdatePosted`) with its listing's slug and
  name; `live` says whether the listing is live now. The feed shows live ones,
  newest first: an update posted before its listing went live appears in the
  feed when the listing does, at the time it was posted, and leaves it when
  the listing is taken down.
- `followers`: who follows which listing now.
- `fanout`: the updates whose followers are to be emailed: those posted while
  their listing was live (an update of a listing that is not live yet is never
  mailed). `notified_at` is set by the fan-out marker
  (`UpdateFollowersNotified`), so the process manager (`workers/updates.py`)
  reads only what is left to do.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.community import ListingFollowed, ListingUnfollowed
from events.listing import ListingCreated, ListingEdited, ListingEditReverted, ListingUpdatePosted
from events.updates import UpdateFollowersNotified
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
        cur.execute(
            f"INSERT INTO {t['listings']} (listing_id, stream_id, slug, name, status) VALUES (%s, %s, %s, %s, 'draft') "
            "ON CONFLICT (listing_id) DO NOTHING",
            (e.listing_id, e.originator_id, e.slug, str(e.profile.get("name") or "")),
        )

    @handles(ListingEdited, ListingEditReverted)
    def _renamed(self, cur: Cursor[Any], t: Tables, e: ListingEdited | ListingEditReverted) -> None:
        if "name" not in e.changes:
            return
        name = str(e.changes["name"] or "")
        row = cur.execute(f"UPDATE {t['listings']} SET name = %s WHERE stream_id = %s RETURNING listing_id",
                          (name, e.originator_id)).fetchone()
        if row is not None:
            cur.execute(f"UPDATE {t['updates']} SET name = %s WHERE listing_id = %s", (name, row[0]))

    @handles(*STATUS_EVENTS)
    def _status(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        status = status_after(e)
        row = cur.execute(f"UPDATE {t['listings']} SET status = %s WHERE stream_id = %s RETURNING listing_id",
                          (status, e.originator_id)).fetchone()
        if row is not None:
            cur.execute(f"UPDATE {t['updates']} SET live = %s WHERE listing_id = %s AND live <> %s",
                        (status == LIVE, row[0], status == LIVE))

    # ------------------------------------------------------------ updates and their fan-out

    @handles(ListingUpdatePosted)
    def _posted(self, cur: Cursor[Any], t: Tables, e: ListingUpdatePosted) -> None:
        row = cur.execute(f"SELECT listing_id, slug, name, status FROM {t['listings']} WHERE stream_id = %s",
                          (e.originator_id,)).fetchone()
        if row is None:  # a listing this generation never saw created
            return
        listing_id, slug, name, status = row
        live = status == LIVE
        cur.execute(
            f"""INSERT INTO {t['updates']} (listing_id, update_id, slug, name, title, body, posted_at, live)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING""",
            (listing_id, e.update_id, slug, name, e.title, e.body, e.timestamp, live),
        )
        if live:
            author = e.actor.removeprefix("account:") if e.actor.startswith("account:") else None
            cur.execute(
                f"INSERT INTO {t['fanout']} (listing_id, update_id, author, posted_at) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (listing_id, e.update_id, author, e.timestamp),
            )

    @handles(UpdateFollowersNotified)
    def _notified(self, cur: Cursor[Any], t: Tables, e: UpdateFollowersNotified) -> None:
        cur.execute(
            f"UPDATE {t['fanout']} SET notified_at = %s, recipients = %s WHERE listing_id = %s AND update_id = %s",
            (e.timestamp, e.recipients, e.listing_id, e.update_id),
        )

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
