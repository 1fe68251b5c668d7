"""Events of launch weeks: closing a week grants Launch of the Week #1..#3 by community votes only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class LaunchWeekClosed(Event):
    week: str  # Monday, YYYY-MM-DD
    winners: list[dict[str, Any]]  # [{"rank": 1, "listing_id": 7, "votes": 42}, ...]
