"""Limits and identity of the crawler.

The defaults are deliberately small: we only need enough of a founder's site
to draft a profile, and every byte we fetch is untrusted input.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_USER_AGENT = "launchdirbot/1.0 (+https://launchdir.example/bot)"


@dataclass(frozen=True)
class CrawlSettings:
    """How much to crawl and how to identify ourselves.

    ``max_pages`` counts the homepage.  Byte limits apply to decoded body
    bytes; ``max_total_bytes`` also counts robots.txt and sitemaps.
    ``allow_loopback`` exists only so tests can crawl a local server.
    """

    user_agent: str = DEFAULT_USER_AGENT
    allow_loopback: bool = False
    max_pages: int = 11
    max_page_bytes: int = 2_000_000
    max_total_bytes: int = 10_000_000
    max_redirects: int = 5
    request_timeout: float = 10.0
    total_timeout: float = 45.0
    max_robots_bytes: int = 512_000
    max_sitemap_bytes: int = 2_000_000
    max_sitemaps: int = 3
    max_skipped: int = 50

    def __post_init__(self) -> None:
        if not self.robots_token:
            raise ValueError("user_agent must start with a product token")
        for name in ("max_pages", "max_page_bytes", "max_total_bytes", "max_robots_bytes", "max_sitemap_bytes"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive")
        for name in ("max_redirects", "max_sitemaps", "max_skipped"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")
        if self.request_timeout <= 0 or self.total_timeout <= 0:
            raise ValueError("timeouts must be positive")

    @property
    def robots_token(self) -> str:
        """The product token matched against robots.txt ``User-agent`` lines."""
        return self.user_agent.split("/", 1)[0].split(" ", 1)[0].strip().lower()
