"""Given/when/then on undoing a change of address from the old address's link (the Account decider only:
no database, no clock, no hashing)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import reduce
from typing import Any
from uuid import UUID

import pytest

from aggregates import account
from aggregates.base import Meta
from events.account import (
    AccountEmailChangeReverted,
    AccountPasswordChanged,
    AccountPasswordResetRequested,
    ApiKeyRevoked,
)
from events.errors import InvalidInput, NotFound

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
ID = UUID("00000000-0000-4000-8000-0000000000b7")
HOUR = timedelta(hours=1)


def at(minutes: float) -> Meta:
    return Meta(at=T0 + timedelta(minutes=minutes), actor="anonymous", channel="web")


def fold(state: account.AccountState, events: list[Any]) -> account.AccountState:
    return reduce(lambda s, e: account.evolve(e, s), events, state)


def registered(*key_ids: str) -> account.AccountState:
    s = fold(account.initial(ID), account.decide_register(account.initial(ID), "ada@example.com", "hash-1", at(0),
                                                          verified=True))
    for key_id in key_ids:
        s = fold(s, account.decide_create_key(s, key_id, "ci", ["account:read"], None, "h", at(0)))
    return s


def moved(state: account.AccountState, new: str, token: str, minutes: float) -> account.AccountState:
    """The request and its confirmation, `minutes` after T0."""
    s = fold(state, account.decide_request_email_change(state, new, token, at(minutes).at + 24 * HOUR, at(minutes)))
    return fold(s, account.decide_confirm_email_change(s, token, at(minutes)))


def undo(state: account.AccountState, token: str, minutes: float, reset: str = "r-undo") -> list[Any]:
    return account.decide_revert_email_change(state, token, reset, at(minutes).at + HOUR, at(minutes))


def refused(state: account.AccountState, token: str, minutes: float) -> str:
    with pytest.raises(InvalidInput) as exc:
        undo(state, token, minutes)
    assert exc.value.problems[0].field == "token"
    return exc.value.problems[0].rule


def test_undoing_moves_back_revokes_keys_clears_the_password_and_issues_a_reset_link() -> None:
    state = moved(registered("a" * 16, "b" * 16), "thief@example.net", "t1", minutes=1)
    state = fold(state, account.decide_revoke_key(state, "a" * 16, at(2)))
    events = undo(state, "t1", minutes=10)
    assert [type(e) for e in events] == [ApiKeyRevoked, AccountEmailChangeReverted, AccountPasswordResetRequested]
    assert events[0].key_id == "b" * 16  # only the key still active
    reverted = events[1]
    assert (reverted.restored_email, reverted.dropped_email, reverted.token_id) == (
        "ada@example.com", "thief@example.net", "t1")
    after = fold(state, events)
    assert (after.email, after.email_verified, after.password_hash) == ("ada@example.com", True, None)
    account.check_reset_token(after, "r-undo", at(11).at)  # the link mailed to the old address works
    [changed] = account.decide_reset_password(after, "r-undo", "hash-2", at(12))
    assert isinstance(changed, AccountPasswordChanged) and fold(after, [changed]).password_hash == "hash-2"


def test_an_undo_link_works_once() -> None:
    state = moved(registered(), "thief@example.net", "t1", minutes=1)
    after = fold(state, undo(state, "t1", minutes=10))
    assert refused(after, "t1", minutes=11) == "used"


def test_an_undo_link_works_for_seven_days() -> None:
    state = moved(registered(), "thief@example.net", "t1", minutes=1)
    week = account.EMAIL_UNDO_TTL.total_seconds() / 60
    assert undo(state, "t1", minutes=1 + week - 1)
    assert refused(state, "t1", minutes=1 + week) == "expired"


def test_after_another_change_the_older_link_undoes_nothing_and_the_newer_one_works() -> None:
    state = moved(moved(registered(), "second@example.net", "t1", minutes=1), "third@example.net", "t2", minutes=5)
    assert refused(state, "t1", minutes=10) == "changed_again"
    reverted = [e for e in undo(state, "t2", minutes=10) if isinstance(e, AccountEmailChangeReverted)]
    assert reverted[0].restored_email == "second@example.net"
    back = fold(state, undo(state, "t2", minutes=10))
    assert refused(back, "t1", minutes=11) == "changed_again"  # the address changed since its link was sent


def test_a_link_naming_no_change_of_the_account_is_refused() -> None:
    state = moved(registered(), "thief@example.net", "t1", minutes=1)
    assert refused(state, "never-issued", minutes=2) == "invalid"
    assert refused(registered(), "t1", minutes=2) == "invalid"


def test_undoing_voids_what_the_other_person_set_going() -> None:
    state = moved(registered(), "thief@example.net", "t1", minutes=1)
    state = fold(state, account.decide_request_reset(state, "r-thief", at(2).at + HOUR, at(2)))
    state = fold(state, account.decide_request_email_change(state, "elsewhere@example.org", "t9", at(3).at + 24 * HOUR,
                                                            at(3)))
    after = fold(state, undo(state, "t1", minutes=4))
    with pytest.raises(InvalidInput):
        account.check_reset_token(after, "r-thief", at(5).at)  # a reset link mailed to the dropped address
    with pytest.raises(InvalidInput):
        account.decide_confirm_email_change(after, "t9", at(5))  # their next move


def test_a_closed_account_cannot_be_moved_back() -> None:
    state = moved(registered(), "thief@example.net", "t1", minutes=1)
    closed = fold(state, account.decide_close_account(state, "f" * 32, at(2), staff_accounts=0))
    with pytest.raises(NotFound):
        undo(closed, "t1", minutes=3)
