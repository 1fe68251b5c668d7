"""Claim states: the claim stream's state, the key stream's, their stream ids, and the limits claims keep."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import NAMESPACE_URL, UUID, uuid5

from events.errors import NotFound

TTL = timedelta(days=7)  # a claim (and its emailed link) works for a week after it began
MAX_ATTEMPTS = 20  # checks per claim; the last failed one closes the claim (`failed`)


def claim_stream(claim_id: int) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:claim:{claim_id}")


def key_stream(account_id: str, listing_id: int, method: str, email: str = "") -> UUID:
    """The stream that says which claim (account, listing, method[, address]) currently has."""
    return uuid5(NAMESPACE_URL, f"launchdir:claim-key:{account_id}:{listing_id}:{method}:{email}")


@dataclass(frozen=True)
class ClaimState:
    id: UUID
    version: int = 0
    claim_id: int = 0
    listing_id: int = 0
    slug: str = ""
    account_id: str = ""
    method: str = ""
    domain: str = ""
    website_url: str = ""
    token: str = ""
    token_hash: str = ""
    email: str = ""
    started_at: datetime | None = None
    expires_at: datetime | None = None
    status: str = "new"  # pending | verified | expired | failed | voided
    attempts: int = 0
    last_reason: str = ""

    @property
    def exists(self) -> bool:
        return self.version > 0

    def is_due_to_expire(self, at: datetime) -> bool:
        """Pending, but past its expiry: the next decision about it closes it."""
        return self.status == "pending" and self.expires_at is not None and at >= self.expires_at

    def is_open(self, at: datetime) -> bool:
        """Pending and not yet expired: it may still be checked or confirmed."""
        return self.status == "pending" and not self.is_due_to_expire(at)

    @property
    def attempts_left(self) -> int:
        return max(0, MAX_ATTEMPTS - self.attempts)


@dataclass(frozen=True)
class KeyState:
    id: UUID
    version: int = 0
    claim_id: int | None = None


def initial(stream_id: UUID) -> ClaimState:
    return ClaimState(id=stream_id)


def initial_key(stream_id: UUID) -> KeyState:
    return KeyState(id=stream_id)


def require_mine(state: ClaimState, account_id: str) -> None:
    """Someone else's claim, or none: 404 with the same words, so ids cannot be probed."""
    if not state.exists or state.account_id != account_id:
        raise NotFound("no such claim among yours")
