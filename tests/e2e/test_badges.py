"""Badges over real HTTP: get_badges (REST and MCP) and the SVG images the site serves itself."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from commands import community
from commands import listing as listing_cmd
from launchdir.bootstrap import bootstrap, ensure_catalog
from queries.badges import BadgeSet
from tests.conftest import RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.integration.test_launches_kit import DIRECTORY_VIEWS, create, launched, meta, scheduled, unique, utc, votes
from workers.scheduler import close_week

NOW = utc(2026, 11, 18, 12)
OLD, NEXT = "2026-08-03", "2026-11-23"
SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.fixture(scope="module")
def site(databases) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port), clock=lambda: NOW)
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        old_mon = utc(2026, 8, 3, 9)
        star = launched(c, unique("Badge Star"), OLD, old_mon)
        listing_cmd.feature(c.store, star[0], OLD, meta(old_mon))
        listing_cmd.verify(c.store, star[0], "dns", meta(old_mon))
        votes(c, star[0], 3, old_mon + timedelta(hours=1))
        for i, rating in enumerate((5, 5, 4, 1)):
            review_id, _ = community.write_review(c.store, star[0], f"reviewer-{i}", rating, "Nice.", meta(NOW))
            if rating > 1:  # the one-star review stays pending: only approved reviews count
                community.moderate_review(c.store, review_id, "approved", meta(NOW))
        c.runtime.catch_up("launches_view")
        close_week(c.store, c.services.reads, c.runtime, date.fromisoformat(OLD), meta(NOW, actor="system"))
        queued = create(c, unique("Badge Queued"), NOW)
        listing_cmd.queue_free(c.store, queued[0], "2027-01-04", meta(NOW))
        soon = scheduled(c, unique("Badge Soon"), NEXT, NOW)
        draft = create(c, unique("Badge Draft"), NOW)
        assert c.runtime.wait_for(DIRECTORY_VIEWS, c.store.position(), timeout=20)
        yield {"url": running.url, "c": c, "star": star[1], "queued": queued[1], "soon": soon, "draft": draft[1]}
    c.close()


def _badges(site: dict[str, Any], slug: str, **style: str) -> httpx.Response:
    return httpx.get(f"{site['url']}/api/v1/listings/{slug}/badges", params=style, timeout=10)


def _local(site: dict[str, Any], url: str) -> str:
    parts = urlsplit(url)
    assert url.startswith(site["url"])
    return site["url"] + parts.path + (f"?{parts.query}" if parts.query else "")


def test_a_listing_gets_every_badge_it_earned_in_every_style(site: dict[str, Any]) -> None:
    r = _badges(site, site["star"], shape="square", mode="light", size="s")
    assert r.status_code == 200
    body = BadgeSet.model_validate(r.json()).model_dump()
    assert body["listing"]["status"] == "live" and body["style"] == {"shape": "square", "mode": "light", "size": "s"}
    kinds = {b["kind"]: b for b in body["badges"]}
    assert list(kinds) == ["listed", "launched", "featured", "verified", "award-1", "top-rated"]
    assert kinds["award-1"]["detail"] == "Week 32, 2026" and kinds["award-1"]["alt"] == "Launch of the Week #1 on launchdir (Week 32, 2026)"
    assert kinds["top-rated"]["detail"] == "4.7/5"  # 5, 5 and 4 approved; the pending one-star does not count
    for badge in body["badges"]:
        assert (badge["width"], badge["height"]) == (105, 105)
        assert "shape=square&mode=light&size=s" in badge["svg_url"]
        assert badge["link_url"] == f"{site['url']}/listings/{site['star']}"
        assert badge["embed_html"].startswith(f'<a href="{badge["link_url"]}" target="_blank" rel="noopener"><img src=')
        assert badge["svg_url"].replace("&", "&amp;") in badge["embed_html"]
        styles = {(s["shape"], s["mode"], s["size"]) for s in badge["styles"]}
        assert len(badge["styles"]) == len(styles) == 45
    assert "&week=2026-08-03" in kinds["award-1"]["svg_url"]
    defaults = _badges(site, site["star"]).json()
    assert defaults["style"] == {"shape": "standard", "mode": "auto", "size": "m"}


def test_the_svg_route_serves_valid_cacheable_images(site: dict[str, Any]) -> None:
    body = _badges(site, site["star"]).json()
    for badge in body["badges"]:
        for style in (badge["styles"][0], badge["styles"][-1]):
            r = httpx.get(_local(site, style["svg_url"]), timeout=10)
            assert r.status_code == 200, (style, r.text)
            assert r.headers["content-type"] == "image/svg+xml"
            assert "max-age=86400" in r.headers["cache-control"] and r.headers["cache-control"].startswith("public")
            assert r.headers["x-content-type-options"] == "nosniff"
            root = ET.fromstring(r.content)
            assert root.tag == SVG and (int(root.get("width")), int(root.get("height"))) == (style["width"], style["height"])
            etag = r.headers["etag"]
            again = httpx.get(r.url, headers={"if-none-match": etag}, timeout=10)
            assert again.status_code == 304 and again.headers["etag"] == etag and again.content == b""
    award = next(b for b in body["badges"] if b["kind"] == "award-1")
    svg = httpx.get(_local(site, award["svg_url"]), timeout=10).text
    assert "Launch of the Week #1 on launchdir (Week 32, 2026)" in svg


def test_public_listings_that_are_not_live_get_their_go_live_badges(site: dict[str, Any]) -> None:
    queued = _badges(site, site["queued"]).json()
    assert [b["kind"] for b in queued["badges"]] == ["listed", "upcoming"]
    assert queued["listing"]["status"] == "awaiting_badge"
    assert queued["badges"][1]["detail"] == "Week 1, 2027"  # the head of the name every page gives the week
    assert httpx.get(_local(site, queued["badges"][0]["svg_url"]), timeout=10).status_code == 200
    assert _badges(site, site["draft"]).status_code == 404  # not public


def test_an_upcoming_badge_turns_into_launched_when_the_listing_goes_live(site: dict[str, Any]) -> None:
    c = site["c"]
    listing_id, slug = site["soon"]
    upcoming = next(b for b in _badges(site, slug).json()["badges"] if b["kind"] == "upcoming")
    assert "Launching soon on launchdir" in httpx.get(_local(site, upcoming["svg_url"]), timeout=10).text
    position = listing_cmd.staff_publish(c.store, listing_id, meta(NOW), week=NEXT)
    assert c.runtime.wait_for(DIRECTORY_VIEWS, position, timeout=10)
    svg = httpx.get(_local(site, upcoming["svg_url"]), timeout=10)  # the snippet already pasted keeps working
    assert svg.status_code == 200 and "Launched on launchdir" in svg.text


def test_bad_parameters_are_400_and_unknown_badges_404(site: dict[str, Any]) -> None:
    base = site["url"] + "/badges"
    r = httpx.get(f"{base}/{site['star']}/listed.svg", params={"shape": "round"}, timeout=10)
    assert r.status_code == 400 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["errors"][0]["field"] == "shape" and r.json()["errors"][0]["rule"] == "enum"
    assert httpx.get(f"{base}/{site['star']}/sparkly.svg", timeout=10).status_code == 400
    assert httpx.get(f"{base}/{site['star']}/listed.svg", params={"week": "2026-02-30"}, timeout=10).status_code == 400
    for path in ("/no-such-listing/listed.svg", f"/{site['star']}/award-2.svg", f"/{site['queued']}/launched.svg",
                 f"/{site['draft']}/listed.svg", f"/{site['star']}/award-1.svg?week=2026-08-10"):
        r = httpx.get(base + path, timeout=10)
        assert r.status_code == 404 and r.json()["type"] == "/problems/not-found", path
    for params, field in (({"shape": "round"}, "shape"), ({"mode": "sepia"}, "mode"), ({"size": "xl"}, "size")):
        r = _badges(site, site["star"], **params)
        assert r.status_code == 400 and r.json()["errors"][0]["field"] == field
    assert _badges(site, "no-such-listing").status_code == 404


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_get_badges_over_mcp_matches_rest(site: dict[str, Any], mode: str) -> None:
    client = Client(streamable_http_client(site["url"] + "/mcp", http_client=httpx2.AsyncClient(timeout=10)), mode=mode)
    async with client:
        result = await client.call_tool("get_badges", {"slug": site["star"], "shape": "banner"})
        missing = await client.call_tool("get_badges", {"slug": "no-such-listing"})
    assert result.is_error is False
    assert result.structured_content == _badges(site, site["star"], shape="banner").json()
    assert missing.is_error is True and missing.structured_content["status"] == 404
