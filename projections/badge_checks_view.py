"""The badge checks' to-do list and last results: one row per listing, and the schedule the checks follow.

The free plan's process manager (`workers/badge_watch.py`) reads this table
to know which homepages to check and when; owners see the last result through
`queries/badge_checks.py`. Everything here follows from the listing events,
so a rebuild from event 0 gives the same table (docs/free-plan.md).

When the next check is due:

- queued for the free plan: at once (`next_check_at` = the time it was queued);
- after a miss while `awaiting_badge`: the time the miss recorded, by the
  backoff `BACKOFF` (15 min, 1 h, 4 h, 12 h, then daily);
- scheduled: none (the scheduler checks at go-live, when its week begins);
- launched on the free plan: weekly follow-ups for `FOLLOW_UP_FOR` (4 weeks),
  then none;
- paid, saved, taken down: none.

Listings created in a batch are kept in memory and changed there by the
status events that follow, then written at `flush` in one statement; a check's
result (found, missing) writes them first, since it reads and updates the row
(the pattern of `launches_view`, docs/projections.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from psycopg import Cursor

from events.listing import (
    ListingBadgeFound,
    ListingBadgeLost,
    ListingBadgeMissing,
    ListingCreated,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingUnpublished,
)
from projections import binary_arrays
from projections.base import Projection, Tables, handles
from projections.kept_rows import KeptRows

NAME = "badge_checks_view"
BACKOFF = (timedelta(minutes=15), timedelta(hours=1), timedelta(hours=4), timedelta(hours=12), timedelta(days=1))
FOLLOW_UP_EVERY = timedelta(days=7)
FOLLOW_UP_FOR = timedelta(days=28)
_FOLLOW_UP_SLACK = timedelta(days=1)
# A row kept back until `flush`, in the table's column order.
KEPT_ROW = (("listing_id", "int"), ("stream_id", "uuid"), ("slug", "text"), ("status", "text"), ("plan", "text"),
            ("week", "text"), ("launched_at", "timestamptz"), ("attempts", "int"), ("last_checked_at", "timestamptz"),
            ("last_result", "text"), ("last_reason", "text"), ("checked_url", "text"), ("next_check_at", "timestamptz"))


def backoff_after(misses: int) -> timedelta:
    """The wait before the next check after `misses` misses in a row (1 = the first miss); daily at most."""
    return BACKOFF[min(max(misses, 1), len(BACKOFF)) - 1]


def follow_up_after(launched_at: datetime, at: datetime) -> datetime | None:
    """The next weekly check of a launched free listing checked at `at`, or None once its follow-up weeks are over."""
    nxt = at + FOLLOW_UP_EVERY
    return nxt if nxt <= launched_at + FOLLOW_UP_FOR + _FOLLOW_UP_SLACK else None


class BadgeChecksView(KeptRows, Projection):
    name = NAME
    tables = ("checks",)
    kept_events = frozenset({ListingCreated, ListingQueuedForFree, ListingBadgeLost, ListingScheduled, ListingLaunched,
                             ListingPublishedByStaff, ListingUnpublished})

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['checks']} (
                listing_id int PRIMARY KEY, stream_id uuid NOT NULL UNIQUE, slug text NOT NULL,
                status text NOT NULL, plan text, week text, launched_at timestamptz,
                attempts int NOT NULL DEFAULT 0, last_checked_at timestamptz, last_result text, last_reason text,
                checked_url text, next_check_at timestamptz)"""
        )
        cur.execute(f"CREATE INDEX ON {t['checks']} (slug)")
        cur.execute(f"CREATE INDEX ON {t['checks']} (next_check_at) WHERE next_check_at IS NOT NULL")

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        row = {"listing_id": e.listing_id, "stream_id": e.originator_id, "slug": e.slug, "status": "draft", "plan": None,
               "week": None, "launched_at": None, "attempts": 0, "last_checked_at": None, "last_result": None,
               "last_reason": None, "checked_url": None, "next_check_at": None}
        if self._keep(cur, e.originator_id, e.listing_id, row):
            return
        self.flush(cur, t)  # created twice in one batch: written as it comes, the first one stays
        cur.execute(
            f"INSERT INTO {t['checks']} (listing_id, stream_id, slug, status) VALUES (%s, %s, %s, 'draft') "
            "ON CONFLICT (listing_id) DO NOTHING",
            (e.listing_id, e.originator_id, e.slug),
        )

    @handles(ListingQueuedForFree)
    def _queued(self, cur: Cursor[Any], t: Tables, e: ListingQueuedForFree) -> None:
        if self._kept(cur, e.originator_id, status="awaiting_badge", plan="free", week=e.week, attempts=0,
                      last_checked_at=None, last_result=None, last_reason=None, checked_url=None,
                      next_check_at=e.timestamp):
            return
        cur.execute(
            f"""UPDATE {t['checks']} SET status = 'awaiting_badge', plan = 'free', week = %s, attempts = 0,
                    last_checked_at = NULL, last_result = NULL, last_reason = NULL, checked_url = NULL,
                    next_check_at = %s WHERE stream_id = %s""",
            (e.week, e.timestamp, e.originator_id),
        )

    @handles(ListingBadgeFound)
    def _found(self, cur: Cursor[Any], t: Tables, e: ListingBadgeFound) -> None:
        row = cur.execute(f"SELECT status, launched_at FROM {t['checks']} WHERE stream_id = %s",
                          (e.originator_id,)).fetchone()
        live = row is not None and row[0] == "live" and row[1] is not None
        nxt = follow_up_after(row[1], e.timestamp) if live and row is not None else None
        cur.execute(
            f"""UPDATE {t['checks']} SET attempts = 0, last_checked_at = %s, last_result = 'found', last_reason = NULL,
                    checked_url = %s, next_check_at = %s WHERE stream_id = %s""",
            (e.timestamp, e.checked_url, nxt, e.originator_id),
        )

    @handles(ListingBadgeMissing)
    def _missing(self, cur: Cursor[Any], t: Tables, e: ListingBadgeMissing) -> None:
        cur.execute(
            f"""UPDATE {t['checks']} SET attempts = attempts + 1, last_checked_at = %s, last_result = 'missing',
                    last_reason = %s, checked_url = %s, next_check_at = %s::timestamptz WHERE stream_id = %s""",
            (e.timestamp, e.reason, e.checked_url, e.next_check_at, e.originator_id),
        )

    @handles(ListingBadgeLost)
    def _lost(self, cur: Cursor[Any], t: Tables, e: ListingBadgeLost) -> None:
        if self._kept(cur, e.originator_id, status="awaiting_badge"):
            return
        cur.execute(f"UPDATE {t['checks']} SET status = 'awaiting_badge' WHERE stream_id = %s", (e.originator_id,))

    @handles(ListingScheduled)
    def _scheduled(self, cur: Cursor[Any], t: Tables, e: ListingScheduled) -> None:
        if self._kept(cur, e.originator_id, status="scheduled", plan=e.plan, week=e.week, next_check_at=None):
            return
        cur.execute(
            f"UPDATE {t['checks']} SET status = 'scheduled', plan = %s, week = %s, next_check_at = NULL WHERE stream_id = %s",
            (e.plan, e.week, e.originator_id),
        )

    @handles(ListingLaunched, ListingPublishedByStaff)
    def _live(self, cur: Cursor[Any], t: Tables, e: ListingLaunched | ListingPublishedByStaff) -> None:
        follow_up = isinstance(e, ListingLaunched) and e.plan == "free"
        if self._kept(cur, e.originator_id, status="live", plan=e.plan, week=e.week, launched_at=e.timestamp,
                      next_check_at=e.timestamp + FOLLOW_UP_EVERY if follow_up else None):
            return
        cur.execute(
            f"""UPDATE {t['checks']} SET status = 'live', plan = %s, week = %s, launched_at = %s, next_check_at = %s
                WHERE stream_id = %s""",
            (e.plan, e.week, e.timestamp, e.timestamp + FOLLOW_UP_EVERY if follow_up else None, e.originator_id),
        )

    @handles(ListingUnpublished)
    def _unpublished(self, cur: Cursor[Any], t: Tables, e: ListingUnpublished) -> None:
        if self._kept(cur, e.originator_id, status="unpublished", next_check_at=None):
            return
        cur.execute(f"UPDATE {t['checks']} SET status = 'unpublished', next_check_at = NULL WHERE stream_id = %s",
                    (e.originator_id,))


    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the rows kept back in one statement."""
        self._batch(cur)
        binary_arrays.insert(cur, t["checks"], KEPT_ROW, [tuple(r[c] for c, _ in KEPT_ROW) for r in self._taken()],
                             "ON CONFLICT (listing_id) DO NOTHING")
