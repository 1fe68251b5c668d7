"""Staff review as pure decisions: accepting a version, reverting chosen fields, and how reverts fold."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from functools import reduce

import pytest

from aggregates import listing
from aggregates.base import Meta
from aggregates.listing import ListingState
from aggregates.listing import review
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput
from events.listing import ListingEditReverted, ListingUpdateRemoved, ListingVersionAccepted
from projections.history_view import KINDS as PROJECTED_KINDS

AT = datetime(2026, 11, 23, 12, tzinfo=timezone.utc)
OWNER = Meta(at=AT, actor="account:a", channel="rest", via="api_key:k1")
STAFF = Meta(at=AT, actor="staff:ops@example.com", channel="cli", via="staff")


def fold(state: ListingState, events: Sequence[Event]) -> ListingState:
    return reduce(lambda s, e: listing.evolve(e, s), events, state)


def given() -> ListingState:
    """A listing created with a tagline, a city, a story and one milestone."""
    state = listing.initial(listing.listing_stream(7))
    created = listing.decide_create(
        state, listing_id=7, slug="acme", owner_ids=["a"], source="draft", draft_id=None,
        profile={"name": "Acme", "tagline": "Old tagline", "city": "Lyon"}, categories=["analytics"],
        socials={}, faqs=[], founders=[], story={"title": "Before"},
        milestones=[{"milestone_id": 1, "date": "2026-01-01", "title": "Founded", "description": "", "url": ""}],
        not_found_on_website=[], meta=STAFF,
    )
    return fold(state, created)


def then(state: ListingState, events: list[Event]) -> ListingState:
    return fold(state, events)


def test_reverting_an_edit_puts_the_chosen_fields_back_as_a_new_version() -> None:
    state = given()
    (edit,) = listing.decide_edit(state, {"tagline": "Spam!", "city": "Paris"}, OWNER)
    state = then(state, [edit])
    befores = review.before_values(edit, given())
    (reverted,) = review.decide_revert(state, 41, ["tagline"], befores, STAFF)
    assert isinstance(reverted, ListingEditReverted)
    assert (reverted.version_id, reverted.fields) == (41, ["tagline"])
    assert reverted.changes == {"tagline": "Old tagline"} and reverted.before == {"tagline": "Spam!"}
    assert (reverted.actor, reverted.channel, reverted.via, reverted.originator_version) == (
        "staff:ops@example.com", "cli", "staff", state.version + 1)
    after = then(state, [reverted])
    assert after.profile["tagline"] == "Old tagline" and after.profile["city"] == "Paris"
    assert after.reviews == {41: "reverted"}


def test_no_fields_means_every_field_of_the_version_and_a_field_that_was_unset_is_removed() -> None:
    state = given()
    (edit,) = listing.decide_edit(state, {"tagline": "New", "pricing_model": "Paid"}, OWNER)
    state = then(state, [edit])
    (reverted,) = review.decide_revert(state, 9, [], review.before_values(edit, given()), STAFF)
    assert reverted.changes == {"tagline": "Old tagline", "pricing_model": None}  # type: ignore[attr-defined]
    after = then(state, [reverted])
    assert after.profile["tagline"] == "Old tagline" and "pricing_model" not in after.profile


def test_an_older_version_puts_its_own_before_values_back_even_after_later_edits() -> None:
    state = given()
    (first,) = listing.decide_edit(state, {"tagline": "First"}, OWNER)
    state = then(state, [first])
    (second,) = listing.decide_edit(state, {"tagline": "Second"}, OWNER)
    state = then(state, [second])
    (reverted,) = review.decide_revert(state, 5, ["tagline"], review.before_values(first, given()), STAFF)
    assert reverted.changes == {"tagline": "Old tagline"} and reverted.before == {"tagline": "Second"}  # type: ignore[attr-defined]


def test_fields_already_holding_their_earlier_values_are_dropped_and_none_left_records_nothing() -> None:
    state = given()
    (edit,) = listing.decide_edit(state, {"tagline": "New", "city": "Paris"}, OWNER)
    state = then(state, [edit])
    (undo,) = listing.decide_edit(state, {"city": "Lyon"}, OWNER)  # the owner put the city back already
    state = then(state, [undo])
    befores = review.before_values(edit, given())
    (reverted,) = review.decide_revert(state, 3, [], befores, STAFF)
    assert reverted.changes == {"tagline": "Old tagline"}  # type: ignore[attr-defined]
    assert review.decide_revert(state, 3, ["city"], befores, STAFF) == []


def test_a_field_the_version_did_not_change_is_a_400_naming_it() -> None:
    state = given()
    (edit,) = listing.decide_edit(state, {"tagline": "New"}, OWNER)
    with pytest.raises(InvalidInput) as refused:
        review.decide_revert(then(state, [edit]), 3, ["tagline", "description"], review.before_values(edit, state), STAFF)
    assert refused.value.problems[0] == FieldProblem(
        "fields", "unknown_field", "'description' is not a field of version 3 (it changed: tagline)")


def test_creations_and_updates_have_nothing_to_put_back() -> None:
    state = given()
    (update,) = listing.decide_post_update(state, "Hello", "Body", OWNER)
    assert review.before_values(update, state) == {}
    with pytest.raises(Conflict):
        review.decide_revert(then(state, [update]), 4, [], {}, STAFF)


def test_story_and_milestone_versions_revert_whole_story_and_single_milestones() -> None:
    state = given()
    (story,) = listing.decide_set_story(state, {"title": "After", "lessons": "Many"}, OWNER)
    state = then(state, [story])
    (added,) = listing.decide_add_milestone(state, {"date": "2026-05-01", "title": "Launch"}, OWNER)
    before_add = state
    state = then(state, [added])
    (deleted,) = listing.decide_delete_milestone(state, 1, OWNER)
    before_delete = state
    state = then(state, [deleted])
    (later,) = listing.decide_add_milestone(state, {"date": "2026-06-01", "title": "Later"}, OWNER)
    state = then(state, [later])

    (r1,) = review.decide_revert(state, 10, [], review.before_values(story, given()), STAFF)
    assert r1.changes == {"story": {"title": "Before"}}  # type: ignore[attr-defined]
    state = then(state, [r1])
    assert state.story == {"title": "Before"}

    (r2,) = review.decide_revert(state, 11, ["milestones"], review.before_values(added, before_add), STAFF)
    state = then(state, [r2])
    assert sorted(m["title"] for m in state.milestones.values()) == ["Later"]  # only the added one went

    (r3,) = review.decide_revert(state, 12, ["milestones"], review.before_values(deleted, before_delete), STAFF)
    state = then(state, [r3])
    assert sorted(m["title"] for m in state.milestones.values()) == ["Founded", "Later"]
    assert state.next_milestone_id == 4

    # reverting a revert puts the values from before the revert back
    (r4,) = review.decide_revert(state, 13, [], review.before_values(r3, state), STAFF)
    assert [m["title"] for m in r4.changes["milestones"]] == ["Later"]  # type: ignore[attr-defined]


def test_accepting_records_once_and_a_reverted_version_cannot_be_accepted() -> None:
    state = given()
    (accepted,) = review.decide_accept_version(state, 21, STAFF)
    assert isinstance(accepted, ListingVersionAccepted) and accepted.version_id == 21
    state = then(state, [accepted])
    assert state.reviews == {21: "accepted"}
    assert review.decide_accept_version(state, 21, STAFF) == []
    (edit,) = listing.decide_edit(state, {"tagline": "X"}, OWNER)
    state = then(state, [edit])
    (reverted,) = review.decide_revert(state, 22, [], review.before_values(edit, given()), STAFF)
    with pytest.raises(Conflict):
        review.decide_accept_version(then(state, [reverted]), 22, STAFF)


def test_only_owner_changes_need_review() -> None:
    assert review.needs_review("account:a")
    assert not review.needs_review("staff:ops") and not review.needs_review("system")


def test_the_projection_and_the_commands_name_the_kinds_alike() -> None:
    assert review.KINDS == PROJECTED_KINDS



def test_staff_remove_a_posted_update_with_a_reason_and_its_version_counts_as_reviewed() -> None:
    state = given()
    (posted,) = listing.decide_post_update(state, "Buy pills", "Cheap pills at pills.example", OWNER)
    state = then(state, [posted])
    with pytest.raises(InvalidInput) as short:
        review.decide_remove_update(state, 52, 1, " no ", STAFF)
    assert short.value.problems[0].field == "reason"
    with pytest.raises(Conflict):
        review.decide_remove_update(state, 52, 2, "Spam", STAFF)  # no update 2 was posted
    (removed,) = review.decide_remove_update(state, 52, 1, "  Advertises   counterfeit medicine ", STAFF)
    assert isinstance(removed, ListingUpdateRemoved)
    assert (removed.version_id, removed.update_id, removed.reason) == (52, 1, "Advertises counterfeit medicine")
    after = then(state, [removed])
    assert after.removed_updates == frozenset({1}) and after.reviews == {52: "removed"}
    assert review.decide_remove_update(after, 52, 1, "Spam again", STAFF) == []  # removed already: nothing recorded
    with pytest.raises(Conflict, match="its update was removed"):
        review.decide_accept_version(after, 52, STAFF)
    assert review.KINDS[ListingUpdateRemoved] == PROJECTED_KINDS[ListingUpdateRemoved] == "update_removed"
