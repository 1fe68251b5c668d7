"""Decisions about one claim: start it, record a failed check, expire it, check an emailed link."""

from __future__ import annotations

import hmac
from datetime import datetime

from aggregates.base import Emitter, Meta, one
from aggregates.claim.state import MAX_ATTEMPTS, ClaimState, KeyState
from events.base import Event
from events.claim import (
    METHODS,
    REASONS,
    ClaimAttemptsUsedUp,
    ClaimCheckFailed,
    ClaimExpired,
    ClaimKeyTaken,
    ClaimStarted,
    ClaimVerified,
)
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

USED_UP = f"this claim used its {MAX_ATTEMPTS} checks; start a new claim with claim_listing"


def decide_start(
    state: ClaimState, key: KeyState, *, claim_id: int, listing_id: int, slug: str, account_id: str, method: str,
    domain: str, website_url: str, token: str, token_hash: str, email: str, expires_at: datetime, meta: Meta,
) -> list[Event]:
    """A new claim, and its key stream pointing at it (both in one append)."""
    if state.exists:
        raise Conflict(f"claim {claim_id} exists already")
    if method not in METHODS:
        raise InvalidInput("unknown method", [FieldProblem("method", "enum", "One of: " + ", ".join(METHODS) + ".")])
    if (method == "email") != bool(email) or (method == "email") != bool(token_hash) or (method == "email") == bool(token):
        raise InvalidInput("a claim by email has an address and a link; the others have a token to publish")
    taken = one(key, meta, ClaimKeyTaken, claim_id=claim_id)
    started = one(state, meta, ClaimStarted, claim_id=claim_id, listing_id=listing_id, slug=slug,
                  account_id=account_id, method=method, domain=domain, website_url=website_url, token=token,
                  token_hash=token_hash, email=email, expires_at=expires_at)
    return taken + started


def decide_expire(state: ClaimState, meta: Meta) -> list[Event]:
    """Close a pending claim whose week is over (nothing when it is not due)."""
    if not state.is_due_to_expire(meta.at):
        return []
    return one(state, meta, ClaimExpired)


def decide_check_failed(state: ClaimState, reason: str, detail: str, meta: Meta) -> list[Event]:
    """Record a failed check; the last allowed one closes the claim (`failed`), a later one is a 409."""
    if state.status == "failed" or state.attempts >= MAX_ATTEMPTS:
        raise Conflict(USED_UP)
    if state.is_due_to_expire(meta.at):
        return decide_expire(state, meta)
    if state.status != "pending":
        return []  # verified or expired meanwhile: this check's outcome no longer matters
    if reason not in REASONS:
        raise ValueError(f"unknown reason {reason!r}")
    emit = Emitter(state, meta)
    emit(ClaimCheckFailed, attempt=state.attempts + 1, reason=reason, detail=detail[:500])
    if state.attempts + 1 >= MAX_ATTEMPTS:
        emit(ClaimAttemptsUsedUp, attempts=state.attempts + 1)
    return emit.events


def decide_verified(state: ClaimState, meta: Meta) -> list[Event]:
    """The claim is proven (the caller adds the listing's events to the same append)."""
    if not state.is_open(meta.at):
        raise Conflict(f"this claim is {'expired' if state.is_due_to_expire(meta.at) else state.status}")
    return one(state, meta, ClaimVerified, claim_id=state.claim_id, listing_id=state.listing_id,
               account_id=state.account_id, method=state.method)


def check_link(state: ClaimState, token_hash: str) -> None:
    """An emailed link matches its claim (constant-time); anything else is a 404 that says nothing more."""
    if not state.exists or state.method != "email" or not state.token_hash:
        raise NotFound("no such claim link")
    if not hmac.compare_digest(state.token_hash, token_hash):
        raise NotFound("no such claim link")
