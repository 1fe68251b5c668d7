"""The four listing operations over real HTTP (REST) and MCP (official client): answers, 400/404, ETag/304, views.

This module runs its own server on its own database, so the listings it
creates never change what the other end-to-end modules see.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from aggregates.base import Meta
from commands import community
from commands import listing as listing_cmd
from tests import conftest
from tests.conftest import RunningServer, free_port

META = Meta(at=datetime(2026, 11, 18, 12, tzinfo=timezone.utc), actor="staff:e2e", channel="cli")
MODES = ["legacy", "2026-07-28"]


def _listing(c: Any, name: str, categories: list[str], live: bool = True, **profile: Any) -> int:
    cmd = listing_cmd.CreateListing(profile={"name": name, **profile}, categories=categories)
    created = listing_cmd.create_listing(c.store, cmd, META)
    if live:
        listing_cmd.staff_publish(c.store, created.listing_id, META)
    return created.listing_id


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(conftest.test_settings(databases.create(), port=port, rate_limits=False, view_flush_seconds=3600.0))
    ensure_catalog(c)
    notion = _listing(c, "Notion", ["notes-docs"], tagline="All-in-one workspace", website_url="https://www.notion.so",
                      description="Write, plan, share.", pricing_model="Freemium", country="us",
                      attributes={"platforms": ["web", "mac"], "offline": True})
    _listing(c, "Figma", ["design"], tagline="Design together", website_url="https://figma.com",
             attributes={"platforms": "web", "collaboration": "real-time"})
    obsidian = _listing(c, "Obsidian", ["notes-docs"], tagline="Private notes", website_url="https://obsidian.md")
    _listing(c, "Bear Notes", ["notes-docs"], tagline="Markdown notes", website_url="https://bear.app")
    _listing(c, "Secret Draft", ["notes-docs"], live=False, tagline="Not yet")
    community.cast_vote(c.store, obsidian, "fan-1", META)
    listing_cmd.approve_alternatives(c.store, notion, ["figma"], META)
    with RunningServer(c, port) as running:
        yield running
    c.close()


@pytest.fixture(scope="module")
def http(site: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=site.url + "/api/v1", timeout=10) as client:
        yield client


# ---------------------------------------------------------------- REST


def test_search_answers_summaries(http: httpx.Client, site: RunningServer) -> None:
    r = http.get("/listings", params={"q": "notin"})
    assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=60"
    body = r.json()
    first = body["items"][0]
    assert first | {"category": None, "id": 0} == {
        "id": 0, "slug": "notion", "name": "Notion", "url": "https://www.notion.so", "votes": 0,
        "tagline": "All-in-one workspace", "logo_url": None, "status": "live", "launch_week": "2026-11-16",
        "category": None, "categories": ["notes-docs"], "verified": False}
    assert first["category"]["slug"] == "notes-docs"
    assert first["id"] == listing_cmd.listing_id_for_slug(site.container.store, "notion")
    assert http.get("/listings", params={"q": "figmaa"}).json()["items"][0]["name"] == "Figma"
    listed = http.get("/listings", params={"category": "productivity", "sort": "votes", "per_page": "2"}).json()
    assert [i["slug"] for i in listed["items"]] == ["obsidian", "notion"] and listed["total"] == 3 and listed["has_more"]
    assert [i["slug"] for i in http.get("/listings", params={"domain": "notion.so", "country": "US"}).json()["items"]] == ["notion"]
    assert http.get("/listings", params={"status": "upcoming"}).json()["items"] == []


CARD_KEYS = {"id", "slug", "name", "url", "votes", "tagline", "logo_url", "status", "launch_week", "category",
             "categories", "verified"}


def test_every_list_shows_the_same_listing_card(http: httpx.Client, site: RunningServer) -> None:
    """Search, alternatives, a category, compare, a launch week, a feed, the boards: one card, one parser."""
    week = http.get("/launches/weeks/2026-11-16").json()
    cards = {
        "search_listings": http.get("/listings", params={"category": "notes-docs"}).json()["items"],
        "get_alternatives": http.get("/listings/notion/alternatives").json()["items"],
        "get_category": http.get("/categories/notes-docs").json()["listings"]["items"],
        "compare_listings": list(http.get("/compare", params={"a": "notion", "b": "figma"}).json().values())[:2],
        "get_launch_week": [x["listing"] for x in week["launches"]],
        "list_launches": [x["listing"] for x in http.get("/launches", params={"section": "recent"}).json()["items"]],
        "get_leaderboard": [x["listing"] for x in http.get("/leaderboards/community-all-time").json()["items"]],
    }
    ids = {slug: listing_cmd.listing_id_for_slug(site.container.store, slug) for slug in ("notion", "figma", "obsidian")}
    for operation, items in cards.items():
        assert items, operation
        for card in items:
            extra = {k: card[k] for k in card.keys() - CARD_KEYS - {"approved"}}
            assert card.keys() >= CARD_KEYS and not extra, (operation, extra)
            assert isinstance(card["category"], dict) and set(card["category"]) == {"slug", "name"}, operation
            assert card["categories"][0] == card["category"]["slug"], operation
            assert isinstance(card["verified"], bool) and isinstance(card["id"], int), operation
            if card["slug"] in ids:
                assert card["id"] == ids[card["slug"]], operation
    notes = next(c for c in cards["get_launch_week"] if c["slug"] == "notion")
    assert notes["category"] == {"slug": "notes-docs", "name": http.get("/categories/notes-docs").json()["name"]}
    by_search = next(c for c in cards["search_listings"] if c["slug"] == "notion")
    assert {k: v for k, v in notes.items() if k != "votes"} == {k: v for k, v in by_search.items() if k != "votes"}


@pytest.mark.parametrize(
    ("params", "field", "rule"),
    [
        ({"q": "x" * 201}, "q", "max_length"),
        ({"category": "Not_A_Slug"}, "category", "pattern"),
        ({"stage": "-beta"}, "stage", "pattern"),
        ({"country": "USA"}, "country", "pattern"),
        ({"country": "1a"}, "country", "pattern"),
        ({"pricing_model": "p" * 41}, "pricing_model", "max_length"),
        ({"domain": "d" * 254}, "domain", "max_length"),
        ({"status": "soon"}, "status", "enum"),
        ({"sort": "popular"}, "sort", "enum"),
        ({"page": "0"}, "page", "minimum"),
        ({"page": "1001"}, "page", "maximum"),
        ({"per_page": "101"}, "per_page", "maximum"),
        ({"per_page": "ten"}, "per_page", "type_integer"),
    ],
)
def test_search_bounds_are_400_naming_the_field(http: httpx.Client, params: dict[str, str], field: str, rule: str) -> None:
    r = http.get("/listings", params=params)
    assert r.status_code == 400 and r.headers["content-type"] == "application/problem+json"
    assert {(e["field"], e["rule"]) for e in r.json()["errors"]} == {(field, rule)}


def test_get_listing_and_its_errors(http: httpx.Client, site: RunningServer) -> None:
    r = http.get("/listings/notion")
    assert r.status_code == 200
    doc = r.json()
    assert doc["url"] == "https://www.notion.so" and doc["pricing"]["model"] == "Freemium"
    assert doc["links"]["listing"] == site.url + "/listings/notion"
    assert doc["links"]["badges"] == site.url + "/api/v1/listings/notion/badges"
    assert "story" not in doc
    for slug in ("no-such-listing", "secret-draft"):
        missing = http.get(f"/listings/{slug}")
        assert missing.status_code == 404 and missing.json()["type"] == "/problems/not-found"
    for bad in ("Not_A_Slug", "a" * 221):
        assert http.get(f"/listings/{bad}").json()["errors"][0]["field"] == "slug"


def test_alternatives(http: httpx.Client) -> None:
    body = http.get("/listings/notion/alternatives").json()
    assert [(i["slug"], i["approved"]) for i in body["items"]] == [
        ("figma", True), ("obsidian", False), ("bear-notes", False)]
    assert http.get("/listings/notion/alternatives", params={"per_page": "1", "page": "3"}).json()["items"][0]["slug"] == "bear-notes"
    assert http.get("/listings/secret-draft/alternatives").status_code == 404
    assert http.get("/listings/notion/alternatives", params={"per_page": "0"}).status_code == 400


def test_compare(http: httpx.Client) -> None:
    body = http.get("/compare", params={"a": "notion", "b": "figma"}).json()
    rows = {row["attribute"]: (row["a"], row["b"]) for row in body["rows"]}
    assert rows["platforms"] == ("web, mac", "web") and rows["offline"] == ("yes", None)
    assert rows["collaboration"] == (None, "real-time") and rows["pricing_model"] == ("Freemium", None)
    assert (body["a"]["slug"], body["b"]["url"]) == ("notion", "https://figma.com")
    assert http.get("/compare", params={"a": "notion", "b": "secret-draft"}).status_code == 404
    assert http.get("/compare", params={"a": "notion", "b": "nope"}).status_code == 404
    missing = http.get("/compare", params={"a": "notion"})
    assert missing.status_code == 400 and missing.json()["errors"][0] == {
        "field": "b", "rule": "required", "message": missing.json()["errors"][0]["message"]}
    assert http.get("/compare", params={"a": "Bad Slug", "b": "figma"}).json()["errors"][0]["rule"] == "pattern"


@pytest.mark.parametrize("path", ["/listings?q=notes", "/listings/notion", "/listings/notion/alternatives",
                                  "/compare?a=notion&b=figma"])
def test_etag_and_304(http: httpx.Client, path: str) -> None:
    first = http.get(path)
    assert first.status_code == 200 and first.headers["cache-control"] == "public, max-age=60"
    again = http.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == first.headers["etag"]


def test_views_are_counted_in_memory_and_flushed_as_one_event(http: httpx.Client, site: RunningServer) -> None:
    c = site.container
    directory = c.directory
    directory.flusher.flush()  # start from an empty tally
    head = c.store.position()
    for _ in range(4):
        assert http.get("/listings/bear-notes").status_code == 200
    assert c.store.position() == head  # no write per read
    position = directory.flusher.flush()
    assert position is not None and c.runtime.wait_for(["listing_view", "search_view"], position, timeout=5)
    assert http.get("/listings/bear-notes").json()["community"]["views"] == 4
    assert http.get("/listings", params={"sort": "most_viewed"}).json()["items"][0]["slug"] == "bear-notes"


def test_openapi_declares_the_operations(http: httpx.Client) -> None:
    doc = http.get("/openapi.json").json()
    search = doc["paths"]["/listings"]["get"]
    params = {p["name"]: p for p in search["parameters"]}
    assert search["operationId"] == "search_listings"
    assert params["q"]["schema"]["anyOf"][0]["maxLength"] == 200
    assert params["sort"]["schema"]["enum"] == ["relevance", "newest", "votes", "trending", "most_viewed", "most_followed"]
    assert set(doc["paths"]["/listings/{slug}"]["get"]["responses"]) >= {"200", "400", "404", "429"}
    assert doc["paths"]["/compare"]["get"]["operationId"] == "compare_listings"


# ---------------------------------------------------------------- MCP


def _client(site: RunningServer, mode: str) -> Client:
    return Client(streamable_http_client(site.url + "/mcp", http_client=httpx2.AsyncClient(timeout=10)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
async def test_mcp_tools_answer_like_rest(site: RunningServer, mode: str) -> None:
    async with _client(site, mode) as c:
        found = await c.call_tool("search_listings", {"q": "notin", "per_page": 5})
        profile = await c.call_tool("get_listing", {"slug": "figma"})
        alternatives = await c.call_tool("get_alternatives", {"slug": "notion"})
        compared = await c.call_tool("compare_listings", {"a": "figma", "b": "notion"})
    for result in (found, profile, alternatives, compared):
        assert result.is_error is False
    assert found.structured_content["items"][0]["url"] == "https://www.notion.so"
    assert profile.structured_content["name"] == "Figma"
    assert alternatives.structured_content["items"][0]["approved"] is True
    assert compared.structured_content["a"]["slug"] == "figma"


@pytest.mark.parametrize("mode", MODES)
async def test_mcp_errors_are_the_rest_problems(site: RunningServer, mode: str) -> None:
    async with _client(site, mode) as c:
        missing = await c.call_tool("get_listing", {"slug": "secret-draft"})
        bad_sort = await c.call_tool("search_listings", {"sort": "loudest"})
        bad_country = await c.call_tool("search_listings", {"country": "DEU"})
        not_live = await c.call_tool("compare_listings", {"a": "notion", "b": "secret-draft"})
        extra = await c.call_tool("get_listing", {"slug": "notion", "votes": 5})
    assert missing.is_error and missing.structured_content["status"] == 404
    assert bad_sort.is_error and bad_sort.structured_content["errors"][0]["field"] == "sort"
    assert bad_country.structured_content["errors"][0] == {
        "field": "country", "rule": "pattern", "message": bad_country.structured_content["errors"][0]["message"]}
    assert not_live.is_error and not_live.structured_content["status"] == 404
    assert extra.is_error and extra.structured_content["errors"][0]["rule"] == "unknown_field"
