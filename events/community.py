"""Events people cause on listings: votes, follows, reviews, and counted views.

Votes and follows live in their own tiny streams, one per person and listing,
so they race safely and never lengthen the listing's stream.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class VoteCast(Event):
    listing_id: int
    account_id: str


@dataclass(frozen=True, kw_only=True)
class VoteWithdrawn(Event):
    listing_id: int
    account_id: str


@dataclass(frozen=True, kw_only=True)
class ListingFollowed(Event):
    listing_id: int
    account_id: str


@dataclass(frozen=True, kw_only=True)
class ListingUnfollowed(Event):
    listing_id: int
    account_id: str


@dataclass(frozen=True, kw_only=True)
class ReviewWritten(Event):
    review_id: str
    listing_id: int
    account_id: str
    rating: int  # 1..5
    text: str


@dataclass(frozen=True, kw_only=True)
class ReviewModerated(Event):
    review_id: str
    listing_id: int
    state: str  # "approved" | "rejected" | "pending"


@dataclass(frozen=True, kw_only=True)
class ListingViewsCounted(Event):
    """Views counted in memory and flushed in bulk: listing id (as a string) -> views."""

    counts: dict[str, int]
