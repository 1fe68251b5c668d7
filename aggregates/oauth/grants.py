"""Grants: the account holder's consent, the single-use authorization codes issued from it, and revocation."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from aggregates.base import Emitter, Meta, one
from aggregates.oauth.families import decide_revoke_family
from aggregates.oauth.refusal import OAuthRefused
from aggregates.oauth.state import FamilyState, GrantState
from aggregates.oauth.validation import ordered_scopes, scopes_problem
from events.base import Event
from events.errors import Conflict, NotFound
from events.oauth import OAuthCodeIssued, OAuthCodeRedeemed, OAuthConsentGiven, OAuthGrantRevoked, OAuthTokensIssued


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
    # A family that exists was started by this code (each code names its own), so the code was used even when
    # the grant, read a moment before the family, does not show it yet: a concurrent redemption got there first.
    if code.used or family.exists:
        raise OAuthRefused(
            "invalid_grant",
            "this authorization code was already used; the tokens issued with it are revoked now",
            decide_revoke_family(family, "code_replayed", meta),
        )
    if meta.at >= code.expires_at:
        raise OAuthRefused("invalid_grant", f"this authorization code expired at {code.expires_at.isoformat()}")
    if code.epoch != grant.epoch:
        raise OAuthRefused("invalid_grant", "the account holder revoked this app's access after the code was issued")
    if str(family.id) != code.family_id:
        raise Conflict("the token family given is not the one this code starts")
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
