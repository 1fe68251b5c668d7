"""The marker of one owners' notice: has it been mailed?

One tiny stream per notice (`notice_stream`), holding at most one event. The
process manager (`workers/notices.py`) appends it together with the notice's
emails, so "mailed" and "queued" are one fact; a second attempt finds it and
does nothing. The same shape as an update's fan-out marker (`aggregates/updates.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, one
from events.base import Event
from events.notices import NoticeMailed


def notice_stream(key: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:notice:{key}")


@dataclass(frozen=True)
class NoticeState:
    id: UUID
    version: int = 0
    mailed: bool = False


def initial(stream_id: UUID) -> NoticeState:
    return NoticeState(id=stream_id)


def decide_mailed(state: NoticeState, key: str, recipients: int, meta: Meta) -> list[Event]:
    """Record that the notice's emails are queued; once only."""
    if state.mailed:
        return []
    return one(state, meta, NoticeMailed, key=key, recipients=recipients)


def evolve(event: Event, state: NoticeState) -> NoticeState:
    if isinstance(event, NoticeMailed):
        return replace(state, version=event.originator_version, mailed=True)
    return state
