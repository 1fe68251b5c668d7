"""Turn a fetched HTML response into a :class:`CrawledPage`."""

from __future__ import annotations

from datetime import datetime, timezone

from w3lib.encoding import html_to_unicode

from .extract import PageContent, extract_page
from .fetcher import Fetched
from .types import CrawledPage


def utc_now() -> str:
    """The current time as ISO 8601 UTC with a ``Z`` suffix."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def decode_html(fetched: Fetched) -> str:
    """Decode the body like a browser: BOM, then Content-Type charset, then ``<meta charset>``."""
    if not fetched.body:
        return ""
    try:
        return html_to_unicode(fetched.content_type or None, fetched.body)[1]
    except (LookupError, ValueError, TypeError):
        return fetched.body.decode("utf-8", "replace")


def build_page(fetched: Fetched, *, robots_allowed: bool) -> tuple[CrawledPage, PageContent]:
    """The stored page plus the full extraction (whose links carry their text)."""
    content = extract_page(decode_html(fetched), fetched.url)
    page = CrawledPage(
        url=fetched.url,
        requested_url=fetched.requested_url,
        fetched_at=utc_now(),
        status=fetched.status,
        content_type=fetched.content_type,
        robots_allowed=robots_allowed,
        title=content.title,
        text=content.text,
        structured=content.structured,
        links=[url for url, _ in content.links],
        truncated=fetched.truncated,
        bytes=len(fetched.body),
    )
    return page, content
