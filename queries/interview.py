"""Founder-interview reads: a person's own answers (answer_interview's answer) and what their founder profile shows.

Answers come from `interview_view`, the question texts from the catalogue
(`catalog_view`). A founder profile shows its person's answers only while the
person owns a live listing; the person themselves always sees all of theirs.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from projections.reads import ReadStore

VIEW = "interview_view"
CATALOG = "catalog_view"
CONTENT = "content_view"


class InterviewAnswer(BaseModel):
    question_id: int
    question: str = Field(description="The question's text, as list_interview_questions shows it.")
    answer: str
    answered_at: datetime


class MyInterview(BaseModel):
    items: list[InterviewAnswer] = Field(description="Your current answers, in the order of the questions.")
    shown_publicly: bool = Field(description="Whether your founder profile shows them now: it does while you own "
                                             "a live listing and have a founder profile.")


def _answers(reads: ReadStore, account_id: str, public: bool) -> list[dict[str, Any]]:
    t, c = reads.tables(VIEW), reads.tables(CATALOG)
    live_owner = (f"""AND EXISTS (SELECT 1 FROM {t['owners']} o JOIN {t['listings']} l USING (listing_id)
                          WHERE o.account_id = a.account_id AND l.live)""" if public else "")
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT a.question_id, coalesce(q.doc->>'question', ''), a.answer, a.answered_at
                FROM {t['answers']} a LEFT JOIN {c['questions']} q ON q.id = a.question_id
                WHERE a.account_id = %s {live_owner}
                ORDER BY q.position NULLS LAST, a.question_id""",
            (account_id,),
        ).fetchall()
    return [{"question_id": r[0], "question": r[1], "answer": r[2], "answered_at": r[3]} for r in rows]


def public_answers(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """The answers a founder profile shows: all of the person's, while they own a live listing; else none."""
    return _answers(reads, account_id, public=True)


def my_interview(reads: ReadStore, account_id: str) -> dict[str, Any]:
    """The person's own answers, and whether their founder profile shows them now."""
    items = _answers(reads, account_id, public=False)
    t, f = reads.tables(VIEW), reads.tables(CONTENT)
    with reads.pool.connection() as conn:
        shown = conn.execute(
            f"""SELECT EXISTS (SELECT 1 FROM {t['owners']} o JOIN {t['listings']} l USING (listing_id)
                               WHERE o.account_id = %s AND l.live)
                   AND EXISTS (SELECT 1 FROM {f['founders']} WHERE account_id = %s)""",
            (account_id, account_id),
        ).fetchone()
    return {"items": items, "shown_publicly": bool(shown and shown[0])}


def interview_standing(reads: ReadStore, account_id: str) -> dict[str, Any]:
    """The two conditions for the answers to show, apart: a live listing owned, and the founder profile linked.

    The interview page says which one is missing: a founder profile is made by
    the site team and linked to the account, which the person cannot see otherwise.
    """
    t, f = reads.tables(VIEW), reads.tables(CONTENT)
    with reads.pool.connection() as conn:
        owns = conn.execute(
            f"""SELECT EXISTS (SELECT 1 FROM {t['owners']} o JOIN {t['listings']} l USING (listing_id)
                               WHERE o.account_id = %s AND l.live)""", (account_id,)).fetchone()
        profile = conn.execute(f"SELECT slug, name FROM {f['founders']} WHERE account_id = %s ORDER BY slug LIMIT 1",
                               (account_id,)).fetchone()
    return {"owns_live": bool(owns and owns[0]),
            "profile": {"slug": profile[0], "name": profile[1]} if profile else None}
