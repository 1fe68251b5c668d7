"""get_launch_week and the scheduler against real PostgreSQL: ranking, ties, boundaries, closing, awards."""

from __future__ import annotations

from datetime import timedelta

from commands import community
from commands import listing as listing_cmd
from queries.launches import LaunchWeek
from tests.integration.test_launches_kit import MON, W, WED, billboard, call, create, launched, meta, ok, scheduled
from tests.integration.test_launches_kit import slugs, sync, unique, utc, votes
from workers.scheduler import Scheduler


def test_a_week_ranks_its_launches_by_votes_with_documented_tie_breakers(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = launched(c, unique("Alpha"), W, MON)
    b = launched(c, unique("Bravo"), W, MON)
    d = launched(c, unique("Delta"), W, MON)
    e = launched(c, unique("Echo"), W, MON)
    votes(c, a[0], 3, MON + timedelta(hours=2))
    votes(c, b[0], 3, MON + timedelta(hours=1))  # same count, earlier first vote: ahead of Alpha
    votes(c, d[0], 3, MON + timedelta(hours=2))  # same count and first vote as Alpha, higher id: behind it
    votes(c, e[0], 5, MON + timedelta(hours=3))
    sync(c)
    week = ok(c, "get_launch_week", WED, week="2026-11-20")  # a Friday snaps to its Monday
    LaunchWeek.model_validate(week)
    assert (week["week"], week["label"], week["starts_on"], week["ends_on"]) == (W, "2026-W47", W, "2026-11-22")
    assert week["state"] == "current" and week["closed"] is False and week["timezone"] == "UTC"
    assert slugs(week["launches"]) == [e[1], b[1], a[1], d[1]]
    assert [(i["rank"], i["week_votes"]) for i in week["launches"]] == [(1, 5), (2, 3), (3, 3), (4, 3)]
    assert week["launches"][0]["listing"]["votes"] == 5 and week["launches"][0]["listing"]["launch_week"] == W
    assert ok(c, "get_launch_week", WED, week="this") == week


def test_votes_after_the_week_ended_do_not_reorder_it(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = launched(c, unique("Early"), W, MON)
    b = launched(c, unique("Late"), W, MON)
    votes(c, a[0], 2, WED)
    votes(c, b[0], 1, WED)
    votes(c, b[0], 4, utc(2026, 11, 23, 0, 0), who="after")  # Monday 00:00 of the next week: too late
    sync(c)
    week = ok(c, "get_launch_week", utc(2026, 11, 24), week=W)
    assert week["state"] == "past"
    assert slugs(week["launches"]) == [a[1], b[1]]
    assert [i["week_votes"] for i in week["launches"]] == [2, 1]
    assert week["launches"][1]["listing"]["votes"] == 5  # the card still shows every vote
    assert week["scheduled"] == []


def test_withdrawn_votes_leave_the_ranking_and_the_tie_break(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = launched(c, unique("Keeps"), W, MON)
    b = launched(c, unique("Loses"), W, MON)
    votes(c, a[0], 2, MON + timedelta(hours=2))
    (first, _second) = votes(c, b[0], 2, MON + timedelta(hours=1), step=timedelta(days=1))
    sync(c)
    assert slugs(ok(c, "get_launch_week", WED, week=W)["launches"]) == [b[1], a[1]]
    community.withdraw_vote(c.store, b[0], first, meta(WED))
    community.cast_vote(c.store, b[0], "voter-new", meta(WED))  # back to 2, but its first vote is now later
    sync(c)
    assert slugs(ok(c, "get_launch_week", WED, week=W)["launches"]) == [a[1], b[1]]


def test_future_weeks_list_scheduled_launches_and_the_keywords_resolve(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    soon = scheduled(c, unique("Soon"), "2026-11-23", WED)
    later = scheduled(c, unique("Later"), "2026-11-30", WED)
    live = launched(c, unique("Now"), W, MON)
    sync(c)
    nxt = ok(c, "get_launch_week", WED, week="next")
    assert nxt["week"] == "2026-11-23" and nxt["state"] == "future"
    assert [s["listing"]["slug"] for s in nxt["scheduled"]] == [soon[1]] and nxt["launches"] == []
    assert [s["listing"]["status"] for s in nxt["scheduled"]] == ["scheduled"]
    assert ok(c, "get_launch_week", WED, week="2026-12-02")["scheduled"][0]["listing"]["slug"] == later[1]
    this = ok(c, "get_launch_week", WED, week="this")
    assert slugs(this["launches"]) == [live[1]] and this["scheduled"] == []
    last = ok(c, "get_launch_week", WED, week="last")
    assert last["week"] == "2026-11-09" and last["launches"] == [] and last["state"] == "past"


def test_week_bounds_are_400_and_out_of_range_weeks_404(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    launched(c, unique("Range"), W, MON)
    sync(c)
    for week, rule in [("2026-02-30", "format_date"), ("nextweek", "pattern"), ("2026-11-166", "max_length"),
                       ("2026/11/16", "pattern")]:
        status, problem = call(c, "get_launch_week", WED, week=week)
        assert status == 400 and problem["errors"][0]["field"] == "week", (week, problem)
        assert problem["errors"][0]["rule"] == rule, (week, problem)
    assert call(c, "get_launch_week", WED, week="2026-10-26")[0] == 404  # before the directory's first week
    assert call(c, "get_launch_week", WED, week="2026-11-09")[0] == 200  # last week always exists
    assert call(c, "get_launch_week", WED, week="2027-11-15")[0] == 200  # 52 weeks ahead
    status, problem = call(c, "get_launch_week", WED, week="2027-11-22")  # 53 weeks ahead
    assert status == 404 and problem["type"] == "/problems/not-found"


def test_scheduler_launches_due_listings_and_closes_the_previous_week(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = launched(c, unique("Winner"), W, MON)
    b = launched(c, unique("Runner"), W, MON)
    quiet = launched(c, unique("Quiet"), W, MON)
    due = scheduled(c, unique("Due"), "2026-11-23", WED)
    votes(c, a[0], 4, MON + timedelta(hours=1))
    votes(c, b[0], 2, MON + timedelta(hours=1))
    # money and views must not move an award: Runner gets both in abundance
    billboard(c, b[0], 500_000, WED)
    community.count_views(c.store, {b[0]: 10_000, quiet[0]: 50_000}, meta(WED))
    scheduler = Scheduler(c.store, c.services.reads, c.runtime, c.services.now)
    before = scheduler.tick(utc(2026, 11, 22, 23, 59))  # Sunday night: nothing is due, nothing ends
    assert before.launched == [] and W not in before.closed
    monday = utc(2026, 11, 23, 0, 0, 30)
    result = scheduler.tick(monday)
    assert result.launched == [due[0]] and W in result.closed
    assert listing_cmd.load(c.store, due[0]).status == "live"
    again = scheduler.tick(monday + timedelta(minutes=1))
    assert again.launched == [] and again.closed == []
    sync(c)
    week = ok(c, "get_launch_week", monday, week="last")
    assert week["closed"] is True
    assert [(w["rank"], w["title"], w["listing"]["slug"], w["votes"]) for w in week["awards"]] == [
        (1, "Launch of the Week #1", a[1], 4), (2, "Launch of the Week #2", b[1], 2)]  # Quiet had no votes
    this = ok(c, "get_launch_week", monday, week="this")
    assert slugs(this["launches"]) == [due[1]]
    awards = ok(c, "list_awards", monday)
    assert [(i["week"], i["rank"], i["listing"]["slug"]) for i in awards["items"]] == [(W, 1, a[1]), (W, 2, b[1])]
    assert ok(c, "list_awards", monday, listing=b[1])["total"] == 1
    assert ok(c, "list_awards", monday, listing="no-such-listing")["items"] == []


def test_a_listing_scheduled_for_a_missed_week_launches_in_that_week(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    late = scheduled(c, unique("Missed"), "2026-11-23", WED)
    scheduler = Scheduler(c.store, c.services.reads, c.runtime, c.services.now)
    result = scheduler.tick(utc(2026, 12, 2, 8))  # the scheduler was down all of that week
    assert result.launched == [late[0]]
    assert "2026-11-23" in result.closed
    assert listing_cmd.load(c.store, late[0]).week == "2026-11-23"


def test_unpublished_listings_leave_the_week(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    gone = launched(c, unique("Gone"), W, MON)
    stays = launched(c, unique("Stays"), W, MON)
    listing_cmd.unpublish(c.store, gone[0], "spam", meta(WED))
    draft = create(c, unique("Draft"), MON)
    sync(c)
    week = ok(c, "get_launch_week", WED, week=W)
    assert slugs(week["launches"]) == [stays[1]]
    assert draft[1] not in str(week)
