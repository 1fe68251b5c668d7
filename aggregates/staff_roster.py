"""The staff roster: one stream that every change of who is staff goes through, so the last-staff rule holds.

Whether an account is staff is on its own stream (`AccountStaffGranted`,
`AccountStaffRevoked`, `AccountClosed`), and a rule over all of them (the
site always keeps one staff account) cannot be kept by any one of those
streams: two staff closing their accounts at the same instant would each
see the other still staff. So each such change also appends
`StaffRosterChanged` here, in the same append: of two changes decided at
once, the second conflicts on this stream and is decided again on fresh
states (`EventStore.decide_across`). The roster remembers the accounts it
saw become staff; accounts made staff before it existed are found by the
caller from the read side, and every candidate is checked on its own stream.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, StreamKind, one
from events.account import StaffRosterChanged
from events.base import Event

STREAM: UUID = uuid5(NAMESPACE_URL, "launchdir:staff-roster")


@dataclass(frozen=True)
class RosterState:
    id: UUID
    version: int = 0
    staff: frozenset[str] = frozenset()  # accounts the roster saw become staff and not leave


def initial(stream_id: UUID) -> RosterState:
    return RosterState(id=stream_id)


def evolve(event: Event, state: RosterState) -> RosterState:
    if isinstance(event, StaffRosterChanged):
        staff = state.staff | {event.account_id} if event.staff else state.staff - {event.account_id}
        return replace(state, version=event.originator_version, staff=staff)
    return replace(state, version=event.originator_version)


ROSTER: StreamKind[RosterState] = StreamKind(initial, evolve)


def decide_change(state: RosterState, account_id: str, staff: bool, meta: Meta) -> list[Event]:
    """Record that the account became staff or stopped being staff (always one event: it is the append that orders
    changes decided at once)."""
    return one(state, meta, StaffRosterChanged, account_id=account_id, staff=staff)
