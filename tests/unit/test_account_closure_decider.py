"""Given/when/then on closing an account: the account, its address, its listings and drafts (no database)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import reduce
from typing import Any
from uuid import UUID

import pytest

from aggregates import account
from aggregates import draft as draft_agg
from aggregates import listing as listing_agg
from aggregates.base import Meta
from aggregates.draft.discard import decide_discard
from aggregates.listing.leaving import decide_owner_leaves, outcome
from events.account import AccountClosed, ApiKeyRevoked, EmailAddressReleased
from events.draft import DraftDiscarded, DraftSubmitted
from events.errors import Conflict, NotFound
from events.listing import ListingCreated, ListingLaunched, ListingOwnerRemoved, ListingUnpublished

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
ID = UUID("00000000-0000-4000-8000-0000000000c1")
ME = str(ID)
META = Meta(at=T0, actor=f"account:{ME}", channel="web", via="session")


def fold(evolve: Any, initial: Any, events: list[Any]) -> Any:
    return reduce(lambda s, e: evolve(e, s), events, initial)


def with_keys(*key_ids: str, staff: bool = False) -> account.AccountState:
    s = fold(account.evolve, account.initial(ID), account.decide_register(
        account.initial(ID), "ada@example.com", "hash-1", META, verified=True))
    for key_id in key_ids:
        s = fold(account.evolve, s, account.decide_create_key(s, key_id, "ci", ["account:read"], None, "h", META))
    if staff:
        s = fold(account.evolve, s, account.decide_grant_staff(s, META))
    return s


# ---------------------------------------------------------------- the account


def test_closing_revokes_every_active_key_then_closes() -> None:
    s = with_keys("a" * 16, "b" * 16)
    s = fold(account.evolve, s, account.decide_revoke_key(s, "a" * 16, META))
    events = account.decide_close_account(s, "f" * 32, META, staff_accounts=0)
    assert [type(e) for e in events] == [ApiKeyRevoked, AccountClosed]
    assert events[0].key_id == "b" * 16  # type: ignore[attr-defined]
    closed = fold(account.evolve, s, events)
    assert closed.closed_at == T0 and closed.password_hash is None
    assert isinstance(events[-1], AccountClosed) and events[-1].former_account == "former:" + "f" * 32


def test_an_order_awaiting_payment_refuses_the_closing() -> None:
    with pytest.raises(Conflict, match="L-123 is awaiting payment"):
        account.decide_close_account(with_keys(), "f" * 32, META, staff_accounts=0, awaiting_payment=("L-123",))


def test_the_last_staff_account_cannot_close_but_one_of_two_can() -> None:
    staff = with_keys(staff=True)
    with pytest.raises(Conflict, match="last staff account"):
        account.decide_close_account(staff, "f" * 32, META, staff_accounts=1)
    assert account.decide_close_account(staff, "f" * 32, META, staff_accounts=2)


def test_a_closed_account_decides_nothing_more() -> None:
    s = with_keys()
    closed = fold(account.evolve, s, account.decide_close_account(s, "f" * 32, META, staff_accounts=0))
    with pytest.raises(NotFound):
        account.decide_close_account(closed, "e" * 32, META, staff_accounts=0)
    with pytest.raises(NotFound):
        account.decide_create_key(closed, "c" * 16, "again", ["account:read"], None, "h", META)
    with pytest.raises(NotFound):
        account.decide_request_reset(closed, "t1", T0 + timedelta(hours=1), META)


def test_the_released_address_can_be_claimed_by_a_new_account() -> None:
    stream = account.email_stream_id("ada@example.com")
    claim = fold(account.evolve_claim, account.initial_claim(stream),
                 account.decide_claim_email(account.initial_claim(stream), "ada@example.com", ME, META))
    released = account.decide_release_email(claim, "ada@example.com", ME, META)
    assert [type(e) for e in released] == [EmailAddressReleased]
    free = fold(account.evolve_claim, claim, released)
    assert free.account_id is None
    again = account.decide_claim_email(free, "ada@example.com", "new-account", META)
    assert fold(account.evolve_claim, free, again).account_id == "new-account"


# ---------------------------------------------------------------- listings


def listing(owners: list[str], live: bool) -> listing_agg.ListingState:
    stream = listing_agg.listing_stream(7)
    created = ListingCreated(originator_id=stream, originator_version=1, timestamp=T0, actor="staff:t", channel="cli",
                             via="staff", listing_id=7, slug="seven", owner_ids=owners, source="staff", draft_id=None,
                             profile={"name": "Seven"}, categories=["productivity"], socials={}, faqs=[], founders=[],
                             story={}, milestones=[], not_found_on_website=[])
    events: list[Any] = [created]
    if live:
        events.append(ListingLaunched(originator_id=stream, originator_version=2, timestamp=T0, actor="system",
                                      channel="worker", via="", week="2026-11-30", plan="free"))
    return fold(listing_agg.evolve, listing_agg.initial(stream), events)


def test_a_co_owned_listing_keeps_its_other_owner() -> None:
    state = listing([ME, "bob"], live=True)
    events = decide_owner_leaves(state, ME, "account_closed", META)
    assert [type(e) for e in events] == [ListingOwnerRemoved]
    assert fold(listing_agg.evolve, state, events).owner_ids == ("bob",)
    assert outcome(state, ME) == "left"


def test_a_live_listing_owned_alone_stays_live_without_owners() -> None:
    state = listing([ME], live=True)
    after = fold(listing_agg.evolve, state, decide_owner_leaves(state, ME, "account_closed", META))
    assert after.owner_ids == () and after.status == "live"
    assert outcome(state, ME) == "orphaned"


def test_a_saved_listing_owned_alone_is_discarded() -> None:
    state = listing([ME], live=False)
    events = decide_owner_leaves(state, ME, "account_closed", META)
    assert [type(e) for e in events] == [ListingOwnerRemoved, ListingUnpublished]
    assert fold(listing_agg.evolve, state, events).status == "unpublished"
    assert outcome(state, ME) == "discarded"


def test_a_listing_of_someone_else_is_not_found() -> None:
    with pytest.raises(NotFound):
        decide_owner_leaves(listing(["bob"], live=True), ME, "account_closed", META)


# ---------------------------------------------------------------- drafts


def submitted(by: str) -> draft_agg.DraftState:
    stream = UUID("00000000-0000-4000-8000-0000000000d1")
    e = DraftSubmitted(originator_id=stream, originator_version=1, timestamp=T0, actor=f"account:{by}", channel="web",
                       via="session", draft_id=stream, account_id=by, url="https://seven.example/",
                       site="seven.example")
    return fold(draft_agg.evolve, draft_agg.initial(stream), [e])


def test_the_submitters_draft_is_discarded_once() -> None:
    state = submitted(ME)
    events = decide_discard(state, ME, "account_closed", META)
    assert [type(e) for e in events] == [DraftDiscarded]
    assert decide_discard(fold(draft_agg.evolve, state, events), ME, "account_closed", META) == []


def test_someone_elses_draft_is_not_found() -> None:
    with pytest.raises(NotFound):
        decide_discard(submitted("bob"), ME, "account_closed", META)
