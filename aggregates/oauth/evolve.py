"""How each OAuth event changes a client, grant or token family state."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch
from typing import Any

from aggregates.oauth.state import CODE_MEMORY, ClientState, Code, FamilyState, GrantState
from events.base import Event
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
