"""Errors raised by the crawler.

Every failure carries a short machine-readable ``reason`` code (stable, meant
for storage and for mapping to user-facing messages) and a human ``detail``.
The class itself says which family of failure it is; ``kind`` is that family
as a string, used as the ``reason`` of a :class:`SkippedPage` when a
non-homepage fetch fails.
"""

from __future__ import annotations


class CrawlError(Exception):
    """Base class of every error the crawler raises on purpose."""

    kind: str = "error"

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail or reason

    def to_dict(self) -> dict[str, str]:
        """Describe the error as JSON-friendly data (e.g. to store a failed crawl)."""
        return {"error": type(self).__name__, "kind": self.kind, "reason": self.reason, "detail": self.detail}


class BlockedAddress(CrawlError):
    """The URL is not allowed: bad scheme/host, or it points at a non-public address."""

    kind = "blocked_address"


class SiteUnreachable(CrawlError):
    """DNS failure, refused connection, timeout or an HTTP error status."""

    kind = "error"


class HttpStatusError(SiteUnreachable):
    """The server answered with an HTTP status >= 400."""

    kind = "http_error"

    def __init__(self, status: int, url: str) -> None:
        super().__init__(f"http_{status}", f"{url} answered HTTP {status}")
        self.status = status


class TooManyRedirects(SiteUnreachable):
    """The redirect chain is longer than the configured maximum."""

    kind = "too_many_redirects"


class OffSite(CrawlError):
    """A redirect would leave the site being crawled."""

    kind = "off_site"


class NotHtml(CrawlError):
    """The response is not an HTML document."""

    kind = "not_html"


class TooLarge(CrawlError):
    """The byte cap was reached before any usable HTML was read."""

    kind = "too_large"


class RobotsForbidden(CrawlError):
    """robots.txt does not let our crawler fetch this URL."""

    kind = "robots_disallowed"
