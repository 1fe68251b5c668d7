"""Version history of listings: one row per content change, and the staff's review of owners' changes.

A *version* is one content event of a listing stream: its creation, an edit,
the founder story, a milestone added or deleted, an update posted, a staff
revert, or an update staff removed. Its `version_id` is the event's log position, so it is the same after
any rebuild and orders versions across listings. Everything here comes from
the events (the edit events carry the values before and after); nothing is
written twice (docs/history-and-review.md).

Tables (per generation):

- `versions`: the versions, newest first per listing (index), each with who
  (`actor`, `channel`, `via`), when, `kind`, `changes` as
  `{field: {"before": ..., "after": ...}}` and its review: `pending` for an
  owner's change (actor `account:...`), `not_needed` for staff and system
  changes, then `accepted` or `reverted` (with who, when, which fields, and the
  versions that put them back), or `removed` for an update staff took off the
  site (`reverted_in` names the removal's version).
- `listings`: stream id -> listing id and current slug (later events name only their stream).
- `milestones`: each listing's milestones, so a deleted one shows what it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg import Cursor

from events.account import AccountClosed
from events.base import Event
from events.listing import (
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingMilestoneAdded,
    ListingMilestoneDeleted,
    ListingStorySet,
    ListingUpdatePosted,
    ListingUpdateRemoved,
    ListingVersionAccepted,
    SlugClaimed,
)
from projections import binary_arrays, bulk
from projections.base import Projection, Tables, handles

NAME = "history_view"
KINDS: dict[type[Event], str] = {
    ListingCreated: "created", ListingEdited: "edited", ListingStorySet: "story",
    ListingMilestoneAdded: "milestone_added", ListingMilestoneDeleted: "milestone_deleted",
    ListingUpdatePosted: "update", ListingEditReverted: "revert", ListingUpdateRemoved: "update_removed",
}
"""The kind of version each content event makes (the review commands check a version's kind against it)."""

CREATED_LISTS = ("categories", "socials", "faqs", "founders", "story", "not_found_on_website")


def review_of(actor: str) -> str:
    """An owner's change waits for staff review; staff and system changes need none."""
    return "pending" if actor.startswith("account:") else "not_needed"


class HistoryView(Projection):
    name = NAME
    tables = ("versions", "listings", "milestones")
    positioned = True  # handlers take the event's log position: it is the version id

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['versions']} (
                version_id bigint PRIMARY KEY, listing_id int NOT NULL, stream_id uuid NOT NULL, slug text NOT NULL,
                stream_version int NOT NULL, at timestamptz NOT NULL, actor text NOT NULL, channel text NOT NULL,
                via text NOT NULL, kind text NOT NULL, changes jsonb NOT NULL, review text NOT NULL,
                reviewed_by text, reviewed_at timestamptz, reverted_fields text[] NOT NULL DEFAULT '{{}}',
                reverted_in bigint[] NOT NULL DEFAULT '{{}}', revert_of bigint)"""
        )
        versions = t["versions"]
        cur.execute(f"CREATE INDEX {versions}_listing ON {versions} (listing_id, version_id DESC)")
        cur.execute(f"CREATE INDEX {versions}_queue ON {versions} (version_id) WHERE review = 'pending'")
        cur.execute(f"CREATE TABLE {t['listings']} (listing_id int PRIMARY KEY, stream_id uuid NOT NULL UNIQUE, "
                    "slug text NOT NULL)")
        cur.execute(f"CREATE INDEX {t['listings']}_slug ON {t['listings']} (slug)")  # not unique: a freed slug moves on
        cur.execute(f"CREATE TABLE {t['milestones']} (listing_id int NOT NULL, milestone_id int NOT NULL, "
                    "doc jsonb NOT NULL, PRIMARY KEY (listing_id, milestone_id))")

    # ------------------------------------------------------------ the listing and its slug

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated, position: int) -> None:
        self._batch(cur)
        if e.originator_id in self._known or e.listing_id in self._by_id:  # created twice: write as it comes
            self.flush(cur, t)
            cur.execute(f"INSERT INTO {t['listings']} (listing_id, stream_id, slug) VALUES (%s, %s, %s) "
                        "ON CONFLICT DO NOTHING", (e.listing_id, e.originator_id, e.slug))
            listing = _Listing(e.listing_id, e.slug, pending=False)
        else:
            listing = _Listing(e.listing_id, e.slug, pending=True)
            self._known[e.originator_id] = self._by_id[e.listing_id] = listing
            self._new_listings.append((listing, e.originator_id))
            self._claims.pop(e.listing_id, None)  # its slug claim, just before it in the same append, found no row
        for m in e.milestones:
            self._keep_milestone(e.listing_id, dict(m))
        changes = {k: {"before": None, "after": v} for k, v in e.profile.items() if v not in (None, "", [], {})}
        for key in CREATED_LISTS:
            value = getattr(e, key)
            if value:
                changes[key] = {"before": None, "after": value}
        if e.milestones:
            changes["milestones"] = {"before": None, "after": list(e.milestones)}
        self._version(cur, t, e, position, changes, review="not_needed", found=listing)

    @handles(SlugClaimed)
    def _slug(self, cur: Cursor[Any], t: Tables, e: SlugClaimed, position: int) -> None:
        """A listing that takes a new slug: its versions are found under it from now on."""
        self._batch(cur)
        listing = self._by_id.get(e.listing_id)
        if listing is not None:  # versions kept back take the listing's slug when written
            listing.slug = e.slug
            if listing.pending:  # created in this batch: none of its rows is written yet
                return
        self._claims[e.listing_id] = e.slug  # the rows written before: moved at `flush`, before anything is added

    # ------------------------------------------------------------ content changes

    @handles(ListingEdited)
    def _edited(self, cur: Cursor[Any], t: Tables, e: ListingEdited, position: int) -> None:
        changes = {k: {"before": e.before.get(k), "after": v} for k, v in e.changes.items()}
        self._version(cur, t, e, position, changes)

    @handles(ListingStorySet)
    def _story(self, cur: Cursor[Any], t: Tables, e: ListingStorySet, position: int) -> None:
        self._version(cur, t, e, position, {"story": {"before": dict(e.before), "after": dict(e.story)}})

    @handles(ListingMilestoneAdded)
    def _milestone_added(self, cur: Cursor[Any], t: Tables, e: ListingMilestoneAdded, position: int) -> None:
        m = {"milestone_id": e.milestone_id, "date": e.date, "title": e.title, "description": e.description, "url": e.url}
        listing_id = self._version(cur, t, e, position, {"milestones": {"before": None, "after": m}})
        if listing_id is not None:
            self._keep_milestone(listing_id, m)

    @handles(ListingMilestoneDeleted)
    def _milestone_deleted(self, cur: Cursor[Any], t: Tables, e: ListingMilestoneDeleted, position: int) -> None:
        self.flush(cur, t)
        row = cur.execute(
            f"DELETE FROM {t['milestones']} m USING {t['listings']} l WHERE l.stream_id = %s "
            "AND m.listing_id = l.listing_id AND m.milestone_id = %s RETURNING m.doc",
            (e.originator_id, e.milestone_id),
        ).fetchone()
        was = row[0] if row is not None else {"milestone_id": e.milestone_id}
        self._version(cur, t, e, position, {"milestones": {"before": was, "after": None}})

    @handles(ListingUpdatePosted)
    def _update(self, cur: Cursor[Any], t: Tables, e: ListingUpdatePosted, position: int) -> None:
        update = {"update_id": e.update_id, "title": e.title, "body": e.body}
        self._version(cur, t, e, position, {"updates": {"before": None, "after": update}})

    # ------------------------------------------------------------ staff review

    @handles(ListingEditReverted)
    def _reverted(self, cur: Cursor[Any], t: Tables, e: ListingEditReverted, position: int) -> None:
        changes = {k: {"before": e.before.get(k), "after": v} for k, v in e.changes.items()}
        listing_id = self._version(cur, t, e, position, changes, review="not_needed", revert_of=e.version_id)
        self.flush(cur, t)  # what follows changes rows that may have been kept back
        if listing_id is not None and "milestones" in e.changes:
            cur.execute(f"DELETE FROM {t['milestones']} WHERE listing_id = %s", (listing_id,))
            for m in e.changes["milestones"] or []:
                self._keep_milestone(listing_id, dict(m))
        cur.execute(
            f"""UPDATE {t['versions']} SET review = 'reverted', reviewed_by = %s, reviewed_at = %s,
                    reverted_fields = ARRAY(SELECT DISTINCT f FROM unnest(reverted_fields || %s::text[]) AS f ORDER BY f),
                    reverted_in = array_append(reverted_in, %s::bigint)
                WHERE version_id = %s""",
            (e.actor, e.timestamp, list(e.fields), position, e.version_id),
        )

    @handles(ListingUpdateRemoved)
    def _update_removed(self, cur: Cursor[Any], t: Tables, e: ListingUpdateRemoved, position: int) -> None:
        """A version that shows the update it took away; the version that posted it is reviewed: `removed`."""
        self.flush(cur, t)  # the posting version may still be kept back
        row = cur.execute(f"SELECT changes->'updates'->'after' FROM {t['versions']} WHERE version_id = %s",
                          (e.version_id,)).fetchone()
        was = row[0] if row is not None and row[0] is not None else {"update_id": e.update_id}
        self._version(cur, t, e, position, {"updates": {"before": was, "after": None}}, review="not_needed",
                      revert_of=e.version_id)
        cur.execute(
            f"""UPDATE {t['versions']} SET review = 'removed', reviewed_by = %s, reviewed_at = %s,
                    reverted_in = array_append(reverted_in, %s::bigint) WHERE version_id = %s""",
            (e.actor, e.timestamp, position, e.version_id),
        )

    @handles(ListingVersionAccepted)
    def _accepted(self, cur: Cursor[Any], t: Tables, e: ListingVersionAccepted, position: int) -> None:
        self.flush(cur, t)
        cur.execute(
            f"UPDATE {t['versions']} SET review = 'accepted', reviewed_by = %s, reviewed_at = %s "
            "WHERE version_id = %s AND review NOT IN ('reverted', 'removed')",
            (e.actor, e.timestamp, e.version_id),
        )

    # ------------------------------------------------------------ batch memory
    #
    # Versions, new listings and milestones are kept in memory and written at `flush`, one statement per
    # table, each column one binary array (`projections/binary_arrays.py`). The memory belongs to the batch's
    # cursor (one transaction): a new cursor forgets it, so nothing kept back can outlive a rollback. Handlers
    # that change rows already written (a slug claimed by an older listing, a revert, an acceptance) flush
    # first and write as before.

    _batch_cursor: Any = None
    _known: dict[UUID, _Listing] = {}  # stream id -> listing, for the listings this batch has met
    _by_id: dict[int, _Listing] = {}
    _new_listings: list[tuple[_Listing, UUID]] = []
    _versions: list[tuple[Any, ...]] = []
    _milestones: dict[tuple[int, int], dict[str, Any]] = {}
    _claims: dict[int, str] = {}  # listing id -> the slug it claimed last, for rows written before this batch

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._known, self._by_id = cur, {}, {}
            self._new_listings, self._versions, self._milestones, self._claims = [], [], {}, {}

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed, position: int) -> None:
        """A closed account's versions stay (they are the listing's history), by the former member."""
        self.flush(cur, t)  # versions kept back in this batch are written first
        cur.execute(f"UPDATE {t['versions']} SET actor = %s WHERE actor = %s",
                    ("account:" + e.former_account, f"account:{e.originator_id}"))

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write what was kept back: slugs claimed by listings written before, then new rows, a statement per table.

        The claims go first, so they move only rows that existed when they were
        made (a listing created later in the batch keeps the slug it was created with).
        """
        self._batch(cur)
        if self._claims:
            cur.execute(
                f"""WITH v AS (SELECT * FROM {bulk.unnested(CLAIM_COLUMNS)}),
                    moved AS (UPDATE {t['listings']} l SET slug = v.slug FROM v
                              WHERE l.listing_id = v.listing_id AND l.slug <> v.slug RETURNING l.listing_id, l.slug)
                    UPDATE {t['versions']} x SET slug = moved.slug FROM moved WHERE x.listing_id = moved.listing_id""",
                bulk.params(list(self._claims.items()), len(CLAIM_COLUMNS)),
            )
            self._claims = {}
        binary_arrays.insert(cur, t["listings"], LISTING_COLUMNS,
                             [(listing.listing_id, stream, listing.slug) for listing, stream in self._new_listings],
                             "ON CONFLICT DO NOTHING")
        binary_arrays.insert(cur, t["milestones"], MILESTONE_COLUMNS,
                             [(listing_id, milestone_id, doc) for (listing_id, milestone_id), doc in self._milestones.items()],
                             "ON CONFLICT (listing_id, milestone_id) DO UPDATE SET doc = EXCLUDED.doc")
        binary_arrays.insert(cur, t["versions"], VERSION_COLUMNS,
                             [(v[0], v[1].listing_id, v[2], v[1].slug, *v[3:]) for v in self._versions],
                             "ON CONFLICT (version_id) DO NOTHING")
        for listing, _ in self._new_listings:
            listing.pending = False
        self._new_listings, self._versions, self._milestones = [], [], {}

    # ------------------------------------------------------------ writing

    def _version(self, cur: Cursor[Any], t: Tables, e: Event, position: int, changes: dict[str, Any],
                 review: str | None = None, revert_of: int | None = None,
                 found: _Listing | None = None) -> int | None:
        """Keep one version of the listing the event's stream belongs to; its listing id (None when unknown).

        The version's slug is the listing's when it is written: a slug claimed
        later in the batch moves every version of the listing, these too.
        """
        self._batch(cur)
        listing = found or self._listing(cur, t, e.originator_id)
        if listing is None:  # an event for a listing this generation never saw created: nothing to show
            return None
        self._versions.append((position, listing, e.originator_id, e.originator_version, e.timestamp, e.actor,
                               e.channel, e.via, KINDS[type(e)], changes, review or review_of(e.actor),
                               revert_of))
        return listing.listing_id

    def _listing(self, cur: Cursor[Any], t: Tables, stream_id: UUID) -> _Listing | None:
        """The listing of a stream: from this batch's memory, else read once (it is then remembered)."""
        self._batch(cur)
        listing = self._known.get(stream_id)
        if listing is not None:
            return listing
        row = cur.execute(f"SELECT listing_id, slug FROM {t['listings']} WHERE stream_id = %s", (stream_id,)).fetchone()
        if row is None:
            return None
        listing = _Listing(int(row[0]), self._claims.get(int(row[0]), str(row[1])), pending=False)
        self._known[stream_id] = self._by_id[listing.listing_id] = listing
        return listing

    def _keep_milestone(self, listing_id: int, m: dict[str, Any]) -> None:
        self._milestones[(listing_id, int(m["milestone_id"]))] = m


@dataclass
class _Listing:
    """A listing as this batch knows it; `pending` while its row is kept back (created in this batch)."""

    listing_id: int
    slug: str
    pending: bool


CLAIM_COLUMNS = (("listing_id", "int"), ("slug", "text"))
LISTING_COLUMNS = (("listing_id", "int"), ("stream_id", "uuid"), ("slug", "text"))
MILESTONE_COLUMNS = (("listing_id", "int"), ("milestone_id", "int"), ("doc", "jsonb"))
VERSION_COLUMNS = (
    ("version_id", "bigint"), ("listing_id", "int"), ("stream_id", "uuid"), ("slug", "text"),
    ("stream_version", "int"), ("at", "timestamptz"), ("actor", "text"), ("channel", "text"), ("via", "text"),
    ("kind", "text"), ("changes", "jsonb"), ("review", "text"), ("revert_of", "bigint"),
)
