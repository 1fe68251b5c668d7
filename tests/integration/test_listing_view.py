"""The listing view against real PostgreSQL: documents, visibility, paid sections, ratings, metrics, rebuild.

Every fact is created through the commands; the projections catch up; the
queries read what a client would get.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from aggregates.base import Meta
from commands import community, metrics
from commands import listing as listing_cmd
from events.errors import NotFound
from queries import catalog as catalog_q
from queries import listings as listings_q
from workers.views import ViewCounter, ViewFlusher

AT = datetime(2026, 11, 18, 12, 0, tzinfo=timezone.utc)
META = Meta(at=AT, actor="staff:test", channel="cli")


def meta(at: datetime = AT) -> Meta:
    return Meta(at=at, actor="staff:test", channel="cli")


def make(c: Any, name: str, *, categories: tuple[str, ...] = ("notes-docs",), live: bool = True, at: datetime = AT,
         **profile: Any) -> listing_cmd.Created:
    """A listing through the commands (staff-published unless `live=False`)."""
    fields = {"name": name, "tagline": f"{name} tagline", "website_url": f"https://{listing_cmd.listing.slugify(name)}.example",
              **profile}
    extra = {k: fields.pop(k) for k in ("socials", "faqs", "founders", "story", "milestones", "not_found_on_website", "owner_ids")
             if k in fields}
    created = listing_cmd.create_listing(
        c.store, listing_cmd.CreateListing(profile=fields, categories=list(categories), **extra), meta(at))
    if live:
        listing_cmd.staff_publish(c.store, created.listing_id, meta(at))
    return created


def sync(c: Any) -> None:
    for name in ("listing_view", "search_view", "catalog_view"):
        c.runtime.catch_up(name)


def profile(c: Any, slug: str) -> dict[str, Any]:
    sync(c)
    doc = listings_q.get_listing(c.services.reads, listings_q.GetListing(slug=slug), c.services.links)
    listings_q.ListingProfile.model_validate(doc)  # the MCP output schema holds
    return doc


def test_profile_carries_the_public_facts(container) -> None:  # type: ignore[no-untyped-def]
    make(container, "Acme Docs", categories=("notes-docs", "ai"),
         description="Docs for teams.", features=["Sync", "Search"], pricing_model="Freemium",
         pricing_summary="Free up to 3 users", country="de", city="Berlin", founded_year="2021", stage="Beta",
         contact_email="private@acme.example",
         socials={"linkedin": "https://linkedin.example/acme", "website": "https://acme.example"},
         faqs=[{"question": "Is it free?", "answer": "Partly."}],
         founders=[{"name": "Ada", "title": "CEO", "bio": "Builds docs."}],
         not_found_on_website=["city"])
    doc = profile(container, "acme-docs")
    assert doc["name"] == "Acme Docs" and doc["url"] == "https://acme-docs.example"
    assert doc["description"] == "Docs for teams." and doc["features"] == ["Sync", "Search"]
    assert doc["pricing"] == {"model": "Freemium", "summary": "Free up to 3 users"}
    assert doc["categories"] == {"primary": {"slug": "notes-docs", "name": "Notes & Docs"},
                                 "extra": [{"slug": "ai", "name": "AI & Machine Learning"}]}
    assert doc["founders"] == [{"name": "Ada", "title": "CEO", "bio": "Builds docs."}]
    assert doc["faqs"] == [{"question": "Is it free?", "answer": "Partly."}]
    assert doc["socials"]["linkedin"] == "https://linkedin.example/acme"
    assert doc["founded_year"] == 2021 and doc["country"] == "de"
    assert doc["not_found_on_website"] == ["city"]
    assert "contact_email" not in doc  # not public
    assert doc["links"] == {"website": "https://acme-docs.example",
                            "listing": container.services.links["website"].rstrip("/") + "/listings/acme-docs",
                            "badges": container.services.links["api"] + "/listings/acme-docs/badges"}
    assert doc["community"] == {"votes": 0, "followers": 0, "views": 0, "rating": {"average": None, "count": 0}}
    assert doc["status"] == "live" and doc["launch_week"] == "2026-11-16"


def test_only_live_listings_are_public(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Hidden Gem", live=False)
    sync(container)
    with pytest.raises(NotFound):
        profile(container, "hidden-gem")
    listing_cmd.queue_free(container.store, created.listing_id, "2027-01-04", META)
    with pytest.raises(NotFound):
        profile(container, "hidden-gem")
    listing_cmd.staff_publish(container.store, created.listing_id, META)
    assert profile(container, "hidden-gem")["status"] == "live"
    listing_cmd.unpublish(container.store, created.listing_id, "spam", META)
    with pytest.raises(NotFound):
        profile(container, "hidden-gem")


def test_paid_sections_show_only_when_unlocked(container) -> None:  # type: ignore[no-untyped-def]
    free = make(container, "Free Tool", story={"title": "Why", "story": "Because."},
                milestones=[{"date": "2025-01-02", "title": "Beta"}], media=["https://cdn.example/shot.png"])
    doc = profile(container, "free-tool")
    assert not {"story", "milestones", "media"} & set(doc)
    listing_cmd.unlock(container.store, free.listing_id, ["story"], "bought", META)
    doc = profile(container, "free-tool")
    assert doc["story"] == {"title": "Why", "story": "Because."} and "milestones" not in doc and "media" not in doc
    listing_cmd.unlock(container.store, free.listing_id, ["milestones", "media"], "bought", META)
    doc = profile(container, "free-tool")
    assert doc["milestones"][0] | {"description": ""} == {"milestone_id": 1, "date": "2025-01-02", "title": "Beta",
                                                          "description": "", "url": ""}
    assert doc["media"] == [{"url": "https://cdn.example/shot.png", "kind": None, "caption": None}]

    paid = make(container, "Paid Tool", live=False, story={"title": "Paid story"})
    listing_cmd.schedule_paid(container.store, paid.listing_id, None, META)  # this week: live at once, plan paid
    listing_cmd.add_milestone(container.store, paid.listing_id, {"date": "2026-01-01", "title": "Launch"}, META)
    doc = profile(container, "paid-tool")
    assert doc["story"] == {"title": "Paid story"} and doc["milestones"][0]["title"] == "Launch" and doc["media"] == []


def test_rating_counts_approved_reviews_only(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Rated")
    ids = [community.write_review(container.store, created.listing_id, f"acct-{i}", r, "text", META)[0]
           for i, r in enumerate((5, 4, 1, 2))]
    assert profile(container, "rated")["community"]["rating"] == {"average": None, "count": 0}  # all pending
    community.moderate_review(container.store, ids[0], "approved", META)
    community.moderate_review(container.store, ids[1], "approved", META)
    community.moderate_review(container.store, ids[2], "rejected", META)
    assert profile(container, "rated")["community"]["rating"] == {"average": 4.5, "count": 2}
    community.moderate_review(container.store, ids[0], "rejected", META)
    assert profile(container, "rated")["community"]["rating"] == {"average": 4.0, "count": 1}


def test_domain_rating_has_a_trend(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Ranked Site")
    for day, value in (("2026-06-01", 20), ("2026-08-20", 30), ("2026-10-15", 34), ("2026-11-10", 31)):
        metrics.record_domain_rating(container.store, created.listing_id, value, "staff", day, META)
    dr = profile(container, "ranked-site")["domain_rating"]
    assert (dr["value"], dr["measured_on"], dr["previous"], dr["change"], dr["trend"]) == (31, "2026-11-10", 34, -3, "down")
    assert dr["change_30d"] == 31 - 30 and dr["change_90d"] == 31 - 20
    assert [p["value"] for p in dr["history"]] == [20, 30, 34, 31]
    metrics.record_domain_rating(container.store, created.listing_id, 40, "staff", "2026-11-10", META)  # same day: replaces
    dr = profile(container, "ranked-site")["domain_rating"]
    assert (dr["value"], dr["change"], dr["trend"], len(dr["history"])) == (40, 6, "up", 4)


def test_revenue_is_labelled_and_latest_period_wins(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Money Maker")
    metrics.record_revenue(container.store, created.listing_id, 120_000, "2026-09", "self_reported", META)
    assert profile(container, "money-maker")["revenue"] == {
        "amount_cents": 120_000, "period": "2026-09", "source": "self_reported", "label": "self-reported", "verified": False}
    metrics.record_revenue(container.store, created.listing_id, 150_000, "2026-10", "verified", META)
    metrics.record_revenue(container.store, created.listing_id, 90_000, "2026-08", "self_reported", META)  # older period
    revenue = profile(container, "money-maker")["revenue"]
    assert (revenue["amount_cents"], revenue["label"], revenue["verified"]) == (150_000, "verified", True)


def test_billboard_money_is_labelled_paid_and_kept_out_of_community(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Big Spender")
    metrics.contribute_billboard(container.store, created.listing_id, 500_000, "A-1", META)
    metrics.contribute_billboard(container.store, created.listing_id, 250_000, None, META)
    doc = profile(container, "big-spender")
    assert doc["billboard"]["total_cents"] == 750_000 and doc["billboard"]["paid"] is True
    assert doc["community"] == {"votes": 0, "followers": 0, "views": 0, "rating": {"average": None, "count": 0}}


def test_votes_follows_and_flushed_views(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Popular")
    for acct in ("a", "b", "c"):
        community.cast_vote(container.store, created.listing_id, acct, META)
    community.withdraw_vote(container.store, created.listing_id, "b", META)
    community.follow(container.store, created.listing_id, "a", META)
    community.follow(container.store, created.listing_id, "b", META)
    community.follow(container.store, created.listing_id, "b", META, on=False)
    counter = ViewCounter()
    flusher = ViewFlusher(counter, container.store, lambda: META, interval=3600)
    for _ in range(7):
        counter.hit(created.listing_id)
    assert flusher.flush() is not None and counter.pending() == 0
    assert flusher.flush() is None  # nothing new: no event
    doc = profile(container, "popular")
    assert (doc["community"]["votes"], doc["community"]["followers"], doc["community"]["views"]) == (2, 1, 7)


def test_latest_updates_newest_first_and_only_a_few(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Chatty")
    for i in range(1, 8):
        listing_cmd.post_update(container.store, created.listing_id, f"Update {i}", "body", META)
    updates = profile(container, "chatty")["latest_updates"]
    assert [u["update_id"] for u in updates] == [7, 6, 5, 4, 3]


def test_edits_and_owner_events_rebuild_the_document(container) -> None:  # type: ignore[no-untyped-def]
    created = make(container, "Edit Me")
    listing_cmd.edit_listing(container.store, created.listing_id, {"tagline": "Sharper", "logo_url": "https://l.example/x.png"}, META)
    listing_cmd.verify(container.store, created.listing_id, "dns", META)
    listing_cmd.feature(container.store, created.listing_id, "2026-11-16", META)
    listing_cmd.add_owner(container.store, created.listing_id, "acct-9", META)
    doc = profile(container, "edit-me")
    assert (doc["tagline"], doc["logo_url"], doc["verified"], doc["featured"]) == ("Sharper", "https://l.example/x.png", True, True)
    assert "owner_ids" not in doc


def test_category_counts_and_pages_follow_live_listings(container) -> None:  # type: ignore[no-untyped-def]
    a = make(container, "Assistant One", categories=("ai-assistants",))
    b = make(container, "Assistant Two", categories=("ai-assistants",))
    make(container, "Not Yet", categories=("ai-assistants",), live=False)
    community.cast_vote(container.store, b.listing_id, "x", META)
    sync(container)
    reads = container.services.reads
    tree = {n["slug"]: n for n in catalog_q.list_categories(reads, catalog_q.ListCategories())["items"]}
    assert tree["ai"]["live_count"] == 0 and tree["ai"]["total_live_count"] == 2
    page = catalog_q.get_category(reads, catalog_q.GetCategory(slug="ai"))["listings"]
    assert [i["slug"] for i in page["items"]] == ["assistant-two", "assistant-one"] and page["total"] == 2
    assert page["items"][0]["votes"] == 1 and page["items"][0]["url"] == "https://assistant-two.example"
    assert catalog_q.get_site_info(reads, container.services.links, "UTC")["live_listings"] == 2
    listing_cmd.unpublish(container.store, a.listing_id, "gone", META)
    sync(container)
    assert catalog_q.get_category(reads, catalog_q.GetCategory(slug="ai-assistants"))["live_count"] == 1
    assert catalog_q.get_site_info(reads, container.services.links, "UTC")["live_listings"] == 1


def test_alternatives_approved_first_then_same_primary_category(container) -> None:  # type: ignore[no-untyped-def]
    main = make(container, "Main App", categories=("design",))
    make(container, "Other Design", categories=("design",))
    voted = make(container, "Voted Design", categories=("design",))
    make(container, "Far Away", categories=("finance",))
    make(container, "Draft Alt", categories=("finance",), live=False)
    community.cast_vote(container.store, voted.listing_id, "v", META)
    listing_cmd.approve_alternatives(container.store, main.listing_id, ["far-away", "draft-alt", "main-app"], META)
    sync(container)
    reads = container.services.reads
    page = listings_q.get_alternatives(reads, listings_q.GetAlternatives(slug="main-app"))
    assert [(i["slug"], i["approved"]) for i in page["items"]] == [
        ("far-away", True), ("voted-design", False), ("other-design", False)]
    assert page["total"] == 3
    second = listings_q.get_alternatives(reads, listings_q.GetAlternatives(slug="main-app", page=2, per_page=2))
    assert [i["slug"] for i in second["items"]] == ["other-design"] and second["has_more"] is False
    with pytest.raises(NotFound):
        listings_q.get_alternatives(reads, listings_q.GetAlternatives(slug="draft-alt"))


def test_compare_by_category_attributes(container) -> None:  # type: ignore[no-untyped-def]
    make(container, "Tool A", categories=("devops",), pricing_model="Open source",
         attributes={"self_hosted": True, "regions": ["eu", "us"]})
    make(container, "Tool B", categories=("testing",), attributes={"languages": "Python"})
    make(container, "Tool C", categories=("testing",), live=False)
    sync(container)
    reads = container.services.reads
    out = listings_q.compare_listings(reads, listings_q.CompareListings(a="tool-a", b="tool-b"))
    listings_q.Comparison.model_validate(out)
    assert out["attributes"] == ["pricing_model", "self_hosted", "regions", "languages"]
    assert out["rows"] == [
        {"attribute": "pricing_model", "a": "Open source", "b": None},
        {"attribute": "self_hosted", "a": "yes", "b": None},
        {"attribute": "regions", "a": "eu, us", "b": None},
        {"attribute": "languages", "a": None, "b": "Python"},
    ]
    with pytest.raises(NotFound):
        listings_q.compare_listings(reads, listings_q.CompareListings(a="tool-a", b="tool-c"))


def test_category_rename_reaches_documents_and_cards(container) -> None:  # type: ignore[no-untyped-def]
    from commands.catalog import LoadCatalog, load_catalog
    from launchdir.bootstrap import default_catalog

    make(container, "Renamed Cat", categories=("seo",))
    spec = default_catalog()
    for cat in spec["categories"]:
        if cat["slug"] == "seo":
            cat["name"] = "Search Engine Optimisation"
    load_catalog(container.store, LoadCatalog(spec=spec, update=True), META)
    doc = profile(container, "renamed-cat")
    assert doc["categories"]["primary"]["name"] == "Search Engine Optimisation"


def test_rebuild_reproduces_the_same_documents(container) -> None:  # type: ignore[no-untyped-def]
    a = make(container, "Rebuild One", categories=("analytics",), description="Privacy friendly analytics")
    b = make(container, "Rebuild Two", categories=("analytics",))
    community.cast_vote(container.store, a.listing_id, "u1", META)
    community.follow(container.store, b.listing_id, "u1", META)
    review, _ = community.write_review(container.store, a.listing_id, "u2", 4, "ok", META)
    community.moderate_review(container.store, review, "approved", META)
    metrics.record_domain_rating(container.store, a.listing_id, 10, "staff", "2026-10-01", META)
    sync(container)
    before = _documents(container)
    assert container.runtime.rebuild("listing_view").generation == 2
    assert _documents(container) == before
    assert container.runtime.rebuild("search_view").generation == 2
    assert _documents(container) == before


def _documents(c: Any) -> dict[str, Any]:
    t, s = c.runtime.tables("listing_view"), c.runtime.tables("search_view")
    with c.pool.connection() as conn:
        docs = dict(conn.execute(f"SELECT slug, doc FROM {t['profiles']}").fetchall())
        rows = conn.execute(  # the two views agree on the counters
            f"SELECT slug, card, votes, followers, views, trend_log, fts::text FROM {t['listings']} "
            f"JOIN {s['search']} USING (listing_id, votes, followers, views, trend_log) ORDER BY slug"
        ).fetchall()
        words = conn.execute(f"SELECT word FROM {s['words']} ORDER BY word").fetchall()
    return {"docs": docs, "rows": rows, "words": words}
