"""The founder's drafts on the website: submit a site, watch it being read and drafted, edit, invite, save as listing.

GET/POST /submit, GET /drafts (newest first, paged), GET /drafts/{id} (the
editor, or the progress while the site is read and drafted), POST
/drafts/{id} (one editor form: a section's values, or lock, restore, delete,
regenerate), POST /drafts/{id}/invites (invite_cofounder) and POST
/drafts/{id}/submit (submit_draft). The handlers call the same command and
query functions as the submit_listing, get_draft, list_my_drafts,
update_draft, invite_cofounder and submit_draft operations (`api/ops/drafts.py`),
so the rules, the 404 for someone else's draft and the field-level messages
are the API's. Every page needs a session (else the sign-in page, coming
back here); every form carries the CSRF token.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote
from uuid import UUID

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates import draft as d
from api import web_draft_forms as forms
from api import web_draft_view as view
from api.identity import Identity
from api.sessions import WebSession
from api.web_pages import WebPages
from commands import draft as draft_cmd
from commands import invites as invites_cmd
from events.errors import Conflict, InvalidInput, NotFound
from queries import drafts as drafts_q
from queries.paging import Paging

Signed = Callable[[Request, FormData, WebSession], Response]
Mine = Callable[[Request, FormData, WebSession, dict[str, Any]], Response]
VIEWS = ["draft_view"]
LISTING_VIEWS = ["draft_view", "listing_view"]
EDITOR = "founder/drafts/editor.html"
DONE = {  # ?done= after a redirect: what the last form did
    "saved": "Your changes are saved.",
    "regenerating": "Regenerating the chosen fields from your site; reload in a few seconds to see them.",
    "invited": f"The invite is on its way; it is valid for {d.INVITE_TTL.days} days.",
    "listed": "Saved as a listing.",
    "unchanged": "Nothing changed.",
}


class WebDrafts(WebPages):
    """The draft pages, on the identity pages' sessions, CSRF tokens and templates."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/submit", self._page(self._signed(self.submit_page)), methods=["GET"]),
            Route("/submit", self._page(self._signed(self.submit), form=True, invalid=self._submit_again),
                  methods=["POST"]),
            Route("/drafts", self._page(self._signed(self.drafts_page)), methods=["GET"]),
            Route("/drafts/{id}", self._page(self._mine(self.editor_page)), methods=["GET"]),
            Route("/drafts/{id}", self._page(self._mine(self.edit), form=True, invalid=self._editor_again),
                  methods=["POST"]),
            Route("/drafts/{id}/invites", self._page(self._mine(self.invite), form=True, invalid=self._editor_again),
                  methods=["POST"]),
            Route("/drafts/{id}/submit", self._page(self._mine(self.save_as_listing), form=True,
                                                    invalid=self._editor_again), methods=["POST"]),
        ]

    # ------------------------------------------------------------ submit

    def submit_page(self, request: Request, data: FormData, session: WebSession) -> Response:
        url = request.query_params.get("url", "")[:2048]  # "Submit the site again" from a failed draft
        return self._render(request, "founder/drafts/submit.html", {"values": {"url": url}}, session)

    def submit(self, request: Request, data: FormData, session: WebSession) -> Response:
        url = str(data.get("url") or "")
        try:
            cmd = draft_cmd.SubmitListing.model_validate({"url": url})
            done = draft_cmd.submit_listing(self.s.store, cmd, session.account_id, self._meta(session),
                                            check_url=self.s.check_url, jobs=None)
        except (ValidationError, InvalidInput) as exc:
            return self._submit_again(request, data, session, forms.problems(exc))
        self._wait(done.position, VIEWS)
        if not done.existing:  # queued once the draft is readable, as submit_listing does
            draft_cmd.queue_job(lambda: self.s.draft_jobs.crawl(done.draft_id))
        return self._redirect(f"/drafts/{done.draft_id}")

    def _submit_again(self, request: Request, data: FormData, session: WebSession | None,
                      errors: dict[str, str]) -> Response:
        values = {"url": str(data.get("url") or "")}
        ctx = {"errors": errors, "values": values, "error_labels": {"url": "Website address"}}
        return self._render(request, "founder/drafts/submit.html", ctx, session, 400)

    # ------------------------------------------------------------ the list

    def drafts_page(self, request: Request, data: FormData, session: WebSession) -> Response:
        try:
            paging = Paging.model_validate({"page": request.query_params.get("page") or 1})
        except (ValueError, ValidationError):
            return self._message(request, session, "No such page", "The page number is 1 to 1000.", 400)
        found = drafts_q.list_my_drafts(self.s.reads, session.account_id, paging)
        return self._render(request, "founder/drafts/list.html", {"drafts": found, "reasons": view.REASONS,
                                                                  "labels": view.LABELS}, session)

    # ------------------------------------------------------------ the editor

    def editor_page(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        done = DONE.get(request.query_params.get("done") or "")
        return self._editor(request, session, doc, {"done": done})

    def edit(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        wanted = forms.read(data, doc)
        if wanted.changes_nothing:
            return self._redirect(f"/drafts/{doc['id']}?done=unchanged#{wanted.section}")
        try:
            cmd = draft_cmd.UpdateDraft.model_validate(wanted.raw)
            position = draft_cmd.update_draft(self.s.store, cmd, session.account_id, self._meta(session),
                                              check_url=self.s.check_url, jobs=self.s.draft_jobs)
        except NotFound:
            return self._missing(request, session)
        except (ValidationError, InvalidInput, Conflict) as exc:
            errors = {"form": exc.detail} if isinstance(exc, Conflict) else forms.problems(exc, wanted.raw)
            if isinstance(exc, ValidationError):  # the categories and competitor URL too: every mistake at once
                schema = {".".join(str(x) for x in e.get("loc") or ()) for e in exc.errors(include_url=False)}
                more = draft_cmd.input_problems(self.s.store, wanted.raw, self.s.check_url, schema)
                errors = (forms.problems(InvalidInput("", more), wanted.raw) if more else {}) | errors
                shown = list(wanted.shown)  # the section's inputs in the form's order, for the error summary
                errors = dict(sorted(errors.items(), key=lambda kv: shown.index(kv[0]) if kv[0] in shown else len(shown)))
            return self._editor(request, session, doc, {"errors": errors, "shown": wanted.shown,
                                                        "section": wanted.section}, 400)
        self._wait(position, LISTING_VIEWS)
        done = "regenerating" if wanted.raw.get("regenerate") else "saved"
        return self._redirect(f"/drafts/{doc['id']}?done={done}#{wanted.section}")

    def invite(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        email = str(data.get("email") or "")
        try:
            cmd = draft_cmd.InviteCofounder.model_validate({"id": doc["id"], "email": email})
            invited = invites_cmd.invite_cofounder(self.s.store, cmd, session.account_id, self._meta(session),
                                                   website=self.s.links["website"])
        except NotFound:
            return self._missing(request, session)
        except (ValidationError, InvalidInput, Conflict) as exc:
            errors = {"email": exc.detail} if isinstance(exc, Conflict) else forms.problems(exc)
            return self._editor(request, session, doc, {"errors": errors, "shown": {"email": email},
                                                        "section": "invites"}, 400)
        self._wait(invited.position, VIEWS)
        return self._redirect(f"/drafts/{doc['id']}?done=invited#invites")

    def save_as_listing(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        try:
            listed = draft_cmd.submit_draft(self.s.store, draft_cmd.SubmitDraft(id=doc["id"]), session.account_id,
                                            self._meta(session), self.s.site_taken)
        except NotFound:
            return self._missing(request, session)
        except (InvalidInput, Conflict) as exc:
            errors = forms.problems(exc) if isinstance(exc, InvalidInput) else {}
            errors.setdefault("form", exc.detail)
            return self._editor(request, session, doc, {"errors": errors, "section": "listing"}, 400)
        self._wait(listed.position, LISTING_VIEWS)
        return self._redirect(f"/drafts/{doc['id']}?done=listed#listing")

    # ------------------------------------------------------------ who may see what

    def _signed(self, handler: Signed) -> Callable[[Request, FormData, WebSession | None], Response]:
        """`handler` for a signed-in person; anyone else goes to the sign-in page, which brings them back."""
        def run(request: Request, data: FormData, session: WebSession | None) -> Response:
            return self._signin(request) if session is None else handler(request, data, session)

        run.__name__ = handler.__name__
        return run

    def _mine(self, handler: Mine) -> Callable[[Request, FormData, WebSession | None], Response]:
        """`handler` with the path's draft when the signed-in person owns it; the 404 page for anyone else's."""
        def run(request: Request, data: FormData, session: WebSession) -> Response:
            doc = self._draft(request, session)
            return self._missing(request, session) if doc is None else handler(request, data, session, doc)

        run.__name__ = handler.__name__
        return self._signed(run)

    # ------------------------------------------------------------ helpers

    def _editor(self, request: Request, session: WebSession, doc: dict[str, Any], ctx: dict[str, Any],
                status: int = 200) -> Response:
        shown = ctx.get("shown") or {}
        page = view.editor(doc, shown, ctx.get("section", ""))
        page["error_labels"] = {name: view.error_label(name) for name in ctx.get("errors") or {}}
        return self._render(request, EDITOR, {**page, **ctx}, session, status)

    def _editor_again(self, request: Request, data: FormData, session: WebSession | None,
                      errors: dict[str, str]) -> Response:
        """A form broke the text rule: the editor again with the message, nothing stored."""
        def again(request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
            return self._editor(request, session, doc, {"errors": errors}, 400)

        return self._mine(again)(request, data, session)

    def _draft(self, request: Request, session: WebSession) -> dict[str, Any] | None:
        """The draft of the path if this account owns it; None for a missing one and for anyone else's."""
        try:
            draft_id = UUID(str(request.path_params["id"]))
            return drafts_q.get_draft(self.s.reads, draft_id, session.account_id, self.s.now())
        except (ValueError, NotFound):
            return None

    def _missing(self, request: Request, session: WebSession | None) -> Response:
        return self._message(request, session, "Draft not found",
                             "There is no draft at this address, or it belongs to another account.", 404,
                             [("/drafts", "Your drafts")])

    def _signin(self, request: Request) -> Response:
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return self._redirect("/signin?next=" + quote(here, safe=""))


def draft_routes(identity: Identity) -> list[BaseRoute]:
    return WebDrafts(identity).routes()
