"""The weekly close is right whatever the order: a week closed before its launches and votes arrived is recomputed.

Awards are derived from votes. `launchdir serve` closes last week within a minute of starting; when
`launchdir demo` (or a back-dated import, or a listing published into a past week) fills that week
afterwards, its awards must follow the votes, not stay as the empty close left them.
"""

from __future__ import annotations

from datetime import timedelta

from events.awards import LaunchWeekAwardsRecomputed
from launchdir.demo import PAST_WEEKS, load_demo
from aggregates.awards import week_stream
from queries.weeks import monday_of
from tests.integration.test_launches_kit import MON, W, launched, ok, sync, unique, utc, votes
from workers.scheduler import Scheduler

NEXT_MONDAY = utc(2026, 11, 23, 0, 0, 30)


def _awards(week: dict) -> list[tuple[int, str, int]]:  # type: ignore[type-arg]
    return [(a["rank"], a["listing"]["slug"], a["votes"]) for a in week["awards"]]


def test_serve_then_demo_gives_last_week_its_three_awards(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    scheduler = Scheduler(c.store, c.services.reads, c.runtime, c.services.now)
    last = (monday_of(c.services.today()) - timedelta(weeks=1)).isoformat()
    assert last in scheduler.tick().closed  # `launchdir serve` starts: last week closes, still empty
    load_demo(c)  # then `launchdir demo`
    scheduler.tick()
    sync(c)
    week = ok(c, "get_launch_week", week=last)
    voted = [i for i in week["launches"] if i["week_votes"] > 0][:3]
    assert week["closed"] is True and len(voted) == 3
    assert _awards(week) == [(n, i["listing"]["slug"], i["week_votes"]) for n, i in enumerate(voted, start=1)]
    assert ok(c, "list_awards", per_page=100)["total"] == 3 * PAST_WEEKS


def test_launches_and_votes_of_a_closed_week_recompute_its_awards(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    scheduler = Scheduler(c.store, c.services.reads, c.runtime, c.services.now)
    early = launched(c, unique("Early"), W, MON)
    votes(c, early[0], 2, MON + timedelta(hours=1))
    assert W in scheduler.tick(NEXT_MONDAY).closed
    # late arrivals, dated inside the week: a listing published into it and its votes
    late = launched(c, unique("Late"), W, MON + timedelta(hours=2))
    votes(c, late[0], 5, MON + timedelta(hours=3))
    result = scheduler.tick(NEXT_MONDAY + timedelta(minutes=1))
    assert result.recomputed == [W] and result.closed == []
    sync(c)
    assert _awards(ok(c, "get_launch_week", NEXT_MONDAY, week=W)) == [(1, late[1], 5), (2, early[1], 2)]
    assert [(i["rank"], i["listing"]["slug"]) for i in ok(c, "list_awards", NEXT_MONDAY, listing=late[1])["items"]] == [
        (1, late[1])]
    change = c.store.stream(week_stream(W))[-1]
    assert isinstance(change, LaunchWeekAwardsRecomputed)
    assert [w["listing_id"] for w in change.previous] == [early[0]]
    assert change.actor == "system" and change.channel == "system"
    # votes cast after the week ended never count, so they change nothing, and nor does a second tick
    votes(c, early[0], 9, NEXT_MONDAY + timedelta(hours=1))
    again = scheduler.tick(NEXT_MONDAY + timedelta(hours=2))
    assert again.recomputed == [] and again.closed == []
    sync(c)
    assert _awards(ok(c, "get_launch_week", NEXT_MONDAY, week=W)) == [(1, late[1], 5), (2, early[1], 2)]
