"""Deciders of the OAuth authorization server: registered clients, grants, token families.

- A **client** stream per dynamically registered client (RFC 7591).
- A **grant** stream per account and client (uuid5 of both): consents and the
  authorization codes issued from them. Codes are single use; a grant keeps
  an `epoch` that the account holder's "revoke" moves on, which voids every
  code and token family issued before it.
- A **token family** stream per redeemed code (its id is drawn when the code
  is issued): the first access and refresh tokens, each rotation, revocation.
  A refresh token works once; presenting a spent one revokes the family.

Handlers pass hashes, ids and expiry times; deciders never hash, draw random
numbers or read the clock. `OAuthRefused` carries the OAuth error code
(`invalid_grant`, `invalid_scope`...) and, when refusing must still change
something (a replayed code, a reused refresh token revoke their family), the
events to append before the refusal is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import singledispatch
from typing import Any
from urllib.parse import urlsplit
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.account import SCOPES
from aggregates.base import Emitter, Meta, StreamKind, one
from events.base import Event
from events.errors import Conflict, InvalidInput, NotFound
from events.oauth import (
    OAuthClientRegistered,
    OAuthCodeIssued,
    OAuthCodeRedeemed,
    OAuthConsentGiven,
    OAuthGrantRevoked,
    OAuthTokenFamilyRevoked,
    OAuthTokensIssued,
    OAuthTokensRotated,
)

AUTH_METHODS = ("none", "client_secret_post", "client_secret_basic")
GRANT_TYPES = ("authorization_code", "refresh_token")
CODE_MEMORY = timedelta(days=1)  # used and expired codes are remembered this long (replays are recognised)
MAX_REDIRECT_URIS = 10
MAX_URI = 2000
MAX_NAME = 200
FORBIDDEN_SCHEMES = frozenset({"javascript", "data", "file", "vbscript", "about", "blob", "filesystem"})
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


class OAuthRefused(InvalidInput):
    """A refused OAuth request: `error` is the RFC 6749/8707 error code, `detail` says why.

    `events` are appended before the refusal is reported (a replayed code or a
    reused refresh token revokes its token family: the refusal itself changes
    that much, on purpose).
    """

    def __init__(self, error: str, detail: str, events: Sequence[Event] = ()) -> None:
        super().__init__(detail)
        self.error = error
        self.events = list(events)


# ---------------------------------------------------------------- validation shared by DCR and CIMD


def redirect_uri_problem(uri: str) -> str | None:
    """Why a redirect URI may not be registered (None when it may).

    https anywhere; http only on loopback hosts (RFC 8252 §7.3); private-use
    schemes of native apps only in reverse-domain form (RFC 8252 §7.1); never a
    fragment, user info, or a scheme that runs code in the browser.
    """
    if not isinstance(uri, str) or not uri:
        return "a redirect URI must be a non-empty string"
    if len(uri) > MAX_URI:
        return f"redirect URI longer than {MAX_URI} characters"
    if "#" in uri:
        return f"redirect URI {uri!r} must not contain a fragment"
    if any(c.isspace() for c in uri):
        return f"redirect URI {uri!r} must not contain spaces"
    try:
        parts = urlsplit(uri)
        host = parts.hostname
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        return f"redirect URI {uri!r} cannot be parsed"
    scheme = parts.scheme.lower()
    if not scheme:
        return f"redirect URI {uri!r} must be absolute"
    if parts.username or parts.password:
        return f"redirect URI {uri!r} must not contain a user name or password"
    if scheme == "https":
        return None if host else f"redirect URI {uri!r} has no host"
    if scheme == "http":
        if host in LOOPBACK_HOSTS:
            return None
        return f"redirect URI {uri!r}: http is allowed only for loopback hosts (127.0.0.1, [::1], localhost); use https"
    if scheme in FORBIDDEN_SCHEMES:
        return f"redirect URI {uri!r}: the scheme {scheme} is not allowed"
    if "." not in scheme:
        return f"redirect URI {uri!r}: a private-use scheme must be a reverse domain name such as com.example.app"
    return None


def scopes_problem(scopes: Sequence[str]) -> str | None:
    if not scopes:
        return "no scope: ask for one or more of " + ", ".join(SCOPES)
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        return f"unknown scope {unknown[0]!r}: this server knows " + ", ".join(SCOPES)
    return None


def ordered_scopes(scopes: Sequence[str]) -> list[str]:
    return [s for s in SCOPES if s in set(scopes)]


# ---------------------------------------------------------------- stream ids


def grant_stream(account_id: str, client_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:oauth-grant:{account_id}:{client_id}")


# ---------------------------------------------------------------- states


@dataclass(frozen=True)
class ClientState:
    id: UUID
    version: int = 0
    client_name: str | None = None
    redirect_uris: tuple[str, ...] = ()
    grant_types: tuple[str, ...] = ()
    response_types: tuple[str, ...] = ()
    token_endpoint_auth_method: str = "none"
    scope: str | None = None
    client_uri: str | None = None
    logo_uri: str | None = None
    software_id: str | None = None
    software_version: str | None = None
    secret_hash: str | None = None
    secret_expires_at: datetime | None = None
    registered_at: datetime | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class Code:
    family_id: str
    client_id: str
    scopes: tuple[str, ...]
    resource: str
    redirect_uri: str
    redirect_uri_explicit: bool
    code_challenge: str
    expires_at: datetime
    epoch: int
    used: bool = False


@dataclass(frozen=True)
class GrantState:
    id: UUID
    version: int = 0
    account_id: str = ""
    client_id: str = ""
    client_name: str = ""
    epoch: int = 0
    codes: dict[str, Code] = field(default_factory=dict)  # code hash -> code
    last_consent_at: datetime | None = None
    revoked_at: datetime | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class FamilyState:
    id: UUID
    version: int = 0
    grant_id: str = ""
    account_id: str = ""
    client_id: str = ""
    scopes: tuple[str, ...] = ()
    resource: str = ""
    grant_epoch: int = 0
    refresh_hash: str | None = None
    refresh_expires_at: datetime | None = None
    spent: dict[str, datetime] = field(default_factory=dict)  # rotated refresh hashes -> when they would have expired
    revoked_reason: str | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0


def initial_client(stream_id: UUID) -> ClientState:
    return ClientState(id=stream_id)


def initial_grant(stream_id: UUID) -> GrantState:
    return GrantState(id=stream_id)


def initial_family(stream_id: UUID) -> FamilyState:
    return FamilyState(id=stream_id)


# ---------------------------------------------------------------- clients


def decide_register_client(
    state: ClientState, *, client_name: str | None, redirect_uris: Sequence[str], grant_types: Sequence[str],
    response_types: Sequence[str], token_endpoint_auth_method: str, scope: str | None, client_uri: str | None,
    logo_uri: str | None, software_id: str | None, software_version: str | None, secret_hash: str | None,
    secret_expires_at: datetime | None, meta: Meta,
) -> list[Event]:
    """Register a client; refuses metadata this server cannot honour (`invalid_redirect_uri`, `invalid_client_metadata`)."""
    if state.exists:
        raise Conflict(f"client {state.id} is already registered")
    if not redirect_uris:
        raise OAuthRefused("invalid_redirect_uri", "redirect_uris: at least one redirect URI is required")
    if len(redirect_uris) > MAX_REDIRECT_URIS:
        raise OAuthRefused("invalid_redirect_uri", f"redirect_uris: at most {MAX_REDIRECT_URIS} redirect URIs")
    for uri in redirect_uris:
        if problem := redirect_uri_problem(uri):
            raise OAuthRefused("invalid_redirect_uri", problem)
    if token_endpoint_auth_method not in AUTH_METHODS:
        raise OAuthRefused("invalid_client_metadata",
                           f"token_endpoint_auth_method {token_endpoint_auth_method!r} is not supported: use one of "
                           + ", ".join(AUTH_METHODS))
    if (secret_hash is None) != (token_endpoint_auth_method == "none"):
        raise OAuthRefused("invalid_client_metadata", "a client secret goes with a secret-based authentication method only")
    if "authorization_code" not in grant_types or set(grant_types) - set(GRANT_TYPES):
        raise OAuthRefused("invalid_client_metadata",
                           "grant_types: include authorization_code; refresh_token is the only other grant type supported")
    if list(response_types) != ["code"]:
        raise OAuthRefused("invalid_client_metadata", "response_types: only [\"code\"] is supported")
    if scope is not None and (problem := scopes_problem(scope.split())):
        raise OAuthRefused("invalid_client_metadata", f"scope: {problem}")
    for name, value in (("client_name", client_name), ("software_id", software_id), ("software_version", software_version)):
        if value is not None and len(value) > MAX_NAME:
            raise OAuthRefused("invalid_client_metadata", f"{name}: at most {MAX_NAME} characters")
    for name, value in (("client_uri", client_uri), ("logo_uri", logo_uri)):
        if value is not None and (len(value) > MAX_URI or urlsplit(value).scheme not in ("https", "http")):
            raise OAuthRefused("invalid_client_metadata", f"{name}: an http(s) URL of at most {MAX_URI} characters")
    return one(state, meta, OAuthClientRegistered, client_id=str(state.id), client_name=client_name,
               redirect_uris=list(redirect_uris), grant_types=list(grant_types), response_types=list(response_types),
               token_endpoint_auth_method=token_endpoint_auth_method, scope=scope, client_uri=client_uri,
               logo_uri=logo_uri, software_id=software_id, software_version=software_version,
               secret_hash=secret_hash, secret_expires_at=secret_expires_at)


# ---------------------------------------------------------------- grants: consent and codes


def decide_consent(
    state: GrantState, *, account_id: str, client_id: str, client_name: str, client_host: str, client_kind: str,
    scopes: Sequence[str], resource: str, code_hash: str, family_id: str, redirect_uri: str,
    redirect_uri_explicit: bool, code_challenge: str, expires_at: datetime, meta: Meta,
) -> list[Event]:
    """The account holder allowed the client: record the consent and issue one authorization code."""
    if state.exists and (state.account_id, state.client_id) != (account_id, client_id):
        raise Conflict("this grant belongs to another account or client")
    if problem := scopes_problem(scopes):
        raise OAuthRefused("invalid_scope", problem)
    if code_hash in state.codes:
        raise Conflict("this authorization code was already issued")
    emit = Emitter(state, meta)
    ordered = ordered_scopes(scopes)
    emit(OAuthConsentGiven, account_id=account_id, client_id=client_id, client_name=client_name,
         client_host=client_host, client_kind=client_kind, scopes=ordered, resource=resource)
    emit(OAuthCodeIssued, code_hash=code_hash, family_id=family_id, client_id=client_id, scopes=ordered,
         resource=resource, redirect_uri=redirect_uri, redirect_uri_explicit=redirect_uri_explicit,
         code_challenge=code_challenge, expires_at=expires_at, epoch=state.epoch)
    return emit.events


def decide_redeem(
    grant: GrantState, family: FamilyState, *, code_hash: str, client_id: str, access_hash: str,
    access_expires_at: datetime, refresh_hash: str | None, refresh_expires_at: datetime | None, meta: Meta,
) -> list[Event]:
    """Exchange a code for the first tokens of its family (events on the grant and on the new family).

    A code that was already used is refused, and the family it started is revoked
    (OAuth 2.1 §4.1.3): whoever replays it may have stolen it.
    """
    code = grant.codes.get(code_hash)
    if code is None or code.client_id != client_id:
        raise OAuthRefused("invalid_grant", "unknown authorization code (codes work once, for 10 minutes, for the client they were issued to)")
    if code.used:
        raise OAuthRefused(
            "invalid_grant",
            "this authorization code was already used; the tokens issued with it are revoked now",
            decide_revoke_family(family, "code_replayed", meta),
        )
    if meta.at >= code.expires_at:
        raise OAuthRefused("invalid_grant", f"this authorization code expired at {code.expires_at.isoformat()}")
    if code.epoch != grant.epoch:
        raise OAuthRefused("invalid_grant", "the account holder revoked this app's access after the code was issued")
    if family.exists or str(family.id) != code.family_id:
        raise Conflict("the token family of this code already exists")
    on_grant, on_family = Emitter(grant, meta), Emitter(family, meta)
    on_grant(OAuthCodeRedeemed, code_hash=code_hash, family_id=code.family_id)
    on_family(OAuthTokensIssued, grant_id=str(grant.id), account_id=grant.account_id, client_id=client_id,
              code_hash=code_hash, scopes=list(code.scopes), resource=code.resource, grant_epoch=grant.epoch,
              access_hash=access_hash, access_expires_at=access_expires_at, refresh_hash=refresh_hash,
              refresh_expires_at=refresh_expires_at)
    return on_grant.events + on_family.events


def decide_revoke_grant(state: GrantState, account_id: str, meta: Meta) -> list[Event]:
    """The account holder revokes the client: every token and unused code of the grant stops working.

    Revoking again, with no consent given since, changes nothing.
    """
    if not state.exists or state.account_id != account_id:
        raise NotFound("no such connected app")
    if state.revoked_at is not None and (state.last_consent_at is None or state.last_consent_at <= state.revoked_at):
        return []
    return one(state, meta, OAuthGrantRevoked, reason="revoked_by_account")


# ---------------------------------------------------------------- token families


def decide_refresh(
    family: FamilyState, grant: GrantState, *, presented_hash: str, client_id: str, scopes: Sequence[str] | None,
    access_hash: str, access_expires_at: datetime, refresh_hash: str, refresh_expires_at: datetime, meta: Meta,
) -> list[Event]:
    """Rotate: the presented refresh token is spent, a new access and refresh token replace it.

    A refresh token presented a second time means two parties hold it: the whole
    family is revoked and the request refused (OAuth 2.1 §4.3.1, reuse detection).
    """
    if not family.exists or family.client_id != client_id:
        raise OAuthRefused("invalid_grant", "unknown refresh token")
    if family.revoked_reason is not None:
        raise OAuthRefused("invalid_grant", f"this refresh token was revoked ({family.revoked_reason.replace('_', ' ')})")
    if presented_hash in family.spent:
        raise OAuthRefused(
            "invalid_grant",
            "this refresh token was already used once; every token of this authorization is revoked now: sign in again",
            decide_revoke_family(family, "refresh_token_reused", meta),
        )
    if presented_hash != family.refresh_hash:
        raise OAuthRefused("invalid_grant", "unknown refresh token")
    if family.refresh_expires_at is None or meta.at >= family.refresh_expires_at:
        when = family.refresh_expires_at.isoformat() if family.refresh_expires_at else "issue"
        raise OAuthRefused("invalid_grant", f"this refresh token expired at {when}: sign in again")
    if grant.epoch != family.grant_epoch:
        raise OAuthRefused("invalid_grant", "the account holder revoked this app's access: sign in again")
    wanted = list(scopes) if scopes else list(family.scopes)
    extra = [s for s in wanted if s not in family.scopes]
    if extra:
        raise OAuthRefused("invalid_scope", f"scope {extra[0]!r} was not granted to this refresh token")
    return one(family, meta, OAuthTokensRotated, previous_refresh_hash=presented_hash, scopes=ordered_scopes(wanted),
               access_hash=access_hash, access_expires_at=access_expires_at, refresh_hash=refresh_hash,
               refresh_expires_at=refresh_expires_at)


def decide_revoke_family(state: FamilyState, reason: str, meta: Meta) -> list[Event]:
    """Revoke every token of the family; nothing to do when it does not exist or is already revoked."""
    if not state.exists or state.revoked_reason is not None:
        return []
    return one(state, meta, OAuthTokenFamilyRevoked, reason=reason)


# ---------------------------------------------------------------- evolve


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    """Apply one event to a client, grant or family state (one dispatch table for the three stream kinds)."""
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: OAuthClientRegistered, s: ClientState) -> ClientState:
    return replace(s, version=e.originator_version, client_name=e.client_name, redirect_uris=tuple(e.redirect_uris),
                   grant_types=tuple(e.grant_types), response_types=tuple(e.response_types),
                   token_endpoint_auth_method=e.token_endpoint_auth_method, scope=e.scope, client_uri=e.client_uri,
                   logo_uri=e.logo_uri, software_id=e.software_id, software_version=e.software_version,
                   secret_hash=e.secret_hash, secret_expires_at=e.secret_expires_at, registered_at=e.timestamp)


@evolve.register
def _(e: OAuthConsentGiven, s: GrantState) -> GrantState:
    return replace(s, version=e.originator_version, account_id=e.account_id, client_id=e.client_id,
                   client_name=e.client_name, last_consent_at=e.timestamp)


@evolve.register
def _(e: OAuthCodeIssued, s: GrantState) -> GrantState:
    keep = {h: c for h, c in s.codes.items() if c.expires_at + CODE_MEMORY > e.timestamp}  # forget long-dead codes
    keep[e.code_hash] = Code(e.family_id, e.client_id, tuple(e.scopes), e.resource, e.redirect_uri,
                             e.redirect_uri_explicit, e.code_challenge, e.expires_at, e.epoch)
    return replace(s, version=e.originator_version, codes=keep)


@evolve.register
def _(e: OAuthCodeRedeemed, s: GrantState) -> GrantState:
    codes = dict(s.codes)
    if e.code_hash in codes:
        codes[e.code_hash] = replace(codes[e.code_hash], used=True)
    return replace(s, version=e.originator_version, codes=codes)


@evolve.register
def _(e: OAuthGrantRevoked, s: GrantState) -> GrantState:
    return replace(s, version=e.originator_version, epoch=s.epoch + 1, revoked_at=e.timestamp)


@evolve.register
def _(e: OAuthTokensIssued, s: FamilyState) -> FamilyState:
    return replace(s, version=e.originator_version, grant_id=e.grant_id, account_id=e.account_id, client_id=e.client_id,
                   scopes=tuple(e.scopes), resource=e.resource, grant_epoch=e.grant_epoch, refresh_hash=e.refresh_hash,
                   refresh_expires_at=e.refresh_expires_at)


@evolve.register
def _(e: OAuthTokensRotated, s: FamilyState) -> FamilyState:
    spent = {h: at for h, at in s.spent.items() if at > e.timestamp}  # an expired spent token is refused anyway
    if s.refresh_expires_at is not None:
        spent[e.previous_refresh_hash] = s.refresh_expires_at
    return replace(s, version=e.originator_version, refresh_hash=e.refresh_hash,
                   refresh_expires_at=e.refresh_expires_at, spent=spent)


@evolve.register
def _(e: OAuthTokenFamilyRevoked, s: FamilyState) -> FamilyState:
    return replace(s, version=e.originator_version, revoked_reason=e.reason)


# ---------------------------------------------------------------- stream kinds

CLIENT: StreamKind[ClientState] = StreamKind(initial_client, evolve)
"""Registered client streams (the client id)."""

GRANT: StreamKind[GrantState] = StreamKind(initial_grant, evolve)
"""Grant streams (`grant_stream(account, client)`): consents and their codes."""

FAMILY: StreamKind[FamilyState] = StreamKind(initial_family, evolve)
"""Token family streams (the family id a code names): issue, rotations, revocation."""
