"""`launchdir demo` against real PostgreSQL: a realistic directory through the commands, and a second run skips."""

from __future__ import annotations

from datetime import timedelta

from launchdir.demo import load_demo
from queries.weeks import monday_of
from tests.integration.test_launches_kit import ok, sync


def test_the_demo_grows_a_directory_whose_awards_follow_the_votes(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    made = load_demo(c)
    assert made["listings"] >= 60 and made["live"] >= 50 and made["scheduled"] >= 5 and made["awaiting_badge"] >= 1
    assert made["weeks_closed"] == 8 and made["votes"] > 500 and made["founders"] >= 20 and made["blog_posts"] >= 7
    assert load_demo(c) == {"skipped": 1}
    sync(c)
    this = monday_of(c.services.today())
    for k in range(1, 9):
        week = ok(c, "get_launch_week", week=(this - timedelta(weeks=k)).isoformat())
        assert week["closed"] is True and len(week["launches"]) >= 6
        voted = [i for i in week["launches"] if i["week_votes"] > 0][:3]
        assert [(a["listing"]["slug"], a["votes"]) for a in week["awards"]] == [
            (i["listing"]["slug"], i["week_votes"]) for i in voted]
    assert ok(c, "list_launches", section="upcoming")["total"] >= 5
    assert ok(c, "get_leaderboard", board="billboard")["total"] >= 1
    assert ok(c, "get_leaderboard", board="revenue")["total"] >= 1
    assert ok(c, "list_founders")["total"] >= 20
    posts = ok(c, "list_blog_posts")
    assert posts["total"] == 7 and all(ok(c, "get_blog_post", slug=p["slug"])["markdown"] for p in posts["items"])
    assert ok(c, "get_blog_post", slug="how-launch-weeks-work")["faqs"]
