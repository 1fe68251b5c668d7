"""The launch-week decider: closing a week grants Launch of the Week #1, #2 and #3.

Awards follow community votes only. The standings handed in hold nothing but
vote counts and the time of each listing's earliest counted vote, so neither
money (the billboard), views nor anything else can move an award.

Ranking rule, in order:

1. more launch-week votes (votes cast before the week ended and not withdrawn);
2. on equal votes, the earlier first counted vote;
3. then the lower listing id.

Only listings with at least one vote can win; a week with fewer voted
launches grants fewer awards (a week with none still closes, with no winners).
Each week is its own tiny stream, so closing it twice, or from two processes
at once, records one `LaunchWeekClosed`.

Awards are derived from votes, so a closed week is not frozen: when launches or
votes of the week arrive after it closed (a week closed while the log was still
being filled, back-dated imports such as the demo, a listing published into a
past week), `decide_recompute` derives the winners again from the standings
and records a `LaunchWeekAwardsRecomputed` when they differ. Votes cast after
the week ended never count (the standings stop at the week's end), so this
never lets late voting reorder a past week.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Emitter, Meta
from aggregates.weeks import is_monday
from events.awards import LaunchWeekAwardsRecomputed, LaunchWeekClosed
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput

PLACES = 3


def week_stream(week: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:week:{week}")


@dataclass(frozen=True)
class Standing:
    """One launch of the week as the vote count sees it."""

    listing_id: int
    votes: int
    first_vote_at: datetime | None


@dataclass(frozen=True)
class WeekState:
    id: UUID
    version: int = 0
    week: str = ""
    winners: tuple[dict[str, Any], ...] = ()

    @property
    def closed(self) -> bool:
        return self.version > 0


def initial(stream_id: UUID) -> WeekState:
    return WeekState(id=stream_id)


def rank(standings: list[Standing]) -> list[Standing]:
    """The award order (see the module docstring); listings without votes are left out."""

    def key(s: Standing) -> tuple[int, float, int]:
        first = s.first_vote_at.timestamp() if s.first_vote_at else float("inf")
        return (-s.votes, first, s.listing_id)

    return sorted((s for s in standings if s.votes > 0), key=key)


def _check(week: str, standings: list[Standing]) -> None:
    if not is_monday(week):
        raise InvalidInput("a week is named by its Monday", [FieldProblem("week", "format_date", "a Monday, YYYY-MM-DD")])
    ids = [s.listing_id for s in standings]
    if len(set(ids)) != len(ids):
        raise InvalidInput("a listing appears twice in the standings", [FieldProblem("standings", "unique", "one entry per listing")])
    if any(s.votes < 0 for s in standings):
        raise InvalidInput("negative vote count", [FieldProblem("standings", "minimum", "votes >= 0")])


def winners_of(standings: list[Standing]) -> list[dict[str, Any]]:
    """The awards the standings give: the top `PLACES` by the ranking rule, as stored in the events."""
    return [
        {"rank": place, "listing_id": s.listing_id, "votes": s.votes,
         "first_vote_at": s.first_vote_at.isoformat() if s.first_vote_at else None}
        for place, s in enumerate(rank(standings)[:PLACES], start=1)
    ]


def _same_awards(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> bool:
    """Equal places, listings and vote counts (the first vote's time only breaks ties, it is no award fact)."""
    def facts(winners: Sequence[dict[str, Any]]) -> list[tuple[int, int, int]]:
        return [(int(w["rank"]), int(w["listing_id"]), int(w["votes"])) for w in winners]

    return facts(a) == facts(b)


def decide_close(state: WeekState, week: str, current_week: str, standings: list[Standing], meta: Meta) -> list[Event]:
    """Close `week` once it has ended; closing a closed week again changes nothing (see `decide_recompute`)."""
    if not is_monday(week):
        raise InvalidInput("a week is named by its Monday", [FieldProblem("week", "format_date", "a Monday, YYYY-MM-DD")])
    if state.closed:
        return []
    if week >= current_week:
        raise Conflict(f"the week of {week} has not ended yet")
    _check(week, standings)
    emit = Emitter(state, meta)
    emit(LaunchWeekClosed, week=week, winners=winners_of(standings))
    return emit.events


def decide_recompute(state: WeekState, week: str, standings: list[Standing], meta: Meta) -> list[Event]:
    """Derive a closed week's awards again from `standings`; nothing when they are the awards it has."""
    _check(week, standings)
    if not state.closed:
        raise Conflict(f"the week of {week} is not closed yet; close it first")
    winners = winners_of(standings)
    if _same_awards(winners, state.winners):
        return []
    emit = Emitter(state, meta)
    emit(LaunchWeekAwardsRecomputed, week=week, winners=winners, previous=list(state.winners))
    return emit.events


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: LaunchWeekClosed, s: WeekState) -> WeekState:
    return replace(s, version=e.originator_version, week=e.week, winners=tuple(e.winners))


@evolve.register
def _(e: LaunchWeekAwardsRecomputed, s: WeekState) -> WeekState:
    return replace(s, version=e.originator_version, week=e.week, winners=tuple(e.winners))
