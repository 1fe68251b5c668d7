"""Token families: refresh-token rotation with reuse detection, and revocation of the whole family."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from aggregates.base import Meta, one
from aggregates.oauth.refusal import OAuthRefused
from aggregates.oauth.state import FamilyState, GrantState
from aggregates.oauth.validation import ordered_scopes
from events.base import Event
from events.oauth import OAuthTokenFamilyRevoked, OAuthTokensRotated


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
