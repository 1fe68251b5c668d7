"""Leaderboards: the community boards, the paid billboard, Domain Rating and revenue.

Each board is a separate ranking system. The community boards read only
community votes (`launches_view`); the billboard, Domain Rating and revenue
boards read `leaderboard_view` and borrow only the listing card from
`launches_view`. The billboard ranks by money contributed, so the board and
every item on it say so: `paid: true` and a `label`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from events.errors import NotFound
from projections.reads import ReadStore
from queries.catalog import category_names
from queries.cards import ListingCard
from queries.launches import CARD_COLUMNS, WEEK_ORDER, card, first_week
from queries.paging import SLUG_PATTERN, PageInfo, Paging, page_of
from queries.weeks import PAST_WEEK_SCHEMA, PAST_WEEK_TOKEN, check_in_range, resolve_week, week_label

LAUNCHES = "launches_view"
METRICS = "leaderboard_view"
PAID_LABEL = "Paid placement"

BOARDS: dict[str, dict[str, Any]] = {
    "community-weekly": {
        "title": "Community: launches of the week",
        "description": "The week's live launches ranked by community votes cast before the week ended.",
        "paid": False,
    },
    "community-all-time": {
        "title": "Community: all time",
        "description": "Live listings ranked by community votes, all time.",
        "paid": False,
    },
    "billboard": {
        "title": "Billboard (paid)",
        "description": "Paid ranking: ordered by money contributed to the billboard, not by votes or quality. "
                       "Billboard money never affects the community boards, awards or search.",
        "paid": True,
    },
    "domain-rating": {
        "title": "Domain Rating",
        "description": "Live listings ranked by their latest Domain Rating (0-100) from an SEO data provider.",
        "paid": False,
    },
    "revenue": {
        "title": "Revenue",
        "description": "Live listings ranked by their latest monthly revenue; each entry says whether it is "
                       "verified or self-reported.",
        "paid": False,
    },
}


class GetLeaderboard(Paging):
    """A leaderboard: community-weekly, community-all-time, billboard (paid), domain-rating or revenue."""

    board: str = Field(
        max_length=40, pattern=SLUG_PATTERN,
        description="community-weekly, community-all-time, billboard, domain-rating or revenue.",
        json_schema_extra={"examples": list(BOARDS)},
    )
    week: str = Field("this", max_length=10, pattern=PAST_WEEK_TOKEN, json_schema_extra=PAST_WEEK_SCHEMA,
                      description="community-weekly only: `this`, `last` or a date YYYY-MM-DD.")


class BoardMetric(BaseModel):
    name: str
    value: int
    currency: str | None = None
    period: str | None = Field(None, description="revenue: the month, YYYY-MM.")
    source: str | None = Field(None, description="revenue: verified or self_reported; domain-rating: the provider.")
    verified: bool | None = None
    measured_on: str | None = None
    previous: int | None = None
    change: int | None = None


class LeaderboardItem(BaseModel):
    rank: int
    listing: ListingCard
    metric: BoardMetric
    paid: bool = Field(description="True on the billboard: this position was paid for.")
    label: str | None


class Leaderboard(PageInfo):
    board: str
    title: str
    description: str
    paid: bool = Field(description="True for the billboard: a paid ranking, to be presented as such.")
    label: str | None
    week: str | None
    week_label: str | None
    items: list[LeaderboardItem]


def get_leaderboard(reads: ReadStore, q: GetLeaderboard, now: datetime) -> dict[str, Any]:
    info = BOARDS.get(q.board)
    if info is None:
        raise NotFound(f"no leaderboard {q.board!r}; boards: {', '.join(BOARDS)}")
    week = None
    if q.board == "community-weekly":
        monday = resolve_week(q.week, now.date())
        check_in_range(monday, first_week(reads), now.date())
        week = monday
    rows, total = _rows(reads, q, week)
    paid = bool(info["paid"])
    names = category_names(reads)
    items = [
        {"rank": q.offset + i, "listing": card(r, names), "metric": _metric(q.board, r[11:]),
         "paid": paid, "label": PAID_LABEL if paid else None}
        for i, r in enumerate(rows, start=1)
    ]
    return page_of(items, q, total) | {
        "board": q.board, "title": info["title"], "description": info["description"], "paid": paid,
        "label": PAID_LABEL if paid else None,
        "week": week.isoformat() if week else None, "week_label": week_label(week) if week else None,
    }


def _rows(reads: ReadStore, q: GetLeaderboard, week: Any) -> tuple[list[tuple[Any, ...]], int]:
    t = reads.tables(LAUNCHES)
    m = reads.tables(METRICS)
    live = f"{t['listings']} l"
    if q.board == "community-weekly":
        source, order, extra, params = f"FROM {live} WHERE l.status = 'live' AND l.week = %(week)s", WEEK_ORDER, "l.week_votes", {"week": week}
    elif q.board == "community-all-time":
        source, order, extra, params = f"FROM {live} WHERE l.status = 'live' AND l.votes > 0", "l.votes DESC, l.id ASC", "l.votes", {}
    elif q.board == "billboard":
        source = f"FROM {m['billboard']} b JOIN {live} ON l.id = b.listing_id WHERE l.status = 'live'"
        order, extra, params = "b.total_cents DESC, b.first_at ASC, l.id ASC", "b.total_cents", {}
    elif q.board == "domain-rating":
        source = f"FROM {m['domain_rating']} d JOIN {live} ON l.id = d.listing_id WHERE l.status = 'live'"
        order, extra, params = "d.value DESC, l.id ASC", "d.value, d.previous, d.measured_on, d.source", {}
    else:
        source = f"FROM {m['revenue']} r JOIN {live} ON l.id = r.listing_id WHERE l.status = 'live'"
        order, extra, params = "r.amount_cents DESC, l.id ASC", "r.amount_cents, r.period, r.source", {}
    with reads.pool.connection() as conn:
        (total,) = conn.execute(f"SELECT count(*) {source}", params).fetchone()  # type: ignore[misc]
        rows = conn.execute(
            f"SELECT {CARD_COLUMNS}, {extra} {source} ORDER BY {order} LIMIT %(limit)s OFFSET %(offset)s",
            params | {"limit": q.per_page, "offset": q.offset},
        ).fetchall()
    return rows, int(total)


def _metric(board: str, extra: tuple[Any, ...]) -> dict[str, Any]:
    if board in ("community-weekly", "community-all-time"):
        return {"name": "votes", "value": int(extra[0])}
    if board == "billboard":
        return {"name": "contributed_cents", "value": int(extra[0]), "currency": "USD"}
    if board == "domain-rating":
        value, previous, measured_on, source = extra
        return {"name": "domain_rating", "value": int(value), "previous": previous,
                "change": None if previous is None else int(value) - int(previous),
                "measured_on": measured_on.isoformat(), "source": source}
    amount, period, source = extra
    return {"name": "monthly_revenue_cents", "value": int(amount), "currency": "USD", "period": period,
            "source": source, "verified": source == "verified"}
