"""The checks of claims: a TXT record in DNS, a meta tag on the homepage, a file under /.well-known/.

`ClaimChecker` implements the `ClaimChecks` port of `commands/claims.py`. DNS
goes through `workers/adapters/dns.py`; the homepage and the file go through
the crawler's guarded fetcher (`workers/adapters/websites`): http(s) only,
public addresses only (checked again on every redirect and at connect time),
robots.txt obeyed for our user agent, bodies and time capped. Every redirect
must also stay on the claim's registrable domain, so a page elsewhere cannot
speak for the domain. Outcomes carry one reason code of `events.claim.REASONS`.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

import httpx
import lxml.etree
import lxml.html

from commands.claim_inputs import host_of, on_domain
from commands.claims import CheckOutcome
from events.claim import DNS_LABEL, FILE_PATH, META_NAME
from workers.adapters.dns import DnsError, TxtLookup
from workers.adapters.websites import BlockedAddress, CrawlError, CrawlSettings, NotHtml, RobotsForbidden, SiteUnreachable
from workers.adapters.websites.address_guard import Resolver
from workers.adapters.websites.fetcher import Budget, Fetched, GuardedFetcher
from workers.adapters.websites.pages import decode_html
from workers.adapters.websites.robots import RobotsCache
from workers.adapters.websites.transport import GuardedTransport
from workers.adapters.websites.urls import origin_of

FILE_MAX_BYTES = 4096
TIMEOUTS = ("timeout", "crawl_timeout")


def claim_crawl_settings(allow_loopback: bool = False) -> CrawlSettings:
    """The crawler's limits for a claim check: one page (or one small file), answered within seconds."""
    return CrawlSettings(allow_loopback=allow_loopback, max_pages=1, max_page_bytes=1_000_000,
                         max_total_bytes=2_000_000, request_timeout=8.0, total_timeout=15.0)


class LeftDomain(CrawlError):
    """A redirect led away from the claim's registrable domain."""

    kind = "off_domain"


def matches(found: str, token: str) -> bool:
    return hmac.compare_digest(found.strip().encode("utf-8"), token.encode("utf-8"))


class SharedTransport(httpx.BaseTransport):
    """One guarded transport (its TLS contexts and connection pool) behind every check's own client.

    Building a `GuardedTransport` costs tens of milliseconds (TLS contexts), more
    than a whole check against a nearby site; each check still gets a client of
    its own (no cookies shared between sites), and closing it leaves this open.
    """

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self._inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._inner.handle_request(request)

    def close(self) -> None:
        """Kept open: the checker owns the inner transport for the life of the process."""


@dataclass
class ClaimChecker:
    """Looks for a claim's token where its method says; never raises for what a site or a nameserver does."""

    dns: TxtLookup
    crawl: CrawlSettings = field(default_factory=claim_crawl_settings)
    transport: httpx.BaseTransport | None = None  # tests only: replaces the connect-time address guard
    resolver: Resolver | None = None  # tests only: replaces the system's address lookups

    def __post_init__(self) -> None:
        inner = self.transport or GuardedTransport(allow_loopback=self.crawl.allow_loopback, resolver=self.resolver)
        self._shared = SharedTransport(inner)

    def check(self, method: str, domain: str, website_url: str, token: str) -> CheckOutcome:
        if method == "dns":
            return self.check_dns(domain, token)
        if method == "meta":
            return self.check_page(domain, website_url, token, meta=True)
        if method == "file":
            return self.check_page(domain, origin_of(website_url) + FILE_PATH, token, meta=False)
        return CheckOutcome(False, "record_not_found", f"{method} claims are not checked by verify_claim")

    def check_dns(self, domain: str, token: str) -> CheckOutcome:
        name = f"{DNS_LABEL}.{domain}"
        try:
            values = self.dns.txt(name)
        except DnsError as exc:
            return CheckOutcome(False, exc.reason, exc.detail)
        if any(matches(v, token) for v in values):
            return CheckOutcome(True)
        shown = ", ".join(repr(v[:80]) for v in values[:3])
        return CheckOutcome(False, "wrong_value", f"{name} has TXT {shown}, not this claim's token")

    def check_page(self, domain: str, url: str, token: str, *, meta: bool) -> CheckOutcome:
        try:
            fetched = self._fetch(domain, url, meta=meta)
        except (BlockedAddress, RobotsForbidden, LeftDomain) as exc:
            return CheckOutcome(False, "blocked", exc.detail)
        except NotHtml as exc:
            return CheckOutcome(False, "record_not_found", exc.detail)
        except SiteUnreachable as exc:
            return CheckOutcome(False, "timeout" if exc.reason in TIMEOUTS else "unreachable", exc.detail)
        except CrawlError as exc:
            return CheckOutcome(False, "unreachable", exc.detail)
        if meta:
            return self._meta_outcome(fetched, token)
        return self._file_outcome(fetched, token)

    def _fetch(self, domain: str, url: str, *, meta: bool) -> Fetched:
        budget = Budget(self.crawl)
        with httpx.Client(
            transport=self._shared,
            follow_redirects=False, trust_env=False, headers={"User-Agent": self.crawl.user_agent},
            timeout=self.crawl.request_timeout,
        ) as client:
            fetcher = GuardedFetcher(client, self.crawl, budget, self.resolver)
            robots = RobotsCache(fetcher, self.crawl)

            def hop_check(hop: str) -> None:
                if not on_domain(host_of(hop), domain):
                    raise LeftDomain("off_domain", f"{hop} is not on {domain}")
                policy = robots.policy_for(hop)
                if isinstance(policy.fetch_error, (SiteUnreachable, BlockedAddress)):
                    raise policy.fetch_error
                if not policy.allows(hop):
                    raise RobotsForbidden("robots_disallowed", f"{policy.robots_url} does not allow {hop}")

            if meta:
                return fetcher.fetch(url, max_bytes=self.crawl.max_page_bytes, html_only=True, before_hop=hop_check)
            return fetcher.fetch(url, max_bytes=FILE_MAX_BYTES, html_only=False, accept="text/plain,*/*;q=0.5",
                                 before_hop=hop_check)

    @staticmethod
    def _meta_outcome(fetched: Fetched, token: str) -> CheckOutcome:
        if not 200 <= fetched.status < 300:
            return CheckOutcome(False, "unreachable", f"{fetched.url} answered HTTP {fetched.status}")
        try:
            root = lxml.html.document_fromstring(decode_html(fetched) or "<html></html>")
        except (ValueError, lxml.etree.ParserError) as exc:
            return CheckOutcome(False, "record_not_found", f"{fetched.url} is not readable HTML: {exc}")
        found = [str(m.get("content") or "") for m in root.iter("meta")
                 if str(m.get("name") or "").strip().lower() == META_NAME]
        if any(matches(v, token) for v in found):
            return CheckOutcome(True)
        if found:
            return CheckOutcome(False, "wrong_value", f"the {META_NAME} tag on {fetched.url} holds another value")
        return CheckOutcome(False, "record_not_found", f"{fetched.url} has no <meta name=\"{META_NAME}\"> tag")

    @staticmethod
    def _file_outcome(fetched: Fetched, token: str) -> CheckOutcome:
        if fetched.status in (404, 410):
            return CheckOutcome(False, "record_not_found", f"{fetched.url} does not exist (HTTP {fetched.status})")
        if not 200 <= fetched.status < 300:
            return CheckOutcome(False, "unreachable", f"{fetched.url} answered HTTP {fetched.status}")
        text = fetched.body.decode("utf-8", "replace").lstrip("\ufeff")
        if any(matches(line, token) for line in text.splitlines()):
            return CheckOutcome(True)
        if text.strip():
            return CheckOutcome(False, "wrong_value", f"{fetched.url} holds another value than this claim's token")
        return CheckOutcome(False, "record_not_found", f"{fetched.url} is empty")
