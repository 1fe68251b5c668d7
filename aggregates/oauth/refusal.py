"""The refusal every OAuth decider raises, carrying its RFC error code and the events a refusal still appends."""

from __future__ import annotations

from collections.abc import Sequence

from events.base import Event
from events.errors import InvalidInput


class OAuthRefused(InvalidInput):
    """A refused OAuth request: `error` is the RFC 6749/8707 error code, `detail` says why.

    `events` are appended before the refusal is reported (a replayed code or a
    reused refresh token revokes its token family: the refusal itself changes
    that much, on purpose).
    """

    def __init__(self, error: str, detail: str, events: Sequence[Event] = ()) -> None:
        super().__init__(detail)
        self.error = error
        self.events = list(events)
