"""People's reviews of listings: one review per person and listing, kept up to date by its author, hidden by staff.

The rules (docs/reviews.md):

- who: a signed-in account with a verified email address that is not an owner
  or co-founder of the listing, on a live listing;
- what: a rating of 1..5 and a text of `TEXT_MIN`..`TEXT_MAX` characters
  (surrounding blanks do not count);
- one review per person and listing: the stream id comes from the listing and
  the account (`person_review_id`), so a second write edits the first;
- genuine: a review written under these rules counts in the public rating at
  once (`ReviewWritten.genuine`) until staff hide it; reviews recorded before
  the rules (demo and imported ones) count once staff approved them;
- staff hide a review with a reason (`REASON_MIN`..`REASON_MAX` characters)
  and may restore it; an edit does not bring a hidden review back.

Pure decisions: the command hands over who the author is (`Author`) and
whether the listing is live; the clock and the ids come on `Meta` and the
arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, uuid5

from aggregates.base import Meta, StreamKind, one
from aggregates.community import ReviewState, initial_review
from events.base import Event
from events.community import ReviewEdited, ReviewHidden, ReviewModerated, ReviewRestored, ReviewWritten
from events.errors import Conflict, FieldProblem, Forbidden, InvalidInput, NotFound

TEXT_MIN, TEXT_MAX = 20, 2000
REASON_MIN, REASON_MAX = 5, 500
RATINGS = range(1, 6)


def person_review_id(listing_id: int, account_id: str) -> str:
    """The review id of one person's review of one listing: the same every time, so there is only one."""
    return str(uuid5(NAMESPACE_URL, f"launchdir:review-by:{listing_id}:{account_id}"))


@dataclass(frozen=True)
class Author:
    """What the rules need to know about the person writing (read by the command, not by the decider)."""

    account_id: str
    email_verified: bool
    owns_listing: bool  # an owner or co-founder of the listing


@dataclass(frozen=True)
class Review(ReviewState):
    """A review stream: the existing state plus what the author wrote and whether staff hid it."""

    account_id: str = ""
    rating: int = 0
    text: str = ""
    hidden: bool = False


def initial(stream_id: Any) -> Review:
    base = initial_review(stream_id)
    return Review(id=base.id)


def check_review(rating: Any, text: str) -> tuple[int, str]:
    """The rating as an int and the text without surrounding blanks; InvalidInput naming each bad field."""
    problems: list[FieldProblem] = []
    try:
        value = int(str(rating).strip())
    except ValueError:
        value = 0
    if value not in RATINGS:
        problems.append(FieldProblem("rating", "range", "Choose a rating from 1 to 5 stars."))
    body = (text or "").strip()
    if len(body) < TEXT_MIN:
        problems.append(FieldProblem("text", "min_length", f"Write at least {TEXT_MIN} characters (you wrote {len(body)})."))
    elif len(body) > TEXT_MAX:
        problems.append(FieldProblem("text", "max_length", f"Keep it to {TEXT_MAX} characters (you wrote {len(body)})."))
    if problems:
        raise InvalidInput("the review is not complete", problems)
    return value, body


def decide_review(state: Review, listing_id: int, author: Author, rating: Any, text: str, listing_live: bool,
                  meta: Meta) -> list[Event]:
    """Write the person's review, or edit it when there is one; the same rating and text change nothing."""
    if not author.email_verified:
        raise Forbidden("only accounts with a verified email address can write reviews")
    if author.owns_listing:
        raise Conflict("owners and co-founders cannot review their own listing")
    if not listing_live:
        raise Conflict("only live listings take reviews")
    value, body = check_review(rating, text)
    review_id = person_review_id(listing_id, author.account_id)
    if not state.version:
        return one(state, meta, ReviewWritten, review_id=review_id, listing_id=listing_id,
                   account_id=author.account_id, rating=value, text=body, genuine=True)
    if (state.rating, state.text) == (value, body):
        return []
    return one(state, meta, ReviewEdited, review_id=review_id, listing_id=listing_id, account_id=author.account_id,
               rating=value, text=body)


def decide_hide(state: Review, reason: str, meta: Meta) -> list[Event]:
    """Staff hide a review with a reason; hiding a hidden review changes nothing."""
    if not state.version:
        raise NotFound("no such review")
    why = (reason or "").strip()
    if not REASON_MIN <= len(why) <= REASON_MAX:
        raise InvalidInput("a reason is needed", [FieldProblem(
            "reason", "length", f"Give a reason of {REASON_MIN} to {REASON_MAX} characters.")])
    if state.hidden:
        return []
    return one(state, meta, ReviewHidden, review_id=state.review_id, listing_id=state.listing_id, reason=why)


def decide_restore(state: Review, meta: Meta) -> list[Event]:
    """Staff put a hidden review back; a review that is not hidden changes nothing."""
    if not state.version:
        raise NotFound("no such review")
    if not state.hidden:
        return []
    return one(state, meta, ReviewRestored, review_id=state.review_id, listing_id=state.listing_id)


@singledispatch
def evolve(event: Event, state: Review) -> Review:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: ReviewWritten, s: Review) -> Review:
    return replace(s, version=e.originator_version, review_id=e.review_id, listing_id=e.listing_id,
                   account_id=e.account_id, rating=e.rating, text=e.text,
                   state="approved" if getattr(e, "genuine", False) else "pending")


@evolve.register
def _(e: ReviewEdited, s: Review) -> Review:
    return replace(s, version=e.originator_version, rating=e.rating, text=e.text)


@evolve.register
def _(e: ReviewModerated, s: Review) -> Review:
    return replace(s, version=e.originator_version, state=e.state)


@evolve.register
def _(e: ReviewHidden, s: Review) -> Review:
    return replace(s, version=e.originator_version, hidden=True)


@evolve.register
def _(e: ReviewRestored, s: Review) -> Review:
    return replace(s, version=e.originator_version, hidden=False)


REVIEWS: StreamKind[Review] = StreamKind(initial, evolve)
"""Review streams (`community.review_stream(review_id)`), with edits and staff hiding."""
