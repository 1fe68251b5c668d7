"""Fetch one URL safely: guarded redirects, streamed bodies, hard caps.

Redirects are followed by hand so that the address guard (and the caller's
own check, e.g. robots.txt or "same site") runs on every hop *before* a
connection is made.  Bodies are streamed and reading stops at the byte cap,
so an oversized or endless response never sits in memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from .address_guard import Resolver, check_url
from .decoding import ACCEPT_ENCODING, BoundedDecoder
from .errors import NotHtml, SiteUnreachable, TooManyRedirects
from .settings import CrawlSettings

HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
_SNIFF_BYTES = 1024

HopCheck = Callable[[str], None]
"""Called with each URL (start and every redirect target) before it is requested; raises to refuse."""


@dataclass(frozen=True)
class Fetched:
    """A response whose body was read up to the cap (empty for HTTP errors)."""

    requested_url: str
    url: str
    status: int
    content_type: str
    body: bytes
    truncated: bool
    redirects: tuple[str, ...] = ()


class Budget:
    """The wall-clock deadline and byte allowance shared by all fetches of a crawl."""

    def __init__(self, settings: CrawlSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._deadline = clock() + settings.total_timeout
        self._bytes_left = settings.max_total_bytes

    @property
    def seconds_left(self) -> float:
        """Time remaining before the crawl must stop."""
        return self._deadline - self._clock()

    @property
    def bytes_left(self) -> int:
        """Body bytes the crawl may still read."""
        return self._bytes_left

    @property
    def exhausted(self) -> bool:
        """True once time or bytes have run out."""
        return self.seconds_left <= 0 or self._bytes_left <= 0

    def spend(self, count: int) -> None:
        """Record ``count`` body bytes as read."""
        self._bytes_left -= count

    def now(self) -> float:
        """The budget's clock reading."""
        return self._clock()


def media_type_of(content_type: str) -> str:
    """``text/html; charset=utf-8`` -> ``text/html``."""
    return content_type.split(";", 1)[0].strip().lower()


def looks_like_html(body: bytes) -> bool:
    """Sniff a body without Content-Type: does it start like an HTML document?"""
    head = body[:_SNIFF_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<html" in head


class GuardedFetcher:
    """Performs GET requests for one crawl, enforcing the guard and the limits."""

    def __init__(
        self, client: httpx.Client, settings: CrawlSettings, budget: Budget, resolver: Resolver | None = None
    ) -> None:
        self._client = client
        self._settings = settings
        self._budget = budget
        self._resolver = resolver

    def fetch(
        self,
        url: str,
        *,
        max_bytes: int,
        html_only: bool,
        accept: str = ACCEPT_HTML,
        before_hop: HopCheck | None = None,
    ) -> Fetched:
        """GET ``url``, following at most ``max_redirects`` redirects.

        Raises :class:`BlockedAddress` (a hop is not public), errors raised by
        ``before_hop``, :class:`TooManyRedirects`, :class:`SiteUnreachable`
        (network failure or timeout) and, with ``html_only``, :class:`NotHtml`
        for a successful response that is not HTML (its body is not read).
        Responses with status >= 400 are returned with an empty body.
        """
        current = url
        redirects: list[str] = []
        for _ in range(self._settings.max_redirects + 1):
            check_url(current, allow_loopback=self._settings.allow_loopback, resolver=self._resolver)
            if before_hop is not None:
                before_hop(current)
            response, deadline = self._send(current, accept)
            try:
                target = self._redirect_target(response)
                if target is not None:
                    redirects.append(target)
                    current = target
                    continue
                return self._read(url, response, max_bytes, html_only, tuple(redirects), deadline)
            finally:
                response.close()
        raise TooManyRedirects(
            "too_many_redirects", f"{url} redirected more than {self._settings.max_redirects} times"
        )

    def _send(self, url: str, accept: str) -> tuple[httpx.Response, float]:
        seconds = min(self._settings.request_timeout, self._budget.seconds_left)
        if seconds <= 0:
            raise SiteUnreachable("crawl_timeout", "the crawl ran out of time")
        headers = {"Accept": accept, "Accept-Encoding": ACCEPT_ENCODING}
        try:
            request = self._client.build_request("GET", url, headers=headers, timeout=httpx.Timeout(seconds))
            return self._client.send(request, stream=True), self._budget.now() + seconds
        except httpx.TimeoutException:
            raise SiteUnreachable("timeout", f"{url} did not answer within {seconds:.1f}s") from None
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
            raise SiteUnreachable("connection_failed", f"{url} could not be fetched: {exc}") from None

    @staticmethod
    def _redirect_target(response: httpx.Response) -> str | None:
        if response.status_code not in REDIRECT_STATUSES or "location" not in response.headers:
            return None
        try:
            target = response.url.join(response.headers["location"].strip()).copy_with(fragment=None)
        except (httpx.InvalidURL, ValueError, TypeError, UnicodeError):
            raise SiteUnreachable("bad_redirect", f"{response.url} sent an invalid Location header") from None
        return str(target)

    def _read(
        self,
        requested_url: str,
        response: httpx.Response,
        max_bytes: int,
        html_only: bool,
        redirects: tuple[str, ...],
        deadline: float,
    ) -> Fetched:
        content_type = response.headers.get("content-type", "")
        final_url = str(response.url)
        if response.status_code >= 400:
            return Fetched(requested_url, final_url, response.status_code, content_type, b"", False, redirects)
        media = media_type_of(content_type)
        if html_only and media and media not in HTML_MEDIA_TYPES:
            raise NotHtml("not_html", f"{final_url} is {media}, not HTML")
        body, truncated = self._read_capped(response, min(max_bytes, max(self._budget.bytes_left, 0)), deadline)
        if html_only and not media and not looks_like_html(body):
            raise NotHtml("not_html", f"{final_url} has no content type and does not look like HTML")
        return Fetched(requested_url, final_url, response.status_code, content_type, body, truncated, redirects)

    def _read_capped(self, response: httpx.Response, limit: int, deadline: float) -> tuple[bytes, bool]:
        """Read at most ``limit`` decoded bytes; True if more was available."""
        decoder = BoundedDecoder(response.headers.get("content-encoding", ""))
        body = bytearray()
        raw_read = 0
        truncated = False
        try:
            for chunk in response.iter_raw():
                if self._budget.now() > deadline:
                    raise SiteUnreachable("timeout", f"{response.url} was too slow to send its body")
                raw_read += len(chunk)
                body += decoder.decode(chunk, limit - len(body) + 1)
                if len(body) > limit or raw_read > limit:
                    truncated = True
                    del body[limit:]
                    break
        except httpx.TimeoutException:
            raise SiteUnreachable("timeout", f"{response.url} was too slow to send its body") from None
        except httpx.HTTPError as exc:
            raise SiteUnreachable("read_failed", f"{response.url} broke off: {exc}") from None
        self._budget.spend(len(body))
        return bytes(body), truncated

