"""What every decider shares: the command metadata, the event emitter, and how a stream is folded.

Deciders never read the clock or make ids: time, actor and channel come in on
`Meta`, so a decision is a pure function of state and command.

A `Decider` is what the event store needs to load a stream: `initial(stream_id)`
and `evolve(event, state)`. An aggregate module is one as it stands
(`aggregates.listing`); a module with secondary stream kinds (a slug, a vote
toggle, a review) names each with a `StreamKind` constant (`listing.SLUG`).
They live here, not in `commands/`, so aggregates can name their own kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar
from uuid import UUID

from events.base import Event

E = TypeVar("E", bound=Event)
S = TypeVar("S")


@dataclass(frozen=True)
class Meta:
    """Who asks, when, and through which door."""

    at: datetime
    actor: str
    channel: str
    via: str = ""  # the credential: "api_key:<id>", "oauth:<client id>", "session", "staff"


class Versioned(Protocol):
    """A decider state knows its stream id and the version it has seen."""

    @property
    def id(self) -> UUID: ...

    @property
    def version(self) -> int: ...


class Decider(Protocol[S]):
    """How to fold one kind of stream: an aggregate module (`initial`, `evolve`) or a `StreamKind`."""

    def initial(self, stream_id: UUID) -> S: ...

    def evolve(self, event: Any, state: S) -> S: ...


@dataclass(frozen=True)
class StreamKind(Generic[S]):
    """A decider for a secondary stream of an aggregate module (a slug, a vote toggle, a site index)."""

    initial: Callable[[UUID], S]
    evolve: Callable[[Any, S], S]


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
            via=self._meta.via,
            **fields,
        )
        self._next += 1
        self.events.append(event)
        return event


def one(state: Versioned, meta: Meta, cls: type[Event], /, **fields: Any) -> list[Event]:
    """The events of a decision that emits exactly one event: `cls(**fields)` at the state's next version.

    Most deciders either have nothing to do (`return []`) or record one fact;
    this is the second half of that shape. The first three parameters are
    positional only, so an event may have fields called `state` or `meta`.
    """
    emit = Emitter(state, meta)
    emit(cls, **fields)
    return emit.events
