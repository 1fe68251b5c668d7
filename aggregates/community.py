"""Tiny deciders for one person's vote or follow on one listing, for reviews, and for view tallies."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, StreamKind, one
from events.base import Event
from events.community import (
    ListingFollowed,
    ListingUnfollowed,
    ListingViewsCounted,
    ReviewModerated,
    ReviewWritten,
    VoteCast,
    VoteWithdrawn,
)
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

REVIEW_STATES = ("pending", "approved", "rejected")


def vote_stream(listing_id: int, account_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:vote:{listing_id}:{account_id}")


def follow_stream(listing_id: int, account_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:follow:{listing_id}:{account_id}")


def review_stream(review_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:review:{review_id}")


@dataclass(frozen=True)
class ToggleState:
    """A vote or a follow: on or off."""

    id: UUID
    version: int = 0
    on: bool = False


@dataclass(frozen=True)
class ReviewState:
    id: UUID
    version: int = 0
    review_id: str = ""
    listing_id: int = 0
    state: str = ""


@dataclass(frozen=True)
class TallyState:
    id: UUID
    version: int = 0


def initial_toggle(stream_id: UUID) -> ToggleState:
    return ToggleState(id=stream_id)


def initial_review(stream_id: UUID) -> ReviewState:
    return ReviewState(id=stream_id)


def decide_vote(state: ToggleState, listing_id: int, account_id: str, listing_live: bool, meta: Meta) -> list[Event]:
    """One vote per person and listing, only on live listings; voting twice changes nothing."""
    if not listing_live:
        raise Conflict("only live listings take votes")
    if state.on:
        return []
    return one(state, meta, VoteCast, listing_id=listing_id, account_id=account_id)


def decide_withdraw_vote(state: ToggleState, listing_id: int, account_id: str, meta: Meta) -> list[Event]:
    if not state.on:
        return []
    return one(state, meta, VoteWithdrawn, listing_id=listing_id, account_id=account_id)


def decide_follow(state: ToggleState, listing_id: int, account_id: str, follow: bool, meta: Meta) -> list[Event]:
    if state.on == follow:
        return []
    return one(state, meta, ListingFollowed if follow else ListingUnfollowed, listing_id=listing_id,
               account_id=account_id)


def decide_write_review(state: ReviewState, review_id: str, listing_id: int, account_id: str, rating: int, text: str, meta: Meta) -> list[Event]:
    """A review starts `pending`; only approved (genuine) reviews count toward the rating."""
    if state.version:
        raise Conflict("review exists")
    if not 1 <= rating <= 5:
        raise InvalidInput("rating is 1..5", [FieldProblem("rating", "range", "1..5")])
    if len(text) > 5000:
        raise InvalidInput("review text is too long", [FieldProblem("text", "max_length", "5000")])
    return one(state, meta, ReviewWritten, review_id=review_id, listing_id=listing_id, account_id=account_id,
               rating=rating, text=text)


def decide_moderate_review(state: ReviewState, new_state: str, meta: Meta) -> list[Event]:
    if not state.version:
        raise NotFound("no such review")
    if new_state not in REVIEW_STATES:
        raise InvalidInput("bad moderation state", [FieldProblem("state", "enum", ", ".join(REVIEW_STATES))])
    if new_state == state.state:
        return []
    return one(state, meta, ReviewModerated, review_id=state.review_id, listing_id=state.listing_id, state=new_state)


def decide_count_views(state: TallyState, counts: dict[int, int], meta: Meta) -> list[Event]:
    real = {str(k): int(v) for k, v in counts.items() if v > 0}
    if not real:
        return []
    return one(state, meta, ListingViewsCounted, counts=real)


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register(VoteCast)
@evolve.register(ListingFollowed)
def _(e: Event, s: ToggleState) -> ToggleState:
    return replace(s, version=e.originator_version, on=True)


@evolve.register(VoteWithdrawn)
@evolve.register(ListingUnfollowed)
def _(e: Event, s: ToggleState) -> ToggleState:
    return replace(s, version=e.originator_version, on=False)


@evolve.register
def _(e: ReviewWritten, s: ReviewState) -> ReviewState:
    return replace(s, version=e.originator_version, review_id=e.review_id, listing_id=e.listing_id, state="pending")


@evolve.register
def _(e: ReviewModerated, s: ReviewState) -> ReviewState:
    return replace(s, version=e.originator_version, state=e.state)


TOGGLE: StreamKind[ToggleState] = StreamKind(initial_toggle, evolve)
"""Follow streams (`follow_stream`): one person's switch on one listing. Vote streams are decided with
`aggregates.votes.VOTE`, which also knows staff voiding and restoring (`decide_vote` stays the plain rule)."""

REVIEW: StreamKind[ReviewState] = StreamKind(initial_review, evolve)
"""Review streams (`review_stream`): one review and its moderation."""
