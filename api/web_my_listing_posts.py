"""What a founder adds to a listing: updates, milestones, the founder story; and the founder interview.

- `/my/listings/{id}/updates`: post a "what's new" update (post_listing_update)
  and see the latest ones.
- `/my/listings/{id}/milestones`: add (add_milestone) and delete
  (delete_milestone) milestones.
- `/my/listings/{id}/story`: the founder story's sections (set_founder_story
  replaces the whole story, as the API does).
- `/my/interview`: the interview questions of the catalogue with the person's
  answers (answer_interview; an emptied answer removes it).

Each form builds the operation's input model and calls its command handler;
bad input shows the model's messages, worded for people (`api/web_errors.py`),
next to the fields and, with their labels, in the summary (status 400).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.sessions import WebSession
from api.web_founder_pages import FounderPages, nested_problems
from commands import interview as interview_cmd
from commands import my_listings as cmd
from commands.my_listing_inputs import AddMilestone, DeleteMilestone, PostListingUpdate, SetFounderStory
from events.draft_fields import STORY_LABELS, STORY_SECTIONS
from events.errors import Conflict, InvalidInput, NotFound
from events.week_names import week_name
from queries import catalog as catalog_q
from queries import interview as interview_q
from queries import notices as notices_q

VIEWS = ["listing_view", "history_view"]
NOTICES = {"posted": "Your update is posted.", "added": "The milestone is added.", "deleted": "The milestone is deleted.",
           "story": "Your founder story is saved.", "answers": "Your answers are saved."}
Handler = Callable[[Any, Any, str, Any], cmd.Written]
LABELS = {"Updates": {"title": "Title", "body": "What's new"},
          "Milestones": {"date": "Date", "title": "Title", "description": "Description", "url": "Link"},
          "Story": STORY_LABELS}
"""Each form's fields as its page labels them, for the error summary."""
NOT_LIVE = {"scheduled", "awaiting_badge", "draft"}
"""The statuses whose listing page shows no updates yet; a posted update shows once the listing goes live."""


def shows_when(doc: dict[str, Any]) -> str | None:
    """When an update of this listing shows on its public page, for a listing that is not live yet (else None):
    "when the listing goes live (Week 50, 2026 (7–13 Dec))", naming its launch week once it has one."""
    status = doc.get("status")
    if status not in NOT_LIVE:
        return None
    week = doc.get("launch_week")
    words = "when the listing goes live" + (f" ({week_name(week, 'long')})" if week else "")
    if status == "awaiting_badge":
        words += ", once your badge is found on your homepage"
    return words


class MyListingPosts(FounderPages):
    """Updates, milestones, story and interview pages."""

    def routes(self) -> list[BaseRoute]:
        mine = "/my/listings/{listing_id}"
        page = self._page
        return [
            Route(f"{mine}/updates", page(self.updates_page), methods=["GET"]),
            Route(f"{mine}/updates", page(self.post_update, form=True), methods=["POST"]),
            Route(f"{mine}/milestones", page(self.milestones_page), methods=["GET"]),
            Route(f"{mine}/milestones", page(self.add_milestone, form=True), methods=["POST"]),
            Route(f"{mine}/milestones/{{milestone_id}}/delete", page(self.delete_milestone, form=True),
                  methods=["POST"]),
            Route(f"{mine}/story", page(self.story_page), methods=["GET"]),
            Route(f"{mine}/story", page(self.set_story, form=True), methods=["POST"]),
            Route("/my/interview", page(self.interview_page), methods=["GET"]),
            Route("/my/interview", page(self.answer, form=True), methods=["POST"]),
        ]

    # ------------------------------------------------------------ pages

    def updates_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._listing_page(request, session, "founder/my/updates.html", "Updates")

    def milestones_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._listing_page(request, session, "founder/my/milestones.html", "Milestones")

    def story_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._listing_page(request, session, "founder/my/story.html", "Story")

    def _listing_page(self, request: Request, session: WebSession | None, template: str, tab: str,
                      values: dict[str, str] | None = None, errors: dict[str, str] | None = None,
                      status: int = 200) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        if values is None and tab == "Story":
            values = dict(doc["story"] or {})
        notice, shows = self._notice(request, NOTICES), shows_when(doc) if tab == "Updates" else None
        if shows and request.query_params.get("done") == "posted":  # posted, but not public yet: say until when
            notice = f"Posted. It will show on the listing's page {shows}."
        ctx = {"l": doc, "tab": tab, "values": values or {}, "errors": errors or {}, "sections": STORY_LABELS,
               "notice": notice, "error_labels": LABELS.get(tab, {}), "shows_when": shows,
               "unlock_offer": self._sections_offer(session, doc) if tab in ("Milestones", "Story") else None}
        return self._render(request, template, ctx, session, status)

    # ------------------------------------------------------------ forms

    def post_update(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        values = self._form(data, "title", "body")
        return self._write(request, session, values, PostListingUpdate, values, cmd.post_listing_update,
                           "founder/my/updates.html", "Updates", "updates?done=posted")

    def add_milestone(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        values = self._form(data, "date", "title", "description", "url")
        fields: dict[str, Any] = {k: v for k, v in values.items() if v or k in ("date", "title")}
        return self._write(request, session, values, AddMilestone, fields, cmd.add_milestone,
                           "founder/my/milestones.html", "Milestones", "milestones?done=added")

    def delete_milestone(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        milestone_id = self._int_param(request, "milestone_id")
        if milestone_id is None:
            return self._missing(request, session, "milestone")
        return self._write(request, session, {}, DeleteMilestone, {"milestone_id": milestone_id},
                           cmd.delete_milestone, "founder/my/milestones.html", "Milestones", "milestones?done=deleted")

    def set_story(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        values = self._form(data, *STORY_SECTIONS)
        return self._write(request, session, values, SetFounderStory, {k: v or None for k, v in values.items()},
                           cmd.set_founder_story, "founder/my/story.html", "Story", "story?done=story")

    def _write(self, request: Request, session: WebSession | None, values: dict[str, str], model: type[BaseModel],
               fields: dict[str, Any], handler: Handler, template: str, tab: str, done: str) -> Response:
        """Validate with the operation's model, run its handler, wait for the view; errors go back to the form."""
        if session is None:
            return self._signin(request)
        listing_id = self._int_param(request, "listing_id")
        if self._my_listing(session, listing_id) is None:
            return self._missing(request, session, "listing")
        try:
            command = model.model_validate({"listing_id": listing_id, **fields})
            written = handler(self.s.store, command, session.account_id, self._meta(session))
        except (ValidationError, InvalidInput) as exc:
            return self._listing_page(request, session, template, tab, values, nested_problems(exc), 400)
        except NotFound:
            return self._missing(request, session, "milestone" if "milestone" in done else "listing")
        except Conflict as exc:
            return self._message(request, session, "This cannot be done", exc.detail, 409,
                                 [(f"/my/listings/{listing_id}", "Back to the listing")])
        self._wait(written.position, VIEWS)
        return self._redirect(f"/my/listings/{listing_id}/{done}")

    # ------------------------------------------------------------ the interview

    def interview_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        return self._interview(request, session)

    def answer(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        mine = {a["question_id"]: a["answer"] for a in interview_q.my_interview(self.s.reads, session.account_id)["items"]}
        questions = catalog_q.list_interview_questions(self.s.reads)["items"]
        sent = {int(q["id"]): str(data.get(f"q-{q['id']}") or "").strip() for q in questions}
        changed = [{"question_id": i, "answer": a} for i, a in sent.items() if a != mine.get(i, "")]
        values = {f"q-{i}": a for i, a in sent.items()}
        try:
            command = interview_cmd.AnswerInterview.model_validate({"answers": changed})
            written = interview_cmd.answer_interview(self.s.store, command, session.account_id, self._meta(session))
        except (ValidationError, InvalidInput) as exc:
            return self._interview(request, session, values, nested_problems(exc, _question(changed)), 400)
        self._wait(written.position, ["interview_view"])
        return self._redirect("/my/interview?done=answers")

    def _interview(self, request: Request, session: WebSession, values: dict[str, str] | None = None,
                   errors: dict[str, str] | None = None, status: int = 200) -> Response:
        mine = interview_q.my_interview(self.s.reads, session.account_id)
        answers = {a["question_id"]: a["answer"] for a in mine["items"]}
        questions = catalog_q.list_interview_questions(self.s.reads)["items"]
        shown = values if values is not None else {f"q-{q['id']}": answers.get(q["id"], "") for q in questions}
        ctx = {"questions": questions, "values": shown, "errors": errors or {}, "shown_publicly": mine["shown_publicly"],
               "standing": interview_q.interview_standing(self.s.reads, session.account_id),
               "contact": notices_q.contact_address(self.s.reads),  # where to ask for a founder profile
               "notice": self._notice(request, NOTICES), "nav_here": "interview",
               "error_labels": {f"q-{q['id']}": q["question"] for q in questions}}
        return self._render(request, "founder/my/interview.html", ctx, session, status)


def _question(changed: list[dict[str, Any]]) -> Callable[[str], str]:
    """`answers.2.answer` -> the form field of that question (`q-<id>`)."""
    def rename(path: str) -> str:
        parts = path.split(".")
        if len(parts) >= 2 and parts[0] == "answers" and (parts[1].isascii() and parts[1].isdigit()) and int(parts[1]) < len(changed):
            return f"q-{changed[int(parts[1])]['question_id']}"
        return path
    return rename


def my_listing_post_routes(identity: Identity) -> list[BaseRoute]:
    return MyListingPosts(identity).routes()
