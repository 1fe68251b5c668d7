"""The last staff account keeps the role and stays open, decided on the write side: whatever the read side says.

Every change of who is staff also appends to the one roster stream
(`aggregates/staff_roster.py`), so two staff closing their accounts at the
same instant conflict there and the second is decided again; and each
account counted as staff is looked at on its own stream, so a read side a
moment behind neither lets the last staff go nor keeps a staff member from
leaving.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

from aggregates import staff_roster
from commands import account as account_cmd
from commands import account_closure as closure_cmd
from events.account import StaffRosterChanged
from events.errors import Conflict
from launchdir.cli import main
from tests.integration.test_accounts import PASSWORD, email, meta, sign_up


def _staff(c: Any) -> tuple[str, str]:
    """A new account with the staff role: (account id, address)."""
    address = email()
    made = sign_up(c, address)
    account_cmd.grant_staff(c.store, address, meta(actor="staff:ops"))
    return str(made.account_id), address


def _close(c: Any, account_id: str, address: str, read_as_staff: tuple[str, ...]) -> None:
    cmd = closure_cmd.CloseAccount(account_id=UUID(account_id), email=address, password=PASSWORD)  # type: ignore[arg-type]
    closure_cmd.close_account(c.store, cmd, closure_cmd.ClosureScope(staff_ids=read_as_staff),
                              meta(actor=f"account:{account_id}"), c.identity.links)


def _open_staff(c: Any, *ids: str) -> list[str]:
    return [i for i in ids if (s := account_cmd.load_account(c.store, UUID(i))).is_staff and s.closed_at is None]


def test_every_change_of_who_is_staff_goes_through_the_roster(container: Any) -> None:
    c = container
    a, a_address = _staff(c)
    b, _ = _staff(c)
    account_cmd.revoke_staff(c.store, a_address, meta(actor="staff:ops"))
    changes = [(e.account_id, e.staff) for e in c.store.stream(staff_roster.STREAM)]
    assert changes == [(a, True), (b, True), (a, False)]
    assert account_cmd.revoke_staff(c.store, a_address, meta(actor="staff:ops")) == c.store.position()  # no change
    assert len(c.store.stream(staff_roster.STREAM)) == 3


def test_a_read_side_that_still_lists_a_closed_staff_account_does_not_let_the_last_one_go(container: Any) -> None:
    c = container
    a, a_address = _staff(c)
    b, b_address = _staff(c)
    _close(c, b, b_address, read_as_staff=(a, b))
    with pytest.raises(Conflict, match="last staff account"):
        _close(c, a, a_address, read_as_staff=(a, b))  # the read side has not seen b leave yet
    assert _open_staff(c, a, b) == [a]
    assert [e.staff for e in c.store.stream(staff_roster.STREAM) if isinstance(e, StaffRosterChanged)][-1] is False


def test_a_read_side_that_does_not_list_a_new_staff_account_does_not_keep_the_other_from_leaving(
        container: Any) -> None:
    c = container
    a, a_address = _staff(c)
    b, _ = _staff(c)  # made staff a moment ago: the read side has not seen it
    _close(c, a, a_address, read_as_staff=(a,))
    assert _open_staff(c, a, b) == [b]


def _at_once(*actions: Callable[[], None]) -> list[Exception]:
    """Run the actions from as many threads, released together; the refusals (409) they met."""
    start = threading.Barrier(len(actions))
    refused: list[Exception] = []

    def run(action: Callable[[], None]) -> None:
        start.wait()
        try:
            action()
        except Conflict as exc:
            refused.append(exc)

    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return refused


def _revoke(c: Any, address: str, read_as_staff: tuple[str, ...]) -> None:
    account_cmd.revoke_staff(c.store, address, meta(actor="staff:ops"), read_as_staff)


def test_two_staff_closing_at_the_same_instant_leave_one(container: Any) -> None:
    """Rounds of the only two staff accounts closed from two threads at once: never both (the roster's append
    conflicts). Each round's pair is the one left by the round before and a new staff account."""
    c = container
    left = _staff(c)
    for _ in range(6):
        pair = [left, _staff(c)]
        ids = tuple(i for i, _ in pair)
        refused = _at_once(*(lambda p=p: _close(c, *p, read_as_staff=ids) for p in pair))
        survivors = _open_staff(c, *ids)
        assert len(survivors) == 1 and len(refused) == 1, (survivors, refused)
        left = next(p for p in pair if p[0] == survivors[0])


def test_the_last_staff_account_keeps_the_role(container: Any) -> None:
    c = container
    a, a_address = _staff(c)
    b, b_address = _staff(c)
    _revoke(c, a_address, read_as_staff=())  # the read side has not seen b made staff yet: the roster has
    with pytest.raises(Conflict, match="last staff account"):
        _revoke(c, b_address, read_as_staff=(a, b))  # the read side has not seen a lose the role yet
    assert _open_staff(c, a, b) == [b]
    assert [(e.account_id, e.staff) for e in c.store.stream(staff_roster.STREAM)] == [(a, True), (b, True), (a, False)]


def test_two_staff_taking_the_role_from_each_other_at_the_same_instant_leave_one(container: Any) -> None:
    """The only two staff accounts revoking each other (or one revoked as the other closes) from two threads at
    once, in rounds: one of the two always keeps the role."""
    c = container
    left = _staff(c)
    for n in range(6):
        pair = [left, _staff(c)]
        ids = tuple(i for i, _ in pair)
        first = (lambda: _close(c, *pair[0], read_as_staff=ids)) if n % 2 else (
            lambda: _revoke(c, pair[0][1], read_as_staff=ids))
        refused = _at_once(first, lambda: _revoke(c, pair[1][1], read_as_staff=ids))
        survivors = _open_staff(c, *ids)
        assert len(survivors) == 1 and len(refused) == 1, (n, survivors, refused)
        left = next(p for p in pair if p[0] == survivors[0])


def test_an_account_that_is_not_staff_closes_without_the_roster(container: Any) -> None:
    c = container
    made = sign_up(c, address := email())
    _close(c, str(made.account_id), address, read_as_staff=())
    assert c.store.stream(staff_roster.STREAM) == []


def test_the_command_line_says_the_last_staff_account_keeps_the_role(container: Any) -> None:
    c = container
    a, a_address = _staff(c)
    refused = CliRunner().invoke(main, ["staff", "revoke", a_address, "--actor", "ops"], obj=c)
    assert refused.exit_code == 1 and "last staff account" in refused.output, refused.output
    assert _open_staff(c, a) == [a]
    _, b_address = _staff(c)
    done = CliRunner().invoke(main, ["staff", "revoke", b_address, "--actor", "ops"], obj=c)
    assert done.exit_code == 0 and done.stdout.strip().endswith(f"{b_address}: not staff"), done.output
