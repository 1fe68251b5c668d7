"""What every decider shares: the command metadata and the event emitter.

Deciders never read the clock or make ids: time, actor and channel come in on
`Meta`, so a decision is a pure function of state and command.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar
from uuid import UUID

from events.base import Event

E = TypeVar("E", bound=Event)


@dataclass(frozen=True)
class Meta:
    """Who asks, when, and through which door."""

    at: datetime
    actor: str
    channel: str


class Versioned(Protocol):
    """A decider state knows its stream id and the version it has seen."""

    @property
    def id(self) -> UUID: ...

    @property
    def version(self) -> int: ...


class Emitter:
    """Builds the events of one decision with consecutive stream versions."""

    def __init__(self, state: Versioned, meta: Meta) -> None:
        self._id = state.id
        self._next = state.version + 1
        self._meta = meta
        self.events: list[Event] = []

    def __call__(self, cls: type[E], **fields: Any) -> E:
        event = cls(
            originator_id=self._id,
            originator_version=self._next,
            timestamp=self._meta.at,
            actor=self._meta.actor,
            channel=self._meta.channel,
            **fields,
        )
        self._next += 1
        self.events.append(event)
        return event
