"""Closing a launch week: Launch of the Week #1, #2 and #3, by community votes only.

The vote standings come from the caller (the scheduler and the staff CLI read
them from the `launches_view` projection after catching it up); the handler
keeps only listings that really are live launches of that week, and the
decider ranks them (`aggregates/awards.py` has the rule). Closing is
idempotent. Awards are derived from votes, so `recompute_week` derives a
closed week's winners again from fresh standings and records the change when
launches or votes of the week arrived after it closed.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from aggregates import awards
from aggregates.base import Meta
from aggregates.weeks import week_of
from commands import listing as listing_cmd
from commands.store import EventStore
from events.errors import NotFound


class StandingIn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: int = Field(ge=1)
    votes: int = Field(ge=0)
    first_vote_at: datetime | None = Field(default=None)


class CloseLaunchWeek(BaseModel):
    """Close a launch week and grant its awards from the community vote standings."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    week: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    standings: list[StandingIn] = Field(default_factory=list)


def _week(store: EventStore, week: str) -> awards.WeekState:
    state: awards.WeekState = store.load(awards.week_stream(week), awards)
    return state


def is_closed(store: EventStore, week: str) -> bool:
    return _week(store, week).closed


def _launched_in(store: EventStore, listing_id: int, week: str) -> bool:
    try:
        state = listing_cmd.load(store, listing_id)
    except NotFound:
        return False
    return state.status == "live" and state.week == week


def _standings(store: EventStore, cmd: CloseLaunchWeek) -> list[awards.Standing]:
    """The standings handed in that can win: voted-for live launches of the week.

    A listing without votes is never ranked (`awards.rank`), so it is dropped
    before its stream is loaded: a week of many launches and few votes (a bulk
    import) would otherwise load every launch on each scheduler tick.
    """
    return [
        awards.Standing(s.listing_id, s.votes, s.first_vote_at)
        for s in cmd.standings
        if s.votes > 0 and _launched_in(store, s.listing_id, cmd.week)
    ]


def close_week(store: EventStore, cmd: CloseLaunchWeek, meta: Meta) -> int:
    """Returns the notification position (the current head when the week was already closed)."""
    if is_closed(store, cmd.week):
        return store.position()
    current = week_of(meta.at.date())
    standings = _standings(store, cmd)
    return store.decide(awards.week_stream(cmd.week), awards, lambda s: awards.decide_close(
        s, cmd.week, current, standings, meta)).position


def recompute_week(store: EventStore, cmd: CloseLaunchWeek, meta: Meta) -> bool:
    """Derive a closed week's awards again from `cmd.standings`; True when they changed (an event was stored)."""
    standings = _standings(store, cmd)
    appended = store.decide(awards.week_stream(cmd.week), awards, lambda s: awards.decide_recompute(
        s, cmd.week, standings, meta))
    return bool(appended.events)
