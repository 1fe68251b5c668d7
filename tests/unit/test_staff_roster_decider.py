"""The staff roster remembers who it saw become staff and leave, and records every change at its next version.
Given/when/then, no database."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import reduce

from aggregates import staff_roster
from aggregates.base import Meta
from events.account import StaffRosterChanged

META = Meta(at=datetime(2026, 12, 5, 12, tzinfo=timezone.utc), actor="staff:ops", channel="cli", via="staff")


def test_the_roster_keeps_the_accounts_that_became_staff_and_did_not_leave() -> None:
    state = staff_roster.initial(staff_roster.STREAM)
    for account_id, staff in (("a", True), ("b", True), ("a", False), ("c", True), ("c", True)):
        (event,) = staff_roster.decide_change(state, account_id, staff, META)
        assert isinstance(event, StaffRosterChanged) and event.originator_version == state.version + 1
        assert event.originator_id == staff_roster.STREAM
        state = staff_roster.evolve(event, state)
    assert state.staff == frozenset({"b", "c"}) and state.version == 5


def test_leaving_without_having_joined_the_roster_is_recorded_and_changes_no_one() -> None:
    """Accounts made staff before the roster existed leave through it too: the event orders the change."""
    events = staff_roster.decide_change(staff_roster.initial(staff_roster.STREAM), "old", False, META)
    state = reduce(lambda s, e: staff_roster.evolve(e, s), events, staff_roster.initial(staff_roster.STREAM))
    assert state.staff == frozenset() and state.version == 1
