"""Recomputing a closed week: given its awards, when the standings changed, then the awards follow the votes."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from aggregates import awards
from aggregates.awards import Standing
from aggregates.base import Meta
from events.awards import LaunchWeekAwardsRecomputed
from events.errors import Conflict

AT = datetime(2026, 11, 23, 0, 1, tzinfo=timezone.utc)
LATER = Meta(at=datetime(2026, 11, 23, 0, 2, tzinfo=timezone.utc), actor="system", channel="system")
WEEK, CURRENT = "2026-11-16", "2026-11-23"
T0 = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)


def _closed_with(standings: list[Standing]) -> awards.WeekState:
    state = awards.initial(awards.week_stream(WEEK))
    for event in awards.decide_close(state, WEEK, CURRENT, standings, Meta(at=AT, actor="system", channel="system")):
        state = awards.evolve(event, state)
    return state


def test_new_standings_replace_the_awards_and_keep_what_they_replace() -> None:
    state = _closed_with([])  # closed before its launches arrived
    (event,) = awards.decide_recompute(state, WEEK, [Standing(1, 2, T0), Standing(2, 5, T0), Standing(3, 1, T0),
                                                     Standing(4, 1, T0)], LATER)
    assert isinstance(event, LaunchWeekAwardsRecomputed)
    assert [(w["rank"], w["listing_id"], w["votes"]) for w in event.winners] == [(1, 2, 5), (2, 1, 2), (3, 3, 1)]
    assert event.previous == [] and event.originator_version == 2 and event.timestamp == LATER.at
    after = awards.evolve(event, state)
    assert [w["listing_id"] for w in after.winners] == [2, 1, 3] and after.closed


def test_unchanged_awards_record_nothing() -> None:
    state = _closed_with([Standing(1, 3, T0), Standing(2, 1, T0)])
    assert awards.decide_recompute(state, WEEK, [Standing(2, 1, T0), Standing(1, 3, T0)], LATER) == []


def test_a_changed_vote_count_of_a_winner_is_recomputed() -> None:
    state = _closed_with([Standing(1, 3, T0)])
    (event,) = awards.decide_recompute(state, WEEK, [Standing(1, 4, T0)], LATER)
    assert event.previous[0]["votes"] == 3 and event.winners[0]["votes"] == 4  # type: ignore[attr-defined]


def test_only_a_closed_week_is_recomputed() -> None:
    with pytest.raises(Conflict):
        awards.decide_recompute(awards.initial(awards.week_stream(WEEK)), WEEK, [Standing(1, 3, T0)], LATER)
