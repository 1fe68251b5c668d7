"""People's reviews: write or edit one's review of a listing; staff hide or restore a review.

The command reads what the rules need from the write side (the account's
verified address, the listing's owners and status) and hands it to the pure
decider in `aggregates/reviews.py`; each is one load-decide-append on the
review's own stream, so an author's two quick edits race safely.
"""

from __future__ import annotations

from typing import Any

from aggregates import community, reviews
from aggregates.base import Meta
from commands import listing as listing_cmd
from commands.account import load_account
from commands.store import Appended, EventStore


def write_review(store: EventStore, listing_id: int, account_id: str, rating: Any, text: str, meta: Meta) -> tuple[str, int]:
    """(review id, position): the person's review of the listing, written or edited."""
    listing = listing_cmd.load(store, listing_id)
    account = load_account(store, account_id)
    author = reviews.Author(account_id=account_id, email_verified=bool(account.email_verified),
                            owns_listing=account_id in listing.owner_ids)
    review_id = reviews.person_review_id(listing_id, account_id)
    appended = store.decide(community.review_stream(review_id), reviews.REVIEWS,
                            lambda s: reviews.decide_review(s, listing_id, author, rating, text,
                                                            listing.status == "live", meta))
    return review_id, appended.position


def hide_review(store: EventStore, review_id: str, reason: str, meta: Meta) -> int:
    return hide(store, review_id, reason, meta).position


def restore_review(store: EventStore, review_id: str, meta: Meta) -> int:
    return restore(store, review_id, meta).position


def hide(store: EventStore, review_id: str, reason: str, meta: Meta) -> Appended:
    """Staff hide a review; no events when it is hidden already (the staff pages say nothing changed)."""
    return store.decide(community.review_stream(review_id), reviews.REVIEWS,
                        lambda s: reviews.decide_hide(s, reason, meta))


def restore(store: EventStore, review_id: str, meta: Meta) -> Appended:
    """Staff show a hidden review again; no events when it is not hidden."""
    return store.decide(community.review_stream(review_id), reviews.REVIEWS,
                        lambda s: reviews.decide_restore(s, meta))
