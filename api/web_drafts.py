"""The founder's drafts on the website: submit a site, watch it being read and drafted, edit, invite, save as listing.

GET/POST /submit, GET /drafts (newest first, paged), GET /drafts/{id} (the
editor, or the progress while the site is read and drafted), POST
/drafts/{id} (the editor's one form: every section's values, and lock,
restore, delete or regenerate), POST /drafts/{id}/invites (the same form,
then invite_cofounder) and POST /drafts/{id}/submit (the same form, then
submit_draft). Whichever button is pressed, what was typed anywhere on the
page is saved first, or shown again with its errors if any input is refused;
the page then comes back to the button's place with its notice ("at", and
the `#done` anchor). The handlers call the same command and
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
from aggregates.listing import MAX_EXTRA_CATEGORIES
from api import web_draft_forms as forms
from api import web_draft_view as view
from api.identity import Identity
from api.sessions import WebSession
from api.web_pages import WebPages
from commands import draft as draft_cmd
from commands import invites as invites_cmd
from events import text as text_rule
from events.draft_fields import FIELD_NAMES
from events.errors import Conflict, InvalidInput, NotFound
from queries import drafts as drafts_q
from queries.catalog import category_names
from queries import my_listings as my_listings_q
from queries.paging import Paging

Signed = Callable[[Request, FormData, WebSession], Response]
Mine = Callable[[Request, FormData, WebSession, dict[str, Any]], Response]
VIEWS = ["draft_view"]
LISTING_VIEWS = ["draft_view", "listing_view", "search_view"]
EDITOR = "founder/drafts/editor.html"
DONE = {  # ?done= after a redirect: what the last form did
    "saved": "Your changes are saved.",
    "regenerating": "Regenerating the chosen fields from your site; reload in a few seconds to see them.",
    "saved_regenerating": "Your changes are saved. Regenerating the chosen fields from your site; reload in a few "
                          "seconds to see them.",
    "invited": f"The invite is on its way; it is valid for {d.INVITE_TTL.days} days.",
    "listed": "Saved as a listing (not published yet).",
    "relisted": "The listing is updated from this draft.",
    "unchanged": "Nothing changed.",
}
NOT_SENT = "The invite to {email} is not sent yet: press Send invite to send it."
PLACES = {forms.TOP, "listing", "invites", *(s for s in forms.SECTIONS if s != "fields"),
          *(f"slot-{name}" for name in FIELD_NAMES)}
"""Where a notice can stand (?at=): beside the button that was pressed."""


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
        names: dict[int, str] = {}
        if any(item["listing_id"] for item in found["items"]):  # each listing by its own name (the first 100)
            mine = my_listings_q.list_my_listings(self.s.reads, session.account_id, Paging(page=1, per_page=100),
                                                   self.s.links)
            names = {item["listing_id"]: item["name"] for item in mine["items"] if item["name"]}
        ctx = {"drafts": found, "reasons": view.REASONS, "labels": view.LABELS, "status_words": view.STATUS_WORDS,
               "listing_names": names, "nav_here": "drafts"}
        return self._render(request, "founder/drafts/list.html", ctx, session)

    # ------------------------------------------------------------ the editor

    def editor_page(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        done = DONE.get(request.query_params.get("done") or "")
        at = request.query_params.get("at") or ""
        return self._editor(request, session, doc, {"done": done, "at": at if at in PLACES else forms.TOP})

    def edit(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        wanted = forms.read(data, doc)
        saved = self._save(request, session, doc, wanted)
        if isinstance(saved, Response):
            return saved
        done = "saved" if saved else "unchanged"
        if wanted.raw.get("regenerate"):
            done = "saved_regenerating" if set(wanted.raw) - {"id", "regenerate"} else "regenerating"
        return self._done(request, session, doc, wanted, done, wanted.at)

    def invite(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        wanted = forms.read(data, doc)
        saved = self._save(request, session, doc, wanted)
        if isinstance(saved, Response):
            return saved
        email = str(data.get("email") or "")
        try:
            cmd = draft_cmd.InviteCofounder.model_validate({"id": doc["id"], "email": email})
            invited = invites_cmd.invite_cofounder(self.s.store, cmd, session.account_id, self._meta(session),
                                                   website=self.s.links["website"])
        except NotFound:
            return self._missing(request, session)
        except (ValidationError, InvalidInput, Conflict) as exc:
            errors = {"email": exc.detail} if isinstance(exc, Conflict) else forms.problems(exc)
            return self._refused_after(request, session, doc, saved, errors, {"email": email}, "invites")
        self._wait(invited.position, VIEWS)
        return self._redirect(f"/drafts/{doc['id']}?done=invited&at=invites#done")

    def save_as_listing(self, request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
        wanted = forms.read(data, doc)
        saved = self._save(request, session, doc, wanted)
        if isinstance(saved, Response):
            return saved
        try:
            listed = draft_cmd.submit_draft(self.s.store, draft_cmd.SubmitDraft(id=doc["id"]), session.account_id,
                                            self._meta(session), self.s.site_taken)
        except NotFound:
            return self._missing(request, session)
        except (InvalidInput, Conflict) as exc:
            errors = forms.problems(exc) if isinstance(exc, InvalidInput) else {}
            errors.setdefault("form", exc.detail)
            return self._refused_after(request, session, doc, saved, errors, wanted.shown, "listing")
        self._wait(listed.position, LISTING_VIEWS)
        return self._done(request, session, doc, wanted, "listed" if listed.created else "relisted", "listing")

    def _save(self, request: Request, session: WebSession, doc: dict[str, Any], wanted: forms.Edit) -> Response | bool:
        """update_draft with every change typed on the page: True once stored, False when nothing changed, or the
        editor again (400) with each refused input's message beside it and every section as it was typed."""
        if wanted.changes_nothing:
            return False
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
            return self._editor(request, session, doc, {"errors": wanted.sorted(errors), "shown": wanted.shown}, 400)
        self._wait(position, LISTING_VIEWS)
        return True

    def _done(self, request: Request, session: WebSession, doc: dict[str, Any], wanted: forms.Edit, done: str,
              at: str) -> Response:
        """Back to the editor at the pressed button's place, with its notice (post/redirect/get).

        A co-founder's address typed but not sent (another button was pressed) would be lost by a redirect: the
        page is shown as saved instead, the address still in its box.
        """
        if wanted.email:
            fresh = self._draft(request, session)
            if fresh is None:
                return self._missing(request, session)
            notice = f"{DONE[done]} {NOT_SENT.format(email=wanted.email)}"
            return self._editor(request, session, fresh, {"done": notice, "at": forms.TOP,
                                                          "shown": {"email": wanted.email}})
        return self._redirect(f"/drafts/{doc['id']}?done={done}&at={at}#done")

    def _refused_after(self, request: Request, session: WebSession, doc: dict[str, Any], saved: bool,
                       errors: dict[str, str], shown: dict[str, Any], at: str) -> Response:
        """The editor (400) when the invite or the listing is refused after the typed changes were saved (or not)."""
        fresh = (self._draft(request, session) or doc) if saved else doc
        ctx: dict[str, Any] = {"errors": errors, "shown": shown if not saved else {"email": shown.get("email", "")}}
        if saved:
            ctx |= {"done": DONE["saved"], "at": at}
        return self._editor(request, session, fresh, ctx, 400)

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
        names = category_names(self.s.reads)
        page = view.editor(doc, ctx.get("shown") or {}, names)
        page["error_labels"] = {name: view.error_label(name) for name in ctx.get("errors") or {}}
        page["listing_categories"] = self._listing_categories(session, doc, names)
        return self._render(request, EDITOR, {**page, **ctx}, session, status)

    def _listing_categories(self, session: WebSession, doc: dict[str, Any], names: dict[str, str]) -> dict[str, Any] | None:
        """The draft's categories its listing does not show, and how to show them; None when it shows them all.

        A listing shows its primary category, and up to 3 more once it has a paid launch or the Extra categories
        product (`aggregates/draft/to_listing.py` sends no more), so a free listing drops the others silently
        unless the editor says so.
        """
        wanted = list((doc["fields"].get("categories") or {}).get("value") or [])
        if not doc.get("listing_id") or len(wanted) < 2:
            return None
        try:
            listed = my_listings_q.get_my_listing(self.s.reads, session.account_id, int(doc["listing_id"]),
                                                  self.s.links)
        except NotFound:
            return None
        refs = listed["categories"] or {}
        shown = [c["slug"] for c in ([refs["primary"]] if refs.get("primary") else []) + list(refs.get("extra") or [])]
        hidden = [c for c in wanted if c not in shown]
        if not hidden:
            return None
        can_buy = "extra_categories" not in listed["unlocked_sections"]
        query = "&".join(f"category={quote(c)}" for c in hidden[:MAX_EXTRA_CATEGORIES])
        return {"shown": [names.get(c, c) for c in shown], "hidden": [names.get(c, c) for c in hidden],
                "can_buy": can_buy, "max": MAX_EXTRA_CATEGORIES,
                "order_url": f"/my/listings/{doc['listing_id']}/order?product=extra_categories&{query}"
                             "#product-extra_categories-box"}

    def _editor_again(self, request: Request, data: FormData, session: WebSession | None,
                      errors: dict[str, str]) -> Response:
        """A form broke the text rule: the editor again with the message, nothing stored."""
        def again(request: Request, data: FormData, session: WebSession, doc: dict[str, Any]) -> Response:
            typed = FormData([(k, text_rule.storable(v)) for k, v in data.multi_items() if isinstance(v, str)])
            return self._editor(request, session, doc, {"errors": errors, "shown": forms.read(typed, doc).shown}, 400)

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
