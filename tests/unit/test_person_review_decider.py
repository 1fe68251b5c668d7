"""People's reviews as pure decisions: who may write, the bounds, one review per person (edits), staff hiding."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from functools import reduce

import pytest

from aggregates import community, reviews
from aggregates.base import Meta
from events.base import Event
from events.community import ReviewEdited, ReviewHidden, ReviewModerated, ReviewRestored, ReviewWritten
from events.errors import Conflict, Forbidden, InvalidInput, NotFound

AT = datetime(2026, 11, 23, 12, tzinfo=timezone.utc)
PERSON = Meta(at=AT, actor="account:p", channel="web", via="session")
STAFF = Meta(at=AT, actor="staff:ops@example.com", channel="web", via="session")
READER = reviews.Author(account_id="p", email_verified=True, owns_listing=False)
TEXT = "Clear pricing and a quick setup, it did what it says."


def fold(state: reviews.Review, events: Sequence[Event]) -> reviews.Review:
    return reduce(lambda s, e: reviews.evolve(e, s), events, state)


def fresh(listing_id: int = 7, account_id: str = "p") -> reviews.Review:
    return reviews.initial(community.review_stream(reviews.person_review_id(listing_id, account_id)))


def written(rating: int = 4, text: str = TEXT) -> reviews.Review:
    state = fresh()
    return fold(state, reviews.decide_review(state, 7, READER, rating, text, True, PERSON))


def test_a_verified_person_writes_a_genuine_review_that_counts_at_once() -> None:
    state = fresh()
    [event] = reviews.decide_review(state, 7, READER, "5", f"  {TEXT}  ", True, PERSON)
    assert isinstance(event, ReviewWritten)
    assert (event.rating, event.text, event.genuine, event.listing_id) == (5, TEXT, True, 7)
    assert event.review_id == reviews.person_review_id(7, "p")
    assert fold(state, [event]).state == "approved"


def test_one_review_per_person_and_listing_a_second_write_edits_it() -> None:
    state = written()
    [event] = reviews.decide_review(state, 7, READER, 2, TEXT + " Support was slow though.", True, PERSON)
    assert isinstance(event, ReviewEdited)
    assert event.review_id == state.review_id and event.rating == 2
    assert reviews.decide_review(state, 7, READER, 4, TEXT, True, PERSON) == []  # nothing changed


def test_the_review_id_is_per_person_and_listing() -> None:
    assert reviews.person_review_id(7, "p") == reviews.person_review_id(7, "p")
    assert reviews.person_review_id(7, "p") != reviews.person_review_id(7, "q")
    assert reviews.person_review_id(7, "p") != reviews.person_review_id(8, "p")


def test_owners_and_co_founders_cannot_review_their_own_listing() -> None:
    owner = reviews.Author(account_id="p", email_verified=True, owns_listing=True)
    with pytest.raises(Conflict, match="own listing"):
        reviews.decide_review(fresh(), 7, owner, 5, TEXT, True, PERSON)


def test_an_unverified_account_cannot_review() -> None:
    unverified = reviews.Author(account_id="p", email_verified=False, owns_listing=False)
    with pytest.raises(Forbidden):
        reviews.decide_review(fresh(), 7, unverified, 5, TEXT, True, PERSON)


def test_only_live_listings_take_reviews() -> None:
    with pytest.raises(Conflict, match="live"):
        reviews.decide_review(fresh(), 7, READER, 5, TEXT, False, PERSON)


@pytest.mark.parametrize(("rating", "text", "fields"), [
    (0, TEXT, {"rating"}), (6, TEXT, {"rating"}), ("four", TEXT, {"rating"}), ("", TEXT, {"rating"}),
    (3, "too short", {"text"}), (3, " " * 40, {"text"}), (3, "x" * (reviews.TEXT_MAX + 1), {"text"}),
    (9, "", {"rating", "text"}),
])
def test_bad_input_names_every_field_and_rule(rating: object, text: str, fields: set[str]) -> None:
    with pytest.raises(InvalidInput) as caught:
        reviews.decide_review(fresh(), 7, READER, rating, text, True, PERSON)
    assert {p.field for p in caught.value.problems} == fields


def test_the_bounds_are_inclusive() -> None:
    for rating, text in ((1, "x" * reviews.TEXT_MIN), (5, "x" * reviews.TEXT_MAX)):
        [event] = reviews.decide_review(fresh(), 7, READER, rating, text, True, PERSON)
        assert isinstance(event, ReviewWritten) and event.rating == rating


def test_staff_hide_with_a_reason_and_restore() -> None:
    state = written()
    with pytest.raises(InvalidInput) as caught:
        reviews.decide_hide(state, "  ", STAFF)
    assert [p.field for p in caught.value.problems] == ["reason"]
    [hidden] = reviews.decide_hide(state, "Advertising for another product", STAFF)
    assert isinstance(hidden, ReviewHidden) and hidden.reason == "Advertising for another product"
    state = fold(state, [hidden])
    assert state.hidden and reviews.decide_hide(state, "again, twice", STAFF) == []
    [restored] = reviews.decide_restore(state, STAFF)
    assert isinstance(restored, ReviewRestored)
    assert reviews.decide_restore(fold(state, [restored]), STAFF) == []


def test_an_edit_keeps_a_hidden_review_hidden() -> None:
    state = written()
    state = fold(state, reviews.decide_hide(state, "Personal details in the text", STAFF))
    state = fold(state, reviews.decide_review(state, 7, READER, 5, TEXT + " Edited.", True, PERSON))
    assert state.hidden and state.rating == 5


def test_hiding_an_unknown_review_is_not_found() -> None:
    with pytest.raises(NotFound):
        reviews.decide_hide(fresh(), "Spam from a bot", STAFF)
    with pytest.raises(NotFound):
        reviews.decide_restore(fresh(), STAFF)


def test_an_older_review_waits_for_moderation_and_can_be_hidden() -> None:
    """Reviews recorded before the website's rules (random ids, no `genuine`) fold into the same state."""
    stream = community.review_stream("old-1")
    older = community.decide_write_review(community.initial_review(stream), "old-1", 7, "q", 3, "fine", PERSON)
    state = fold(reviews.initial(stream), older)
    assert state.state == "pending" and not state.hidden
    approved = community.decide_moderate_review(community.ReviewState(id=stream, version=1, review_id="old-1",
                                                                      listing_id=7, state="pending"), "approved", STAFF)
    assert isinstance(approved[0], ReviewModerated)
    state = fold(state, approved)
    assert state.state == "approved"
    [hidden] = reviews.decide_hide(state, "Duplicate of another review", STAFF)
    assert isinstance(hidden, ReviewHidden)
    assert hidden.review_id == "old-1" and hidden.listing_id == 7
