"""Bearer-token authentication for REST and MCP: one verifier chain, the 401/403 challenges,
and the RFC 9728 protected resource metadata.

`BearerAuthenticator` is the executor's `Authenticator`: no `Authorization`
header means an anonymous caller (public operations answer, protected ones
401); a header that is present must be valid, on public operations too (a
client sending a bad key learns at once instead of getting anonymous answers).

The chain holds one `TokenVerifier` per token kind. Today that is
`ApiKeyVerifier` (`ldk_...`); the OAuth authorization server, when it exists,
adds a verifier for its access tokens (it returns a `Principal` with
`kind="oauth"` and the `client_id`), and nothing else changes.
"""

from __future__ import annotations

import hmac
import logging
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any, Protocol

import anyio.to_thread
import orjson
from psycopg_pool import ConnectionPool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from aggregates.account import SCOPES
from api.problems import from_domain
from api.registry import Operation
from api.services import Principal
from commands.apikeys import PREFIX, hash_key, parse_key
from events.errors import DomainError, Forbidden, Unauthorized
from projections.periodic import Periodic
from projections.reads import ReadStore
from queries import accounts as accounts_q

log = logging.getLogger(__name__)
WELL_KNOWN = "/.well-known/oauth-protected-resource"
RESOURCES = {"mcp": "/mcp", "rest": "/api/v1"}  # channel -> protected resource path
USAGE = "launchdir_api_key_usage"


class InvalidToken(Unauthorized):
    """Credentials were sent but are not valid (RFC 6750 `invalid_token` / `invalid_request`)."""

    def __init__(self, detail: str, error: str = "invalid_token") -> None:
        super().__init__(detail)
        self.error = error


class TokenVerifier(Protocol):
    """One kind of bearer token. Raise `InvalidToken` with a specific detail for a bad one."""

    def accepts(self, token: str) -> bool:
        """Whether this verifier is responsible for tokens shaped like this one."""

    async def verify(self, token: str) -> Principal:
        """The caller this token stands for."""


class BearerAuthenticator:
    """The executor's Authenticator: `Authorization: Bearer <token>` through a chain of verifiers."""

    def __init__(self, verifiers: Sequence[TokenVerifier]) -> None:
        self.verifiers = list(verifiers)

    async def authenticate(self, authorization: str | None, channel: str | None = None) -> Principal | None:
        """`channel` ("rest", "mcp"), when given, reaches verifiers that check a token's audience (`verify_for`)."""
        if authorization is None:
            return None
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer":
            raise InvalidToken("the Authorization header must be 'Bearer <API key or access token>'", "invalid_request")
        token = token.strip()
        if not token:
            raise InvalidToken("the bearer token is empty", "invalid_request")
        for verifier in self.verifiers:
            if verifier.accepts(token):
                verify_for = getattr(verifier, "verify_for", None)  # optional: audience-bound tokens (OAuth)
                if channel is not None and verify_for is not None:
                    return await verify_for(token, channel)  # type: ignore[no-any-return]
                return await verifier.verify(token)
        raise InvalidToken(f"unknown kind of token: API keys start with {PREFIX}, and OAuth access tokens are "
                           "issued by this site's /oauth/token")


# ---------------------------------------------------------------- API keys


class KeyUsage:
    """Last-used times of API keys: remembered in memory per request, written at most once a minute.

    An event per request would flood the log and contend with the account
    stream; last use is operational information, so it lives in a small
    infrastructure table (`launchdir_api_key_usage`) written in batches.
    """

    def __init__(self, pool: ConnectionPool, interval: float = 60.0) -> None:
        self.pool = pool
        self.interval = interval
        self._pending: dict[str, float] = {}  # key id -> epoch seconds
        self._lock = threading.Lock()
        self._loop = Periodic("api-key-usage", interval, self.flush, final=self.flush)

    def setup(self) -> None:
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(7311003)")
            conn.execute(f"CREATE TABLE IF NOT EXISTS {USAGE} (key_id text PRIMARY KEY, last_used_at timestamptz NOT NULL)")

    def touch(self, key_id: str, at: float | None = None) -> None:
        """Remember a use (wall-clock epoch seconds): one dict store per request; the flush takes the latest."""
        self._pending[key_id] = time.time() if at is None else at

    def flush(self) -> int:
        with self._lock:
            pending, self._pending = self._pending, {}
        if not pending:
            return 0
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {USAGE} AS u (key_id, last_used_at) VALUES (%s, %s) ON CONFLICT (key_id) "
                "DO UPDATE SET last_used_at = greatest(u.last_used_at, EXCLUDED.last_used_at)",
                [(key_id, datetime.fromtimestamp(at, timezone.utc)) for key_id, at in sorted(pending.items())],
            )
        return len(pending)

    def last_used(self, key_ids: list[str]) -> dict[str, datetime]:
        if not key_ids:
            return {}
        with self.pool.connection() as conn:
            rows = conn.execute(f"SELECT key_id, last_used_at FROM {USAGE} WHERE key_id = ANY(%s)", (key_ids,)).fetchall()
        used = {r[0]: r[1] for r in rows}
        for key_id in key_ids:
            at = self._pending.get(key_id)
            pending = datetime.fromtimestamp(at, timezone.utc) if at is not None else None
            if pending is not None and (key_id not in used or pending > used[key_id]):
                used[key_id] = pending
        return used

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        """Stop the thread and record what is pending."""
        self._loop.stop()


class ApiKeyVerifier:
    """`ldk_<key id>_<secret>`: look the key up by id (cached), compare the hash in constant time.

    A cached row (and, for a key that checked out, the caller it stands for,
    keyed by the key's hash) is used while the `accounts_view` projection has
    not moved and for at most `ttl` seconds; a revocation moves the projection,
    so a revoked key fails at once in every process that sees the move. Expiry
    is checked on every request. A hot key costs a SHA-256 and a dict lookup.
    """

    def __init__(self, reads: ReadStore, clock: Callable[[], datetime], usage: KeyUsage | None = None,
                 ttl: float = 5.0) -> None:
        self.reads = reads
        self.clock = clock
        self.usage = usage
        self.ttl = ttl
        self._cache: dict[str, tuple[tuple[int, int], float, dict[str, Any] | None]] = {}
        self._verified: dict[str, tuple[tuple[int, int], float, str, Principal]] = {}

    def accepts(self, token: str) -> bool:
        return token.startswith(PREFIX)

    def _version(self) -> tuple[int, int]:
        runtime = self.reads.runtime
        return runtime.positions.get(accounts_q.VIEW, 0), runtime.generations.get(accounts_q.VIEW, 0)

    async def _row(self, key_id: str) -> dict[str, Any] | None:
        version = self._version()
        hit = self._cache.get(key_id)
        if hit is not None and hit[0] == version and time.monotonic() - hit[1] < self.ttl:
            return hit[2]
        row = await anyio.to_thread.run_sync(accounts_q.key_for_auth, self.reads, key_id)
        if self._version() == version:
            if len(self._cache) > 50_000:
                self._cache.clear()
            self._cache[key_id] = (version, time.monotonic(), row)
        return row

    def forget(self, key_id: str) -> None:
        """Drop what this process remembers about a key (its own revocations need not wait for the projection)."""
        self._cache.pop(key_id, None)
        self._verified = {d: v for d, v in list(self._verified.items()) if v[2] != key_id}  # snapshot: other threads insert

    async def verify(self, token: str) -> Principal:
        digest = hash_key(token)
        version = self._version()
        hit = self._verified.get(digest)
        if hit is not None and hit[0] == version and time.monotonic() - hit[1] < self.ttl:
            key_id, principal = hit[2], hit[3]
        else:
            key_id, principal = await self._check(token, digest, version)
        expires_at = principal.expires_at
        if expires_at is not None and self.clock() >= expires_at:
            raise InvalidToken(f"this API key expired at {expires_at.isoformat()}")
        if self.usage is not None:
            self.usage.touch(key_id)
        return principal

    async def _check(self, token: str, digest: str, version: tuple[int, int]) -> tuple[str, Principal]:
        key_id = parse_key(token)
        if key_id is None:
            raise InvalidToken("malformed API key: expected ldk_, a 16-character key id, '_' and a 64-character secret")
        row = await self._row(key_id)
        if row is None or not hmac.compare_digest(digest, row["secret_hash"]):
            raise InvalidToken("unknown API key")
        if row["revoked_at"] is not None:
            raise InvalidToken("this API key was revoked")
        principal = Principal(account_id=row["account_id"], scopes=row["scopes"], kind="api_key",
                              expires_at=row["expires_at"], client_id=None, is_staff=row["is_staff"],
                              key_id=key_id)
        if self._version() == version:
            if len(self._verified) > 50_000:
                self._verified.clear()
            self._verified[digest] = (version, time.monotonic(), key_id, principal)
        return key_id, principal


# ---------------------------------------------------------------- challenges and resource metadata


def resource_metadata_url(base_url: str, channel: str) -> str:
    return base_url + WELL_KNOWN + RESOURCES.get(channel, RESOURCES["rest"])


def _quoted(text: str) -> str:
    return "".join(c for c in text if c not in '"\\' and 32 <= ord(c) < 127)


def challenge_for(base_url: str) -> Callable[[Operation, DomainError, str], str]:
    """The executor's `challenge` hook: RFC 6750 `WWW-Authenticate` with RFC 9728 `resource_metadata`."""

    def challenge(op: Operation, err: DomainError, channel: str = "rest") -> str:
        parts: list[str] = []
        if isinstance(err, Forbidden):
            parts.append('error="insufficient_scope"')
            if err.scope or op.scope:
                parts.append(f'scope="{err.scope or op.scope}"')
        elif isinstance(err, InvalidToken):
            parts += [f'error="{err.error}"', f'error_description="{_quoted(err.detail)}"']
        elif op.scope:
            parts.append(f'scope="{op.scope}"')
        parts.append(f'resource_metadata="{resource_metadata_url(base_url, channel)}"')
        return "Bearer " + ", ".join(parts)

    return challenge


def protected_resource_routes(base_url: str, site_name: str = "launchdir") -> list[Route]:
    """RFC 9728 documents for the two protected resources: the MCP server and the REST API."""

    def endpoint(doc: dict[str, Any]) -> Callable[[Request], Any]:
        body = orjson.dumps(doc)

        async def serve(request: Request) -> Response:
            return Response(body, media_type="application/json",
                            headers={"access-control-allow-origin": "*", "cache-control": "public, max-age=3600"})

        return serve

    routes = []
    for channel, path in RESOURCES.items():
        doc = {
            "resource": base_url + path,
            "authorization_servers": [base_url],
            "scopes_supported": list(SCOPES),
            "bearer_methods_supported": ["header"],
            "resource_name": f"{site_name} {'MCP server' if channel == 'mcp' else 'REST API'}",
            "resource_documentation": base_url + "/api/v1/docs",
        }
        routes.append(Route(WELL_KNOWN + path, endpoint(doc), methods=["GET"]))
    return routes


class McpBearerGuard:
    """Around /mcp: a bearer token that is sent but not valid is an HTTP 401 with the challenge,
    as the MCP authorization specification asks (the client can then sign in again).
    Requests without credentials pass: public tools need none, protected tools answer 401 as tool errors."""

    def __init__(self, app: ASGIApp, authenticator: BearerAuthenticator, base_url: str) -> None:
        self.app = app
        self.authenticator = authenticator
        self.metadata = resource_metadata_url(base_url, "mcp")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") != "OPTIONS":
            header = next((v for k, v in scope.get("headers") or [] if k == b"authorization"), None)
            if header is not None:
                try:
                    await self.authenticator.authenticate(header.decode("latin-1"), channel="mcp")
                except Unauthorized as exc:
                    await self._refuse(send, exc)
                    return
        await self.app(scope, receive, send)

    async def _refuse(self, send: Send, exc: Unauthorized) -> None:
        error = exc.error if isinstance(exc, InvalidToken) else "invalid_token"
        challenge = f'Bearer error="{error}", error_description="{_quoted(exc.detail)}", resource_metadata="{self.metadata}"'
        body = orjson.dumps(from_domain(exc))
        await send({"type": "http.response.start", "status": 401, "headers": [
            (b"content-type", b"application/problem+json"), (b"content-length", str(len(body)).encode()),
            (b"www-authenticate", challenge.encode()),
        ]})
        await send({"type": "http.response.body", "body": body})
