"""Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): the guarded fetcher.

The adapter to the web servers of OAuth clients; the authorization server reaches it through
the `ClientMetadataDocuments` port of `api/oauth/clients.py`, wired in `launchdir/`.

A client may use an https URL as its `client_id`; the authorization server
fetches the JSON document at that URL to learn the client's name and redirect
URIs. Fetching a URL chosen by a stranger is a server-side request forgery
risk, so every fetch goes through the crawler's address guard (no private,
loopback, link-local or metadata addresses, checked again at connect time so
DNS rebinding cannot slip through; loopback only with the explicit test
setting), follows no redirects, reads at most `max_bytes` (5 KB) within
`timeout` (5 s), and keeps at most `max_entries` documents in memory for as
long as their `Cache-Control` says, clamped to [`min_ttl`, `max_ttl`]
(`no-store` and `no-cache` are not cached).

The document must be a JSON object whose `client_id` equals the URL exactly,
with `client_name` and `redirect_uris`; URL clients are public clients (no
`client_secret`; `token_endpoint_auth_method`, when given, is `none`).
"""

from __future__ import annotations

import re
import ssl
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx
import orjson

from aggregates.oauth import MAX_NAME, MAX_REDIRECT_URIS, MAX_URI, redirect_uri_problem, scopes_problem
from workers.adapters.websites.address_guard import check_url_syntax
from workers.adapters.websites.errors import BlockedAddress, CrawlError
from workers.adapters.websites.transport import GuardedNetworkBackend

USER_AGENT = "launchdir-oauth/1.0 (client ID metadata document fetcher)"
MAX_AGE = re.compile(r"(?:^|[,\s])max-age\s*=\s*\"?(\d+)")


class CimdError(Exception):
    """The client ID metadata document cannot be used; the message says why (shown to the client developer)."""


@dataclass(frozen=True)
class ClientMetadata:
    client_id: str  # the URL
    client_name: str
    redirect_uris: tuple[str, ...]
    grant_types: tuple[str, ...]
    scope: str | None
    client_uri: str | None
    logo_uri: str | None

    @property
    def host(self) -> str:
        """The domain the consent page shows: the host of the client_id URL (proven by serving the document)."""
        return urlsplit(self.client_id).hostname or ""


def client_id_url_problem(url: str) -> str | None:
    """Why this URL cannot be a client_id (None when it can): https, a path, no fragment, user info or dot segments."""
    if len(url) > MAX_URI:
        return f"a client_id URL may have at most {MAX_URI} characters"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        return "the client_id URL cannot be parsed"
    if parts.scheme != "https":
        return "a client_id URL must use https"
    if not parts.hostname:
        return "the client_id URL has no host"
    if parts.username or parts.password:
        return "a client_id URL must not contain a user name or password"
    if "#" in url:
        return "a client_id URL must not contain a fragment"
    if parts.path in ("", "/"):
        return "a client_id URL must have a path (e.g. https://app.example/oauth/client.json)"
    if any(seg in (".", "..") for seg in parts.path.split("/")):
        return "a client_id URL must not contain . or .. path segments"
    return None


def cache_seconds(header: str | None, *, default: float, low: float, high: float) -> float:
    """How long to keep a document: 0 for no-store/no-cache, else max-age (or `default`) within [low, high]."""
    value = (header or "").lower()
    if "no-store" in value or "no-cache" in value:
        return 0.0
    m = MAX_AGE.search(value)
    seconds = float(m.group(1)) if m else default
    return max(low, min(high, seconds))


def parse_document(url: str, body: bytes) -> ClientMetadata:
    """Validate a fetched document against its URL; raise CimdError with the first problem."""
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise CimdError("the client metadata document is not valid JSON") from None
    if not isinstance(doc, dict):
        raise CimdError("the client metadata document must be a JSON object")
    if doc.get("client_id") != url:
        raise CimdError(f"the document's client_id {doc.get('client_id')!r} is not the URL it was fetched from ({url})")
    name = doc.get("client_name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise CimdError(f"client_name is required: a non-empty string of at most {MAX_NAME} characters")
    uris = doc.get("redirect_uris")
    if not isinstance(uris, list) or not uris or len(uris) > MAX_REDIRECT_URIS:
        raise CimdError(f"redirect_uris is required: a list of 1 to {MAX_REDIRECT_URIS} URIs")
    for uri in uris:
        if problem := redirect_uri_problem(uri):
            raise CimdError(problem)
    if "client_secret" in doc or "client_secret_expires_at" in doc:
        raise CimdError("a client metadata document must not contain a client_secret")
    method = doc.get("token_endpoint_auth_method", "none")
    if method != "none":
        raise CimdError(f"token_endpoint_auth_method {method!r} is not supported for URL clients: use none")
    grant_types = doc.get("grant_types", ["authorization_code"])
    if (not isinstance(grant_types, list) or "authorization_code" not in grant_types
            or set(grant_types) - {"authorization_code", "refresh_token"}):
        raise CimdError("grant_types: include authorization_code; refresh_token is the only other grant type supported")
    if doc.get("response_types", ["code"]) != ["code"]:
        raise CimdError('response_types: only ["code"] is supported')
    scope = doc.get("scope")
    if scope is not None and (not isinstance(scope, str) or (problem := scopes_problem(scope.split()))):
        raise CimdError(f"scope: {problem if isinstance(scope, str) else 'a space-separated string'}")
    extras: dict[str, str | None] = {}
    for key in ("client_uri", "logo_uri"):
        value = doc.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > MAX_URI):
            raise CimdError(f"{key}: a URL string of at most {MAX_URI} characters")
        extras[key] = value
    return ClientMetadata(url, name.strip(), tuple(str(u) for u in uris), tuple(grant_types), scope,
                          extras["client_uri"], extras["logo_uri"])


class _Transport(httpx.HTTPTransport):
    """HTTP/1.1 without proxies, connecting only to addresses the guard allows, with our TLS trust."""

    def __init__(self, *, allow_loopback: bool, ssl_context: ssl.SSLContext) -> None:
        super().__init__(trust_env=False, retries=0)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context, max_connections=2, max_keepalive_connections=0, http1=True, http2=False,
            retries=0, network_backend=GuardedNetworkBackend(allow_loopback=allow_loopback, resolver=None),
        )


class CimdFetcher:
    """Fetches, validates and caches client ID metadata documents (thread-safe; blocking: call from a worker thread)."""

    def __init__(self, *, allow_loopback: bool = False, ca_file: str | None = None, max_bytes: int = 5 * 1024,
                 timeout: float = 5.0, min_ttl: float = 60.0, max_ttl: float = 86_400.0, default_ttl: float = 300.0,
                 max_entries: int = 1000, max_concurrent: int = 8,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.allow_loopback = allow_loopback
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.min_ttl, self.max_ttl, self.default_ttl = min_ttl, max_ttl, default_ttl
        self.max_entries = max_entries
        self.clock = clock
        self._ssl = httpx.create_ssl_context(trust_env=False)
        if ca_file:
            self._ssl.load_verify_locations(cafile=ca_file)  # an extra trust anchor (tests, private PKI)
        self._cache: OrderedDict[str, tuple[float, ClientMetadata]] = OrderedDict()
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(max_concurrent)
        self.fetches = 0  # how many documents were actually fetched (tests and logs)

    def get(self, url: str) -> ClientMetadata:
        """The validated document of this client_id URL, from the cache while it is fresh."""
        if problem := client_id_url_problem(url):
            raise CimdError(problem)
        now = self.clock()
        with self._lock:
            hit = self._cache.get(url)
            if hit is not None and hit[0] > now:
                self._cache.move_to_end(url)
                return hit[1]
        body, cache_control = self._fetch(url)
        metadata = parse_document(url, body)
        ttl = cache_seconds(cache_control, default=self.default_ttl, low=self.min_ttl, high=self.max_ttl)
        with self._lock:
            if ttl > 0:
                self._cache[url] = (self.clock() + ttl, metadata)
                self._cache.move_to_end(url)
                while len(self._cache) > self.max_entries:
                    self._cache.popitem(last=False)
            else:
                self._cache.pop(url, None)
        return metadata

    def lookup(self, url: str) -> ClientMetadata | str:
        """`get`, with a refusal as its message instead of an exception (the authorization server's port)."""
        try:
            return self.get(url)
        except CimdError as exc:
            return str(exc)

    def forget(self, url: str) -> None:
        with self._lock:
            self._cache.pop(url, None)

    def _fetch(self, url: str) -> tuple[bytes, str | None]:
        try:
            check_url_syntax(url, allow_loopback=self.allow_loopback)
        except BlockedAddress as exc:
            raise CimdError(f"the client_id URL is not allowed: {exc.detail}") from None
        if not self._slots.acquire(timeout=self.timeout):
            raise CimdError("too many client metadata documents are being fetched right now; try again")
        try:
            self.fetches += 1
            return self._download(url)
        finally:
            self._slots.release()

    def _download(self, url: str) -> tuple[bytes, str | None]:
        deadline = time.monotonic() + self.timeout
        transport = _Transport(allow_loopback=self.allow_loopback, ssl_context=self._ssl)
        headers = {"accept": "application/json", "user-agent": USER_AGENT}
        try:
            with httpx.Client(transport=transport, timeout=self.timeout, follow_redirects=False) as client, \
                    client.stream("GET", url, headers=headers) as response:
                if response.is_redirect:
                    raise CimdError(f"{url} answered HTTP {response.status_code} (a redirect): redirects are not followed")
                if response.status_code != 200:
                    raise CimdError(f"{url} answered HTTP {response.status_code}, not 200")
                media = response.headers.get("content-type", "").split(";")[0].strip().lower()
                if media != "application/json" and not media.endswith("+json"):
                    raise CimdError(f"{url} answered {media or 'no content type'}, not application/json")
                declared = response.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > self.max_bytes:
                    raise CimdError(f"the client metadata document is larger than {self.max_bytes} bytes")
                body = bytearray()
                for chunk in response.iter_raw():
                    body += chunk
                    if len(body) > self.max_bytes:
                        raise CimdError(f"the client metadata document is larger than {self.max_bytes} bytes")
                    if time.monotonic() > deadline:
                        raise CimdError(f"fetching {url} took longer than {self.timeout:g} s")
                return bytes(body), response.headers.get("cache-control")
        except BlockedAddress as exc:  # the address guard, at connect time
            raise CimdError(f"the client_id URL is not allowed: {exc.detail}") from None
        except CrawlError as exc:  # e.g. the host does not resolve
            raise CimdError(f"could not fetch {url}: {exc.detail}") from None
        except httpx.TimeoutException:
            raise CimdError(f"fetching {url} took longer than {self.timeout:g} s") from None
        except httpx.HTTPError as exc:
            reason = _cause(exc)
            raise CimdError(f"could not fetch {url}: {reason}") from None


def _cause(exc: BaseException) -> str:
    """The innermost useful message (an address-guard refusal or a TLS failure is wrapped by httpcore and httpx)."""
    seen: Any = exc
    while seen is not None:
        if isinstance(seen, CrawlError):
            return seen.detail
        if isinstance(seen, ssl.SSLError):
            return f"TLS failed ({seen.reason or seen})"
        seen = seen.__cause__ or seen.__context__
    return str(exc) or type(exc).__name__
