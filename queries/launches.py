"""The launch calendar: one launch week, and the launch feeds of list_launches.

Ranking rules (docs/launches-and-rankings.md):

* A week's launches rank by launch-week votes (standing votes cast before the
  week ended), then by the earlier first counted vote, then by the lower
  listing id. The weekly board and the awards use the same order.
* `trending` ranks by a time-decayed vote score with a 36-hour half-life,
  evaluated at read time (see `TRENDING_SQL`).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from projections.listing_cards import UPCOMING_STATUSES
from projections.reads import ReadStore
from queries.cards import ListingCard, named
from queries.catalog import VIEW as CATALOG
from queries.catalog import category_names
from queries.paging import PageInfo, Paging, page_of
from queries.weeks import (
    WEEK_SCHEMA,
    WEEK_TOKEN,
    check_in_range,
    day_bounds,
    monday_of,
    resolve_week,
    week_label,
)

VIEW = "launches_view"
SECTIONS = ("today", "this-week", "trending", "most-voted", "recent", "most-viewed", "most-followed", "upcoming")
HALF_LIFE_HOURS = 36
TRENDING_WINDOW_DAYS = 14
AWARD_TITLES = {1: "Launch of the Week #1", 2: "Launch of the Week #2", 3: "Launch of the Week #3"}

CARD_COLUMNS = "l.id, l.slug, l.name, l.tagline, l.logo_url, l.url, l.categories, l.status, l.week, l.votes, l.verified"
WEEK_ORDER = "l.week_votes DESC, l.first_vote_at ASC NULLS LAST, l.id ASC"


# ---------------------------------------------------------------- inputs


class GetLaunchWeek(BaseModel):
    """One launch week (Monday to Sunday): its live launches ranked by community votes, scheduled launches and awards."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    week: str = Field(
        max_length=10, pattern=WEEK_TOKEN, json_schema_extra=WEEK_SCHEMA,
        description="`this`, `next`, `last` or a date YYYY-MM-DD (snapped to the Monday of its week).",
    )


class ListLaunches(Paging):
    """A launch feed: today, this week, trending (time-decayed votes), most voted, recent, most viewed, most followed or upcoming."""

    section: Literal["today", "this-week", "trending", "most-voted", "recent", "most-viewed", "most-followed", "upcoming"] = Field(
        "this-week", description="Which feed; `trending` decays each vote with a 36-hour half-life.",
    )


# ---------------------------------------------------------------- outputs


class WeekLaunch(BaseModel):
    rank: int
    week_votes: int = Field(description="Votes cast before the week ended (the ranking metric).")
    featured: bool
    listing: ListingCard


class ScheduledLaunch(BaseModel):
    listing: ListingCard


class WeekAward(BaseModel):
    rank: int
    title: str
    votes: int
    listing: ListingCard


class LaunchWeek(BaseModel):
    week: str = Field(description="The Monday, YYYY-MM-DD.")
    label: str = Field(description="ISO week, e.g. 2026-W47.")
    starts_on: str
    ends_on: str
    timezone: str
    state: Literal["past", "current", "future"]
    closed: bool = Field(description="True once the week's awards are granted.")
    previous_week: str | None
    next_week: str | None
    launches: list[WeekLaunch]
    scheduled: list[ScheduledLaunch]
    awards: list[WeekAward]


class FeedMetric(BaseModel):
    name: str
    value: int | float | str | None


class FeedItem(BaseModel):
    rank: int
    listing: ListingCard
    metric: FeedMetric


class LaunchFeed(PageInfo):
    section: str
    as_of: str = Field(description="The day, week or hour the feed was computed for.")
    items: list[FeedItem]


# ---------------------------------------------------------------- cards


def card(row: tuple[Any, ...], names: dict[str, str]) -> dict[str, Any]:
    """A listing card from the first columns of a row selected with `CARD_COLUMNS`; `names` are the categories'
    (`queries.catalog.category_names`)."""
    lid, slug, name, tagline, logo, url, categories, status, week, votes, verified = row[:11]
    cats = list(categories or [])
    return {
        "id": int(lid), "slug": slug, "name": name, "tagline": tagline, "logo_url": logo, "url": url,
        "category": named(cats[0] if cats else None, names), "categories": cats, "status": status,
        "launch_week": week.isoformat() if week else None, "votes": int(votes), "verified": bool(verified),
    }


def upcoming_card(reads: ReadStore, slug: str) -> dict[str, Any] | None:
    """The card of a listing queued or scheduled for a launch week, or None.

    What the site shows at a listing's address before its launch: the badge a
    founder pastes on their homepage, the upcoming feed and a future week's board
    all link there weeks before the listing is live (get_listing answers live
    listings only).
    """
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"""SELECT {CARD_COLUMNS} FROM {t['listings']} l WHERE l.slug = %s AND l.status = ANY(%s)
                ORDER BY l.id DESC LIMIT 1""", (slug, list(UPCOMING_STATUSES))).fetchone()
    return card(row, category_names(reads)) if row else None


def first_week(reads: ReadStore) -> date | None:
    """The Monday of the directory's earliest listing (its creation or its launch week)."""

    def compute() -> date | None:
        t = reads.tables(VIEW)
        with reads.pool.connection() as conn:
            created, week = conn.execute(f"SELECT min(created_at), min(week) FROM {t['listings']}").fetchone()  # type: ignore[misc]
        days = [d for d in (created.date() if created else None, week) if d is not None]
        return monday_of(min(days)) if days else None

    return reads.cached((VIEW,), ("first-week",), compute)


# ---------------------------------------------------------------- get_launch_week


def get_launch_week(reads: ReadStore, q: GetLaunchWeek, now: datetime) -> dict[str, Any]:
    today = now.date()
    monday = resolve_week(q.week, today)
    first = first_week(reads)
    check_in_range(monday, first, today)
    this = monday_of(today)
    state = "past" if monday < this else ("current" if monday == this else "future")
    t = reads.tables(VIEW)
    names = category_names(reads)
    with reads.pool.connection() as conn:
        live = conn.execute(
            f"""SELECT {CARD_COLUMNS}, l.week_votes, l.featured_weeks ? %s FROM {t['listings']} l
                WHERE l.status = 'live' AND l.week = %s ORDER BY {WEEK_ORDER}""",
            (monday.isoformat(), monday),
        ).fetchall()
        scheduled = [] if state == "past" else conn.execute(
            f"""SELECT {CARD_COLUMNS} FROM {t['listings']} l WHERE l.status = 'scheduled' AND l.week = %s
                ORDER BY l.scheduled_at ASC NULLS LAST, l.id ASC""",
            (monday,),
        ).fetchall()
        closed = conn.execute(f"SELECT 1 FROM {t['weeks']} WHERE week = %s", (monday,)).fetchone() is not None
        awards = _award_rows(conn, t, names, "a.week = %s", (monday,))
    earliest = min(first or this, this - timedelta(weeks=1))
    return {
        "week": monday.isoformat(),
        "label": week_label(monday),
        "starts_on": monday.isoformat(),
        "ends_on": (monday + timedelta(days=6)).isoformat(),
        "timezone": str(now.tzinfo),
        "state": state,
        "closed": closed,
        "previous_week": (monday - timedelta(weeks=1)).isoformat() if monday > earliest else None,
        "next_week": (monday + timedelta(weeks=1)).isoformat() if monday < this + timedelta(weeks=52) else None,
        "launches": [
            {"rank": i, "week_votes": int(r[11]), "featured": bool(r[12]), "listing": card(r, names)}
            for i, r in enumerate(live, start=1)
        ],
        "scheduled": [{"listing": card(r, names)} for r in scheduled],
        "awards": [
            {"rank": rank, "title": AWARD_TITLES[rank], "votes": votes, "listing": c}
            for (_week, rank, votes, c) in awards
        ],
    }


def _award_rows(conn: Any, t: Any, names: dict[str, str], where: str, params: tuple[Any, ...],
                tail: str = "") -> list[tuple[date, int, int, dict[str, Any]]]:
    rows = conn.execute(
        f"""SELECT {CARD_COLUMNS}, a.week, a.rank, a.votes FROM {t['awards']} a
            JOIN {t['listings']} l ON l.id = a.listing_id WHERE {where}
            ORDER BY a.week DESC, a.rank ASC {tail}""",
        params,
    ).fetchall()
    return [(r[11], int(r[12]), int(r[13]), card(r, names)) for r in rows]


# ---------------------------------------------------------------- list_launches

# Σ over a listing's standing votes of the last 14 days: 0.5 ^ (age in hours / 36), where a vote's
# age is measured from the start of the UTC hour it was cast in to the evaluation time.
TRENDING_SQL = """
    SELECT listing_id, sum(n * power(0.5, greatest(0, extract(epoch FROM (%(at)s - hour)) / 3600.0) / %(half)s)) AS score
    FROM {vote_hours} WHERE hour > %(at)s - make_interval(days => %(days)s) AND hour <= %(at)s AND n > 0
    GROUP BY listing_id
"""


def _feed_query(section: str, t: Any, now: datetime) -> tuple[str, str, dict[str, Any], str, Any]:
    """(FROM/WHERE clause, ORDER BY, parameters, metric name, metric column) of one section."""
    listings = t["listings"]
    live = f"FROM {listings} l WHERE l.status = 'live'"
    if section == "today":
        start, end = day_bounds(now.date(), now.tzinfo)  # type: ignore[arg-type]
        return (f"{live} AND l.launched_at >= %(start)s AND l.launched_at < %(end)s",
                "l.votes DESC, l.first_vote_at ASC NULLS LAST, l.id ASC", {"start": start, "end": end}, "votes", "l.votes")
    if section == "this-week":
        return (f"{live} AND l.week = %(week)s", WEEK_ORDER, {"week": monday_of(now.date())}, "week_votes", "l.week_votes")
    if section == "trending":
        scores = TRENDING_SQL.format(vote_hours=t["vote_hours"])
        at = now.astimezone(timezone.utc).replace(minute=0, second=0, microsecond=0)
        return (f"FROM ({scores}) s JOIN {listings} l ON l.id = s.listing_id WHERE l.status = 'live' AND s.score > 0",
                "s.score DESC, l.votes DESC, l.id ASC",
                {"at": at, "half": HALF_LIFE_HOURS, "days": TRENDING_WINDOW_DAYS}, "trending_score", "round(s.score::numeric, 4)")
    if section == "most-voted":
        return (f"{live} AND l.votes > 0", "l.votes DESC, l.id ASC", {}, "votes", "l.votes")
    if section == "recent":
        return (live, "l.launched_at DESC NULLS LAST, l.id DESC", {}, "launched_at", "l.launched_at")
    if section == "most-viewed":
        return (f"{live} AND l.views > 0", "l.views DESC, l.votes DESC, l.id ASC", {}, "views", "l.views")
    if section == "most-followed":
        return (f"{live} AND l.followers > 0", "l.followers DESC, l.votes DESC, l.id ASC", {}, "followers", "l.followers")
    # upcoming: scheduled for a launch week that has not gone live yet, soonest first
    return (f"FROM {listings} l WHERE l.status = 'scheduled'", "l.week ASC, l.scheduled_at ASC NULLS LAST, l.id ASC", {},
            "launch_week", "l.week")


def _as_of(section: str, now: datetime) -> str:
    if section == "trending":
        return now.astimezone(timezone.utc).replace(minute=0, second=0, microsecond=0).isoformat()
    if section == "this-week":
        return monday_of(now.date()).isoformat()
    return now.date().isoformat()


def list_launches(reads: ReadStore, q: ListLaunches, now: datetime) -> dict[str, Any]:
    """Cached per section, page and the day, week or hour the section depends on, until the projection moves."""
    as_of = _as_of(q.section, now)

    def compute() -> dict[str, Any]:
        t = reads.tables(VIEW)
        source, order, params, metric, column = _feed_query(q.section, t, now)
        params = params | {"limit": q.per_page, "offset": q.offset}
        with reads.pool.connection() as conn:
            (total,) = conn.execute(f"SELECT count(*) {source}", params).fetchone()  # type: ignore[misc]
            rows = conn.execute(
                f"SELECT {CARD_COLUMNS}, {column} {source} ORDER BY {order} LIMIT %(limit)s OFFSET %(offset)s", params
            ).fetchall()
        names = category_names(reads)
        items = [
            {"rank": q.offset + i, "listing": card(r, names), "metric": {"name": metric, "value": _metric_value(r[11])}}
            for i, r in enumerate(rows, start=1)
        ]
        return page_of(items, q, int(total)) | {"section": q.section, "as_of": as_of}

    return reads.cached((VIEW, CATALOG), ("feed", q.section, q.page, q.per_page, as_of), compute)


def featured_now(reads: ReadStore, now: datetime, limit: int = 6,
                 categories: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """The live listings with a featured placement for this week, whatever their launch week; most voted this week first.

    A placement is bought for a week (`ListingFeatured`); the home page and the
    listing's category pages show it for that week, so a listing launched
    months ago still gets what was paid for (docs/launches-and-rankings.md,
    "Featured placements"). `categories`: only listings in one of these.
    """
    monday = monday_of(now.date())
    in_categories = "AND l.categories ?| %(categories)s" if categories is not None else ""

    def compute() -> list[dict[str, Any]]:
        t = reads.tables(VIEW)
        with reads.pool.connection() as conn:
            rows = conn.execute(
                f"""SELECT {CARD_COLUMNS}, l.week_votes FROM {t['listings']} l
                    WHERE l.status = 'live' AND l.featured_weeks ? %(week)s {in_categories}
                    ORDER BY l.week_votes DESC, l.votes DESC, l.id ASC LIMIT %(limit)s""",
                {"week": monday.isoformat(), "limit": limit, "categories": list(categories or ())},
            ).fetchall()
        names = category_names(reads)
        return [{"featured": True, "week_votes": int(r[11]), "listing": card(r, names)} for r in rows]

    return reads.cached((VIEW, CATALOG), ("featured", monday.isoformat(), limit, categories), compute)


def _metric_value(value: Any) -> int | float | str | None:
    if value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return float(value)


# ---------------------------------------------------------------- what the scheduler needs


def due_launches(reads: ReadStore, current_week: date) -> list[int]:
    """Scheduled listings whose launch week has begun."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT id FROM {t['listings']} WHERE status = 'scheduled' AND week <= %s ORDER BY week, id", (current_week,)
        ).fetchall()
    return [int(r[0]) for r in rows]


def unclosed_weeks(reads: ReadStore, current_week: date) -> list[date]:
    """Past weeks with live launches whose awards have not been granted, oldest first."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT DISTINCT l.week FROM {t['listings']} l WHERE l.status = 'live' AND l.week < %s
                AND NOT EXISTS (SELECT 1 FROM {t['weeks']} w WHERE w.week = l.week) ORDER BY l.week""",
            (current_week,),
        ).fetchall()
    return [r[0] for r in rows]


def is_week_closed(reads: ReadStore, week: date) -> bool:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        return conn.execute(f"SELECT 1 FROM {t['weeks']} WHERE week = %s", (week,)).fetchone() is not None
