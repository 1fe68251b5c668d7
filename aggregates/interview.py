"""The Interview decider: one person's answers to the founder interview questions.

Answers belong to the person, not to a listing, so they live on a stream of
their own per account (`interview_stream`), apart from the account's stream:
answering never races sign-in or API key changes. The questions come from the
catalogue; the decision is given them (`questions`), so it stays pure.

A call sets the answers it names and keeps the others; an empty answer
removes one. Answers equal to the stored ones are no change, and a call that
changes nothing records nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, one
from events.account import InterviewAnswered
from events.base import Event
from events.errors import FieldProblem, InvalidInput

MAX_ANSWERS = 30
MAX_ANSWER = 4000


def interview_stream(account_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:interview:{account_id}")


@dataclass(frozen=True)
class InterviewState:
    id: UUID
    version: int = 0
    answers: dict[int, str] = field(default_factory=dict)  # question id -> answer


def initial(stream_id: UUID) -> InterviewState:
    return InterviewState(id=stream_id)


def decide_answer(state: InterviewState, account_id: str, answers: Sequence[tuple[int, str]],
                  questions: Mapping[int, str], meta: Meta) -> list[Event]:
    """Set the given answers (trimmed; "" removes one); every question id must be a catalogue question, once."""
    problems = answer_problems([(i, q) for i, (q, _) in enumerate(answers)], questions)
    if problems:
        raise InvalidInput("some answers do not fit the interview questions", problems)
    wanted = {question_id: text.strip() for question_id, text in answers}
    changed = {str(q): text for q, text in sorted(wanted.items()) if state.answers.get(q, "") != text}
    if not changed:
        return []
    return one(state, meta, InterviewAnswered, account_id=account_id, answers=changed)


def evolve(event: Event, state: InterviewState) -> InterviewState:
    if not isinstance(event, InterviewAnswered):
        return state
    answers = dict(state.answers)
    for key, text in event.answers.items():
        if text:
            answers[int(key)] = text
        else:
            answers.pop(int(key), None)
    return replace(state, version=event.originator_version, answers=answers)


def answer_problems(question_ids: Sequence[tuple[int, int]], questions: Mapping[int, str]) -> list[FieldProblem]:
    """(position in `answers`, question id) pairs that are no catalogue question, or a question answered twice."""
    problems: list[FieldProblem] = []
    first: dict[int, int] = {}
    for i, question_id in question_ids:
        where = f"answers.{i}.question_id"
        if question_id not in questions:
            problems.append(FieldProblem(where, "enum", f"{question_id} is not the id of a question of list_interview_questions"))
        elif question_id in first:
            problems.append(FieldProblem(where, "unique", f"question {question_id} is answered twice "
                                                          f"(also answers.{first[question_id]})"))
        first.setdefault(question_id, i)
    return problems
