"""search_listings on PostgreSQL: typo tolerance, every filter and sort, upcoming, trending decay, ties."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest
from freezegun import freeze_time

from commands import community, metrics
from commands import listing as listing_cmd
from projections.listing_docs import HALF_LIFE_HOURS, trending_score
from queries import listings as listings_q
from queries.search_postgres import PostgresSearch
from tests.integration.test_listing_view import AT, META, make, meta, sync

TODAY = AT.date()


def search(c: Any, today: date = TODAY, **params: Any) -> dict[str, Any]:
    sync(c)
    reads = c.services.reads
    out = listings_q.search_listings(reads, PostgresSearch(reads), listings_q.SearchListings(**params), today)
    listings_q.ListingSearchPage.model_validate(out)
    return out


def slugs(c: Any, **params: Any) -> list[str]:
    return [i["slug"] for i in search(c, **params)["items"]]


@pytest.fixture
def directory(container):  # type: ignore[no-untyped-def]
    """A small directory with near-miss names, several categories and filterable facts."""
    make(container, "Notion", categories=("notes-docs",), tagline="All-in-one workspace",
         description="Write, plan and collaborate.", keywords=["wiki", "docs"], country="us", stage="Growth",
         pricing_model="Freemium", website_url="https://www.notion.so")
    make(container, "Notion Calendar", categories=("productivity",), tagline="Time and schedule",
         website_url="https://calendar.notion.so")
    make(container, "Motion", categories=("project-management",), tagline="AI planner for busy teams",
         description="Project management with automatic scheduling.", country="US", pricing_model="paid")
    make(container, "Figma", categories=("design",), tagline="Design together in the browser",
         keywords=["design", "prototyping"], country="us", stage="growth", website_url="https://figma.com")
    make(container, "Nothing Special", categories=("marketing",), tagline="Email campaigns",
         description="Noting every open and click.", country="DE", stage="beta")
    make(container, "Helper Bot", categories=("ai-assistants",), tagline="Answers support tickets",
         description="A language model assistant.", keywords=["support", "chatbot"], country="de",
         pricing_model="Free Trial")
    make(container, "Draft Thing", categories=("design",), live=False)
    return container


def test_typos_find_the_product(directory) -> None:  # type: ignore[no-untyped-def]
    assert slugs(directory, q="notin")[:2] == ["notion", "notion-calendar"]
    assert slugs(directory, q="figmaa")[0] == "figma"
    assert slugs(directory, q="Notion")[0] == "notion"
    assert slugs(directory, q="projct managment")[0] == "motion"  # corrected words from the description
    assert slugs(directory, q="chatbott")[0] == "helper-bot"  # keyword
    assert slugs(directory, q="browser")[0] == "figma"  # tagline
    assert slugs(directory, q="zzzz qqqq") == []
    assert "draft-thing" not in slugs(directory, q="draft thing")  # not public


def test_filters(directory) -> None:  # type: ignore[no-untyped-def]
    assert set(slugs(directory, category="ai")) == {"helper-bot"}  # subcategory included
    assert set(slugs(directory, category="productivity")) == {"notion", "notion-calendar", "motion"}
    assert slugs(directory, category="no-such-category") == []
    assert set(slugs(directory, country="de")) == {"nothing-special", "helper-bot"}
    assert set(slugs(directory, country="US")) == {"notion", "motion", "figma"}
    assert set(slugs(directory, stage="growth")) == {"notion", "figma"}
    assert slugs(directory, pricing_model="freemium") == ["notion"]
    assert slugs(directory, pricing_model="free trial") == ["helper-bot"]
    assert slugs(directory, domain="notion.so") == ["notion"]
    assert slugs(directory, domain="www.notion.so") == ["notion"]
    assert slugs(directory, domain="www.figma.com") == ["figma"]
    assert slugs(directory, domain="calendar.notion.so") == ["notion-calendar"]
    assert slugs(directory, q="notion", country="us") == ["notion"]


def test_summaries_carry_name_url_votes(directory) -> None:  # type: ignore[no-untyped-def]
    item = search(directory, q="figma")["items"][0]
    assert {k: item[k] for k in ("name", "url", "votes", "slug", "tagline", "logo_url")} == {
        "name": "Figma", "url": "https://figma.com", "votes": 0, "slug": "figma",
        "tagline": "Design together in the browser", "logo_url": None}
    assert item["category"] == {"slug": "design", "name": "Design"} and item["status"] == "live"


def test_paging(directory) -> None:  # type: ignore[no-untyped-def]
    first = search(directory, per_page=2)
    assert first["total"] == 6 and first["has_more"] is True and len(first["items"]) == 2
    last = search(directory, per_page=2, page=3)
    assert last["has_more"] is False and len(last["items"]) == 2
    assert search(directory, per_page=2, page=9)["items"] == []
    assert search(directory, q="notion", per_page=1, page=5) == {"items": [], "page": 5, "per_page": 1, "total": 2,
                                                                 "total_exact": True, "has_more": False}


def test_upcoming_is_scheduled_or_queued_for_a_week_not_over(container) -> None:  # type: ignore[no-untyped-def]
    make(container, "Live Now")
    paid = make(container, "Paid Later", live=False)
    listing_cmd.schedule_paid(container.store, paid.listing_id, "2026-12-07", META)
    free = make(container, "Free Later", live=False)
    listing_cmd.queue_free(container.store, free.listing_id, "2027-01-04", META)
    old = make(container, "Free Past", live=False)
    listing_cmd.queue_free(container.store, old.listing_id, "2026-11-09", META)
    make(container, "Just Saved", live=False)
    assert slugs(container) == ["live-now"]
    assert slugs(container, status="upcoming") == ["paid-later", "free-later"]  # soonest week first
    item = search(container, status="upcoming")["items"][0]
    assert (item["status"], item["launch_week"]) == ("scheduled", "2026-12-07")
    with freeze_time("2027-01-06"):  # the free listing's week is under way, still waiting for its badge
        assert slugs(container, today=date.today(), status="upcoming") == ["paid-later", "free-later"]
    with freeze_time("2027-01-12"):  # its week is over: no longer upcoming
        assert slugs(container, today=date.today(), status="upcoming") == ["paid-later"]


def test_sorts_and_tie_breakers(container) -> None:  # type: ignore[no-untyped-def]
    early = make(container, "Early Bird", at=AT - timedelta(days=3))
    late = make(container, "Late Comer", at=AT - timedelta(days=1))
    fresh = make(container, "Fresh One", at=AT)
    twin = make(container, "Twin Launch", at=AT)  # same launch time as Fresh One: listing id decides
    for acct in ("a", "b"):
        community.cast_vote(container.store, late.listing_id, acct, META)
        community.cast_vote(container.store, early.listing_id, acct, META)
    community.follow(container.store, fresh.listing_id, "a", META)
    community.count_views(container.store, {twin.listing_id: 5, early.listing_id: 2}, META)
    # votes: Early and Late tie on 2 -> launched earlier first; Fresh and Twin tie on 0 and launch -> id
    assert slugs(container, sort="votes") == ["early-bird", "late-comer", "fresh-one", "twin-launch"]
    assert slugs(container) == slugs(container, sort="votes")  # relevance without q
    assert slugs(container, sort="newest") == ["twin-launch", "fresh-one", "late-comer", "early-bird"]
    assert slugs(container, sort="most_viewed") == ["twin-launch", "early-bird", "late-comer", "fresh-one"]
    assert slugs(container, sort="most_followed") == ["fresh-one", "early-bird", "late-comer", "twin-launch"]


def test_relevance_never_uses_billboard_money(container) -> None:  # type: ignore[no-untyped-def]
    voted = make(container, "Ledger Notes")
    paid = make(container, "Ledger Notes")  # same text: relevance ties, votes decide
    community.cast_vote(container.store, voted.listing_id, "fan", META)
    before = search(container, q="ledger notes")["items"]
    metrics.contribute_billboard(container.store, paid.listing_id, 100_000_000, "BB-1", META)
    after = search(container, q="ledger notes")["items"]
    assert [i["slug"] for i in after] == ["ledger-notes", "ledger-notes-2"] and after == before
    assert slugs(container, sort="trending") == ["ledger-notes", "ledger-notes-2"]


def _decayed(votes: list[datetime], now: datetime) -> float:
    return sum(0.5 ** ((now - v).total_seconds() / 3600 / HALF_LIFE_HOURS) for v in votes if v <= now)


def test_trending_decays_votes_with_time(container) -> None:  # type: ignore[no-untyped-def]
    old_hit = make(container, "Old Hit", at=AT - timedelta(days=5))
    steady = make(container, "Steady", at=AT - timedelta(days=5))
    newcomer = make(container, "Newcomer", at=AT - timedelta(days=5))
    cast: dict[str, list[datetime]] = {"old-hit": [], "steady": [], "newcomer": []}

    def vote(created: Any, slug: str, when: datetime, n: int) -> None:
        for i in range(n):
            community.cast_vote(container.store, created.listing_id, f"{slug}-{when:%j%H}-{i}", meta(when))
            cast[slug].append(when)

    vote(old_hit, "old-hit", AT - timedelta(days=4), 12)  # many votes, long ago
    vote(steady, "steady", AT - timedelta(days=2), 6)
    vote(newcomer, "newcomer", AT - timedelta(hours=2), 3)  # few votes, just now
    community.cast_vote(container.store, steady.listing_id, "gone", meta(AT - timedelta(hours=1)))
    community.withdraw_vote(container.store, steady.listing_id, "gone", meta(AT))  # a withdrawn vote counts nothing

    assert slugs(container, sort="votes") == ["old-hit", "steady", "newcomer"]
    t = container.runtime.tables("listing_view")
    with container.pool.connection() as conn:
        logs = dict(conn.execute(f"SELECT slug, trend_log FROM {t['listings']}").fetchall())
    for now in (AT, AT + timedelta(hours=7), AT + timedelta(days=3), AT + timedelta(days=30)):
        with freeze_time(now):  # "now" moves, no new events
            clock = datetime.now(timezone.utc)
            expected = sorted(cast, key=lambda s: -_decayed(cast[s], clock))
            assert slugs(container, today=clock.date(), sort="trending") == expected == ["newcomer", "steady", "old-hit"]
            for slug, votes in cast.items():
                assert trending_score(logs[slug], clock) == pytest.approx(_decayed(votes, clock), rel=1e-9)
    # a burst of new votes for the old hit brings it back on top
    vote(old_hit, "old-hit", AT + timedelta(hours=1), 4)
    assert slugs(container, sort="trending")[0] == "old-hit"


def test_trending_ties_fall_back_to_votes_then_launch(container) -> None:  # type: ignore[no-untyped-def]
    a = make(container, "Tie A", at=AT - timedelta(days=1))
    make(container, "Tie B", at=AT - timedelta(days=2))
    make(container, "Tie C", at=AT - timedelta(days=3))
    community.cast_vote(container.store, a.listing_id, "x", META)
    assert slugs(container, sort="trending") == ["tie-a", "tie-c", "tie-b"]  # no votes: launched earlier first


def test_a_corrected_word_is_corrected_again_when_the_vocabulary_grows(directory) -> None:  # type: ignore[no-untyped-def]
    # "kanbam" is corrected (to nothing: no listing has a word near it) and kept per word until listing_view moves.
    assert slugs(directory, q="kanbam") == []
    assert slugs(directory, q="kanbam") == []  # answered with the kept correction
    make(directory, "Boardly", categories=("project-management",), tagline="Boards for teams",
         description="A kanban board for small teams.")
    # only the description has the word, so only a fresh correction (kanbam -> kanban) can find it
    assert slugs(directory, q="kanbam") == ["boardly"]
