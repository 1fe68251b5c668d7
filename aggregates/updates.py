"""The fan-out marker of one listing update: have its followers been told?

One tiny stream per update (`fanout_stream`), holding at most one event. The
process manager (`workers/updates.py`) appends it together with the last of
the update's emails, so "told" and "queued" are one fact; a second attempt
finds it and does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, one
from events.base import Event
from events.updates import UpdateFollowersNotified


def fanout_stream(listing_id: int, update_id: int) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:update-fanout:{listing_id}:{update_id}")


@dataclass(frozen=True)
class FanoutState:
    id: UUID
    version: int = 0
    notified: bool = False


def initial(stream_id: UUID) -> FanoutState:
    return FanoutState(id=stream_id)


def decide_notified(state: FanoutState, listing_id: int, update_id: int, recipients: int, meta: Meta) -> list[Event]:
    """Record that the update's followers are told; once only."""
    if state.notified:
        return []
    return one(state, meta, UpdateFollowersNotified, listing_id=listing_id, update_id=update_id, recipients=recipients)


def evolve(event: Event, state: FanoutState) -> FanoutState:
    if isinstance(event, UpdateFollowersNotified):
        return replace(state, version=event.originator_version, notified=True)
    return state
