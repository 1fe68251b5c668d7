"""Looking for our badge on a listing's homepage: the fetch (the crawler's guarded fetcher) and the pure detection.

What counts as our badge (docs/free-plan.md), on the homepage after redirects:

- an `<a href>` to the listing's page on this site, `{site}/listings/{slug}`;
- or an `<img src>` of one of this listing's badge images, `{site}/badges/{slug}/{kind}.svg`.

Relative addresses are resolved against the page (and its `<base href>`), so
`/listings/{slug}` on the founder's own site does not count. The comparison
ignores the scheme, a leading `www.`, the host's case, a trailing slash, the
query and the fragment; the host, port and path must be ours.

The fetch is the crawler's (`workers/adapters/websites`): http(s) only, public
addresses only (checked before every redirect hop and again at connect time),
capped in bytes, redirects and time. robots.txt is not read: this is one
page the founder asked us to look at, not a crawl.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from urllib.parse import unquote, urljoin, urlsplit

import httpx
import lxml.etree
import lxml.html

from commands.free_plan import BadgeOutcome
from workers.adapters.websites import BlockedAddress, CrawlError, CrawlSettings, NotHtml, SiteUnreachable
from workers.adapters.websites.address_guard import Resolver
from workers.adapters.websites.fetcher import Budget, Fetched, GuardedFetcher
from workers.adapters.websites.pages import decode_html
from workers.adapters.websites.transport import GuardedTransport

DEFAULT_PORTS = {"http": 80, "https": 443}
TIMEOUTS = ("timeout", "crawl_timeout")
Key = tuple[str, int | None, str]


def badge_crawl_settings(allow_loopback: bool = False) -> CrawlSettings:
    """The crawler's limits for one badge check: the homepage only, answered within seconds."""
    return CrawlSettings(allow_loopback=allow_loopback, max_pages=1, max_page_bytes=2_000_000,
                         max_total_bytes=2_000_000, request_timeout=8.0, total_timeout=15.0)


def _key(url: str) -> Key | None:
    """(host without `www.`, port unless the scheme's default, path without trailing slash), or None if not http(s)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower().rstrip(".").removeprefix("www.")
    return host, None if port in (None, DEFAULT_PORTS[scheme]) else port, unquote(parts.path).rstrip("/").lower()


def _join(base: str, url: str) -> str:
    try:
        return urljoin(base, url.strip())
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return ""


def find_badge(html: str, page_url: str, site_url: str, slug: str) -> str | None:
    """The link or image on the page that is our badge for `slug` (as written on the page), or None.

    `page_url` is where the HTML came from (relative addresses resolve against
    it), `site_url` is this site's public base URL.
    """
    site = _key(site_url)
    if site is None or not html.strip():
        return None
    try:
        root = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None
    base = page_url
    for tag in root.iter("base"):
        if tag.get("href"):
            base = _join(page_url, str(tag.get("href"))) or page_url
            break
    page = f"{site[2]}/listings/{slug}".lower()
    images = f"{site[2]}/badges/{slug}/".lower()
    for tag in root.iter("a", "img"):
        raw = tag.get("href") if tag.tag == "a" else tag.get("src")
        if not raw:
            continue
        found = _key(_join(base, str(raw)))
        if found is None or found[:2] != site[:2]:
            continue
        path = found[2]
        if (tag.tag == "a" and path == page) or (tag.tag == "img" and path.startswith(images) and path.endswith(".svg")):
            return str(raw).strip()
    return None


@dataclass
class BadgeChecker:
    """Implements the `BadgeChecks` port: fetch the homepage, look for the badge; never raises for what a site does."""

    site_url: str  # this site's public base URL: badges link here
    crawl: CrawlSettings = field(default_factory=badge_crawl_settings)
    transport: httpx.BaseTransport | None = None  # tests only: replaces the connect-time address guard
    resolver: Resolver | None = None  # tests only: replaces the system's address lookups
    _client: httpx.Client | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def check(self, website_url: str, slug: str) -> BadgeOutcome:
        if not website_url:
            return BadgeOutcome(False, "", "no_website", "the listing has no website address to check")
        try:
            fetched = self._fetch(website_url)
        except BlockedAddress as exc:
            return BadgeOutcome(False, website_url, "blocked", exc.detail)
        except NotHtml as exc:
            return BadgeOutcome(False, website_url, "not_html", exc.detail)
        except SiteUnreachable as exc:
            return BadgeOutcome(False, website_url, "timeout" if exc.reason in TIMEOUTS else "unreachable", exc.detail)
        except CrawlError as exc:
            return BadgeOutcome(False, website_url, "unreachable", exc.detail)
        if not 200 <= fetched.status < 300:
            return BadgeOutcome(False, fetched.url, "unreachable", f"{fetched.url} answered HTTP {fetched.status}")
        evidence = find_badge(decode_html(fetched), fetched.url, self.site_url, slug)
        if evidence is None:
            return BadgeOutcome(False, fetched.url, "not_found",
                                f"{fetched.url} has no link to {self.site_url.rstrip('/')}/listings/{slug} "
                                "and no badge image of this listing")
        return BadgeOutcome(True, fetched.url, None, f"{fetched.url} shows our badge: {evidence}", evidence)

    def _fetch(self, url: str) -> Fetched:
        fetcher = GuardedFetcher(self._http(), self.crawl, Budget(self.crawl), self.resolver)
        return fetcher.fetch(url, max_bytes=self.crawl.max_page_bytes, html_only=True)

    def _http(self) -> httpx.Client:
        """One client for every check: building its TLS context (the CA bundle) costs more than a local fetch.

        Its connections are still made only through the guarded transport, so
        each new connection's address is vetted; the budget is per check.
        """
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(
                    transport=self.transport or GuardedTransport(allow_loopback=self.crawl.allow_loopback,
                                                                 resolver=self.resolver),
                    follow_redirects=False, trust_env=False, headers={"User-Agent": self.crawl.user_agent},
                    timeout=self.crawl.request_timeout,
                )
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None
