"""Reading the event log: the head position and batches of decoded events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.application import Application


class EventLog:
    """The application's notification log, as projections need it."""

    def __init__(self, app: Application[UUID]) -> None:
        self._app = app
        self.channel: str = getattr(app.recorder, "channel_name", "launchdir_events")

    def head(self) -> int:
        """The highest notification id (0 when the log is empty)."""
        return self._app.recorder.max_notification_id() or 0

    def read(self, after: int, upto: int, topics: Sequence[str], limit: int) -> list[tuple[int, Any]]:
        """Events with after < id <= upto of the given topics, oldest first, decoded."""
        notes = self._app.recorder.select_notifications(
            start=after, stop=upto, topics=list(topics), limit=limit, inclusive_of_start=False
        )
        to_event = self._app.mapper.to_domain_event
        return [(n.id, to_event(n)) for n in notes]
