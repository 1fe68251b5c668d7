"""Awards: Launch of the Week #1, #2, #3, and the vote standings a week is closed with."""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import BaseModel, Field

from projections.reads import ReadStore
from queries.catalog import category_names
from queries.cards import ListingCard
from queries.launches import AWARD_TITLES, CARD_COLUMNS, WEEK_ORDER, card
from queries.paging import SLUG_PATTERN, PageInfo, Paging, page_of
from queries.weeks import week_label

VIEW = "launches_view"


class ListAwards(Paging):
    """Launch of the Week awards (#1, #2, #3) with the winning listings, newest week first."""

    listing: str | None = Field(None, max_length=220, pattern=SLUG_PATTERN, description="Only this listing's awards (its slug).")


class Award(BaseModel):
    week: str = Field(description="The Monday of the awarded week.")
    week_label: str
    rank: int
    title: str
    votes: int = Field(description="Launch-week votes when the week closed.")
    listing: ListingCard


class AwardList(PageInfo):
    items: list[Award]


def list_awards(reads: ReadStore, q: ListAwards) -> dict[str, Any]:
    t = reads.tables(VIEW)
    where, params = ("l.slug = %(slug)s", {"slug": q.listing}) if q.listing else ("true", {})
    source = f"FROM {t['awards']} a JOIN {t['listings']} l ON l.id = a.listing_id WHERE {where}"
    with reads.pool.connection() as conn:
        (total,) = conn.execute(f"SELECT count(*) {source}", params).fetchone()  # type: ignore[misc]
        rows = conn.execute(
            f"SELECT {CARD_COLUMNS}, a.week, a.rank, a.votes {source} ORDER BY a.week DESC, a.rank ASC "
            "LIMIT %(limit)s OFFSET %(offset)s",
            params | {"limit": q.per_page, "offset": q.offset},
        ).fetchall()
    names = category_names(reads)
    items = [
        {"week": r[11].isoformat(), "week_label": week_label(r[11]), "rank": int(r[12]),
         "title": AWARD_TITLES[int(r[12])], "votes": int(r[13]), "listing": card(r, names)}
        for r in rows
    ]
    return page_of(items, q, int(total))


def week_standings(reads: ReadStore, week: date) -> list[dict[str, Any]]:
    """Every live launch of `week` with its launch-week votes and first counted vote: what a close ranks.

    Only vote figures leave here; billboard money and views are not even read.
    """
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT l.id, l.week_votes, l.first_vote_at FROM {t['listings']} l "
            f"WHERE l.status = 'live' AND l.week = %s ORDER BY {WEEK_ORDER}",
            (week,),
        ).fetchall()
    return [{"listing_id": int(r[0]), "votes": int(r[1]), "first_vote_at": r[2]} for r in rows]
