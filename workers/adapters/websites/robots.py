"""robots.txt handling per RFC 9309.

* 2xx: the rules are parsed and matched against our product token;
* 4xx ("unavailable"): everything may be crawled;
* 5xx, 429, network errors, timeouts or a refused address ("unreachable"):
  nothing may be crawled, as RFC 9309 requires for an unreachable file;
* more than the allowed number of redirects: treated as unavailable (RFC 9309
  section 2.3.1.2 permits this).

Only the first ``max_robots_bytes`` are parsed (RFC 9309 asks for at least
500 KiB).  Policies are cached per origin (scheme, host and port), since
each origin has its own robots.txt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
from protego import Protego

from .errors import CrawlError, TooManyRedirects
from .fetcher import GuardedFetcher
from .settings import CrawlSettings
from .urls import origin_of

ALLOW_ALL = "allow_all"
DISALLOW_ALL = "disallow_all"
RULES = "rules"


@dataclass(frozen=True)
class RobotsPolicy:
    """What one origin's robots.txt lets our crawler fetch.

    ``fetch_error`` is set when robots.txt could not be fetched at all
    (DNS, connection, timeout, refused address), so the caller can report
    the real problem rather than "robots.txt forbids us".
    """

    robots_url: str
    token: str
    mode: str
    found: bool
    detail: str = ""
    parser: Protego | None = field(default=None, compare=False, repr=False)
    fetch_error: CrawlError | None = field(default=None, compare=False, repr=False)

    def allows(self, url: str) -> bool:
        """May ``url`` (on this policy's origin) be fetched?"""
        if self.mode == ALLOW_ALL:
            return True
        if self.mode == DISALLOW_ALL or self.parser is None:
            return False
        try:
            return bool(self.parser.can_fetch(url, self.token))
        except Exception:  # a parser failure must not turn into permission
            return False

    @property
    def sitemaps(self) -> tuple[str, ...]:
        """Absolute URLs of the ``Sitemap:`` lines."""
        if self.parser is None:
            return ()
        found: list[str] = []
        for entry in self.parser.sitemaps:
            try:
                found.append(str(httpx.URL(self.robots_url).join(str(entry).strip())))
            except (httpx.InvalidURL, ValueError, TypeError):
                continue
        return tuple(found)


def robots_url_for(url: str) -> str:
    """``https://example.com/robots.txt`` for any URL on that origin."""
    return f"{origin_of(url)}/robots.txt"


def fetch_robots(fetcher: GuardedFetcher, url: str, settings: CrawlSettings) -> RobotsPolicy:
    """Fetch and interpret the robots.txt governing ``url``."""
    robots_url = robots_url_for(url)
    token = settings.robots_token
    try:
        fetched = fetcher.fetch(
            robots_url, max_bytes=settings.max_robots_bytes, html_only=False, accept="text/plain,*/*;q=0.5"
        )
    except TooManyRedirects as exc:
        return RobotsPolicy(robots_url, token, ALLOW_ALL, False, f"unavailable: {exc.detail}")
    except CrawlError as exc:
        return RobotsPolicy(robots_url, token, DISALLOW_ALL, False, f"unreachable: {exc.detail}", fetch_error=exc)
    if fetched.status == 429 or fetched.status >= 500:
        return RobotsPolicy(robots_url, token, DISALLOW_ALL, False, f"unreachable: HTTP {fetched.status}")
    if fetched.status >= 400:
        return RobotsPolicy(robots_url, token, ALLOW_ALL, False, f"unavailable: HTTP {fetched.status}")
    if not 200 <= fetched.status < 300:
        return RobotsPolicy(robots_url, token, DISALLOW_ALL, False, f"unexpected HTTP {fetched.status}")
    text = fetched.body.decode("utf-8", "replace").lstrip("\ufeff")
    try:
        parser = Protego.parse(text)
    except Exception:  # the parser is lenient; any failure means there are no parseable rules
        return RobotsPolicy(robots_url, token, ALLOW_ALL, True, "no parseable rules")
    return RobotsPolicy(robots_url, token, RULES, True, "", parser)


class RobotsCache:
    """Fetches each origin's robots.txt at most once per crawl."""

    def __init__(self, fetcher: GuardedFetcher, settings: CrawlSettings) -> None:
        self._fetcher = fetcher
        self._settings = settings
        self._policies: dict[str, RobotsPolicy] = {}

    def policy_for(self, url: str) -> RobotsPolicy:
        """The policy of ``url``'s origin, fetching robots.txt the first time."""
        origin = origin_of(url)
        if origin not in self._policies:
            self._policies[origin] = fetch_robots(self._fetcher, url, self._settings)
        return self._policies[origin]

    def allows(self, url: str) -> bool:
        """May ``url`` be fetched according to its origin's robots.txt?"""
        return self.policy_for(url).allows(url)
