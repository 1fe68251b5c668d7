"""A listing's own co-owner invites (a listing without a draft of its owner's), and the editor's categories, pure."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from aggregates import listing, listing_invites
from aggregates.base import Meta
from aggregates.draft import INVITE_TTL, MAX_INVITES
from aggregates.listing import ListingState
from api.web_draft_forms import categories
from events.errors import Conflict, InvalidInput, NotFound
from events.listing_invites import ListingCofounderInvited, ListingInviteAccepted

AT = datetime(2026, 12, 5, 12, tzinfo=timezone.utc)
META = Meta(at=AT, actor="account:owner", channel="web")
OWNED = ListingState(id=listing.listing_stream(7), version=2, listing_id=7, slug="l7", owner_ids=("owner",),
                     status="live", plan="free")


def _fold(state: Any, events: list[Any]) -> Any:
    for event in events:
        state = listing_invites.evolve(event, state)
    return state


def _invited(state: listing_invites.ListingInvitesState, n: int) -> listing_invites.ListingInvitesState:
    return _fold(state, listing_invites.decide_invite(
        state, OWNED, "owner", invite_id=f"i{n}", email=f"p{n}@example.com", token_hash=f"h{n}",
        expires_at=AT + INVITE_TTL, meta=META))


def test_an_owner_invites_and_the_invited_person_accepts_once() -> None:
    state = _invited(listing_invites.initial(listing_invites.invites_stream(7)), 1)
    assert state.listing_id == 7 and state.invites["i1"].email == "p1@example.com"
    events = listing_invites.decide_accept(state, invite_id="i1", token_hash="h1", account_id="friend", meta=META)
    assert [type(e) for e in events] == [ListingInviteAccepted]
    state = _fold(state, events)
    assert state.invites["i1"].accepted_by == "friend"
    assert listing_invites.decide_accept(state, invite_id="i1", token_hash="h1", account_id="friend", meta=META) == []
    with pytest.raises(Conflict):  # someone else with the same link
        listing_invites.decide_accept(state, invite_id="i1", token_hash="h1", account_id="other", meta=META)


def test_strangers_wrong_tokens_expiry_and_limits_are_refused() -> None:
    state = listing_invites.initial(listing_invites.invites_stream(7))
    with pytest.raises(NotFound):  # not an owner: the same 404 as no listing
        listing_invites.decide_invite(state, OWNED, "stranger", invite_id="x", email="a@example.com",
                                      token_hash="h", expires_at=AT, meta=META)
    with pytest.raises(Conflict):
        listing_invites.decide_invite(state, replace(OWNED, status="unpublished"), "owner", invite_id="x",
                                      email="a@example.com", token_hash="h", expires_at=AT, meta=META)
    for n in range(MAX_INVITES):
        state = _invited(state, n)
    with pytest.raises(InvalidInput) as caught:
        _invited(state, 99)
    assert (caught.value.problems[0].field, caught.value.problems[0].rule) == ("email", "max_items")
    with pytest.raises(NotFound):
        listing_invites.decide_accept(state, invite_id="i1", token_hash="wrong", account_id="f", meta=META)
    late = Meta(at=AT + INVITE_TTL + timedelta(seconds=1), actor="account:f", channel="web")
    with pytest.raises(InvalidInput):
        listing_invites.decide_accept(state, invite_id="i1", token_hash="h1", account_id="f", meta=late)
    assert isinstance(listing_invites.decide_invite(
        listing_invites.initial(listing_invites.invites_stream(8)), OWNED, "owner", invite_id="y",
        email="b@example.com", token_hash="h", expires_at=AT, meta=META)[0], ListingCofounderInvited)


def test_the_editors_categories_keep_the_drafts_order_and_put_the_primary_first() -> None:
    current = ["productivity", "finance", "ai"]
    assert categories(["productivity", "ai", "finance"], current) == current  # the boxes' order changes nothing
    assert categories(["design", "ai", "analytics", "finance"], current) == ["design", "finance", "ai", "analytics"]
    assert categories(["productivity", "productivity"], current) == ["productivity"]  # the primary ticked too
    assert categories(["", "ai"], current) == ["ai"]  # no primary chosen: the first ticked one leads
    assert categories(["ai\nfinance"], []) == ["ai", "finance"]  # the former text box, one per line
    assert categories([], current) == []
