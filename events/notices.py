"""Events of the owners' notices: mail that tells founders what happened to their listing or order.

A listing scheduled for a launch week, a listing gone live, a listing held
back because our badge was missing when its week began, and an order paid:
each is a *notice*, named by the event that made it (`<kind>:<stream>:<version>`,
`projections/notices_view.py`). The process manager (`workers/notices.py`)
queues its emails through the outbox and, in the same append, records the
notice's marker (`aggregates/notices.py`): one tiny stream per notice whose one
event says "mailed", so a restart never mails it again.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class NoticeMailed(Event):
    """Every recipient of the notice (with a confirmed address) has its email queued in the outbox."""

    key: str
    recipients: int  # emails queued (0: nobody with a confirmed address to tell)
