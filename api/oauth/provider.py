"""The MCP SDK's `OAuthAuthorizationServerProvider`, on our commands, streams and read tables.

The SDK's handlers parse and check requests (PKCE S256 verification, redirect
URI equality between /authorize and /token, code and refresh-token expiry)
and call this provider; every decision that changes state is a command
(`commands/oauth.py`), so it is an event. What the SDK handlers cannot see
comes in through two context variables set by our route wrappers
(`api/oauth/routes.py`): the raw /authorize parameters (to refuse a missing
`code_challenge_method`, which the SDK would default to S256) and the /token
form (to check the RFC 8707 `resource` against the code's or the family's).

Pending authorization requests (between /authorize and the consent page's
answer) live ten minutes in the infrastructure table `launchdir_oauth_requests`:
they are not domain facts, and nothing is decided until the person answers.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import urlencode, urlsplit
from uuid import UUID

import anyio.to_thread
import orjson
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    RefreshToken,
    RegistrationError,
    TokenError,
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from psycopg_pool import ConnectionPool
from pydantic import ValidationError
from starlette.datastructures import FormData

from aggregates.base import Meta
from aggregates.oauth import OAuthRefused
from api.oauth.clients import LaunchdirClient, ClientResolver
from api.services import Services
from commands import oauth as oauth_cmd
from queries import oauth as oauth_q

AUTHORIZE_PARAMS: ContextVar[Mapping[str, str] | None] = ContextVar("oauth_authorize_params", default=None)
TOKEN_FORM: ContextVar[FormData | None] = ContextVar("oauth_token_form", default=None)
REQUESTS = "launchdir_oauth_requests"
REQUEST_TTL = timedelta(minutes=10)
MAX_STATE = 1000
VIEWS = ["oauth_view"]
REGISTRATION_ERRORS = ("invalid_redirect_uri", "invalid_client_metadata")


class PendingRequests:
    """Authorization requests waiting for the person's answer: random id -> parameters, ten minutes, used once."""

    def __init__(self, pool: ConnectionPool) -> None:
        self.pool = pool

    def setup(self) -> None:
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(7311004)")
            conn.execute(f"CREATE TABLE IF NOT EXISTS {REQUESTS} (id text PRIMARY KEY, params jsonb NOT NULL, "
                         "expires_at timestamptz NOT NULL)")

    def create(self, params: dict[str, Any], now: datetime) -> str:
        request_id = secrets.token_urlsafe(24)
        with self.pool.connection() as conn, conn.transaction():
            conn.execute(f"DELETE FROM {REQUESTS} WHERE expires_at < %s", (now,))
            conn.execute(f"INSERT INTO {REQUESTS} (id, params, expires_at) VALUES (%s, %s, %s)",
                         (request_id, orjson.dumps(params).decode(), now + REQUEST_TTL))
        return request_id

    def get(self, request_id: str, now: datetime) -> dict[str, Any] | None:
        if not request_id or len(request_id) > 100:
            return None
        with self.pool.connection() as conn:
            row = conn.execute(f"SELECT params FROM {REQUESTS} WHERE id = %s AND expires_at > %s",
                               (request_id, now)).fetchone()
        return dict(row[0]) if row else None

    def take(self, request_id: str, now: datetime) -> dict[str, Any] | None:
        """Remove and return the request: an answer is given once."""
        if not request_id or len(request_id) > 100:
            return None
        with self.pool.connection() as conn:
            row = conn.execute(f"DELETE FROM {REQUESTS} WHERE id = %s RETURNING params, expires_at",
                               (request_id,)).fetchone()
        return dict(row[0]) if row and row[1] > now else None


class StoredCode(AuthorizationCode):
    grant_id: str
    family_id: str
    used: bool = False


class StoredRefreshToken(RefreshToken):
    family_id: str
    status: str  # "current" | "spent" | "revoked"


class StoredAccessToken(AccessToken):
    family_id: str


def _epoch(value: datetime | None) -> int | None:
    return int(value.timestamp()) if value is not None else None


class Provider:
    """Implements `mcp.server.auth.provider.OAuthAuthorizationServerProvider`."""

    def __init__(self, services: Services, resolver: ClientResolver, pending: PendingRequests, issuer: str,
                 resources: dict[str, str]) -> None:
        self.s = services
        self.resolver = resolver
        self.pending = pending
        self.issuer = issuer
        self.resources = resources  # channel -> resource URL (RFC 8707 audiences)
        self.consent_url = issuer + "/oauth/consent"

    def _meta(self, client_id: str) -> Meta:
        return Meta(at=self.s.now(), actor=f"oauth-client:{client_id[:200]}", channel="oauth")

    # ------------------------------------------------------------ clients

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        client, _ = await self.resolver.resolve(client_id)
        return client

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        expires = client_info.client_secret_expires_at
        try:
            cmd = oauth_cmd.RegisterClient(
                client_id=UUID(client_info.client_id), client_name=client_info.client_name,
                redirect_uris=[str(u) for u in client_info.redirect_uris or []],
                grant_types=list(client_info.grant_types), response_types=list(client_info.response_types),
                token_endpoint_auth_method=client_info.token_endpoint_auth_method or "none", scope=client_info.scope,
                client_uri=str(client_info.client_uri) if client_info.client_uri else None,
                logo_uri=str(client_info.logo_uri) if client_info.logo_uri else None,
                software_id=client_info.software_id, software_version=client_info.software_version,
                client_secret=client_info.client_secret,
                client_secret_expires_at=datetime.fromtimestamp(expires, timezone.utc) if expires else None,
            )
            await anyio.to_thread.run_sync(oauth_cmd.register_client, self.s.store, cmd, self._meta(client_info.client_id))
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"])
            raise RegistrationError("invalid_client_metadata", f"{where}: {first['msg']}") from None
        except OAuthRefused as refused:
            if refused.events:  # the refusal revoked tokens: make that visible to the verifier before answering
                await anyio.to_thread.run_sync(self.s.runtime.wait_for, VIEWS, self.s.store.position(), 2.0)
            error = refused.error if refused.error in REGISTRATION_ERRORS else "invalid_client_metadata"
            raise RegistrationError(error, refused.detail) from None  # type: ignore[arg-type]

    # ------------------------------------------------------------ authorization

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        """Check what the SDK does not (S256 named explicitly, the resource, the scopes), park the request, show consent."""
        raw = AUTHORIZE_PARAMS.get() or {}
        if raw.get("code_challenge_method") != "S256":
            raise AuthorizeError("invalid_request",
                                 "code_challenge_method is required and must be S256 (plain is not supported)")
        if len(params.code_challenge) != 43 or not all(c.isalnum() or c in "-_" for c in params.code_challenge):
            raise AuthorizeError("invalid_request",
                                 "code_challenge must be the base64url SHA-256 of the code verifier (43 characters)")
        if params.resource is None:
            raise AuthorizeError("invalid_target", "resource is required (RFC 8707): one of " + ", ".join(self.resources.values()))
        if params.resource not in self.resources.values():
            raise AuthorizeError("invalid_target", f"unknown resource {params.resource[:200]!r}: this server protects "
                                 + " and ".join(self.resources.values()))
        if not params.scopes:
            raise AuthorizeError("invalid_scope", "scope is required: ask for one or more of account:read, "
                                 "listings:write, orders:write")
        if params.state is not None and len(params.state) > MAX_STATE:
            raise AuthorizeError("invalid_request", f"state is longer than {MAX_STATE} characters")
        assert isinstance(client, LaunchdirClient)
        redirect_uri = str(params.redirect_uri)
        host = client.host if client.kind == "metadata_document" else (urlsplit(redirect_uri).hostname or client.host)
        pending = {
            "client_id": client.client_id, "client_name": client.display_name, "client_host": host,
            "client_kind": client.kind, "redirect_uri": redirect_uri,
            "redirect_uri_explicit": params.redirect_uri_provided_explicitly, "scopes": params.scopes,
            "state": params.state, "code_challenge": params.code_challenge, "resource": params.resource,
        }
        request_id = await anyio.to_thread.run_sync(self.pending.create, pending, self.s.clock())
        return self.consent_url + "?" + urlencode({"request": request_id})

    async def load_authorization_code(self, client: OAuthClientInformationFull, authorization_code: str) -> StoredCode | None:
        found = await anyio.to_thread.run_sync(oauth_cmd.find_code, self.s.store, authorization_code)
        if found is None or found[1].client_id != client.client_id:
            return None
        grant, code = found
        if code.used:  # a replay: revoke what the code gave, whatever else is wrong with this request (OAuth 2.1 §4.1.3)
            position = await anyio.to_thread.run_sync(oauth_cmd.revoke_replayed_code, self.s.store, authorization_code,
                                                      self._meta(client.client_id))
            await anyio.to_thread.run_sync(self.s.runtime.wait_for, VIEWS, position, 2.0)
        return StoredCode(
            code=authorization_code, scopes=list(code.scopes), expires_at=code.expires_at.timestamp(),
            client_id=code.client_id, code_challenge=code.code_challenge, redirect_uri=code.redirect_uri,  # type: ignore[arg-type]
            redirect_uri_provided_explicitly=code.redirect_uri_explicit, resource=code.resource,
            subject=grant.account_id, grant_id=str(grant.id), family_id=code.family_id, used=code.used,
        )

    async def exchange_authorization_code(self, client: OAuthClientInformationFull, authorization_code: StoredCode) -> OAuthToken:
        if authorization_code.used:
            raise TokenError("invalid_grant", "this authorization code was already used; the tokens issued with it are revoked now")
        self._check_resource(authorization_code.resource)
        cmd = oauth_cmd.RedeemCode(code=authorization_code.code, client_id=client.client_id,
                                   with_refresh_token="refresh_token" in client.grant_types)
        tokens = await self._run(oauth_cmd.redeem_code, cmd, client.client_id)
        return self._answer(tokens)

    # ------------------------------------------------------------ refresh

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> StoredRefreshToken | None:
        family_id = oauth_cmd.refresh_family(refresh_token)
        if family_id is None:
            return None
        family = await anyio.to_thread.run_sync(oauth_cmd.load_family, self.s.store, family_id)
        if not family.exists or family.client_id != client.client_id:
            return None
        presented = oauth_cmd.hash_secret(refresh_token)
        if family.revoked_reason is not None and (presented == family.refresh_hash or presented in family.spent):
            status, expires = "revoked", family.refresh_expires_at
        elif presented == family.refresh_hash:
            status, expires = "current", family.refresh_expires_at
        elif presented in family.spent:
            status, expires = "spent", family.spent[presented]
        else:
            return None
        return StoredRefreshToken(token=refresh_token, client_id=family.client_id, scopes=list(family.scopes),
                                  expires_at=_epoch(expires), resource=family.resource, subject=family.account_id,
                                  family_id=str(family_id), status=status)

    async def exchange_refresh_token(self, client: OAuthClientInformationFull, refresh_token: StoredRefreshToken,
                                     scopes: list[str]) -> OAuthToken:
        self._check_resource(refresh_token.resource)
        cmd = oauth_cmd.RefreshTokens(refresh_token=refresh_token.token, client_id=client.client_id, scopes=scopes or None)
        tokens = await self._run(oauth_cmd.refresh_tokens, cmd, client.client_id)
        return self._answer(tokens)

    # ------------------------------------------------------------ access tokens and revocation

    async def load_access_token(self, token: str) -> StoredAccessToken | None:
        if not oauth_cmd.is_access_token(token):
            return None
        row = await anyio.to_thread.run_sync(oauth_q.token_for_auth, self.s.reads, oauth_cmd.hash_secret(token))
        if row is None:
            return None
        return StoredAccessToken(token=token, client_id=row["client_id"], scopes=list(row["scopes"]),
                                 expires_at=_epoch(row["expires_at"]), resource=row["resource"],
                                 subject=row["account_id"], family_id=row["family_id"])

    async def revoke_token(self, token: StoredAccessToken | StoredRefreshToken) -> None:
        """RFC 7009: revoking either token of a family revokes the whole family (access and refresh)."""
        meta = self._meta(token.client_id)
        position = await anyio.to_thread.run_sync(oauth_cmd.revoke_family, self.s.store, UUID(token.family_id),
                                                  "revoked_by_client", meta)
        await anyio.to_thread.run_sync(self.s.runtime.wait_for, VIEWS, position, 2.0)

    # ------------------------------------------------------------ helpers

    def _check_resource(self, expected: str | None) -> None:
        form = TOKEN_FORM.get()
        requested = form.get("resource") if form is not None else None
        if isinstance(requested, str) and requested and requested != expected:
            raise TokenError("invalid_target", f"resource {requested[:200]!r} is not the resource this grant is for "
                             f"({expected}); ask for a new authorization to use another resource")

    async def _run(self, handler: Any, cmd: Any, client_id: str) -> oauth_cmd.Tokens:
        try:
            tokens: oauth_cmd.Tokens = await anyio.to_thread.run_sync(handler, self.s.store, cmd, self._meta(client_id))
        except OAuthRefused as refused:
            if refused.events:  # the refusal revoked tokens: make that visible to the verifier before answering
                await anyio.to_thread.run_sync(self.s.runtime.wait_for, VIEWS, self.s.store.position(), 2.0)
            error = refused.error if refused.error in ("invalid_grant", "invalid_scope", "invalid_target") else "invalid_grant"
            raise TokenError(error, refused.detail) from None  # type: ignore[arg-type]
        # the access token must work the moment the client has it: wait (bounded) for the verifier's table
        await anyio.to_thread.run_sync(self.s.runtime.wait_for, VIEWS, tokens.position, 2.0)
        return tokens

    def _answer(self, tokens: oauth_cmd.Tokens) -> OAuthToken:
        return OAuthToken(access_token=tokens.access_token, token_type="Bearer",
                          expires_in=int(oauth_cmd.ACCESS_TTL.total_seconds()), scope=" ".join(tokens.scopes),
                          refresh_token=tokens.refresh_token)
