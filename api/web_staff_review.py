"""The staff pages of version history: the review queue, a listing's history, and the audit trail.

- `/staff/review`: owners' changes waiting for review, oldest first, each
  with its before and after; "Accept" lets it stand, "Put back" reverts the
  ticked fields (a new version; `commands/review.py`). A posted update has
  no fields to put back (it may have been mailed): "Remove this update", with
  a reason, takes it off the site instead (`commands.review.remove_update`).
- `/staff/listings/{slug}/history`: every version of a listing, newest first,
  with a readable diff (`api/web_diff.py`); any version with fields to put back
  can be reverted from here too.
- `/staff/audit`: every recorded event with who and when, filtered by query
  parameters (`listing`, `actor`, `type`, `since`, `before`, `limit`).

Server-rendered, no script: the buttons are CSRF-protected forms that answer
with a redirect back to the page (post/redirect/get). Only staff see these
pages; anyone else gets the 403 page the other staff pages give. Reviews are
recorded as `staff:<email>` through the website session.
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any
from urllib.parse import urlencode

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.sessions import WebSession
from api.field_labels import field_label
from api.web_diff import field_diffs
from api.web_pages import WebPages, form_problems
from commands import review as review_cmd
from events.errors import Conflict, InvalidInput, NotFound
from queries import audit as audit_q
from queries import history as history_q
from queries import listings as listings_q
from queries import owners as owners_q
from queries.catalog import category_names
from queries.paging import Paging

VIEWS = ["listing_view", "search_view", "history_view", "updates_view"]
REVERTIBLE = {"edited", "story", "milestone_added", "milestone_deleted", "revert"}
STANDING_NOTICES = {  # after the take-down and put-back forms (`api/web_staff_listing.py`)
    "taken-down": "The listing was taken down: it left every public page, and its owners were mailed the reason.",
    "taken-down-some": "The listing was taken down: it left every public page. The owners with a confirmed email "
                       "address were mailed the reason; the others have none, so they were not.",
    "taken-down-unmailed": "The listing was taken down: it left every public page. Nobody was mailed: none of its "
                           "owners has a confirmed email address. The reason is kept in the audit trail.",
    "taken-down-unowned": "The listing was taken down: it left every public page. Nobody was mailed: the listing has "
                          "no owners. The reason is kept in the audit trail.",
    "put-back": "The listing is live again, in its own launch week.",
    "unchanged-down": "Nothing changed: the listing was already taken down, so nothing was recorded and nobody was mailed.",
    "unchanged-up": "Nothing changed: the listing is not taken down (its status is below), so there was nothing to put "
                    "back and nothing was recorded.",
    "owner-removed": "The owner was removed from the listing and mailed the reason.",
}
AUDIT_LABELS = {"listing": "Listing", "actor": "Who", "type": "Event type", "since": "Since", "before": "Before",
                "limit": "At most"}  # the audit filter's fields, for the error summary
NOTICES = {  # {V}: the version as people read it, "Version 3 of acme" (the redirect names it by its log position)
    "accepted": "{V} was accepted.",
    "reverted": "{V}: the chosen fields were put back (a new version records it).",
    "unchanged": "{V}: nothing to put back, those fields already hold their earlier values.",
    "unchanged-accept": "Nothing changed: {V} was accepted already, so nothing was recorded.",
    "removed": "{V}: the update was removed from the listing's page and the latest updates (a new version records "
               "it, with the reason in the audit trail). Its owners with a confirmed email address were mailed the "
               "reason.",
    "removed-unmailed": "{V}: the update was removed from the listing's page and the latest updates (a new version "
                        "records it, with the reason in the audit trail). Nobody was mailed: none of its owners has a "
                        "confirmed email address.",
    "unchanged-remove": "Nothing changed: the update of {V} was removed already, so nothing was recorded.",
}


class WebStaffReview(WebPages):
    """The review, history and audit routes, on the identity pages' sessions, CSRF tokens and templates."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/staff/review", page(self.queue), methods=["GET"]),
            Route("/staff/review/{version_id:int}/accept", page(self.accept, form=True), methods=["POST"]),
            Route("/staff/review/{version_id:int}/revert", page(self.revert, form=True), methods=["POST"]),
            Route("/staff/review/{version_id:int}/remove-update", page(self.remove_update, form=True),
                  methods=["POST"]),
            Route("/staff/listings/{slug}/history", page(self.history), methods=["GET"]),
            Route("/staff/audit", page(self.audit), methods=["GET"]),
        ]

    # ------------------------------------------------------------ pages

    def queue(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        paging = self._paging(request)
        found = history_q.review_queue(self.s.reads, paging)
        ctx = {"page": found, "versions": self._shown(found["items"]), "notice": self._notice(request),
               "here": "/staff/review", "more": self._more(request, found)}
        return self._render(request, "staff/review.html", ctx, session)

    def history(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        slug = str(request.path_params["slug"])
        try:
            found = history_q.history(self.s.reads, slug, self._paging(request))
        except NotFound:
            return self._message(request, session, "No such listing", f"No listing has the slug {slug[:220]!r}.", 404,
                                 [("/staff/review", "Review queue")])
        here = f"/staff/listings/{slug}/history"
        notice = self._notice(request) or STANDING_NOTICES.get(request.query_params.get("notice", ""))
        standing = listings_q.standing(self.s.reads, slug)
        owners = owners_q.owners(self.s.reads, standing["listing_id"]) if standing else []
        ctx = {"slug": slug, "page": found, "versions": self._shown(found["items"]), "notice": notice,
               "here": here, "more": self._more(request, found), "standing": standing, "owners": owners}
        return self._render(request, "staff/history.html", ctx, session)

    def audit(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        q = request.query_params
        values = {k: q.get(k, "").strip()[:254] for k in ("listing", "actor", "type", "since", "before", "limit")}
        errors: dict[str, str] = {}
        found: dict[str, Any] | None = None
        try:
            since = date.fromisoformat(values["since"]) if values["since"] else None
        except ValueError:
            since, errors["since"] = None, "Give a date as YYYY-MM-DD."
        if not errors:
            try:
                f = audit_q.AuditFilter.model_validate({  # strings from the query: pydantic reads the numbers
                    "listing": values["listing"] or None, "actor": values["actor"] or None, "type": values["type"] or None,
                    "since": datetime.combine(since, time(), tzinfo=self.s.timezone) if since else None,
                    "before": values["before"] or None, "limit": values["limit"] or 100})
                found = audit_q.audit(self.s.reads, f)
            except (ValidationError, InvalidInput) as exc:
                errors = form_problems(exc)
            except NotFound as exc:
                errors = {"listing": exc.detail}
        older = None
        if found and found["next_before"]:
            older = "/staff/audit?" + urlencode({**{k: v for k, v in values.items() if v}, "before": found["next_before"]})
        ctx = {"values": values, "errors": errors, "found": found, "older": older, "types": list(audit_q.event_types()),
               "error_labels": AUDIT_LABELS}
        return self._render(request, "staff/audit.html", ctx, session, 400 if errors else 200)

    # ------------------------------------------------------------ review forms

    def accept(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._review(request, data, session, lambda ref, meta: review_cmd.accept(self.s.store, ref, meta))

    def revert(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:  # who asks comes before what they sent
            return refused
        fields = [str(f) for f in data.getlist("fields")]
        if not fields:
            return self._message(request, session, "Nothing chosen", "Tick the fields to put back, then press the button.",
                                 400, [(self._back(data), "Back")])
        return self._review(request, data, session,
                            lambda ref, meta: review_cmd.revert(self.s.store, ref, fields, meta))

    def remove_update(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        reason = str(data.get("reason") or "")
        return self._review(request, data, session,
                            lambda ref, meta: review_cmd.remove_update(self.s.store, ref, reason, meta,
                                                                       self.s.links["website"]))

    def _review(self, request: Request, data: FormData, session: WebSession | None, do: Any) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        version_id = int(request.path_params["version_id"])
        back = self._back(data)
        try:
            v = history_q.version(self.s.reads, version_id)
            ref = review_cmd.VersionRef(v["version_id"], v["listing_id"], v["stream_version"], v["kind"])
            done: review_cmd.Reviewed = do(ref, self._staff_meta(session))
        except NotFound as exc:
            return self._message(request, session, "No such version", exc.detail, 404, [(back, "Back")])
        except (Conflict, InvalidInput) as exc:
            status = 409 if isinstance(exc, Conflict) else 400
            text = exc.detail[:1].upper() + exc.detail[1:]
            return self._message(request, session, "This cannot be done", text, status, [(back, "Back")])
        self._wait(done.position, VIEWS)
        action = request.url.path.rsplit("/", 1)[-1]
        outcome = {"revert": ("reverted", "unchanged"), "accept": ("accepted", "unchanged-accept"),
                   "remove-update": ("removed", "unchanged-remove")}[action][0 if done.recorded else 1]
        if outcome == "removed" and not done.mailed:
            outcome = "removed-unmailed"
        sep = "&" if "?" in back else "?"
        return self._redirect(f"{back}{sep}{urlencode({'notice': outcome, 'version': version_id})}")

    # ------------------------------------------------------------ helpers

    @staticmethod
    def _back(data: FormData) -> str:
        """Where a form returns to: one of the staff pages, else the queue."""
        value = str(data.get("next") or "")
        if value.startswith("/staff/") and "//" not in value and "\\" not in value and len(value) <= 500:
            return value.split("?")[0]
        return "/staff/review"

    @staticmethod
    def _paging(request: Request) -> Paging:
        try:
            return Paging(page=int(request.query_params.get("page") or 1), per_page=20)
        except (ValueError, ValidationError):
            return Paging(page=1, per_page=20)

    @staticmethod
    def _more(request: Request, found: dict[str, Any]) -> str | None:
        return f"{request.url.path}?page={found['page'] + 1}" if found["has_more"] else None

    def _notice(self, request: Request) -> str | None:
        kind, version = request.query_params.get("notice", ""), request.query_params.get("version", "")
        if kind not in NOTICES or not version.isascii() or not version.isdigit() or len(version) > 18:
            return None
        try:
            v = history_q.version(self.s.reads, int(version))
        except NotFound:
            return None
        called = f"Version {v['number']} of {v['slug']}"
        return NOTICES[kind].format(V=called)

    def _shown(self, versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Versions with their readable diff (categories by name) and whether fields of them can be put back."""
        names = category_names(self.s.reads) if versions else {}
        return [{**v, "diffs": field_diffs(v["changes"], names), "revertible": v["kind"] in REVERTIBLE,
                 "who": v["actor_email"] or v["actor"],
                 "reverted_labels": [field_label(f) for f in v.get("reverted_fields") or []]} for v in versions]


def staff_review_routes(identity: Identity) -> list[BaseRoute]:
    return WebStaffReview(identity).routes()
