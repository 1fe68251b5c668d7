"""How claim and key streams fold their events into states."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch
from typing import Any

from aggregates.claim.state import ClaimState, KeyState
from events.base import Event
from events.claim import (
    ClaimAttemptsUsedUp,
    ClaimCheckFailed,
    ClaimExpired,
    ClaimKeyTaken,
    ClaimStarted,
    ClaimVerified,
    ClaimVoided,
)


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: ClaimStarted, s: ClaimState) -> ClaimState:
    return replace(
        s, version=e.originator_version, claim_id=e.claim_id, listing_id=e.listing_id, slug=e.slug,
        account_id=e.account_id, method=e.method, domain=e.domain, website_url=e.website_url, token=e.token,
        token_hash=e.token_hash, email=e.email, started_at=e.timestamp, expires_at=e.expires_at, status="pending",
    )


@evolve.register
def _(e: ClaimCheckFailed, s: ClaimState) -> ClaimState:
    return replace(s, version=e.originator_version, attempts=e.attempt, last_reason=e.reason)


@evolve.register
def _(e: ClaimAttemptsUsedUp, s: ClaimState) -> ClaimState:
    return replace(s, version=e.originator_version, status="failed")


@evolve.register
def _(e: ClaimVerified, s: ClaimState) -> ClaimState:
    return replace(s, version=e.originator_version, status="verified", last_reason="")


@evolve.register
def _(e: ClaimExpired, s: ClaimState) -> ClaimState:
    return replace(s, version=e.originator_version, status="expired", last_reason="expired")


@evolve.register
def _(e: ClaimKeyTaken, s: KeyState) -> KeyState:
    return replace(s, version=e.originator_version, claim_id=e.claim_id)


@evolve.register
def _(e: ClaimVoided, s: ClaimState) -> ClaimState:
    return replace(s, version=e.originator_version, status="voided", last_reason="voided")
