"""answer_interview (SPEC §4.5): PUT /me/interview, the founder interview answers of the caller.

Answers belong to the person (a stream per account, `aggregates/interview.py`),
not to a listing; they show on the person's founder profile (get_founder) while
the person owns a live listing. The answer waits (bounded) for `interview_view`
to apply the write, so the caller reads their own answers.
"""

from __future__ import annotations

from typing import Any

from api.ops.caller import account_of, wait_for
from api.registry import Operation
from api.services import Call, Services
from commands import interview as cmd
from events.errors import FieldProblem
from queries import interview as q

VIEWS = ("interview_view",)


def _answer(s: Services, i: cmd.AnswerInterview, c: Call) -> dict[str, Any]:
    account_id = account_of(c)
    written = cmd.answer_interview(s.store, i, account_id, c.meta())
    wait_for(s, written.position, VIEWS)
    return q.my_interview(s.reads, account_id)


def _more(s: Services, raw: dict[str, Any], c: Call, schema: list[FieldProblem]) -> list[FieldProblem]:
    """Question ids that do not exist, said with the schema's problems in one 400."""
    return cmd.input_problems(s.store, raw, {p.field for p in schema})


def operations() -> list[Operation]:
    return [
        Operation("answer_interview", "PUT", "/me/interview", cmd.AnswerInterview, q.MyInterview, _answer,
                  scope="listings:write", idempotency_key=True, tag="my listings", more_problems=_more),
    ]
