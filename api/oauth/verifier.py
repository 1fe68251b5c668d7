"""The OAuth access-token verifier in the bearer chain (`api/auth.py`): `ldo_...` tokens.

It turns a token into `Principal(kind="oauth", client_id, scopes, expires_at)`
and checks the token's audience (RFC 8707 resource) against the door it is
used on: a token issued for `<base>/mcp` is refused on REST and one for
`<base>/api/v1` on MCP. The chain's `verify(token)` does not know the door,
so this verifier also offers `verify_for(token, channel)`, which
`BearerAuthenticator.authenticate(..., channel=...)` calls when it is given a
channel (the executor and the MCP guard always give one).

Rows come from `oauth_view.access_tokens` by the token's SHA-256 and are
cached while the projection has not moved (a revocation moves it in every
process) and for at most `ttl` seconds; expiry is checked on every call.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import anyio.to_thread

from api.auth import InvalidToken
from api.services import Principal
from commands import oauth as oauth_cmd
from projections.reads import ReadStore
from queries import oauth as oauth_q

PREFIXES = (oauth_cmd.ACCESS_PREFIX, oauth_cmd.REFRESH_PREFIX, oauth_cmd.CODE_PREFIX)


class OAuthTokenVerifier:
    def __init__(self, reads: ReadStore, clock: Callable[[], datetime], resources: dict[str, str], token_endpoint: str,
                 ttl: float = 5.0) -> None:
        self.reads = reads
        self.clock = clock
        self.resources = resources  # channel -> resource URL
        self.token_endpoint = token_endpoint
        self.ttl = ttl
        self._cache: dict[str, tuple[tuple[int, int], float, dict[str, Any] | None, Principal | None]] = {}

    def accepts(self, token: str) -> bool:
        return token.startswith(PREFIXES)

    async def verify(self, token: str) -> Principal:
        """The caller, without an audience check (for callers that do not know the door)."""
        principal, _ = await self._check(token)
        return principal

    async def verify_for(self, token: str, channel: str) -> Principal:
        """The caller, when the token was issued for the resource this channel serves."""
        principal, resource = await self._check(token)
        expected = self.resources.get(channel)
        if expected is None:
            raise InvalidToken(f"OAuth access tokens are not accepted on the {channel} channel")
        if resource != expected:
            raise InvalidToken(f"this access token was issued for {resource}, not for {expected}: "
                               f"ask for a token with resource={expected}")
        return principal

    def _version(self) -> tuple[int, int]:
        runtime = self.reads.runtime
        return runtime.positions.get(oauth_q.VIEW, 0), runtime.generations.get(oauth_q.VIEW, 0)

    async def _check(self, token: str) -> tuple[Principal, str]:
        if token.startswith(oauth_cmd.REFRESH_PREFIX):
            raise InvalidToken(f"this is a refresh token: exchange it at {self.token_endpoint} for an access token")
        if token.startswith(oauth_cmd.CODE_PREFIX):
            raise InvalidToken(f"this is an authorization code: exchange it at {self.token_endpoint} for an access token")
        digest = oauth_cmd.hash_secret(token)
        version = self._version()
        hit = self._cache.get(digest)
        if hit is not None and hit[0] == version and time.monotonic() - hit[1] < self.ttl:
            row, principal = hit[2], hit[3]  # only well-formed tokens are cached
        else:
            if not oauth_cmd.is_access_token(token):
                raise InvalidToken("malformed access token: expected ldo_ and 43 characters")
            row = await anyio.to_thread.run_sync(oauth_q.token_for_auth, self.reads, digest)
            principal = None
            if row is not None:
                principal = Principal(account_id=row["account_id"], scopes=frozenset(row["scopes"]), kind="oauth",
                                      expires_at=row["expires_at"], client_id=row["client_id"], is_staff=False)
            if self._version() == version:
                if len(self._cache) > 50_000:
                    self._cache.clear()
                self._cache[digest] = (version, time.monotonic(), row, principal)
        if row is None or principal is None:
            raise InvalidToken("unknown access token")
        if row["revoked_at"] is not None:
            raise InvalidToken("this access token was revoked")
        if self.clock() >= row["expires_at"]:
            raise InvalidToken(f"this access token expired at {row['expires_at'].isoformat()}: refresh it or sign in again")
        return principal, row["resource"]
