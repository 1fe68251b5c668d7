"""Crawl results survive a JSON round trip; settings validate themselves."""

from __future__ import annotations

import json

import pytest

from workers.adapters.websites.settings import CrawlSettings
from workers.adapters.websites.types import CrawledPage, CrawlResult, SkippedPage


def make_page(url: str, requested: str | None = None) -> CrawledPage:
    return CrawledPage(
        url=url,
        requested_url=requested or url,
        fetched_at="2025-01-02T03:04:05Z",
        status=200,
        content_type="text/html; charset=utf-8",
        robots_allowed=True,
        title="Acme",
        text="Hello\nWorld",
        structured={"json-ld": [{"@type": "Organization", "name": "Acme"}], "meta": {"description": "d"}, "icons": []},
        links=["https://acme.example/about"],
        truncated=False,
        bytes=1234,
    )


def make_result() -> CrawlResult:
    return CrawlResult(
        start_url="http://acme.example",
        final_url="https://acme.example/",
        site="https://acme.example",
        user_agent=CrawlSettings().user_agent,
        started_at="2025-01-02T03:04:00Z",
        finished_at="2025-01-02T03:04:09Z",
        robots_txt_url="https://acme.example/robots.txt",
        robots_found=True,
        pages=[make_page("https://acme.example/", "http://acme.example"), make_page("https://acme.example/about/")],
        skipped=[SkippedPage("https://acme.example/team", "robots_disallowed", "robots.txt does not allow this page")],
    )


def test_result_round_trips_through_json() -> None:
    result = make_result()
    data = json.loads(json.dumps(result.to_dict()))
    assert CrawlResult.from_dict(data) == result
    assert data["pages"][0]["bytes"] == 1234
    assert data["skipped"] == [
        {
            "url": "https://acme.example/team",
            "reason": "robots_disallowed",
            "detail": "robots.txt does not allow this page",
        }
    ]


def test_page_and_skipped_round_trip_alone() -> None:
    page = make_page("https://acme.example/x")
    assert CrawledPage.from_dict(json.loads(json.dumps(page.to_dict()))) == page
    assert SkippedPage.from_dict({"url": "u", "reason": "not_html"}) == SkippedPage("u", "not_html", "")


def test_result_helpers() -> None:
    result = make_result()
    assert result.homepage is not None and result.homepage.url == "https://acme.example/"
    assert result.page("https://acme.example/about") is result.pages[1]
    assert result.page("https://acme.example/about/#team") is result.pages[1]
    assert result.page("http://acme.example") is result.pages[0]
    assert result.page("https://acme.example/missing") is None
    empty = CrawlResult.from_dict({**result.to_dict(), "pages": [], "skipped": []})
    assert empty.homepage is None


def test_dataclasses_are_frozen() -> None:
    with pytest.raises(AttributeError):
        make_page("https://acme.example/").title = "changed"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        CrawlSettings().max_pages = 3  # type: ignore[misc]


def test_default_settings() -> None:
    settings = CrawlSettings()
    assert settings.user_agent == "launchdirbot/1.0 (+https://launchdir.example/bot)"
    assert settings.robots_token == "launchdirbot"
    assert settings.allow_loopback is False
    assert (settings.max_pages, settings.max_page_bytes, settings.max_total_bytes) == (11, 2_000_000, 10_000_000)
    assert (settings.max_redirects, settings.request_timeout, settings.total_timeout) == (5, 10.0, 45.0)


@pytest.mark.parametrize(
    "changes",
    [{"max_pages": 0}, {"max_page_bytes": 0}, {"max_redirects": -1}, {"request_timeout": 0}, {"total_timeout": -1.0},
     {"user_agent": ""}],
)
def test_invalid_settings_are_rejected(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        CrawlSettings(**changes)  # type: ignore[arg-type]
