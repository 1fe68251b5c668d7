"""Reading the event log: the head position, batches of decoded events, and single notifications."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import Notification


@dataclass(frozen=True)
class Undecodable:
    """Stands in for a stored event this code cannot turn back into an event object.

    A renamed event class or a stored state the transcoder refuses must not
    stop the reading of the batch around it: the projection runtime meets this
    placeholder at its place and treats it like any event a handler cannot
    apply (retried, then `failing`, until fixed or skipped).
    """

    topic: str
    error: str


class EventLog:
    """The application's notification log, as projections need it."""

    def __init__(self, app: Application[UUID]) -> None:
        self._app = app
        self.channel: str = getattr(app.recorder, "channel_name", "launchdir_events")

    def head(self) -> int:
        """The highest notification id (0 when the log is empty)."""
        return self._app.recorder.max_notification_id() or 0

    def read(self, after: int, upto: int, topics: Sequence[str], limit: int) -> list[tuple[int, Any]]:
        """Events with after < id <= upto of the given topics, oldest first, decoded (or `Undecodable`)."""
        notes = self._app.recorder.select_notifications(
            start=after, stop=upto, topics=list(topics), limit=limit, inclusive_of_start=False
        )
        return [(n.id, self._decode(n)) for n in notes]

    def topic_of(self, event_id: int) -> str | None:
        """The stored topic of one notification, or None when there is no such id."""
        notes = self._app.recorder.select_notifications(start=event_id, stop=event_id, limit=1)
        return notes[0].topic if notes and notes[0].id == event_id else None

    def _decode(self, note: Notification) -> Any:
        try:
            return self._app.mapper.to_domain_event(note)
        except Exception as exc:  # anything the mapper raises: the event stays in the log, readable later
            return Undecodable(note.topic, f"{type(exc).__name__}: {exc}")
