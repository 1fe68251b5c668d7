"""Events of vote integrity: the signals a vote was cast with, staff voiding and restoring votes, first page views.

They live in the vote streams beside `VoteCast` and `VoteWithdrawn`
(`aggregates/votes.py`), except `AccountFirstPageViewed`, which has one tiny
stream per account. No event here holds a raw address or user agent: only
keyed hashes (HMAC-SHA256 with the server's vote-signal secret) of the network
prefix and of the user agent, and durations (docs/voting.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class VoteSignalsRecorded(Event):
    """What the site knew about the voter at the moment of a vote; stored right after its `VoteCast`."""

    listing_id: int
    account_id: str
    account_age_seconds: int  # since the account was created
    email_verified: bool
    network_hash: str  # HMAC of the /24 (IPv4) or /48 (IPv6) prefix; "" when the address was unknown
    agent_hash: str  # HMAC of the User-Agent header; "" when there was none
    since_first_view_seconds: int | None  # since the account's first signed-in page view; None: no page view recorded


@dataclass(frozen=True, kw_only=True)
class VoteVoided(Event):
    """Staff took a standing vote out of every count (rankings, boards, awards); `cast_at` is the vote's own time."""

    listing_id: int
    account_id: str
    cast_at: datetime
    reason: str


@dataclass(frozen=True, kw_only=True)
class VoteRestored(Event):
    """Staff put a voided vote back into the counts, at its original time `cast_at`."""

    listing_id: int
    account_id: str
    cast_at: datetime
    reason: str


@dataclass(frozen=True, kw_only=True)
class VoidedVoteWithdrawn(Event):
    """The voter took back a vote that staff had voided: nothing to uncount, the vote is simply gone."""

    listing_id: int
    account_id: str


@dataclass(frozen=True, kw_only=True)
class AccountFirstPageViewed(Event):
    """The account's first signed-in page view: only its time is kept (no page, no address)."""

    account_id: str
