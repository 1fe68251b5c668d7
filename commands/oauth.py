"""OAuth commands: register a client, give consent (issue a code), redeem a code, refresh, revoke.

Secrets are drawn here and only their SHA-256 goes into events:

- authorization code `ldc_<grant id: 32 hex>_<43 random chars>` (the grant id
  says which stream to load: the write side answers, no projection lag);
- access token `ldo_<43 random chars>` (looked up by hash in `oauth_view`);
- refresh token `ldr_<family id: 32 hex>_<43 random chars>` (the family
  stream decides rotation and reuse, under optimistic concurrency).

Each random part is 256 bits (`secrets.token_urlsafe(32)`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from aggregates import oauth as o
from aggregates.base import Meta
from commands.store import Appended, EventStore, Loader
from events.base import Event
from events.oauth import OAuthTokenFamilyRevoked, OAuthTokensIssued, OAuthTokensRotated

CODE_TTL = timedelta(minutes=10)
ACCESS_TTL = timedelta(hours=1)
REFRESH_TTL = timedelta(days=30)
CODE_PREFIX, ACCESS_PREFIX, REFRESH_PREFIX = "ldc_", "ldo_", "ldr_"
_SECRET = r"[A-Za-z0-9_-]{43}"
CODE = re.compile(rf"^ldc_([0-9a-f]{{32}})_{_SECRET}$")
ACCESS = re.compile(rf"^ldo_{_SECRET}$")
REFRESH = re.compile(rf"^ldr_([0-9a-f]{{32}})_{_SECRET}$")


def hash_secret(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _random() -> str:
    return secrets.token_urlsafe(32)


def code_grant(code: str) -> UUID | None:
    """The grant stream a well-formed code belongs to, else None."""
    m = CODE.match(code)
    return UUID(m.group(1)) if m else None


def refresh_family(token: str) -> UUID | None:
    """The token family a well-formed refresh token belongs to, else None."""
    m = REFRESH.match(token)
    return UUID(m.group(1)) if m else None


def is_access_token(token: str) -> bool:
    return ACCESS.match(token) is not None


# ---------------------------------------------------------------- clients


class RegisterClient(BaseModel):
    """Register an OAuth client (RFC 7591)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    client_id: UUID
    client_name: str | None = None
    redirect_uris: list[str] = Field(max_length=o.MAX_REDIRECT_URIS)
    grant_types: list[str] = Field(max_length=5)
    response_types: list[str] = Field(max_length=5)
    token_endpoint_auth_method: str
    scope: str | None = Field(default=None, max_length=200)
    client_uri: str | None = None
    logo_uri: str | None = None
    software_id: str | None = None
    software_version: str | None = None
    client_secret: str | None = None  # hashed before it is stored
    client_secret_expires_at: datetime | None = None


def load_client(store: EventStore, client_id: UUID) -> o.ClientState:
    return store.load(client_id, o.CLIENT)


def register_client(store: EventStore, cmd: RegisterClient, meta: Meta) -> int:
    secret_hash = hash_secret(cmd.client_secret) if cmd.client_secret else None
    return store.decide(cmd.client_id, o.CLIENT, lambda s: o.decide_register_client(
        s, client_name=cmd.client_name, redirect_uris=cmd.redirect_uris, grant_types=cmd.grant_types,
        response_types=cmd.response_types, token_endpoint_auth_method=cmd.token_endpoint_auth_method,
        scope=cmd.scope, client_uri=cmd.client_uri, logo_uri=cmd.logo_uri, software_id=cmd.software_id,
        software_version=cmd.software_version, secret_hash=secret_hash,
        secret_expires_at=cmd.client_secret_expires_at, meta=meta)).position


# ---------------------------------------------------------------- consent and codes


class GiveConsent(BaseModel):
    """The signed-in account holder allows a client: issue one authorization code."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    account_id: str
    client_id: str = Field(max_length=o.MAX_URI)
    client_name: str = Field(max_length=o.MAX_NAME)
    client_host: str = Field(max_length=255)
    client_kind: str  # "registered" | "metadata_document"
    scopes: list[str] = Field(max_length=10)
    resource: str = Field(max_length=o.MAX_URI)
    redirect_uri: str = Field(max_length=o.MAX_URI)
    redirect_uri_explicit: bool
    code_challenge: str = Field(pattern=r"^[A-Za-z0-9_-]{43}$")


@dataclass(frozen=True)
class IssuedCode:
    code: str  # given to the client once, never stored
    grant_id: UUID
    expires_at: datetime
    position: int


def load_grant(store: EventStore, grant_id: UUID) -> o.GrantState:
    return store.load(grant_id, o.GRANT)


def load_family(store: EventStore, family_id: UUID) -> o.FamilyState:
    return store.load(family_id, o.FAMILY)


def give_consent(store: EventStore, cmd: GiveConsent, meta: Meta) -> IssuedCode:
    grant_id = o.grant_stream(cmd.account_id, cmd.client_id)
    expires_at = meta.at + CODE_TTL
    code, family_id = f"{CODE_PREFIX}{grant_id.hex}_{_random()}", str(uuid.uuid4())
    appended = store.decide(grant_id, o.GRANT, lambda s: o.decide_consent(
        s, account_id=cmd.account_id, client_id=cmd.client_id, client_name=cmd.client_name,
        client_host=cmd.client_host, client_kind=cmd.client_kind, scopes=cmd.scopes, resource=cmd.resource,
        code_hash=hash_secret(code), family_id=family_id, redirect_uri=cmd.redirect_uri,
        redirect_uri_explicit=cmd.redirect_uri_explicit, code_challenge=cmd.code_challenge, expires_at=expires_at,
        meta=meta))
    return IssuedCode(code, grant_id, expires_at, appended.position)


def find_code(store: EventStore, code: str) -> tuple[o.GrantState, o.Code] | None:
    """The grant and the code a presented code string names (used or not), else None."""
    grant_id = code_grant(code)
    if grant_id is None:
        return None
    grant = load_grant(store, grant_id)
    found = grant.codes.get(hash_secret(code))
    return (grant, found) if found is not None else None


# ---------------------------------------------------------------- tokens


@dataclass(frozen=True)
class Tokens:
    access_token: str
    access_expires_at: datetime
    refresh_token: str | None
    refresh_expires_at: datetime | None
    scopes: list[str]
    resource: str
    family_id: UUID
    account_id: str
    position: int


class RedeemCode(BaseModel):
    """Exchange an authorization code (PKCE and redirect URI already checked) for tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    code: str = Field(max_length=200)
    client_id: str = Field(max_length=o.MAX_URI)
    with_refresh_token: bool = True


def _refresh_token(family_id: UUID, secret: str) -> str:
    return f"{REFRESH_PREFIX}{family_id.hex}_{secret}"


def _refusal_revokes(store: EventStore, meta: Meta, decide: Callable[[], Appended]) -> Appended:
    """Run a token decision; when its refusal revokes a token family (a replayed code, a reused
    refresh token), record the revocation, decided again on the family as it is now, then refuse."""
    try:
        return decide()
    except o.OAuthRefused as refused:
        for event in refused.events:
            assert isinstance(event, OAuthTokenFamilyRevoked), event
            revoke_family(store, event.originator_id, event.reason, meta)
        raise


def redeem_code(store: EventStore, cmd: RedeemCode, meta: Meta) -> Tokens:
    grant_id = code_grant(cmd.code)
    if grant_id is None:
        raise o.OAuthRefused("invalid_grant", "malformed authorization code")
    code_hash = hash_secret(cmd.code)
    access, secret = f"{ACCESS_PREFIX}{_random()}", _random()
    access_expires = meta.at + ACCESS_TTL
    refresh_expires = meta.at + REFRESH_TTL if cmd.with_refresh_token else None

    def decision(load: Loader) -> list[Event]:
        grant = load(grant_id, o.GRANT)
        code = grant.codes.get(code_hash)
        family = load(UUID(code.family_id), o.FAMILY) if code else o.initial_family(uuid.uuid4())
        refresh_hash = hash_secret(_refresh_token(family.id, secret)) if cmd.with_refresh_token else None
        return o.decide_redeem(
            grant, family, code_hash=code_hash, client_id=cmd.client_id, access_hash=hash_secret(access),
            access_expires_at=access_expires, refresh_hash=refresh_hash, refresh_expires_at=refresh_expires, meta=meta)

    appended = _refusal_revokes(store, meta, lambda: store.decide_across(decision))
    issued = appended.events[-1]
    assert isinstance(issued, OAuthTokensIssued)
    family_id = issued.originator_id
    refresh = _refresh_token(family_id, secret) if cmd.with_refresh_token else None
    return Tokens(access, access_expires, refresh, refresh_expires, list(issued.scopes), issued.resource, family_id,
                  issued.account_id, appended.position)


def revoke_replayed_code(store: EventStore, code: str, meta: Meta) -> int:
    """A used code was presented again: revoke the family it started (whatever the rest of the request)."""
    found = find_code(store, code)
    if found is None or not found[1].used:
        return store.position()
    return revoke_family(store, UUID(found[1].family_id), "code_replayed", meta)


class RefreshTokens(BaseModel):
    """Rotate a refresh token: the presented one is spent, a new pair replaces it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    refresh_token: str = Field(max_length=200)
    client_id: str = Field(max_length=o.MAX_URI)
    scopes: list[str] | None = None


def refresh_tokens(store: EventStore, cmd: RefreshTokens, meta: Meta) -> Tokens:
    family_id = refresh_family(cmd.refresh_token)
    if family_id is None:
        raise o.OAuthRefused("invalid_grant", "malformed refresh token")
    presented = hash_secret(cmd.refresh_token)
    access, refresh = f"{ACCESS_PREFIX}{_random()}", _refresh_token(family_id, _random())
    access_expires, refresh_expires = meta.at + ACCESS_TTL, meta.at + REFRESH_TTL

    def decision(load: Loader) -> list[Event]:
        family = load(family_id, o.FAMILY)
        grant = load(UUID(family.grant_id), o.GRANT) if family.exists else o.initial_grant(uuid.uuid4())
        return o.decide_refresh(
            family, grant, presented_hash=presented, client_id=cmd.client_id, scopes=cmd.scopes,
            access_hash=hash_secret(access), access_expires_at=access_expires, refresh_hash=hash_secret(refresh),
            refresh_expires_at=refresh_expires, meta=meta)

    appended = _refusal_revokes(store, meta, lambda: store.decide_across(decision))
    rotated, family = appended.events[-1], appended.states[family_id]
    assert isinstance(rotated, OAuthTokensRotated)
    return Tokens(access, access_expires, refresh, refresh_expires, list(rotated.scopes), family.resource, family_id,
                  family.account_id, appended.position)


def revoke_family(store: EventStore, family_id: UUID, reason: str, meta: Meta) -> int:
    """Revoke every token of a family (RFC 7009 revocation, replays, reuse); revoking twice changes nothing."""
    return store.decide(family_id, o.FAMILY, lambda s: o.decide_revoke_family(s, reason, meta)).position


class RevokeGrant(BaseModel):
    """Revoke a connected app: every token it holds for this account stops working."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    grant_id: UUID
    account_id: str


def revoke_grant(store: EventStore, cmd: RevokeGrant, meta: Meta) -> int:
    return store.decide(cmd.grant_id, o.GRANT, lambda s: o.decide_revoke_grant(s, cmd.account_id, meta)).position
