"""Version history of listings: one row per content change, and the staff's review of owners' changes.

A *version* is one content event of a listing stream: its creation, an edit,
the founder story, a milestone added or deleted, an update posted, or a staff
revert. Its `version_id` is the event's log position, so it is the same after
any rebuild and orders versions across listings. Everything here comes from
the events (the edit events carry the values before and after); nothing is
written twice (docs/history-and-review.md).

Tables (per generation):

- `versions`: the versions, newest first per listing (index), each with who
  (`actor`, `channel`, `via`), when, `kind`, `changes` as
  `{field: {"before": ..., "after": ...}}` and its review: `pending` for an
  owner's change (actor `account:...`), `not_needed` for staff and system
  changes, then `accepted` or `reverted` (with who, when, which fields, and the
  versions that put them back).
- `listings`: stream id -> listing id and current slug (later events name only their stream).
- `milestones`: each listing's milestones, so a deleted one shows what it was.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.base import Event
from events.listing import (
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingMilestoneAdded,
    ListingMilestoneDeleted,
    ListingStorySet,
    ListingUpdatePosted,
    ListingVersionAccepted,
    SlugClaimed,
)
from projections.base import Projection, Tables, handles

NAME = "history_view"
KINDS: dict[type[Event], str] = {
    ListingCreated: "created", ListingEdited: "edited", ListingStorySet: "story",
    ListingMilestoneAdded: "milestone_added", ListingMilestoneDeleted: "milestone_deleted",
    ListingUpdatePosted: "update", ListingEditReverted: "revert",
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
        cur.execute(f"INSERT INTO {t['listings']} (listing_id, stream_id, slug) VALUES (%s, %s, %s) "
                    "ON CONFLICT DO NOTHING", (e.listing_id, e.originator_id, e.slug))
        for m in e.milestones:
            self._keep_milestone(cur, t, e.listing_id, dict(m))
        changes = {k: {"before": None, "after": v} for k, v in e.profile.items() if v not in (None, "", [], {})}
        for key in CREATED_LISTS:
            value = getattr(e, key)
            if value:
                changes[key] = {"before": None, "after": value}
        if e.milestones:
            changes["milestones"] = {"before": None, "after": list(e.milestones)}
        self._version(cur, t, e, position, changes, review="not_needed", found=(e.listing_id, e.slug))

    @handles(SlugClaimed)
    def _slug(self, cur: Cursor[Any], t: Tables, e: SlugClaimed, position: int) -> None:
        """A listing that takes a new slug: its versions are found under it from now on."""
        # One statement, nothing fetched: it stays in the batch's pipeline (no round trip per event).
        cur.execute(f"WITH moved AS (UPDATE {t['listings']} SET slug = %(slug)s WHERE listing_id = %(id)s "
                    f"AND slug <> %(slug)s RETURNING listing_id) "
                    f"UPDATE {t['versions']} SET slug = %(slug)s WHERE listing_id IN (SELECT listing_id FROM moved)",
                    {"slug": e.slug, "id": e.listing_id})

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
            self._keep_milestone(cur, t, listing_id, m)

    @handles(ListingMilestoneDeleted)
    def _milestone_deleted(self, cur: Cursor[Any], t: Tables, e: ListingMilestoneDeleted, position: int) -> None:
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
        if listing_id is not None and "milestones" in e.changes:
            cur.execute(f"DELETE FROM {t['milestones']} WHERE listing_id = %s", (listing_id,))
            for m in e.changes["milestones"] or []:
                self._keep_milestone(cur, t, listing_id, dict(m))
        cur.execute(
            f"""UPDATE {t['versions']} SET review = 'reverted', reviewed_by = %s, reviewed_at = %s,
                    reverted_fields = ARRAY(SELECT DISTINCT f FROM unnest(reverted_fields || %s::text[]) AS f ORDER BY f),
                    reverted_in = array_append(reverted_in, %s::bigint)
                WHERE version_id = %s""",
            (e.actor, e.timestamp, list(e.fields), position, e.version_id),
        )

    @handles(ListingVersionAccepted)
    def _accepted(self, cur: Cursor[Any], t: Tables, e: ListingVersionAccepted, position: int) -> None:
        cur.execute(
            f"UPDATE {t['versions']} SET review = 'accepted', reviewed_by = %s, reviewed_at = %s "
            "WHERE version_id = %s AND review <> 'reverted'",
            (e.actor, e.timestamp, e.version_id),
        )

    # ------------------------------------------------------------ writing

    def _version(self, cur: Cursor[Any], t: Tables, e: Event, position: int, changes: dict[str, Any],
                 review: str | None = None, revert_of: int | None = None,
                 found: tuple[int, str] | None = None) -> int | None:
        """Record one version of the listing the event's stream belongs to; its listing id (None when unknown).

        `found` is the (listing id, slug) when the caller knows it (a creation), which saves a round trip.
        """
        found = found or self._listing(cur, t, e.originator_id)
        if found is None:  # an event for a listing this generation never saw created: nothing to show
            return None
        listing_id, slug = found
        cur.execute(
            f"""INSERT INTO {t['versions']} (version_id, listing_id, stream_id, slug, stream_version, at, actor, channel,
                    via, kind, changes, review, revert_of)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (version_id) DO NOTHING""",
            (position, listing_id, e.originator_id, slug, e.originator_version, e.timestamp, e.actor, e.channel,
             e.via, KINDS[type(e)], Jsonb(changes), review or review_of(e.actor), revert_of),
        )
        return listing_id

    @staticmethod
    def _listing(cur: Cursor[Any], t: Tables, stream_id: UUID) -> tuple[int, str] | None:
        row = cur.execute(f"SELECT listing_id, slug FROM {t['listings']} WHERE stream_id = %s", (stream_id,)).fetchone()
        return (int(row[0]), str(row[1])) if row is not None else None

    @staticmethod
    def _keep_milestone(cur: Cursor[Any], t: Tables, listing_id: int, m: dict[str, Any]) -> None:
        cur.execute(
            f"INSERT INTO {t['milestones']} (listing_id, milestone_id, doc) VALUES (%s, %s, %s) "
            "ON CONFLICT (listing_id, milestone_id) DO UPDATE SET doc = EXCLUDED.doc",
            (listing_id, int(m["milestone_id"]), Jsonb(m)),
        )
