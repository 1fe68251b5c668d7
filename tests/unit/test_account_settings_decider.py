"""Given/when/then on the Account decider's settings: a password changed by its owner, moving to another address,
and the address streams that keep one account per address. No database, no clock, no hashing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import reduce
from uuid import UUID

import pytest

from aggregates import account
from aggregates.base import Meta
from events.account import AccountEmailChanged, AccountEmailChangeRequested, AccountPasswordChanged, EmailAddressReleased
from events.errors import Conflict, InvalidInput

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
ID = UUID("00000000-0000-4000-8000-0000000000a1")
TTL = timedelta(hours=24)


def at(minutes: float) -> Meta:
    return Meta(at=T0 + timedelta(minutes=minutes), actor=f"account:{ID}", channel="web", via="session")


def given(*decisions: list) -> account.AccountState:  # type: ignore[type-arg]
    events = [e for d in decisions for e in d]
    return reduce(lambda s, e: account.evolve(e, s), events, account.initial(ID))


def registered() -> account.AccountState:
    return given(account.decide_register(account.initial(ID), "ada@example.com", "hash-1", at(0)))


def requested(state: account.AccountState, new: str, token: str, minutes: float = 1) -> account.AccountState:
    return given_more(state, account.decide_request_email_change(state, new, token, at(minutes).at + TTL, at(minutes)))


def given_more(state: account.AccountState, events: list) -> account.AccountState:  # type: ignore[type-arg]
    return reduce(lambda s, e: account.evolve(e, s), events, state)


def problem(exc: pytest.ExceptionInfo[InvalidInput]) -> tuple[str, str]:
    return exc.value.problems[0].field, exc.value.problems[0].rule


# ---------------------------------------------------------------- the password


def test_the_owner_changing_the_password_records_it_and_voids_reset_links() -> None:
    state = given_more(registered(), account.decide_request_reset(registered(), "r1", T0 + timedelta(hours=1), at(1)))
    [event] = account.decide_change_password(state, "hash-2", "settings", at(2))
    assert isinstance(event, AccountPasswordChanged) and event.reason == "settings" and event.token_id is None
    after = account.evolve(event, state)
    assert after.password_hash == "hash-2" and after.reset_tokens == {}
    with pytest.raises(InvalidInput):
        account.check_reset_token(after, "r1", at(3).at)


# ---------------------------------------------------------------- asking to move to another address


def test_a_request_records_the_new_address_and_its_link() -> None:
    [event] = account.decide_request_email_change(registered(), "new@example.com", "t1", T0 + TTL, at(1))
    assert isinstance(event, AccountEmailChangeRequested)
    assert (event.new_email, event.token_id, event.expires_at) == ("new@example.com", "t1", T0 + TTL)
    state = account.evolve(event, registered())
    assert state.email == "ada@example.com"  # nothing changes until the link is opened
    assert state.email_change is not None and state.email_change.new_email == "new@example.com"


def test_the_account_s_own_address_is_refused_on_the_email_field() -> None:
    with pytest.raises(InvalidInput) as exc:
        account.decide_request_email_change(registered(), "ada@example.com", "t1", T0 + TTL, at(1))
    assert problem(exc) == ("email", "unchanged")


def test_asking_again_for_the_same_address_within_a_minute_sends_nothing_new() -> None:
    state = requested(registered(), "new@example.com", "t1", minutes=1)
    assert account.decide_request_email_change(state, "new@example.com", "t2", T0 + TTL, at(1.5)) == []
    assert account.decide_request_email_change(state, "other@example.com", "t2", T0 + TTL, at(1.5)) != []
    assert account.decide_request_email_change(state, "new@example.com", "t2", T0 + TTL, at(2.5)) != []


# ---------------------------------------------------------------- opening the link


def test_the_link_of_the_latest_request_moves_the_account_and_confirms_the_address() -> None:
    state = requested(registered(), "new@example.com", "t1")
    [event] = account.decide_confirm_email_change(state, "t1", at(5))
    assert isinstance(event, AccountEmailChanged)
    assert (event.old_email, event.new_email, event.token_id) == ("ada@example.com", "new@example.com", "t1")
    after = account.evolve(event, state)
    assert (after.email, after.email_verified, after.email_change) == ("new@example.com", True, None)


def test_reset_links_mailed_to_the_old_address_stop_working_once_the_account_moves() -> None:
    reset = given_more(registered(), account.decide_request_reset(registered(), "r1", T0 + timedelta(hours=1), at(0)))
    state = requested(reset, "new@example.com", "t1")
    moved = given_more(state, account.decide_confirm_email_change(state, "t1", at(5)))
    with pytest.raises(InvalidInput) as exc:
        account.check_reset_token(moved, "r1", at(6).at)
    assert problem(exc) == ("token", "invalid")


def test_a_used_link_says_so() -> None:
    state = requested(registered(), "new@example.com", "t1")
    moved = given_more(state, account.decide_confirm_email_change(state, "t1", at(5)))
    with pytest.raises(InvalidInput) as exc:
        account.decide_confirm_email_change(moved, "t1", at(6))
    assert problem(exc) == ("token", "used")


def test_an_earlier_link_is_superseded_by_a_newer_request() -> None:
    state = requested(requested(registered(), "first@example.com", "t1"), "second@example.com", "t2", minutes=3)
    with pytest.raises(InvalidInput) as exc:
        account.decide_confirm_email_change(state, "t1", at(5))
    assert problem(exc) == ("token", "superseded")
    [event] = account.decide_confirm_email_change(state, "t2", at(5))
    assert isinstance(event, AccountEmailChanged) and event.new_email == "second@example.com"


def test_a_link_expires() -> None:
    state = requested(registered(), "new@example.com", "t1", minutes=0)
    with pytest.raises(InvalidInput) as exc:
        account.decide_confirm_email_change(state, "t1", Meta(at=T0 + TTL, actor="anonymous", channel="web"))
    assert problem(exc) == ("token", "expired")


def test_a_link_never_issued_is_refused() -> None:
    with pytest.raises(InvalidInput) as exc:
        account.decide_confirm_email_change(registered(), "forged", at(1))
    assert problem(exc) == ("token", "superseded")


# ---------------------------------------------------------------- the address streams


def test_a_released_address_can_be_claimed_by_another_account() -> None:
    stream = account.email_stream_id("ada@example.com")
    claim = account.evolve_claim(account.decide_claim_email(account.initial_claim(stream), "ada@example.com",
                                                            str(ID), at(0))[0], account.initial_claim(stream))
    with pytest.raises(Conflict):
        account.decide_release_email(claim, "ada@example.com", "someone-else", at(1))
    [released] = account.decide_release_email(claim, "ada@example.com", str(ID), at(1))
    assert isinstance(released, EmailAddressReleased) and released.originator_version == 2
    free = account.evolve_claim(released, claim)
    assert free.account_id is None
    [again] = account.decide_claim_email(free, "ada@example.com", "another", at(2))
    assert account.evolve_claim(again, free).account_id == "another"


def test_an_address_held_by_another_account_cannot_be_moved_to() -> None:
    stream = account.email_stream_id("taken@example.com")
    held = account.evolve_claim(account.decide_claim_email(account.initial_claim(stream), "taken@example.com",
                                                           "other", at(0))[0], account.initial_claim(stream))
    with pytest.raises(Conflict):
        account.decide_claim_email(held, "taken@example.com", str(ID), at(1))
