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
    genuine: bool = False  # written on the website under the review rules (docs/reviews.md): counts at once


@dataclass(frozen=True, kw_only=True)
class ReviewEdited(Event):
    """The author changed their review (one review per person and listing, kept up to date)."""

    review_id: str
    listing_id: int
    account_id: str
    rating: int  # 1..5
    text: str


@dataclass(frozen=True, kw_only=True)
class ReviewHidden(Event):
    """Staff took a review off the site and out of the rating, with the reason they give."""

    review_id: str
    listing_id: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ReviewRestored(Event):
    """Staff put a hidden review back: it shows and counts again."""

    review_id: str
    listing_id: int


@dataclass(frozen=True, kw_only=True)
class ReviewModerated(Event):
    review_id: str
    listing_id: int
    state: str  # "approved" | "rejected" | "pending"


@dataclass(frozen=True, kw_only=True)
class ListingViewsCounted(Event):
    """Views counted in memory and flushed in bulk: listing id (as a string) -> views."""

    counts: dict[str, int]
