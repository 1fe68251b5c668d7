"""Events of launch weeks: closing a week grants Launch of the Week #1..#3 by community votes only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class LaunchWeekClosed(Event):
    week: str  # Monday, YYYY-MM-DD
    winners: list[dict[str, Any]]  # [{"rank": 1, "listing_id": 7, "votes": 42}, ...]


@dataclass(frozen=True, kw_only=True)
class LaunchWeekAwardsRecomputed(Event):
    """A closed week's awards, derived again from its votes: launches or votes of the week arrived after it closed."""

    week: str  # Monday, YYYY-MM-DD
    winners: list[dict[str, Any]]  # the awards now, same shape as LaunchWeekClosed.winners
    previous: list[dict[str, Any]]  # the awards they replace
