"""Launch calendar operations: launch weeks, launch feeds, leaderboards, awards and badges."""

from __future__ import annotations

from typing import Any

from api.ops.caller import naming
from api.registry import Operation
from api.services import Call, Services
from queries import awards as awards_q
from queries import badges as badges_q
from queries import launches as launches_q
from queries import leaderboards as boards_q

LAUNCHES = ("launches_view", "catalog_view")  # the cards name their primary category (catalogue names)
BOARDS = ("launches_view", "leaderboard_view", "catalog_view")
BADGES = ("launches_view", "catalog_view")


def _week(s: Services, q: launches_q.GetLaunchWeek, c: Call) -> dict[str, Any]:
    return launches_q.get_launch_week(s.reads, q, c.at)


def _feed(s: Services, q: launches_q.ListLaunches, c: Call) -> dict[str, Any]:
    return launches_q.list_launches(s.reads, q, c.at)


def _board(s: Services, q: boards_q.GetLeaderboard, c: Call) -> dict[str, Any]:
    return boards_q.get_leaderboard(s.reads, q, c.at)


def _awards(s: Services, q: awards_q.ListAwards, c: Call) -> dict[str, Any]:
    return awards_q.list_awards(s.reads, q)


def _badges(s: Services, q: badges_q.GetBadges, c: Call) -> dict[str, Any]:
    return badges_q.get_badges(s.reads, q, s.links["website"])


def operations() -> list[Operation]:
    """The launch calendar's rows of the operation table.

    list_launches is not in the executor's response cache: `trending` changes
    by the hour and `today` by the day, so the query caches each section per
    the period it depends on instead (still dropped when the projection moves).
    """
    return [
        Operation("get_launch_week", "GET", "/launches/weeks/{week}", launches_q.GetLaunchWeek, launches_q.LaunchWeek,
                  naming("week", _week), tag="launches", cache_projections=LAUNCHES, cache_seconds=60, cache_by_day=True),
        Operation("list_launches", "GET", "/launches", launches_q.ListLaunches, launches_q.LaunchFeed, _feed,
                  tag="launches", cache_seconds=60),
        Operation("get_leaderboard", "GET", "/leaderboards/{board}", boards_q.GetLeaderboard, boards_q.Leaderboard,
                  naming("board", _board), tag="leaderboards", cache_projections=BOARDS, cache_seconds=60, cache_by_day=True),
        Operation("list_awards", "GET", "/awards", awards_q.ListAwards, awards_q.AwardList, _awards,
                  tag="awards", cache_projections=LAUNCHES, cache_seconds=60),
        Operation("get_badges", "GET", "/listings/{slug}/badges", badges_q.GetBadges, badges_q.BadgeSet, naming("slug", _badges),
                  tag="badges", cache_projections=BADGES, cache_seconds=300),
    ]
