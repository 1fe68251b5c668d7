"""get_leaderboard against real PostgreSQL: five separate ranking systems, the billboard always labelled paid."""

from __future__ import annotations

from datetime import timedelta

from commands import metrics
from commands import listing as listing_cmd
from queries.leaderboards import Leaderboard
from tests.integration.test_launches_kit import LAST, MON, W, WED, billboard, call, create, launched, meta, ok, slugs
from tests.integration.test_launches_kit import sync, unique, utc, votes


def _board(c, board: str, **raw: object) -> dict:  # type: ignore[no-untyped-def, type-arg]
    body = ok(c, "get_leaderboard", WED, board=board, **raw)
    Leaderboard.model_validate(body)
    return body  # type: ignore[no-any-return]


def test_community_boards_rank_by_votes_only(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = launched(c, unique("Voted"), W, MON)
    b = launched(c, unique("Bought"), W, MON)
    old = launched(c, unique("Veteran"), LAST, utc(2026, 11, 9, 9))
    votes(c, a[0], 3, MON)
    votes(c, b[0], 1, MON)
    votes(c, old[0], 7, utc(2026, 11, 9, 10))
    billboard(c, b[0], 9_000_000, WED)  # a fortune on the billboard changes no community rank
    sync(c)
    weekly = _board(c, "community-weekly")
    assert (weekly["week"], weekly["week_label"], weekly["paid"], weekly["label"]) == (W, "2026-W47", False, None)
    assert slugs(weekly["items"]) == [a[1], b[1]]
    assert weekly["items"][0] | {"listing": None} == {
        "rank": 1, "listing": None, "metric": {"name": "votes", "value": 3}, "paid": False, "label": None}
    assert slugs(_board(c, "community-weekly", week="last")["items"]) == [old[1]]
    assert slugs(_board(c, "community-weekly", week="2026-11-12")["items"]) == [old[1]]
    assert slugs(_board(c, "community-all-time")["items"]) == [old[1], a[1], b[1]]
    assert _board(c, "community-all-time")["week"] is None


def test_the_billboard_ranks_by_money_and_says_it_is_paid(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    rich = launched(c, unique("Rich"), W, MON)
    modest = launched(c, unique("Modest"), W, MON)
    hidden = create(c, unique("Not Live"), MON)
    votes(c, modest[0], 10, MON)
    billboard(c, modest[0], 10_000, WED)
    billboard(c, rich[0], 25_000, WED)
    billboard(c, modest[0], 5_000, WED + timedelta(hours=1))
    billboard(c, hidden[0], 99_999, WED)  # not public: never on a board
    sync(c)
    board = _board(c, "billboard")
    assert board["paid"] is True and board["label"] == "Paid placement" and "Paid ranking" in board["description"]
    assert slugs(board["items"]) == [rich[1], modest[1]]
    assert all(i["paid"] is True and i["label"] == "Paid placement" for i in board["items"])
    assert [i["metric"] for i in board["items"]] == [
        {"name": "contributed_cents", "value": 25_000, "currency": "USD"},
        {"name": "contributed_cents", "value": 15_000, "currency": "USD"},
    ]
    # and the money stays out of the community board and the launch week
    assert slugs(_board(c, "community-weekly")["items"]) == [modest[1], rich[1]]
    week = ok(c, "get_launch_week", WED, week=W)
    assert "contributed" not in str(week) and "paid" not in str(week)


def test_domain_rating_and_revenue_use_the_latest_record(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = launched(c, unique("Seo Star"), W, MON)
    b = launched(c, unique("Cash Cow"), W, MON)
    m = meta(WED)
    metrics.record_domain_rating(c.store, a[0], 40, "staff", "2026-10-01", m)
    metrics.record_domain_rating(c.store, a[0], 55, "staff", "2026-11-01", m)
    metrics.record_domain_rating(c.store, a[0], 30, "staff", "2026-09-01", m)  # an older backfill is not current
    metrics.record_domain_rating(c.store, b[0], 60, "ahrefs-like", "2026-11-02", m)
    metrics.record_revenue(c.store, a[0], 900_000, "2026-10", "verified", m)
    metrics.record_revenue(c.store, a[0], 100_000, "2026-09", "verified", m)
    metrics.record_revenue(c.store, b[0], 500_000, "2026-10", "self_reported", m)
    sync(c)
    dr = _board(c, "domain-rating")
    assert slugs(dr["items"]) == [b[1], a[1]] and dr["paid"] is False
    assert dr["items"][1]["metric"] == {"name": "domain_rating", "value": 55, "previous": 40, "change": 15,
                                        "measured_on": "2026-11-01", "source": "staff"}
    assert dr["items"][0]["metric"]["previous"] is None and dr["items"][0]["metric"]["change"] is None
    revenue = _board(c, "revenue")
    assert slugs(revenue["items"]) == [a[1], b[1]]
    assert revenue["items"][0]["metric"] == {"name": "monthly_revenue_cents", "value": 900_000, "currency": "USD",
                                             "period": "2026-10", "source": "verified", "verified": True}
    assert revenue["items"][1]["metric"]["source"] == "self_reported" and revenue["items"][1]["metric"]["verified"] is False
    listing_cmd.unpublish(c.store, b[0], "gone", meta(WED))
    sync(c)
    assert slugs(_board(c, "revenue")["items"]) == [a[1]]


def test_unknown_boards_are_404_and_bad_inputs_400(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    launched(c, unique("Any"), W, MON)
    sync(c)
    status, problem = call(c, "get_leaderboard", WED, board="most-hyped")
    assert status == 404 and problem["type"] == "/problems/not-found"
    for raw, field, rule in [({"board": "Billboard"}, "board", "pattern"),
                             ({"board": "community-weekly", "week": "next"}, "week", "pattern"),
                             ({"board": "community-weekly", "week": "2026-11-161"}, "week", "max_length"),
                             ({"board": "billboard", "per_page": 0}, "per_page", "minimum")]:
        status, problem = call(c, "get_leaderboard", WED, **raw)
        assert status == 400 and problem["errors"][0]["field"] == field and problem["errors"][0]["rule"] == rule, raw
    status, problem = call(c, "get_leaderboard", WED, board="community-weekly", week="2026-02-30")
    assert status == 400 and problem["errors"][0]["rule"] == "format_date"
    assert call(c, "get_leaderboard", WED, board="community-weekly", week="2020-01-06")[0] == 404


def test_paging(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    made = [launched(c, unique(f"P{i}"), W, MON) for i in range(5)]
    for i, (listing_id, _slug) in enumerate(made):
        votes(c, listing_id, i + 1, MON)
    sync(c)
    page = _board(c, "community-all-time", page=2, per_page=2)
    assert [i["rank"] for i in page["items"]] == [3, 4] and page["total"] == 5 and page["has_more"] is True
    assert slugs(page["items"]) == [made[2][1], made[1][1]]
