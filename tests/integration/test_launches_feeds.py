"""list_launches against real PostgreSQL: every section, time decay (freezegun), days and weeks in the site's timezone."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from freezegun import freeze_time

from commands import community
from launchdir.bootstrap import bootstrap, ensure_catalog, utc_now
from queries.launches import LaunchFeed
from tests.conftest import test_settings as settings_for
from tests.integration.test_launches_kit import MON, W, WED, call, launched, meta, ok, scheduled, slugs, sync, unique
from tests.integration.test_launches_kit import utc, votes
from workers.scheduler import Scheduler


def _container(fresh_db: str, tz: str):  # type: ignore[no-untyped-def]
    c = bootstrap(settings_for(fresh_db, timezone=tz))
    ensure_catalog(c)
    return c


@pytest.fixture
def los_angeles(fresh_db: str) -> Iterator[object]:
    c = _container(fresh_db, "America/Los_Angeles")
    yield c
    c.close()


@pytest.fixture
def auckland(fresh_db: str) -> Iterator[object]:
    c = _container(fresh_db, "Pacific/Auckland")
    yield c
    c.close()


def test_every_section_orders_as_documented(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = launched(c, unique("Many Votes"), W, MON)
    b = launched(c, unique("Most Viewed"), W, MON + timedelta(hours=1))
    d = launched(c, unique("Followed"), W, WED - timedelta(hours=1))
    old = launched(c, unique("Last Week"), "2026-11-09", utc(2026, 11, 9, 9))
    up = scheduled(c, unique("Upcoming"), "2026-11-30", MON)
    nearer = scheduled(c, unique("Nearer"), "2026-11-23", WED)
    votes(c, a[0], 3, MON)
    votes(c, b[0], 1, MON)
    votes(c, old[0], 5, utc(2026, 11, 9, 10))
    community.count_views(c.store, {b[0]: 40, a[0]: 3}, meta(WED))
    community.count_views(c.store, {b[0]: 2}, meta(WED))
    for who in ("f1", "f2"):
        community.follow(c.store, d[0], who, meta(WED))
    community.follow(c.store, a[0], "f1", meta(WED))
    community.follow(c.store, a[0], "f1", meta(WED), on=False)
    sync(c)

    def feed(section: str, **extra: object) -> dict:  # type: ignore[type-arg]
        body = ok(c, "list_launches", WED, section=section, **extra)
        LaunchFeed.model_validate(body)
        return body  # type: ignore[no-any-return]

    this_week = feed("this-week")
    assert slugs(this_week["items"]) == [a[1], b[1], d[1]] and this_week["as_of"] == W
    assert ok(c, "list_launches", WED) == this_week  # the default section
    assert slugs(feed("today")["items"]) == [d[1]]  # launched on Wednesday
    most_voted = feed("most-voted")
    assert slugs(most_voted["items"]) == [old[1], a[1], b[1]]
    assert [i["metric"] for i in most_voted["items"]][0] == {"name": "votes", "value": 5}
    assert slugs(feed("recent")["items"])[:3] == [d[1], b[1], a[1]]
    viewed = feed("most-viewed")
    assert slugs(viewed["items"]) == [b[1], a[1]] and viewed["items"][0]["metric"] == {"name": "views", "value": 42}
    followed = feed("most-followed")
    assert slugs(followed["items"]) == [d[1]] and followed["items"][0]["metric"]["value"] == 2
    upcoming = feed("upcoming")
    assert slugs(upcoming["items"]) == [nearer[1], up[1]]
    assert upcoming["items"][0]["metric"] == {"name": "launch_week", "value": "2026-11-23"}
    assert upcoming["items"][0]["listing"]["status"] == "scheduled"
    page2 = feed("this-week", page=2, per_page=2)
    assert [i["rank"] for i in page2["items"]] == [3] and page2["total"] == 3 and page2["has_more"] is False
    assert feed("this-week", per_page=2)["has_more"] is True


def test_section_and_paging_bounds_are_400(container) -> None:  # type: ignore[no-untyped-def]
    for raw, field, rule in [({"section": "hot"}, "section", "enum"), ({"per_page": 101}, "per_page", "maximum"),
                             ({"page": 0}, "page", "minimum")]:
        status, problem = call(container, "list_launches", WED, **raw)
        assert status == 400 and problem["errors"][0]["field"] == field and problem["errors"][0]["rule"] == rule


def test_trending_decays_votes_as_time_passes_without_new_events(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    c.services.clock = utc_now  # the real clock, frozen below
    burst = launched(c, unique("Burst"), W, MON)
    steady = launched(c, unique("Steady"), W, MON)
    votes(c, burst[0], 10, utc(2026, 11, 16, 10))
    votes(c, steady[0], 3, utc(2026, 11, 20, 9))
    sync(c)
    with freeze_time("2026-11-16 12:00:00"):  # Steady's votes are still in the future
        early = ok(c, "list_launches", section="trending")
    assert slugs(early["items"]) == [burst[1]] and early["as_of"] == "2026-11-16T12:00:00+00:00"
    assert early["items"][0]["metric"]["value"] == pytest.approx(10 * 0.5 ** (2 / 36), abs=1e-3)
    with freeze_time("2026-11-20 10:30:00"):  # 96 h later: 10 votes halved 2.67 times < 3 fresh votes
        later = ok(c, "list_launches", section="trending")
    assert slugs(later["items"]) == [steady[1], burst[1]]
    assert later["items"][1]["metric"]["value"] == pytest.approx(10 * 0.5 ** (96 / 36), abs=1e-3)
    with freeze_time("2026-12-05 00:00:00"):  # everything is older than the 14-day window
        assert ok(c, "list_launches", section="trending")["items"] == []


def test_today_follows_the_site_timezone(auckland) -> None:  # type: ignore[no-untyped-def]
    c = auckland
    # 10:30 UTC is 23:30 on the 18th in Auckland (UTC+13); 11:30 UTC is already the 19th there
    before = launched(c, unique("Before Midnight"), W, utc(2026, 11, 18, 10, 30))
    after = launched(c, unique("After Midnight"), W, utc(2026, 11, 18, 11, 30))
    sync(c)
    c.services.clock = utc_now
    with freeze_time("2026-11-18 12:00:00"):
        today = ok(c, "list_launches", section="today")
        yesterday_there = ok(c, "get_site_info")
    assert slugs(today["items"]) == [after[1]] and today["as_of"] == "2026-11-19"
    assert before[1] not in str(today) and yesterday_there["timezone"] == "Pacific/Auckland"


def test_weeks_start_on_monday_in_the_site_timezone(los_angeles) -> None:  # type: ignore[no-untyped-def]
    c = los_angeles  # PST, UTC-8: the week of 16 November runs 16 Nov 08:00 UTC .. 23 Nov 08:00 UTC
    a = launched(c, unique("Sunday Night"), W, utc(2026, 11, 16, 9))
    b = launched(c, unique("Too Late"), W, utc(2026, 11, 16, 9))
    votes(c, a[0], 2, utc(2026, 11, 23, 5))  # Sunday 21:00 in Los Angeles: counts
    votes(c, b[0], 3, utc(2026, 11, 23, 9))  # Monday 01:00 in Los Angeles: the week is over
    sync(c)
    c.services.clock = utc_now
    with freeze_time("2026-11-23 06:00:00"):  # Monday in UTC, still Sunday in Los Angeles
        week = ok(c, "get_launch_week", week="this")
    assert week["week"] == W and week["state"] == "current" and week["timezone"] == "America/Los_Angeles"
    assert [(i["listing"]["slug"], i["week_votes"]) for i in week["launches"]] == [(a[1], 2), (b[1], 0)]
    # the scheduler takes UTC instants and reasons in the site's timezone (no events are written under freezegun)
    scheduler = Scheduler(c.store, c.services.reads, c.runtime, c.services.now)
    assert W not in scheduler.tick(utc(2026, 11, 23, 7, 59)).closed  # Sunday 23:59 in Los Angeles
    assert W in scheduler.tick(utc(2026, 11, 23, 8, 0, 30)).closed  # Monday 00:00:30 in Los Angeles
    sync(c)
    with freeze_time("2026-11-23 08:01:00"):
        closed = ok(c, "get_launch_week", week="last")
    assert closed["week"] == W and [w["listing"]["slug"] for w in closed["awards"]] == [a[1]]
