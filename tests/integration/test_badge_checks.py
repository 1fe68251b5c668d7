"""Badge checks against real PostgreSQL and real local websites on 127.0.0.1: found, missing, down, the backoff,
go-live, the week rule, and `launchdir staff check-badge`."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest
from click.testing import CliRunner

from aggregates import listing
from aggregates.base import Meta
from commands import free_plan as free_cmd
from commands import listing as listing_cmd
from events.errors import Conflict, NotFound
from queries import badge_checks as badge_q
from queries import free_plan as free_q
from tests.conftest import free_port
from tests.fixtures.sites.server import Body, FixtureServer
from workers.badge_check import BadgeChecker, badge_crawl_settings
from workers.badge_watch import BadgeWatch
from workers.scheduler import Scheduler

START = datetime(2026, 11, 25, 12, tzinfo=timezone.utc)  # a Wednesday; the site's timezone is UTC
OWNER = "owner-1"


@dataclass
class Clock:
    at: datetime = START

    def __call__(self) -> datetime:
        return self.at


def meta(at: datetime, actor: str = f"account:{OWNER}") -> Meta:
    return Meta(at=at, actor=actor, channel="rest")


def home(badge: str = "") -> Body:
    return Body(f"<!doctype html><html><body><h1>Product</h1>{badge}</body></html>".encode())


def link(c: Any, slug: str) -> str:
    return f'<a href="{c.settings.base_url}/listings/{slug}"><img src="x.png"></a>'


@pytest.fixture
def site() -> Iterator[FixtureServer]:
    with FixtureServer() as server:
        server.routes["/"] = home()
        yield server


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def watch(container: Any, clock: Clock) -> BadgeWatch:
    checker = BadgeChecker(container.settings.base_url, badge_crawl_settings(allow_loopback=True))
    return BadgeWatch(container.store, container.services.reads, container.runtime, checker, clock)


def saved(c: Any, name: str, website: str) -> int:
    cmd = listing_cmd.CreateListing(profile={"name": name, "website_url": website}, categories=["notes-docs"],
                                    owner_ids=[OWNER], source="draft")
    return listing_cmd.create_listing(c.store, cmd, meta(START)).listing_id


def choose(c: Any, listing_id: int, at: datetime = START) -> str:
    c.runtime.catch_up("catalog_view")
    c.runtime.catch_up("listing_view")
    week = free_q.free_week(c.services.reads, at.date())
    free_cmd.choose_free_listing(c.store, free_cmd.ChooseFreeListing(listing_id=listing_id), OWNER, week, meta(at))
    c.runtime.catch_up("badge_checks_view")
    return week


def status(c: Any, listing_id: int) -> str:
    return str(listing_cmd.load(c.store, listing_id).status)


def row(c: Any, listing_id: int) -> dict[str, Any]:
    c.runtime.catch_up("badge_checks_view")
    found = badge_q.check_row(c.services.reads, listing_id)
    assert found is not None
    return found


def test_a_homepage_with_the_badge_is_scheduled_for_its_week(container: Any, site: FixtureServer,
                                                            watch: BadgeWatch) -> None:
    listing_id = saved(container, "Badge Shown", site.url("/"))
    week = choose(container, listing_id)
    assert status(container, listing_id) == "awaiting_badge"
    assert badge_q.due(container.services.reads, START) == [listing_id]  # due at once
    site.routes["/"] = home(link(container, "badge-shown"))
    (checked,) = watch.run_once()
    assert checked.outcome is not None and checked.outcome.found and checked.recorded == [
        "ListingBadgeFound", "ListingScheduled"]
    state = listing_cmd.load(container.store, listing_id)
    assert (state.status, state.week) == ("scheduled", week)
    r = row(container, listing_id)
    assert (r["last_result"], r["next_check_at"], r["attempts"]) == ("found", None, 0)
    assert badge_q.last_check(container.services.reads, listing_id)["result"] == "found"  # type: ignore[index]
    assert watch.run_once() == []  # nothing due any more
    with pytest.raises(Conflict, match="already scheduled"):
        choose(container, listing_id)


def test_a_homepage_without_the_badge_is_checked_again_with_backoff(container: Any, site: FixtureServer,
                                                                   watch: BadgeWatch, clock: Clock) -> None:
    listing_id = saved(container, "Badge Missing", site.url("/"))
    choose(container, listing_id)
    site.routes["/"] = home('<a href="/listings/badge-missing">our own page, not theirs</a>')
    waits = []
    for _ in range(6):
        (checked,) = watch.run_once()
        assert checked.outcome is not None and checked.outcome.reason == "not_found"
        assert checked.recorded == ["ListingBadgeMissing"] and checked.next_check_at is not None
        waits.append(checked.next_check_at - clock.at)
        assert watch.run_once() == []  # not due before its time
        clock.at = checked.next_check_at
    assert waits == [timedelta(minutes=15), timedelta(hours=1), timedelta(hours=4), timedelta(hours=12),
                     timedelta(days=1), timedelta(days=1)]
    r = row(container, listing_id)
    assert (r["last_result"], r["last_reason"], r["attempts"]) == ("missing", "not_found", 6)
    assert status(container, listing_id) == "awaiting_badge"
    site.routes["/"] = home(f'<img src="{container.settings.base_url}/badges/badge-missing/upcoming.svg?size=s">')
    (checked,) = watch.run_once()
    assert checked.status == "scheduled" and row(container, listing_id)["attempts"] == 0


def test_a_site_that_is_down_or_not_public_is_missing_with_its_reason(container: Any, watch: BadgeWatch,
                                                                      clock: Clock) -> None:
    down = saved(container, "Site Down", f"http://127.0.0.1:{free_port()}/")
    choose(container, down)
    (checked,) = watch.run_once()
    assert checked.outcome is not None and checked.outcome.reason == "unreachable"
    assert row(container, down)["last_reason"] == "unreachable"
    with FixtureServer() as server:
        server.routes["/"] = home(link(container, "private-site"))
        private = saved(container, "Private Site", server.url("/"))
        choose(container, private)
        strict = BadgeWatch(container.store, container.services.reads, container.runtime,
                            BadgeChecker(container.settings.base_url), clock)  # loopback not allowed: SSRF rules
        clock.at += timedelta(minutes=1)
        (checked,) = strict.run_once()
    assert checked.outcome is not None and (checked.outcome.found, checked.outcome.reason) == (False, "blocked")
    assert not server.requested("/")  # refused before any connection


def test_go_live_checks_the_badge_again(container: Any, site: FixtureServer, watch: BadgeWatch, clock: Clock) -> None:
    kept = saved(container, "Badge Kept", site.url("/kept"))
    gone = saved(container, "Badge Gone", site.url("/gone"))
    site.routes["/kept"] = home(link(container, "badge-kept"))
    site.routes["/gone"] = home(link(container, "badge-gone"))
    weeks = {choose(container, kept), choose(container, gone)}
    paid = saved(container, "Paid One", "https://paid.example/")
    watch.run_once()
    assert status(container, kept) == status(container, gone) == "scheduled"
    site.routes["/gone"] = home()  # the founder took the badge down before the week began
    listing_cmd.schedule_paid(container.store, paid, min(weeks), meta(START))
    last_monday = datetime.combine(date.fromisoformat(max(weeks)), datetime.min.time(), tzinfo=timezone.utc)
    clock.at = last_monday + timedelta(minutes=1)  # both weeks have begun
    scheduler = Scheduler(container.store, container.services.reads, container.runtime, clock, launch=watch.go_live)
    result = scheduler.tick(clock.at)
    assert sorted(result.launched) == sorted([kept, paid])
    assert status(container, kept) == "live" and status(container, paid) == "live"
    assert status(container, gone) == "awaiting_badge"  # ListingBadgeLost
    r = row(container, gone)
    assert (r["status"], r["last_reason"], r["next_check_at"]) == ("awaiting_badge", "not_found",
                                                                   clock.at + timedelta(minutes=15))
    container.runtime.catch_up("launches_view")
    assert scheduler.tick(clock.at).launched == []  # not due again: the launch view knows it waits for its badge
    site.routes["/gone"] = home(link(container, "badge-gone"))  # put back: live at once, its week has begun
    clock.at += timedelta(minutes=15)
    (checked,) = watch.run_once()
    assert checked.status == "live" and status(container, gone) == "live"
    follow_up = row(container, kept)["next_check_at"]
    assert follow_up is not None and follow_up - clock.at > timedelta(days=6)  # weekly follow-ups after launch
    before = [row(container, i) for i in (kept, gone, paid)]
    assert container.runtime.rebuild("badge_checks_view").generation == 2  # the schedule is all in the events
    assert [row(container, i) for i in (kept, gone, paid)] == before


def test_the_week_rule_spreads_listings_over_the_window(container: Any, site: FixtureServer) -> None:
    weeks = [choose(container, saved(container, f"Spread {n}", site.url("/"))) for n in range(7)]
    monday = date(2026, 11, 23)
    window = [(monday + timedelta(weeks=k)).isoformat() for k in (6, 7, 8)]
    assert weeks == [window[0], window[1], window[2], window[0], window[1], window[2], window[0]]


def test_staff_check_badge_cli(container: Any, site: FixtureServer) -> None:
    from launchdir.cli import main

    listing_id = saved(container, "Cli Check", site.url("/"))
    choose(container, listing_id)
    runner = CliRunner()  # the container handed to the command (click obj) is used as it is
    out = runner.invoke(main, ["staff", "check-badge", "cli-check", "--json"], obj=container)
    assert out.exit_code == 0, out.output
    assert json.loads(out.output[out.output.index("{"):])["reason"] == "blocked"  # 127.0.0.1 is not public
    container.settings = replace(container.settings, crawl_allow_loopback=True)  # as the test settings allow
    out = runner.invoke(main, ["staff", "check-badge", "cli-check", "--json", "--actor", "ops"], obj=container)
    assert out.exit_code == 0, out.output
    report = json.loads(out.output[out.output.index("{"):])
    assert (report["result"], report["reason"], report["status"]) == ("missing", "not_found", "awaiting_badge")
    assert report["recorded"] == ["ListingBadgeMissing"] and report["next_check_at"]
    site.routes["/"] = home(link(container, "cli-check"))
    out = runner.invoke(main, ["staff", "check-badge", "cli-check"], obj=container)
    assert out.exit_code == 0, out.output
    assert "awaiting_badge -> scheduled" in out.output and "ListingBadgeFound, ListingScheduled" in out.output
    event = container.store.stream(listing.listing_stream(listing_id))[-2]
    assert event.actor.startswith("staff:") and event.channel == "cli"
    missing = runner.invoke(main, ["staff", "check-badge", "no-such-listing"], obj=container)
    assert missing.exit_code == 1 and "no listing" in missing.output


def test_strangers_cannot_choose_and_bad_states_conflict(container: Any, site: FixtureServer) -> None:
    listing_id = saved(container, "Not Yours", site.url("/"))
    with pytest.raises(NotFound):
        free_cmd.choose_free_listing(container.store, free_cmd.ChooseFreeListing(listing_id=listing_id), "stranger",
                                     "2027-01-11", meta(START, "account:stranger"))
    listing_cmd.unpublish(container.store, listing_id, "spam", meta(START, "staff:ops"))
    with pytest.raises(Conflict, match="taken down"):
        choose(container, listing_id)


def _taken_over(watch: BadgeWatch, rounds: int = 200) -> list[Any]:
    """What the watch checks once it holds the lease: the server ends a closed session's backend (and drops its
    lock) a moment after the client closes, so the first polls may still find the lease held."""
    for _ in range(rounds):
        checked = watch.run_once()
        if checked:
            return checked
        time.sleep(0.02)
    return []


def test_due_checks_run_in_one_process_at_a_time_and_move_on_when_it_stops(container: Any, site: FixtureServer,
                                                                          clock: Clock) -> None:
    """Two serving processes' watches against one database: only the lease holder checks; the other takes over."""
    from projections.leases import JOB_APP_NAME, JOB_LOCK, Leases
    from workers.badge_watch import LEASE

    def leased_watch() -> BadgeWatch:
        checker = BadgeChecker(container.settings.base_url, badge_crawl_settings(allow_loopback=True))
        lease = Leases(container.runtime.conninfo, [LEASE], lock=JOB_LOCK, app_name=JOB_APP_NAME)
        return BadgeWatch(container.store, container.services.reads, container.runtime, checker, clock, lease=lease)

    first, second = leased_watch(), leased_watch()
    try:
        listing_id = saved(container, "Leased Check", site.url("/"))
        choose(container, listing_id)
        (checked,) = first.run_once()  # the first to ask holds the lease
        assert checked.recorded == ["ListingBadgeMissing"]
        clock.at += timedelta(days=30)  # due again for both
        assert badge_q.due(container.services.reads, clock.at) == [listing_id]
        assert second.run_once() == []  # the first process holds the lease: nothing checked twice
        assert row(container, listing_id)["attempts"] == 1
        first.stop()  # the holder stops (or dies): its session and lock go with it
        (again,) = _taken_over(second)
        assert again.listing_id == listing_id and again.recorded == ["ListingBadgeMissing"]
        assert row(container, listing_id)["attempts"] == 2
    finally:
        first.stop()
        second.stop()
