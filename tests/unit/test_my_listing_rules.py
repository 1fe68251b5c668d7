"""Ownership and the owner's inputs as pure rules: who may decide about a listing, what an edit changes."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from aggregates import listing
from aggregates.base import Meta
from commands.my_listing_inputs import SetFounderStory, UpdateMyListing
from events.errors import Conflict, NotFound
from events.listing import ListingEdited

META = Meta(at=datetime(2026, 11, 23, 12, tzinfo=timezone.utc), actor="account:a", channel="rest", via="api_key:k1")


def owned(status: str = "draft") -> listing.ListingState:
    state = listing.initial(listing.listing_stream(7))
    return replace(state, version=3, listing_id=7, slug="acme", owner_ids=("a", "b"), status=status,
                   profile={"name": "Acme", "tagline": "Old", "city": "Lyon"})


def test_only_owners_pass_and_strangers_and_missing_listings_look_the_same() -> None:
    listing.require_owner(owned(), "a")
    listing.require_owner(owned(), "b")
    with pytest.raises(NotFound) as stranger:
        listing.require_owner(owned(), "c")
    with pytest.raises(NotFound) as missing:
        listing.require_owner(listing.initial(listing.listing_stream(8)), "a")
    assert str(stranger.value) == str(missing.value)


def test_a_taken_down_listing_is_closed_to_owner_changes() -> None:
    for status in ("draft", "awaiting_badge", "scheduled", "live"):
        listing.require_open(owned(status))
    with pytest.raises(Conflict):
        listing.require_open(owned("unpublished"))


def test_an_edit_records_before_and_after_and_who_through_what() -> None:
    changes = UpdateMyListing(listing_id=7, fields={"tagline": " New ", "city": ""}).changes()
    assert changes == {"tagline": "New", "city": None}
    (event,) = listing.decide_edit(owned(), changes, META)
    assert isinstance(event, ListingEdited)
    assert event.changes == {"tagline": "New", "city": None} and event.before == {"tagline": "Old", "city": "Lyon"}
    assert (event.actor, event.channel, event.via, event.originator_version) == ("account:a", "rest", "api_key:k1", 4)


def test_unchanged_values_record_nothing() -> None:
    changes = UpdateMyListing(listing_id=7, fields={"tagline": "Old"}).changes()
    assert listing.decide_edit(owned(), changes, META) == []


def test_socials_and_faqs_replace_and_blank_links_drop() -> None:
    changes = UpdateMyListing(listing_id=7, socials={"x": " https://x.com/acme ", "github": ""},
                              faqs=[{"question": " Q? ", "answer": " A. "}]).changes()
    assert changes == {"socials": {"x": "https://x.com/acme"}, "faqs": [{"question": "Q?", "answer": "A."}]}


def test_the_story_replaces_the_whole_story_without_blank_sections() -> None:
    story = SetFounderStory(listing_id=7, title=" Why ", problem="  ", lessons="Ship early").sections()
    assert story == {"title": "Why", "lessons": "Ship early"}
