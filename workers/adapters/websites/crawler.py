"""Crawl a founder's website: the homepage plus a few descriptive pages.

Order of work, each step through the guarded fetcher:

1. validate the start URL (address guard);
2. fetch robots.txt of its origin and refuse if the homepage is disallowed (a submitted page below the
   root that robots.txt forbids gives way to the root when the root is allowed: `allowed_start`);
3. fetch the homepage (every redirect hop is guarded and robots-checked);
   failures here raise, because without a homepage there is no profile;
4. collect candidates from the homepage links and the sitemap, rank them,
   and fetch the best ones that robots.txt allows until ``max_pages``, the
   time budget or the byte budget runs out.  Failures here are recorded in
   ``skipped`` and never raise.

A page that is only a redirect notice (``<meta http-equiv="refresh">`` or a
one-line script redirect, little text) is never kept: the homepage's notice
is followed (at most ``MAX_REFRESH_HOPS``, every hop guarded and
robots-checked like an HTTP redirect); another page's notice is recorded as
skipped (``redirect_notice``) and its target, when on the same site and
allowed, is fetched in its place within the same page cap.
"""

from __future__ import annotations

import httpx

from .address_guard import Resolver, check_url
from .errors import BlockedAddress, CrawlError, HttpStatusError, OffSite, RobotsForbidden, SiteUnreachable, TooLarge
from .extract import PageContent
from .fetcher import Budget, GuardedFetcher
from .pages import build_page, utc_now
from .robots import RobotsCache
from .selection import Candidate, rank_candidates
from .settings import CrawlSettings
from .sitemap import sitemap_page_urls
from .transport import GuardedTransport
from .types import CrawledPage, CrawlResult, SkippedPage
from .urls import origin_of, page_key, same_site_url

MAX_REFRESH_HOPS = 2
MAX_NOTICE_CHARS = 400  # a page with more visible text than this is content, whatever its refresh says


def crawl_site(
    url: str,
    settings: CrawlSettings,
    *,
    transport: httpx.BaseTransport | None = None,
    resolver: Resolver | None = None,
) -> CrawlResult:
    """Crawl ``url`` and return what was fetched and skipped.

    Raises :class:`BlockedAddress`, :class:`RobotsForbidden`,
    :class:`SiteUnreachable` (including HTTP errors and too many redirects),
    :class:`NotHtml` or :class:`TooLarge` when the homepage cannot be used.
    ``transport`` replaces the connection-time address check (tests only);
    the per-hop URL check always runs.  ``resolver`` replaces DNS.
    """
    url = url.strip() if isinstance(url, str) else url
    started_at = utc_now()
    check_url(url, allow_loopback=settings.allow_loopback, resolver=resolver)
    budget = Budget(settings)
    with _client(settings, transport, resolver) as client:
        fetcher = GuardedFetcher(client, settings, budget, resolver)
        robots = RobotsCache(fetcher, settings)
        start, refused = allowed_start(url, robots)
        homepage, content = _fetch_homepage(start, fetcher, robots, settings)
        site = origin_of(homepage.url)
        policy = robots.policy_for(homepage.url)
        wants_more = settings.max_pages > 1 and not budget.exhausted
        sitemap_urls = sitemap_page_urls(fetcher, robots, site=site, settings=settings) if wants_more else []
        candidates = rank_candidates(content.links, sitemap_urls, site=site, homepage_url=homepage.url)
        pages, skipped = _crawl_candidates(candidates, homepage, site, fetcher, robots, budget, settings)
    if refused is not None:  # the submitted page comes first: the founder asked for it and it was not read
        skipped = [refused, *(s for s in skipped if page_key(s.url) != page_key(refused.url))][:settings.max_skipped]
    return CrawlResult(
        start_url=url,
        final_url=homepage.url,
        site=site,
        user_agent=settings.user_agent,
        started_at=started_at,
        finished_at=utc_now(),
        robots_txt_url=policy.robots_url,
        robots_found=policy.found,
        pages=[homepage, *pages],
        skipped=skipped,
    )


def _client(settings: CrawlSettings, transport: httpx.BaseTransport | None, resolver: Resolver | None) -> httpx.Client:
    return httpx.Client(
        transport=transport or GuardedTransport(allow_loopback=settings.allow_loopback, resolver=resolver),
        follow_redirects=False,
        trust_env=False,
        headers={"User-Agent": settings.user_agent, "Accept-Language": "en;q=1.0, *;q=0.5"},
        timeout=settings.request_timeout,
    )


SUBMITTED_PAGE_REFUSED = "the submitted page: robots.txt does not allow it, so the crawl started at the site's root"


def allowed_start(url: str, robots: RobotsCache) -> tuple[str, SkippedPage | None]:
    """Where the crawl starts: the submitted URL, or the site's root when robots.txt forbids the submitted page
    (a founder pasted their ``/pricing`` page) but allows the root. The page itself is then never requested and
    is reported as skipped (``robots_disallowed``), first. A site whose robots.txt forbids the root too, or
    could not be read, is refused as before."""
    root = origin_of(url) + "/"
    if not root.startswith(("http://", "https://")) or page_key(url) == page_key(root):
        return url, None
    policy = robots.policy_for(url)
    if policy.fetch_error is not None or not policy.found or policy.allows(url) or not policy.allows(root):
        return url, None
    return root, SkippedPage(url, "robots_disallowed", SUBMITTED_PAGE_REFUSED)


def _fetch_homepage(
    url: str, fetcher: GuardedFetcher, robots: RobotsCache, settings: CrawlSettings
) -> tuple[CrawledPage, PageContent]:
    def robots_check(hop: str) -> None:
        policy = robots.policy_for(hop)
        error = policy.fetch_error
        if isinstance(error, (SiteUnreachable, BlockedAddress)):
            raise error  # the site cannot be reached at all: say so rather than "forbidden"
        if not policy.allows(hop):
            reason = "robots_disallowed" if policy.found else "robots_unreachable"
            raise RobotsForbidden(reason, f"{policy.robots_url} does not allow {hop} ({policy.detail or 'rules'})")

    fetched = fetcher.fetch(url, max_bytes=settings.max_page_bytes, html_only=True, before_hop=robots_check)
    if fetched.status >= 400:
        raise HttpStatusError(fetched.status, fetched.url)
    if not 200 <= fetched.status < 300:
        raise SiteUnreachable("unexpected_status", f"{fetched.url} answered HTTP {fetched.status}")
    page, content = build_page(fetched, robots_allowed=True)
    if fetched.truncated and content.is_empty:
        raise TooLarge("too_large", f"{fetched.url} has no usable HTML within the first {len(fetched.body)} bytes")
    for _ in range(MAX_REFRESH_HOPS):  # an interstitial homepage: go where it sends the visitor, as a browser would
        target = redirect_notice_target(content)
        if target is None:
            break
        fetched = fetcher.fetch(target, max_bytes=settings.max_page_bytes, html_only=True, before_hop=robots_check)
        if not 200 <= fetched.status < 300:
            raise SiteUnreachable("unexpected_status", f"{fetched.url} (refresh target) answered HTTP {fetched.status}")
        page, content = build_page(fetched, robots_allowed=True)
    if redirect_notice_target(content) is not None:
        raise SiteUnreachable("too_many_redirects", f"{page.url} only redirects the visitor elsewhere")
    return page, content


def redirect_notice_target(content: PageContent) -> str | None:
    """Where a redirect notice sends the visitor (meta refresh or one-line script), None for a real page.

    A page counts as a notice when it names a target and shows little text
    ("Redirecting ... if nothing happens, click here"); such text is never
    drafted from.
    """
    target = content.structured.get("refresh")
    if not isinstance(target, str) or not target or len(content.text) > MAX_NOTICE_CHARS:
        return None
    return target


class _Skips:
    """Collects skipped pages, bounded so a huge site cannot bloat the stored result."""

    def __init__(self, limit: int) -> None:
        self.items: list[SkippedPage] = []
        self._limit = limit

    def add(self, url: str, reason: str, detail: str = "") -> None:
        if len(self.items) < self._limit and all(s.url != url for s in self.items):
            self.items.append(SkippedPage(url, reason, detail))


def _crawl_candidates(
    candidates: list[Candidate],
    homepage: CrawledPage,
    site: str,
    fetcher: GuardedFetcher,
    robots: RobotsCache,
    budget: Budget,
    settings: CrawlSettings,
) -> tuple[list[CrawledPage], list[SkippedPage]]:
    slots = settings.max_pages - 1
    attempts_left = 2 * slots  # failed fetches may be replaced, but not endlessly
    pages: list[CrawledPage] = []
    skips = _Skips(settings.max_skipped)
    seen = {page_key(homepage.url), page_key(homepage.requested_url)}

    def hop_check(hop: str) -> None:
        if same_site_url(hop, site) is None:
            raise OffSite("off_site", f"{hop} is not on {site}")
        if not robots.allows(hop):
            raise RobotsForbidden("robots_disallowed", f"robots.txt does not allow {hop}")

    pending = list(candidates)
    while pending:
        candidate = pending.pop(0)
        if len(pages) >= slots or attempts_left <= 0:
            break
        if not robots.allows(candidate.url):
            skips.add(candidate.url, "robots_disallowed", "robots.txt does not allow this page")
            continue
        if budget.exhausted:
            skips.add(candidate.url, "budget_exhausted", "the crawl ran out of time or bytes")
            attempts_left -= 1
            continue
        attempts_left -= 1
        try:
            fetched = fetcher.fetch(
                candidate.url, max_bytes=settings.max_page_bytes, html_only=True, before_hop=hop_check
            )
        except CrawlError as exc:
            skips.add(candidate.url, exc.kind, exc.detail)
            continue
        except Exception as exc:  # a non-homepage failure must never abort the crawl
            skips.add(candidate.url, "error", f"unexpected {type(exc).__name__}")
            continue
        if fetched.status >= 400:
            skips.add(candidate.url, "http_error", f"HTTP {fetched.status}")
            continue
        if not 200 <= fetched.status < 300:
            skips.add(candidate.url, "error", f"unexpected HTTP {fetched.status}")
            continue
        if page_key(fetched.url) in seen:
            skips.add(candidate.url, "duplicate", f"same page as {fetched.url}")
            continue
        page, content = build_page(fetched, robots_allowed=True)
        if fetched.truncated and content.is_empty:
            skips.add(candidate.url, "too_large", f"no usable HTML within the first {len(fetched.body)} bytes")
            continue
        target = redirect_notice_target(content)
        if target is not None:
            # an interstitial: the page it sends to joins the candidates (same site, robots and caps apply)
            skips.add(candidate.url, "redirect_notice", f"a redirect notice pointing to {target}")
            seen.add(page_key(fetched.url))
            if same_site_url(target, site) is not None and page_key(target) not in seen and robots.allows(target):
                pending.insert(0, Candidate(url=target, text="", source="refresh", score=candidate.score,
                                            order=candidate.order))
            continue
        seen.add(page_key(fetched.url))
        pages.append(page)
        pending = _with_linked_pages(pending, content, site, seen, discovered=len(candidates))
    return pages, skips.items


SECOND_LEVEL_SCORE = 10  # a page linked from a fetched page joins only when its path or text says what it is


def _with_linked_pages(pending: list[Candidate], content: PageContent, site: str, seen: set[str],
                       discovered: int) -> list[Candidate]:
    """The pending candidates plus descriptive pages linked from a fetched one (a docs site's FAQ is linked
    from its introduction, not from the homepage), ranked together; homepage links win ties."""
    known = seen | {page_key(c.url) for c in pending}
    linked = [c for c in rank_candidates(content.links, [], site=site, homepage_url=site)
              if c.score >= SECOND_LEVEL_SCORE and page_key(c.url) not in known]
    if not linked:
        return pending
    later = [Candidate(c.url, c.text, "linked", c.score, discovered + c.order) for c in linked]
    return sorted(pending + later, key=lambda c: (-c.score, c.order))
