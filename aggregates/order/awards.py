"""The awards a listing won, as the trophy cabinet needs them: its Launch of the Week places, week by week.

A trophy is made for one award, so pricing must know a listing's awards
(docs/orders.md, "Trophy cabinet"). Awards live on the week streams
(`aggregates/awards.py`: `LaunchWeekClosed` and `LaunchWeekAwardsRecomputed`
name the winners), and a listing can only win a week it launched in. So the
listing's own stream is folded for the weeks it launched in
(`LAUNCH_WEEKS`, a secondary kind of the listing stream), and those weeks'
streams give the places: a handful of small streams, read from the event
store like every other fact pricing uses, never from a read model.

A relaunch moves the listing to a later week, but the earlier week's award
stands (awards of weeks more than 8 weeks past are never recomputed), so
every week the listing ever launched in counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import singledispatch
from typing import Any
from uuid import UUID

from aggregates.awards import WeekState
from aggregates.base import StreamKind
from events.base import Event
from events.listing import ListingLaunched, ListingPublishedByStaff
from events.week_names import week_name


@dataclass(frozen=True)
class LaunchWeeks:
    """The weeks a listing launched in (a first launch, a relaunch, a staff publish), oldest first."""

    id: UUID
    version: int = 0
    weeks: tuple[str, ...] = ()


@dataclass(frozen=True)
class WonAward:
    """One award a listing won: Launch of the Week #`rank` of the week starting `week` (a Monday)."""

    week: str
    rank: int

    def name(self) -> str:
        """"Launch of the Week #2, 30 Nov – 6 Dec 2026" (plain spaces: API answers and mail read it too)."""
        return f"Launch of the Week #{self.rank}, {week_name(self.week, plain=True)}"


def initial(stream_id: UUID) -> LaunchWeeks:
    return LaunchWeeks(id=stream_id)


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


def _launched(e: ListingLaunched | ListingPublishedByStaff, s: LaunchWeeks) -> LaunchWeeks:
    weeks = s.weeks if e.week in s.weeks else (*s.weeks, e.week)
    return replace(s, version=e.originator_version, weeks=weeks)


evolve.register(ListingLaunched, _launched)
evolve.register(ListingPublishedByStaff, _launched)

LAUNCH_WEEKS: StreamKind[LaunchWeeks] = StreamKind(initial, evolve)
"""The listing stream folded for its launch weeks only (`listing.listing_stream(id)`)."""


def won(listing_id: int, weeks: Iterable[WeekState]) -> list[WonAward]:
    """The awards `listing_id` holds in the closed weeks given (their current winners), oldest week first."""
    found = [WonAward(state.week, int(w["rank"])) for state in weeks if state.closed
             for w in state.winners if int(w["listing_id"]) == listing_id]
    return sorted(found, key=lambda a: a.week)
