"""A founder submits a page of their site that robots.txt forbids (``/pricing``): the crawl starts at the site's root
instead, never requests the page, and reports it first among the skipped pages; a site whose robots.txt forbids the
root too is still refused.

The sites are written to a temporary directory and served on 127.0.0.1 (``tests.fixtures.drafting_sites.serve_dir``);
the server's request log proves what was never fetched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.drafting_sites import serve_dir
from workers.adapters.websites import CrawlSettings, RobotsForbidden, crawl_site
from workers.drafting import ExtractiveDrafter

LOCAL = CrawlSettings(allow_loopback=True, request_timeout=3.0, total_timeout=15.0)
HOME = ("<!doctype html><html lang='en'><head><title>Quayside - registry cleanup</title></head><body>"
        "<h1>Stop paying for images nobody pulls</h1><p>Quayside deletes stale container images.</p>"
        "<a href='/pricing/'>Pricing</a> <a href='/about/'>About</a></body></html>")
PRICING = "<!doctype html><html><head><title>Pricing</title></head><body><p>Quayside costs $49 per month.</p></body></html>"
ABOUT = "<!doctype html><html><head><title>About</title></head><body><p>Quayside was founded in 2022.</p></body></html>"


def _site(root: Path, robots: str) -> Path:
    for path, html in {"index.html": HOME, "pricing/index.html": PRICING, "about/index.html": ABOUT}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(html, encoding="utf-8")
    (root / "robots.txt").write_text(robots, encoding="utf-8")
    return root


def test_a_forbidden_submitted_page_gives_way_to_the_allowed_root(tmp_path: Path) -> None:
    with serve_dir(_site(tmp_path, "User-agent: *\nDisallow: /pricing\n")) as server:
        crawl = crawl_site(server.url("/pricing/"), LOCAL)
        assert not server.requested("/pricing/") and not server.requested("/pricing")
    assert crawl.start_url == server.url("/pricing/")
    assert crawl.final_url == server.url("/")
    assert [p.url for p in crawl.pages] == [server.url("/"), server.url("/about/")]
    first = crawl.skipped[0]
    assert (first.url, first.reason) == (server.url("/pricing/"), "robots_disallowed")
    assert "submitted page" in first.detail
    draft = ExtractiveDrafter().draft(crawl, [])
    assert draft.value("name") == "Quayside" and draft.value("pricing_summary") is None


def test_a_site_whose_robots_txt_forbids_the_root_too_is_refused(tmp_path: Path) -> None:
    with serve_dir(_site(tmp_path, "User-agent: *\nDisallow: /\n")) as server:
        with pytest.raises(RobotsForbidden):
            crawl_site(server.url("/pricing/"), LOCAL)
        assert server.paths() == ["/robots.txt"]
