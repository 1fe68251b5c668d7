"""The crawl result, as stored (JSON) and later read to draft a profile.

All classes are frozen and convert to and from plain JSON data with
``to_dict()`` / ``from_dict()`` so a crawl can be kept as evidence and
replayed without re-fetching the site.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass(frozen=True)
class CrawledPage:
    """One fetched HTML page.

    ``url`` is where the page was finally served from (after redirects),
    ``requested_url`` what we asked for.  ``text`` is the visible text only;
    ``structured`` holds json-ld/microdata/opengraph/rdfa plus ``meta`` and
    ``icons``.  ``truncated`` means the body was cut at the byte cap and
    ``bytes`` is how many body bytes were read.
    """

    url: str
    requested_url: str
    fetched_at: str
    status: int
    content_type: str
    robots_allowed: bool
    title: str
    text: str
    structured: dict[str, Any] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    truncated: bool = False
    bytes: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable data."""
        return {
            "url": self.url,
            "requested_url": self.requested_url,
            "fetched_at": self.fetched_at,
            "status": self.status,
            "content_type": self.content_type,
            "robots_allowed": self.robots_allowed,
            "title": self.title,
            "text": self.text,
            "structured": self.structured,
            "links": list(self.links),
            "truncated": self.truncated,
            "bytes": self.bytes,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrawledPage:
        """Rebuild a page from :meth:`to_dict` output."""
        return cls(
            url=str(data["url"]),
            requested_url=str(data.get("requested_url", data["url"])),
            fetched_at=str(data["fetched_at"]),
            status=int(data["status"]),
            content_type=str(data.get("content_type", "")),
            robots_allowed=bool(data.get("robots_allowed", True)),
            title=str(data.get("title", "")),
            text=str(data.get("text", "")),
            structured=dict(data.get("structured") or {}),
            links=[str(link) for link in data.get("links") or []],
            truncated=bool(data.get("truncated", False)),
            bytes=int(data.get("bytes", 0)),
        )


@dataclass(frozen=True)
class SkippedPage:
    """A page we chose not to fetch, or failed to fetch, and why.

    ``reason`` is a short code such as ``robots_disallowed``, ``too_large``,
    ``not_html``, ``error``, ``http_error``, ``blocked_address``,
    ``off_site``, ``too_many_redirects`` or ``budget_exhausted``.
    """

    url: str
    reason: str
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable data."""
        return {"url": self.url, "reason": self.reason, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SkippedPage:
        """Rebuild from :meth:`to_dict` output."""
        return cls(url=str(data["url"]), reason=str(data["reason"]), detail=str(data.get("detail", "")))


@dataclass(frozen=True)
class CrawlResult:
    """Everything one crawl of a site produced; ``pages[0]`` is the homepage."""

    start_url: str
    final_url: str
    site: str
    user_agent: str
    started_at: str
    finished_at: str
    robots_txt_url: str
    robots_found: bool
    pages: list[CrawledPage] = field(default_factory=list)
    skipped: list[SkippedPage] = field(default_factory=list)

    @property
    def homepage(self) -> CrawledPage | None:
        """The page fetched for the start URL (first page), if any."""
        return self.pages[0] if self.pages else None

    def page(self, url: str) -> CrawledPage | None:
        """Find a page by final or requested URL, ignoring fragments and a trailing slash."""
        wanted = _comparable(url)
        for candidate in self.pages:
            if wanted in (_comparable(candidate.url), _comparable(candidate.requested_url)):
                return candidate
        return None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable data."""
        return {
            "start_url": self.start_url,
            "final_url": self.final_url,
            "site": self.site,
            "user_agent": self.user_agent,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "robots_txt_url": self.robots_txt_url,
            "robots_found": self.robots_found,
            "pages": [p.to_dict() for p in self.pages],
            "skipped": [s.to_dict() for s in self.skipped],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrawlResult:
        """Rebuild from :meth:`to_dict` output."""
        return cls(
            start_url=str(data["start_url"]),
            final_url=str(data["final_url"]),
            site=str(data["site"]),
            user_agent=str(data["user_agent"]),
            started_at=str(data["started_at"]),
            finished_at=str(data["finished_at"]),
            robots_txt_url=str(data["robots_txt_url"]),
            robots_found=bool(data["robots_found"]),
            pages=[CrawledPage.from_dict(p) for p in data.get("pages") or []],
            skipped=[SkippedPage.from_dict(s) for s in data.get("skipped") or []],
        )


def _comparable(url: str) -> str:
    """Normalise a URL for lookups: no fragment, no trailing slash on the path."""
    try:
        parsed = httpx.URL(url).copy_with(fragment=None)
    except (httpx.InvalidURL, ValueError, TypeError):
        return url
    text = str(parsed)
    path = parsed.path
    if path.endswith("/") and not parsed.query:
        text = text[: -1]
    return text
