"""The founder-interview decider and the fan-out marker: given a state, when answers are decided, then these events."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import reduce
from typing import Any

import pytest

from aggregates import interview, updates
from aggregates.base import Meta
from events.account import InterviewAnswered
from events.errors import InvalidInput
from events.updates import UpdateFollowersNotified

META = Meta(at=datetime(2026, 11, 18, 12, tzinfo=timezone.utc), actor="account:a1", channel="rest", via="api_key:k1")
QUESTIONS = {1: "What are you building?", 2: "Why now?", 7: "What did you learn?"}


def _fold(state: Any, events: list[Any]) -> Any:
    return reduce(lambda s, e: interview.evolve(e, s), events, state)


def _answered(*answers: tuple[int, str]) -> interview.InterviewState:
    state = interview.initial(interview.interview_stream("a1"))
    return _fold(state, interview.decide_answer(state, "a1", list(answers), QUESTIONS, META))


def test_answers_are_stored_trimmed_on_the_person_s_own_stream() -> None:
    state = interview.initial(interview.interview_stream("a1"))
    (event,) = interview.decide_answer(state, "a1", [(2, "  Timing.  "), (1, "A launch site")], QUESTIONS, META)
    assert isinstance(event, InterviewAnswered)
    assert event.account_id == "a1" and event.answers == {"1": "A launch site", "2": "Timing."}
    assert event.originator_id == interview.interview_stream("a1") != interview.interview_stream("a2")
    assert (event.actor, event.channel, event.via) == ("account:a1", "rest", "api_key:k1")
    assert interview.evolve(event, state).answers == {1: "A launch site", 2: "Timing."}


def test_a_call_sets_what_it_names_keeps_the_rest_and_an_empty_answer_removes_one() -> None:
    state = _answered((1, "A launch site"), (2, "Timing."))
    events = interview.decide_answer(state, "a1", [(2, ""), (7, "Ship small")], QUESTIONS, META)
    assert [e.answers for e in events] == [{"2": "", "7": "Ship small"}]  # type: ignore[attr-defined]
    assert _fold(state, events).answers == {1: "A launch site", 7: "Ship small"}


def test_the_same_answers_again_record_nothing() -> None:
    state = _answered((1, "A launch site"))
    assert interview.decide_answer(state, "a1", [(1, " A launch site ")], QUESTIONS, META) == []
    assert interview.decide_answer(state, "a1", [(2, "")], QUESTIONS, META) == []  # removing what is not there
    assert interview.decide_answer(state, "a1", [], QUESTIONS, META) == []


def test_an_unknown_question_is_a_400_naming_the_item() -> None:
    with pytest.raises(InvalidInput) as refused:
        interview.decide_answer(_answered(), "a1", [(1, "ok"), (99, "?")], QUESTIONS, META)
    [problem] = refused.value.problems
    assert (problem.field, problem.rule) == ("answers.1.question_id", "enum")
    assert "99" in problem.message and "list_interview_questions" in problem.message


def test_a_question_answered_twice_in_one_call_is_refused() -> None:
    with pytest.raises(InvalidInput) as refused:
        interview.decide_answer(_answered(), "a1", [(1, "a"), (2, "b"), (1, "c")], QUESTIONS, META)
    [problem] = refused.value.problems
    assert (problem.field, problem.rule) == ("answers.2.question_id", "unique")
    assert "answers.0" in problem.message


def test_the_fan_out_marker_is_recorded_once() -> None:
    state = updates.initial(updates.fanout_stream(4, 2))
    (event,) = updates.decide_notified(state, 4, 2, 3, META)
    assert isinstance(event, UpdateFollowersNotified) and (event.listing_id, event.update_id, event.recipients) == (4, 2, 3)
    assert updates.decide_notified(updates.evolve(event, state), 4, 2, 5, META) == []
    assert updates.fanout_stream(4, 2) not in (updates.fanout_stream(4, 3), updates.fanout_stream(2, 4))
