"""Version history reads for staff: a listing's versions, the review queue, one version.

All read `history_view` (`projections/history_view.py`). Who made a version is
its `actor`; for accounts the email is looked up in `accounts_view` so staff
read a name, not an id. A version's `version_id` is its log position (unique
across listings); people read its `number`, its place among its listing's
versions (1 for the first), and the same numbers for the versions a revert
names. The review commands (`commands/review.py`) take a
version's `version_id`, `listing_id`, `stream_version` and `kind` from here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

from events.errors import NotFound
from projections.reads import ReadStore
from queries.paging import Paging, page_of

VIEW = "history_view"
ACCOUNTS = "accounts_view"
COLUMNS = ("version_id", "listing_id", "slug", "stream_version", "at", "actor", "channel", "via", "kind", "changes",
           "review", "reviewed_by", "reviewed_at", "reverted_fields", "reverted_in", "revert_of")


class Version(BaseModel):
    """One version of a listing: who changed what, when, through what, each field before and after, and its review."""

    version_id: int  # the log position of the event that made it
    number: int  # its place among its listing's versions, oldest first, from 1
    listing_id: int
    slug: str
    stream_version: int
    at: datetime
    actor: str
    actor_email: str | None  # the account's email when the actor is an account
    channel: str
    via: str
    kind: str  # created | edited | story | milestone_added | milestone_deleted | update | revert | update_removed
    changes: dict[str, dict[str, Any]]  # field -> {"before": ..., "after": ...}
    review: str  # pending | not_needed | accepted | reverted | removed (an update staff took off the site)
    reviewed_by: str | None
    reviewed_at: datetime | None
    reverted_fields: list[str]
    reverted_in: list[int]  # the versions that put fields of this one back (or removed its update)
    revert_of: int | None  # for a revert: the version whose fields it put back; for a removal: the update's version
    reverted_in_numbers: list[int]  # the same versions by their numbers
    revert_of_number: int | None


def _select(reads: ReadStore) -> str:
    v, a = reads.tables(VIEW)["versions"], reads.tables(ACCOUNTS)["accounts"]

    def number(of: str) -> str:  # the place of version `of` among the listing's versions (an index-only count)
        return f"(SELECT count(*) FROM {v} n WHERE n.listing_id = v.listing_id AND n.version_id <= {of})"

    numbers = (f"{number('v.version_id')}, CASE WHEN v.revert_of IS NULL THEN NULL ELSE {number('v.revert_of')} END, "
               f"ARRAY(SELECT {number('r')} FROM unnest(v.reverted_in) r ORDER BY r)")
    return (f"SELECT {', '.join('v.' + c for c in COLUMNS)}, {numbers}, a.email FROM {v} v "
            f"LEFT JOIN {a} a ON v.actor = 'account:' || a.account_id")


def _doc(row: tuple[Any, ...]) -> dict[str, Any]:
    n = len(COLUMNS)
    doc = dict(zip(COLUMNS, row[:n], strict=True))
    doc["number"], doc["revert_of_number"], reverted = row[n], row[n + 1], row[n + 2]
    doc["reverted_in_numbers"] = [int(i) for i in reverted]
    doc["actor_email"] = row[-1]
    doc["reverted_in"] = [int(i) for i in doc["reverted_in"]]
    return doc


def listing_of(reads: ReadStore, listing: int | str) -> tuple[int, str]:
    """(listing_id, slug) of a listing named by id or slug; NotFound when history has no such listing."""
    t = reads.tables(VIEW)
    by = "listing_id" if isinstance(listing, int) else "slug"
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT listing_id, slug FROM {t['listings']} WHERE {by} = %s ORDER BY listing_id DESC "
                           "LIMIT 1", (listing,)).fetchone()
    if row is None:
        raise NotFound(f"no listing {listing!r}")
    return int(row[0]), str(row[1])


def history(reads: ReadStore, listing: int | str, paging: Paging) -> dict[str, Any]:
    """A listing's versions, newest first (by id or slug)."""
    listing_id, _ = listing_of(reads, listing)
    v = reads.tables(VIEW)["versions"]
    with reads.pool.connection() as conn:
        rows = conn.execute(f"{_select(reads)} WHERE v.listing_id = %s ORDER BY v.version_id DESC LIMIT %s OFFSET %s",
                            (listing_id, paging.per_page, paging.offset)).fetchall()
        total = conn.execute(f"SELECT count(*) FROM {v} WHERE listing_id = %s", (listing_id,)).fetchone()
    return page_of([_doc(r) for r in rows], paging, int(total[0]) if total else 0)


def review_queue(reads: ReadStore, paging: Paging) -> dict[str, Any]:
    """Owners' versions waiting for review, oldest first (so none waits forever)."""
    v = reads.tables(VIEW)["versions"]
    with reads.pool.connection() as conn:
        rows = conn.execute(f"{_select(reads)} WHERE v.review = 'pending' ORDER BY v.version_id LIMIT %s OFFSET %s",
                            (paging.per_page, paging.offset)).fetchall()
        total = conn.execute(f"SELECT count(*) FROM {v} WHERE review = 'pending'").fetchone()
    return page_of([_doc(r) for r in rows], paging, int(total[0]) if total else 0)


def version(reads: ReadStore, version_id: int) -> dict[str, Any]:
    """One version by its id; NotFound when there is none."""
    with reads.pool.connection() as conn:
        row = conn.execute(f"{_select(reads)} WHERE v.version_id = %s", (version_id,)).fetchone()
    if row is None:
        raise NotFound(f"no version {version_id}")
    return _doc(row)


def update_version(reads: ReadStore, listing_id: int, update_id: int) -> dict[str, Any]:
    """The version that posted update `update_id` of the listing; NotFound when it posted no such update."""
    with reads.pool.connection() as conn:
        row = conn.execute(f"{_select(reads)} WHERE v.listing_id = %s AND v.kind = 'update' "
                           "AND v.changes->'updates'->'after'->>'update_id' = %s", (listing_id, str(update_id))).fetchone()
    if row is None:
        raise NotFound(f"listing {listing_id} has no update {update_id}")
    return _doc(row)
