"""The founder interview (SPEC §2.6, §4.5 answer_interview): the input and its handler.

The question ids are checked against the catalogue's interview questions on
the write side (the Catalog aggregate, the same source list_interview_questions
shows), so an answer to a question that does not exist is a 400 naming
`answers.<i>.question_id`, never stored.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aggregates import catalog, interview
from aggregates.base import Meta
from commands.store import Appended, EventStore
from events.errors import FieldProblem


class InterviewAnswerInput(BaseModel):
    """One answer: the question's id (from list_interview_questions) and your answer; "" removes an answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    question_id: int = Field(ge=1, le=2_147_483_647, description="Question id from list_interview_questions.")
    answer: str = Field(max_length=interview.MAX_ANSWER, description="Plain text; an empty answer removes yours.")


class AnswerInterview(BaseModel):
    """Answer founder interview questions; your answers show on your founder profile while you own a live listing.

    Sets the answers you send and keeps the others; an empty `answer` removes one. Each
    question at most once per call. Answers with your current answers and the question texts.
    `shown_publicly` is true only while both hold: you own a live listing, and a founder
    profile is linked to your account (the site team makes profiles; until then the
    answers are kept and shown as soon as both hold).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    answers: list[InterviewAnswerInput] = Field(max_length=interview.MAX_ANSWERS,
                                                description="At most 30 answers, each question once.")


def load(store: EventStore, account_id: str) -> interview.InterviewState:
    state: interview.InterviewState = store.load(interview.interview_stream(account_id), interview)
    return state


def answer_interview(store: EventStore, cmd: AnswerInterview, account_id: str, meta: Meta) -> Appended:
    """Store the answers that change, checked against the catalogue's interview questions."""
    answers = [(a.question_id, a.answer) for a in cmd.answers]
    questions = store.load(catalog.CATALOG_ID, catalog).questions
    return store.decide(interview.interview_stream(account_id), interview,
                        lambda s: interview.decide_answer(s, account_id, answers, questions, meta))


def input_problems(store: EventStore, raw: Mapping[str, Any], schema_fields: Collection[str]) -> list[FieldProblem]:
    """The catalogue's problems with the question ids of an input its schema refused (`schema_fields`: what the
    schema named), so one 400 names an answer too long and a question that does not exist together."""
    answers = raw.get("answers")
    if not isinstance(answers, list):
        return []
    ids: list[tuple[int, int]] = []
    for i, item in enumerate(answers):
        if any(f == f"answers.{i}" or f.startswith(f"answers.{i}.question_id") for f in schema_fields):
            continue
        try:
            ids.append((i, InterviewAnswerInput.model_validate({**item, "answer": ""}).question_id))
        except (ValidationError, TypeError):
            continue
    return interview.answer_problems(ids, store.load(catalog.CATALOG_ID, catalog).questions)
