"""Votes, follows, reviews and view tallies.

Votes come only from people on the website: there is no API or MCP operation
for them; the website and the demo call these handlers directly.
"""

from __future__ import annotations

import uuid

from aggregates import community, votes
from aggregates.base import Meta
from commands import listing as listing_cmd
from commands.store import EventStore


def cast_vote(store: EventStore, listing_id: int, account_id: str, meta: Meta,
              observed: votes.Observed | None = None) -> int:
    """`observed`: what the website measured (docs/voting.md, integrity); the vote's signals are derived from it."""
    live = listing_cmd.load(store, listing_id).status == "live"
    return store.decide(community.vote_stream(listing_id, account_id), votes.VOTE,
                        lambda s: votes.decide_cast(s, listing_id, account_id, live, observed, meta)).position


def withdraw_vote(store: EventStore, listing_id: int, account_id: str, meta: Meta) -> int:
    return store.decide(community.vote_stream(listing_id, account_id), votes.VOTE,
                        lambda s: votes.decide_withdraw(s, listing_id, account_id, meta)).position


def follow(store: EventStore, listing_id: int, account_id: str, meta: Meta, on: bool = True) -> int:
    listing_cmd.load(store, listing_id)
    return store.decide(community.follow_stream(listing_id, account_id), community.TOGGLE,
                        lambda s: community.decide_follow(s, listing_id, account_id, on, meta)).position


def write_review(store: EventStore, listing_id: int, account_id: str, rating: int, text: str, meta: Meta) -> tuple[str, int]:
    """Returns (review_id, position); the review waits for moderation.

    A review is a new stream with a random id: nothing to load, nothing to race.
    """
    listing_cmd.load(store, listing_id)
    review_id = str(uuid.uuid4())
    stream = community.review_stream(review_id)
    position = store.append(community.decide_write_review(
        community.initial_review(stream), review_id, listing_id, account_id, rating, text, meta))
    return review_id, position


def moderate_review(store: EventStore, review_id: str, state: str, meta: Meta) -> int:
    return store.decide(community.review_stream(review_id), community.REVIEW,
                        lambda s: community.decide_moderate_review(s, state, meta)).position


def count_views(store: EventStore, counts: dict[int, int], meta: Meta) -> int:
    """Flush an in-memory tally of views as one event (a fresh stream each time: no contention)."""
    return store.append(community.decide_count_views(community.TallyState(id=uuid.uuid4()), counts, meta))
