"""Read tables of the launch calendar and the community rankings.

Compact listing rows (the card fields, status, launch week, community
counters), one row per standing vote, votes per listing and UTC hour (for the
time-decayed trending score), approved-review tallies
(`projections/review_tally.py`), and the closed weeks with their awards. Only
community signals live here: billboard money, Domain Rating and revenue are in
`leaderboard_view`, so they cannot leak into the community boards or the awards
by construction.

`week_votes` counts a listing's standing votes cast before its launch week
ended (Monday 00:00 of the next week in the site's timezone). It is what the
launch-week page, the weekly board and the awards rank by, so late votes never
reorder a past week. The timezone is a setting: after changing
`LAUNCHDIR_TIMEZONE`, rebuild this projection.

Listings created in a batch are kept in memory, changed there by the status
events that follow (slug, queued, scheduled, live, unpublished), and written
at `flush` in one statement: a catch-up over a directory's history is
mostly a listing created, named and put live, three statements a listing
before. Any other event writes the kept rows first, so its statement finds
the row it changes (docs/performance.md, "`launches_view` keeps a batch's
new listings").
"""

from __future__ import annotations

from datetime import date
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.awards import LaunchWeekAwardsRecomputed, LaunchWeekClosed
from events.community import (
    ListingFollowed,
    ListingUnfollowed,
    ListingViewsCounted,
    ReviewEdited,
    ReviewHidden,
    ReviewModerated,
    ReviewRestored,
    ReviewWritten,
    VoteCast,
    VoteWithdrawn,
)
from events.votes import VoteRestored, VoteVoided
from events.listing import (
    ListingBadgeLost,
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingFeatured,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingUnpublished,
    ListingVerificationWithdrawn,
    ListingVerified,
    SlugClaimed,
)
from projections import binary_arrays
from projections.base import Projection, Tables, handles
from projections.kept_rows import KeptRows
from projections.review_tally import ReviewTally

# profile key or listing key -> column of the compact row
EDITABLE_COLUMNS = {"name": "name", "tagline": "tagline", "logo_url": "logo_url", "website_url": "url"}
# Approved reviews and the sum of their ratings (the top-rated badge divides them).
TALLY = ReviewTally("id", "bigint", {"reviews": "count(*)", "rating_sum": "coalesce(sum(r.rating), 0)"})
# The columns of a listing row kept back and written at `flush`; the others keep their defaults.
KEPT_ROW = (("id", "bigint"), ("stream", "uuid"), ("slug", "text"), ("name", "text"), ("tagline", "text"),
            ("logo_url", "text"), ("url", "text"), ("categories", "jsonb"), ("status", "text"), ("plan", "text"),
            ("week", "date"), ("created_at", "timestamptz"), ("scheduled_at", "timestamptz"),
            ("launched_at", "timestamptz"), ("week_votes", "int"), ("first_vote_at", "timestamptz"))


class LaunchesView(KeptRows, Projection):
    name = "launches_view"
    tables = ("listings", "votes", "vote_hours", "reviews", "weeks", "awards")
    kept_events = frozenset({ListingCreated, SlugClaimed, ListingQueuedForFree, ListingBadgeLost, ListingScheduled,
                             ListingLaunched, ListingPublishedByStaff, ListingUnpublished})

    def __init__(self, timezone: str = "UTC") -> None:
        ZoneInfo(timezone)  # refuse an unknown zone at start, not in the middle of a batch
        self.timezone = timezone

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['listings']} (
                id bigint PRIMARY KEY, stream uuid NOT NULL UNIQUE, slug text NOT NULL, name text NOT NULL,
                tagline text, logo_url text, url text,
                categories jsonb NOT NULL DEFAULT '[]', status text NOT NULL, plan text, week date,
                created_at timestamptz NOT NULL, scheduled_at timestamptz, launched_at timestamptz,
                featured_weeks jsonb NOT NULL DEFAULT '[]', verified boolean NOT NULL DEFAULT false,
                votes int NOT NULL DEFAULT 0, week_votes int NOT NULL DEFAULT 0, first_vote_at timestamptz,
                followers int NOT NULL DEFAULT 0, views bigint NOT NULL DEFAULT 0,
                reviews int NOT NULL DEFAULT 0, rating_sum int NOT NULL DEFAULT 0)"""
        )
        cur.execute(f"CREATE INDEX ON {t['listings']} (slug)")
        cur.execute(f"CREATE INDEX ON {t['listings']} (status, week)")
        cur.execute(f"CREATE INDEX ON {t['listings']} (status, votes DESC, id)")
        cur.execute(f"CREATE INDEX ON {t['listings']} (status, launched_at DESC, id)")
        cur.execute(
            f"""CREATE TABLE {t['votes']} (listing_id bigint NOT NULL, account_id text NOT NULL,
                cast_at timestamptz NOT NULL, PRIMARY KEY (listing_id, account_id))"""
        )
        cur.execute(f"CREATE INDEX ON {t['votes']} (listing_id, cast_at)")
        cur.execute(
            f"""CREATE TABLE {t['vote_hours']} (listing_id bigint NOT NULL, hour timestamptz NOT NULL,
                n int NOT NULL, PRIMARY KEY (listing_id, hour))"""
        )
        cur.execute(f"CREATE INDEX ON {t['vote_hours']} (hour)")
        TALLY.create(cur, t["reviews"])
        cur.execute(f"CREATE TABLE {t['weeks']} (week date PRIMARY KEY, closed_at timestamptz NOT NULL)")
        cur.execute(
            f"""CREATE TABLE {t['awards']} (week date NOT NULL, rank int NOT NULL, listing_id bigint NOT NULL,
                votes int NOT NULL, first_vote_at timestamptz, PRIMARY KEY (week, rank))"""
        )
        cur.execute(f"CREATE INDEX ON {t['awards']} (listing_id)")

    def _week_end(self, week_sql: str) -> str:
        """SQL for the instant a week ends: the next Monday 00:00 in the site's timezone."""
        return f"(({week_sql} + 7)::timestamp AT TIME ZONE '{self.timezone}')"

    # ------------------------------------------------------------ listing facts

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        p = e.profile
        row = {"id": e.listing_id, "stream": e.originator_id, "slug": e.slug, "name": str(p.get("name") or ""),
               "tagline": p.get("tagline"), "logo_url": p.get("logo_url"), "url": p.get("website_url"),
               "categories": list(e.categories), "status": "draft", "plan": None, "week": None,
               "created_at": e.timestamp, "scheduled_at": None, "launched_at": None, "week_votes": 0,
               "first_vote_at": None}
        if self._keep(cur, e.originator_id, e.listing_id, row):
            # Its slug claim, which comes first in the same append, would have found no row to change.
            self._claims.pop(e.listing_id, None)
            return
        self.flush(cur, t)  # created twice in one batch: written as it comes, the first one stays
        cur.execute(
            f"""INSERT INTO {t['listings']} (id, stream, slug, name, tagline, logo_url, url, categories, status, created_at)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 'draft', %s) ON CONFLICT (id) DO NOTHING""",
            (e.listing_id, e.originator_id, e.slug, str(p.get("name") or ""), p.get("tagline"), p.get("logo_url"),
             p.get("website_url"), Jsonb(list(e.categories)), e.timestamp),
        )

    @handles(ListingEdited, ListingEditReverted)  # a staff revert puts fields back like an edit
    def _edited(self, cur: Cursor[Any], t: Tables, e: ListingEdited | ListingEditReverted) -> None:
        sets: list[str] = []
        values: list[Any] = []
        for key, column in EDITABLE_COLUMNS.items():
            if key in e.changes:
                sets.append(f"{column} = %s")
                value = e.changes[key]
                values.append(("" if value is None else str(value)) if key == "name" else value)
        if "categories" in e.changes:
            sets.append("categories = %s")
            values.append(Jsonb(list(e.changes["categories"] or [])))
        if sets:
            cur.execute(
                f"UPDATE {t['listings']} SET {', '.join(sets)} WHERE stream = %s",
                (*values, e.originator_id),
            )

    @handles(SlugClaimed)
    def _slug(self, cur: Cursor[Any], t: Tables, e: SlugClaimed) -> None:
        """A listing's slug claim comes just before its creation: kept until `flush`, dropped when the creation follows."""
        self._batch(cur)
        if e.listing_id in self._ids:
            self._ids[e.listing_id]["slug"] = e.slug
        else:
            self._claims[e.listing_id] = e.slug

    @handles(ListingQueuedForFree)
    def _queued(self, cur: Cursor[Any], t: Tables, e: ListingQueuedForFree) -> None:
        self._status(cur, t, e, "awaiting_badge", week=e.week, plan="free")

    @handles(ListingBadgeLost)  # no badge when its week began: waiting for it again (docs/free-plan.md)
    def _badge_lost(self, cur: Cursor[Any], t: Tables, e: ListingBadgeLost) -> None:
        self._status(cur, t, e, "awaiting_badge")

    @handles(ListingScheduled)
    def _scheduled(self, cur: Cursor[Any], t: Tables, e: ListingScheduled) -> None:
        if self._kept(cur, e.originator_id, status="scheduled", week=_day(e.week), plan=e.plan,
                      scheduled_at=e.timestamp):
            return
        cur.execute(
            f"UPDATE {t['listings']} SET status='scheduled', week=%s, plan=%s, scheduled_at=%s WHERE stream = %s",
            (e.week, e.plan, e.timestamp, e.originator_id),
        )

    @handles(ListingLaunched, ListingPublishedByStaff)
    def _launched(self, cur: Cursor[Any], t: Tables, e: ListingLaunched | ListingPublishedByStaff) -> None:
        """Live in `week`; launch-week votes are recounted (a relaunch moves the window)."""
        if self._kept(cur, e.originator_id, status="live", week=_day(e.week), plan=e.plan, launched_at=e.timestamp):
            self._recount.add(e.originator_id)  # a row kept back is recounted as it is written (`flush`)
            return
        end = self._week_end("%s::date")
        cur.execute(
            f"""UPDATE {t['listings']} l SET status='live', week=%s, plan=%s, launched_at=%s,
                (week_votes, first_vote_at) = (SELECT count(*), min(v.cast_at) FROM {t['votes']} v
                                               WHERE v.listing_id = l.id AND v.cast_at < {end})
                WHERE stream = %s""",
            (e.week, e.plan, e.timestamp, e.week, e.originator_id),
        )

    @handles(ListingUnpublished)
    def _unpublished(self, cur: Cursor[Any], t: Tables, e: ListingUnpublished) -> None:
        self._status(cur, t, e, "unpublished")

    @handles(ListingFeatured)
    def _featured(self, cur: Cursor[Any], t: Tables, e: ListingFeatured) -> None:
        cur.execute(
            f"""UPDATE {t['listings']} SET featured_weeks = featured_weeks || to_jsonb(%s::text)
                WHERE stream = %s AND NOT featured_weeks ? %s""",
            (e.week, e.originator_id, e.week),
        )

    @handles(ListingVerified)
    def _verified(self, cur: Cursor[Any], t: Tables, e: ListingVerified) -> None:
        cur.execute(f"UPDATE {t['listings']} SET verified = true WHERE stream = %s", (e.originator_id,))

    @handles(ListingVerificationWithdrawn)
    def _unverified(self, cur: Cursor[Any], t: Tables, e: ListingVerificationWithdrawn) -> None:
        cur.execute(f"UPDATE {t['listings']} SET verified = false WHERE stream = %s", (e.originator_id,))

    def _status(self, cur: Cursor[Any], t: Tables, e: Any, status: str, week: str | None = None, plan: str | None = None) -> None:
        kept = self._batch(cur).get(e.originator_id)
        if kept is not None:  # as the statement below: week and plan change only when given
            kept.update(status=status, week=_day(week) if week is not None else kept["week"],
                        plan=plan if plan is not None else kept["plan"])
            return
        cur.execute(
            f"UPDATE {t['listings']} SET status=%s, week=coalesce(%s::date, week), plan=coalesce(%s, plan) WHERE stream = %s",
            (status, week, plan, e.originator_id),
        )

    # ------------------------------------------------------------ batch memory (`projections/kept_rows.py`)

    _recount: set[UUID] = set()  # kept rows put live: their launch-week votes are read as they are written
    _claims: dict[int, str] = {}  # listing id -> the slug claimed last, for listings not kept back

    def _new_batch(self) -> None:
        self._recount, self._claims = set(), {}

    def _keeps_any(self) -> bool:
        return bool(self._pending or self._claims)

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the slugs claimed and the listings kept back, one statement each.

        A row put live in the batch has its launch-week votes counted as the
        statement of `_launched` counts them; any vote of the batch wrote the
        kept rows before it, so only votes already in the table can count
        (none, for a listing created in this batch, unless the log says
        otherwise).
        """
        kept = self._batch(cur)
        if self._claims:
            cur.execute(f"UPDATE {t['listings']} l SET slug = c.slug FROM unnest(%s::bigint[], %s::text[]) AS c(id, slug) "
                        "WHERE l.id = c.id", (list(self._claims), list(self._claims.values())))
            self._claims = {}
        if not kept:
            return
        if self._recount:
            launched = [kept[s] for s in self._recount]
            end = self._week_end("k.week")
            counts = cur.execute(
                f"""SELECT k.id, count(*), min(v.cast_at) FROM unnest(%s::bigint[], %s::date[]) AS k(id, week)
                    JOIN {t['votes']} v ON v.listing_id = k.id AND v.cast_at < {end} GROUP BY k.id""",
                ([r["id"] for r in launched], [r["week"] for r in launched]),
            ).fetchall()
            for listing_id, n, first in counts:
                self._ids[int(listing_id)].update(week_votes=int(n), first_vote_at=first)
        self._recount = set()
        binary_arrays.insert(cur, t["listings"], KEPT_ROW, [tuple(r[c] for c, _ in KEPT_ROW) for r in self._taken()],
                             "ON CONFLICT (id) DO NOTHING")

    # ------------------------------------------------------------ community signals

    @handles(VoteCast)
    def _vote(self, cur: Cursor[Any], t: Tables, e: VoteCast) -> None:
        self._count_vote(cur, t, e.listing_id, e.account_id, e.timestamp)

    @handles(VoteRestored)  # staff restored a voided vote: it counts again at its own time
    def _restored(self, cur: Cursor[Any], t: Tables, e: VoteRestored) -> None:
        self._count_vote(cur, t, e.listing_id, e.account_id, e.cast_at)

    @handles(VoteWithdrawn)
    def _unvote(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn) -> None:
        self._uncount_vote(cur, t, e.listing_id, e.account_id)

    @handles(VoteVoided)  # staff voided a vote: out of every count, like a withdrawn one
    def _voided(self, cur: Cursor[Any], t: Tables, e: VoteVoided) -> None:
        self._uncount_vote(cur, t, e.listing_id, e.account_id)

    def _count_vote(self, cur: Cursor[Any], t: Tables, listing_id: int, account_id: str, at: Any) -> None:
        counted = f"(l.week IS NOT NULL AND ins.cast_at < {self._week_end('l.week')})"
        cur.execute(
            f"""WITH ins AS (
                    INSERT INTO {t['votes']} (listing_id, account_id, cast_at) VALUES (%s, %s, %s)
                    ON CONFLICT DO NOTHING RETURNING listing_id, cast_at),
                upd AS (
                    UPDATE {t['listings']} l SET votes = l.votes + 1,
                        week_votes = l.week_votes + {counted}::int,
                        first_vote_at = CASE WHEN {counted} THEN least(l.first_vote_at, ins.cast_at) ELSE l.first_vote_at END
                    FROM ins WHERE l.id = ins.listing_id RETURNING 1)
                INSERT INTO {t['vote_hours']} (listing_id, hour, n)
                SELECT listing_id, date_trunc('hour', cast_at, 'UTC'), 1 FROM ins
                ON CONFLICT (listing_id, hour) DO UPDATE SET n = {t['vote_hours']}.n + 1""",
            (listing_id, account_id, at),
        )

    def _uncount_vote(self, cur: Cursor[Any], t: Tables, listing_id: int, account_id: str) -> None:
        end = self._week_end("l.week")
        counted = f"(l.week IS NOT NULL AND del.cast_at < {end})"
        # every part of the statement sees the votes table as it was before the DELETE,
        # so the recomputed first vote leaves the withdrawn one out explicitly
        cur.execute(
            f"""WITH del AS (
                    DELETE FROM {t['votes']} WHERE listing_id = %s AND account_id = %s RETURNING listing_id, cast_at),
                hrs AS (
                    UPDATE {t['vote_hours']} h SET n = h.n - 1 FROM del
                    WHERE h.listing_id = del.listing_id AND h.hour = date_trunc('hour', del.cast_at, 'UTC') RETURNING 1)
                UPDATE {t['listings']} l SET votes = greatest(l.votes - 1, 0),
                    week_votes = greatest(l.week_votes - {counted}::int, 0),
                    first_vote_at = CASE WHEN {counted} THEN (
                        SELECT min(v.cast_at) FROM {t['votes']} v
                        WHERE v.listing_id = l.id AND v.account_id <> %s AND v.cast_at < {end})
                        ELSE l.first_vote_at END
                FROM del WHERE l.id = del.listing_id""",
            (listing_id, account_id, account_id),
        )

    @handles(ListingFollowed, ListingUnfollowed)
    def _follow(self, cur: Cursor[Any], t: Tables, e: ListingFollowed | ListingUnfollowed) -> None:
        step = 1 if isinstance(e, ListingFollowed) else -1
        cur.execute(
            f"UPDATE {t['listings']} SET followers = greatest(followers + %s, 0) WHERE id = %s", (step, e.listing_id)
        )

    @handles(ListingViewsCounted)
    def _views(self, cur: Cursor[Any], t: Tables, e: ListingViewsCounted) -> None:
        ids = [int(k) for k in e.counts]
        counts = [int(v) for v in e.counts.values()]
        cur.execute(
            f"""UPDATE {t['listings']} l SET views = l.views + c.n
                FROM unnest(%s::bigint[], %s::bigint[]) AS c(id, n) WHERE l.id = c.id""",
            (ids, counts),
        )

    @handles(ReviewWritten)
    def _review(self, cur: Cursor[Any], t: Tables, e: ReviewWritten) -> None:
        TALLY.written(cur, t["reviews"], t["listings"], e)

    @handles(ReviewEdited)
    def _review_edited(self, cur: Cursor[Any], t: Tables, e: ReviewEdited) -> None:
        TALLY.edited(cur, t["reviews"], t["listings"], e)

    @handles(ReviewHidden, ReviewRestored)
    def _review_hidden(self, cur: Cursor[Any], t: Tables, e: ReviewHidden | ReviewRestored) -> None:
        TALLY.hidden(cur, t["reviews"], t["listings"], e)

    @handles(ReviewModerated)
    def _moderated(self, cur: Cursor[Any], t: Tables, e: ReviewModerated) -> None:
        TALLY.moderated(cur, t["reviews"], t["listings"], e)

    # ------------------------------------------------------------ weeks and awards

    @handles(LaunchWeekClosed)
    def _closed(self, cur: Cursor[Any], t: Tables, e: LaunchWeekClosed) -> None:
        cur.execute(
            f"INSERT INTO {t['weeks']} (week, closed_at) VALUES (%s, %s) ON CONFLICT (week) DO NOTHING",
            (e.week, e.timestamp),
        )
        for w in e.winners:
            cur.execute(
                f"""INSERT INTO {t['awards']} (week, rank, listing_id, votes, first_vote_at)
                    VALUES (%s, %s, %s, %s, %s) ON CONFLICT (week, rank) DO NOTHING""",
                (e.week, int(w["rank"]), int(w["listing_id"]), int(w["votes"]), w.get("first_vote_at")),
            )

    @handles(LaunchWeekAwardsRecomputed)
    def _recomputed(self, cur: Cursor[Any], t: Tables, e: LaunchWeekAwardsRecomputed) -> None:
        """The week's awards are replaced by the recomputed ones; it stays closed since its first close."""
        cur.execute(f"DELETE FROM {t['awards']} WHERE week = %s", (e.week,))
        for w in e.winners:
            cur.execute(
                f"""INSERT INTO {t['awards']} (week, rank, listing_id, votes, first_vote_at)
                    VALUES (%s, %s, %s, %s, %s)""",
                (e.week, int(w["rank"]), int(w["listing_id"]), int(w["votes"]), w.get("first_vote_at")),
            )



def _day(week: str | date | None) -> date | None:
    """A week's Monday as a date (events carry it as YYYY-MM-DD), for the kept rows' `date` column."""
    return date.fromisoformat(week) if isinstance(week, str) else week
