"""Founder profiles and the blog against real PostgreSQL: commands, projection and the four reads."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from commands import content as content_cmd
from commands import listing as listing_cmd
from events.errors import Conflict, InvalidInput, NotFound
from queries.blog import BlogPost, BlogPostList
from queries.founders import FounderList, FounderProfile
from tests.integration.test_launches_kit import MON, W, WED, call, create, launched, meta, ok, sync, unique

STORY = {"title": "Why we built it", "story": "It began in a garage.", "why_started": "Notes were a mess.", "lessons": ""}


def _founder(c, slug: str, name: str, country: str | None = "GB", **extra: object) -> None:  # type: ignore[no-untyped-def]
    content_cmd.create_founder_profile(c.store, content_cmd.CreateFounderProfile(
        slug=slug, name=name, country=country, bio=f"{name} builds tools.", **extra), meta(MON))


def _post(c, slug: str, title: str, markdown: str, at=WED, publish: bool = True, **extra: object) -> None:  # type: ignore[no-untyped-def]
    content_cmd.write_blog_post(c.store, content_cmd.WriteBlogPost(slug=slug, title=title, markdown=markdown, **extra), meta(at))
    if publish:
        content_cmd.publish_blog_post(c.store, slug, meta(at))


def test_founders_of_live_listings_with_companies_and_stories(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    _founder(c, "ada-test", "Ada Lovelace", socials={"linkedin": "https://linkedin.example.com/ada"})
    _founder(c, "grace-test", "Grace Hopper", country="US")
    _founder(c, "nobody-test", "Unlinked Person")
    team = [{"name": "Ada Lovelace", "title": "CEO", "founder_slug": "ada-test"},
            {"name": "Grace Hopper", "title": "CTO", "founder_slug": "grace-test"}]
    live = launched(c, unique("Engine"), W, MON, founders=team, story=STORY)
    listing_cmd.unlock(c.store, live[0], ["story"], "paid add-on", meta(MON))
    quiet = launched(c, unique("Quiet Co"), W, MON, founders=[team[0]], story=STORY)  # story not unlocked
    create(c, unique("Draft Co"), MON, founders=[{"name": "Nobody", "founder_slug": "nobody-test"}])
    sync(c)
    listing = ok(c, "list_founders", WED)
    FounderList.model_validate(listing)
    assert [f["slug"] for f in listing["items"]] == ["ada-test", "grace-test"]  # Unlinked Person: no live listing
    assert [co["slug"] for co in listing["items"][0]["companies"]] == [live[1], quiet[1]]
    assert listing["items"][0]["companies"][0]["role"] == "CEO"
    assert [f["slug"] for f in ok(c, "list_founders", WED, q="hopp")["items"]] == ["grace-test"]
    assert [f["slug"] for f in ok(c, "list_founders", WED, country="us")["items"]] == ["grace-test"]
    assert ok(c, "list_founders", WED, q="100%_")["items"] == []  # LIKE wildcards are literal
    ada = ok(c, "get_founder", WED, slug="ada-test")
    FounderProfile.model_validate(ada)
    assert ada["socials"] == {"linkedin": "https://linkedin.example.com/ada"} and ada["country"] == "GB"
    assert [co["slug"] for co in ada["companies"]] == [live[1], quiet[1]]
    assert ada["stories"] == [{"listing_slug": live[1], "listing_name": ada["companies"][0]["name"],
                               "title": "Why we built it",
                               "sections": {"story": "It began in a garage.", "why_started": "Notes were a mess."}}]
    assert ok(c, "get_founder", WED, slug="nobody-test")["companies"] == []
    assert call(c, "get_founder", WED, slug="no-such-founder")[0] == 404


def test_founder_edits_and_relinking_follow_the_events(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    _founder(c, "edit-me", "Old Name", country="FR")
    other = launched(c, unique("Relinked"), W, MON, founders=[{"name": "Someone"}])
    sync(c)
    assert ok(c, "list_founders", WED)["items"] == []
    content_cmd.edit_founder_profile(c.store, content_cmd.EditFounderProfile(
        slug="edit-me", changes={"name": "New Name", "country": "de"}), meta(WED))
    listing_cmd.edit_listing(c.store, other[0], {"founders": [{"name": "New Name", "founder_slug": "edit-me"}]}, meta(WED))
    sync(c)
    (founder,) = ok(c, "list_founders", WED)["items"]
    assert (founder["name"], founder["country"], founder["companies"][0]["slug"]) == ("New Name", "DE", other[1])
    listing_cmd.unpublish(c.store, other[0], "closed down", meta(WED))
    sync(c)
    assert ok(c, "list_founders", WED)["total"] == 0


def test_founder_slugs_are_unique_even_under_a_race(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    results: list[str] = []

    def create_one(i: int) -> None:
        try:
            _founder(c, "race-founder", f"Racer {i}")
            results.append("ok")
        except Conflict:
            results.append("conflict")

    threads = [threading.Thread(target=create_one, args=(i,)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * 4 + ["ok"]
    with pytest.raises(NotFound):
        content_cmd.edit_founder_profile(c.store, content_cmd.EditFounderProfile(slug="ghost", changes={"bio": "x"}), meta(WED))
    with pytest.raises(InvalidInput):
        content_cmd.edit_founder_profile(c.store, content_cmd.EditFounderProfile(slug="race-founder", changes={"pets": 2}), meta(WED))


def test_blog_lists_published_posts_newest_first_and_searches_full_text(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    faqs = [{"question": "Is it free?", "answer": "Yes, the free plan is."}]
    _post(c, "launch-checklist", "A launch checklist", "Prepare your **badge** and screenshots.", at=MON,
          summary="What to do before launch day.", faqs=faqs, tags=["Launch", "Guides"])
    _post(c, "pricing-pages", "Pricing pages that convert", "Anchor prices; show the annual plan.", at=WED)
    _post(c, "draft-post", "Unfinished thoughts about launches", "Not yet.", publish=False)
    _post(c, "pulled-post", "A post we pulled", "Launch mistakes.", at=MON + timedelta(hours=1))
    content_cmd.unpublish_blog_post(c.store, "pulled-post", meta(WED))
    sync(c)
    page = ok(c, "list_blog_posts", WED)
    BlogPostList.model_validate(page)
    assert [p["slug"] for p in page["items"]] == ["pricing-pages", "launch-checklist"]
    assert page["items"][1]["tags"] == ["launch", "guides"] and page["items"][1]["published_at"].startswith("2026-11-16")
    assert [p["slug"] for p in ok(c, "list_blog_posts", WED, q="badges")["items"]] == ["launch-checklist"]  # stemmed
    assert [p["slug"] for p in ok(c, "list_blog_posts", WED, q="launch")["items"]] == ["launch-checklist"]
    assert [p["slug"] for p in ok(c, "list_blog_posts", WED, q="pric")["items"]] == ["pricing-pages"]  # title prefix
    assert ok(c, "list_blog_posts", WED, q="kubernetes")["total"] == 0
    post = ok(c, "get_blog_post", WED, slug="launch-checklist")
    BlogPost.model_validate(post)
    assert post["markdown"] == "Prepare your **badge** and screenshots." and post["faqs"] == faqs
    assert post["summary"] == "What to do before launch day."
    for hidden in ("draft-post", "pulled-post", "no-such-post"):
        status, problem = call(c, "get_blog_post", WED, slug=hidden)
        assert status == 404 and problem["status"] == 404
    content_cmd.publish_blog_post(c.store, "pulled-post", meta(WED + timedelta(days=1)))
    content_cmd.revise_blog_post(c.store, content_cmd.ReviseBlogPost(slug="pulled-post", changes={"title": "Back again"}), meta(WED))
    sync(c)
    back = ok(c, "get_blog_post", WED, slug="pulled-post")
    assert back["title"] == "Back again" and back["published_at"].startswith("2026-11-16")  # first publication date kept


def test_blog_and_founder_bounds(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    for op, raw, field, rule in [
        ("list_blog_posts", {"q": "x" * 201}, "q", "max_length"),
        ("list_founders", {"q": "x" * 121}, "q", "max_length"),
        ("list_founders", {"country": "USA"}, "country", "pattern"),
        ("get_founder", {"slug": "Bad_Slug"}, "slug", "pattern"),
        ("get_blog_post", {"slug": "-x"}, "slug", "pattern"),
    ]:
        status, problem = call(c, op, WED, **raw)
        assert status == 400 and problem["errors"][0]["field"] == field and problem["errors"][0]["rule"] == rule, (op, raw)
    with pytest.raises(Conflict):
        _post(c, "twice", "T", "M")
        _post(c, "twice", "T", "M")
