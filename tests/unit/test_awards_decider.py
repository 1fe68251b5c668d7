"""The launch-week decider: given standings, when a week closes, then the award order follows votes only."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from aggregates import awards
from aggregates.awards import Standing
from aggregates.base import Meta
from events.awards import LaunchWeekClosed
from events.errors import Conflict, InvalidInput

AT = datetime(2026, 11, 23, 0, 1, tzinfo=timezone.utc)
META = Meta(at=AT, actor="system", channel="system")
WEEK, CURRENT = "2026-11-16", "2026-11-23"
T0 = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)


def _close(standings: list[Standing], state: awards.WeekState | None = None, week: str = WEEK) -> list[LaunchWeekClosed]:
    state = state or awards.initial(awards.week_stream(week))
    return awards.decide_close(state, week, CURRENT, standings, META)  # type: ignore[return-value]


def test_most_votes_win_in_order() -> None:
    (event,) = _close([Standing(1, 5, T0), Standing(2, 9, T0), Standing(3, 7, T0), Standing(4, 1, T0)])
    assert [(w["rank"], w["listing_id"], w["votes"]) for w in event.winners] == [(1, 2, 9), (2, 3, 7), (3, 1, 5)]
    assert event.week == WEEK and event.actor == "system"


def test_equal_votes_go_to_the_earlier_first_vote_then_the_lower_id() -> None:
    later = T0 + timedelta(hours=2)
    (event,) = _close([Standing(10, 4, later), Standing(11, 4, T0), Standing(7, 4, later), Standing(3, 4, later)])
    assert [w["listing_id"] for w in event.winners] == [11, 3, 7]


def test_first_vote_times_compare_across_utc_offsets() -> None:
    berlin = timezone(timedelta(hours=1))
    # 09:30 in Berlin is 08:30 UTC: earlier than 09:00 UTC
    (event,) = _close([Standing(1, 3, T0), Standing(2, 3, datetime(2026, 11, 16, 9, 30, tzinfo=berlin))])
    assert [w["listing_id"] for w in event.winners] == [2, 1]


def test_listings_without_votes_do_not_win_and_an_empty_week_still_closes() -> None:
    (event,) = _close([Standing(1, 0, None), Standing(2, 2, T0)])
    assert [w["listing_id"] for w in event.winners] == [2]
    (empty,) = _close([])
    assert empty.winners == []


def test_closing_is_idempotent() -> None:
    events = _close([Standing(1, 3, T0)])
    state = awards.evolve(events[0], awards.initial(awards.week_stream(WEEK)))
    assert state.closed and state.winners[0]["listing_id"] == 1
    assert _close([Standing(2, 99, T0)], state) == []  # a closed week never changes


def test_a_week_that_has_not_ended_cannot_close() -> None:
    with pytest.raises(Conflict):
        _close([Standing(1, 3, T0)], week=CURRENT)


def test_bad_weeks_and_standings_are_refused() -> None:
    with pytest.raises(InvalidInput):
        _close([], week="2026-11-17")  # a Tuesday
    with pytest.raises(InvalidInput):
        _close([Standing(1, 3, T0), Standing(1, 4, T0)])
    with pytest.raises(InvalidInput):
        _close([Standing(1, -1, T0)])


def test_the_stream_is_one_per_week() -> None:
    assert awards.week_stream(WEEK) == awards.week_stream(WEEK) != awards.week_stream(CURRENT)
