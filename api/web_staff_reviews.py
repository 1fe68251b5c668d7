"""/staff/reviews: people's reviews newest first, with "Hide" (a reason is required) and "Restore" buttons.

Only staff see it (`WebPages._staff_only`). Hiding or restoring is one
CSRF-protected form POST answered with a redirect back (post/redirect/get);
a missing or too short reason shows the list again with the message next to
that review's reason field (status 400). Hiding a hidden review, or restoring
one that is not hidden, records nothing and the notice says so. Recorded as the staff account
(`account:<id>`) through the website session (docs/reviews.md).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.sessions import WebSession
from api.web_pages import WebPages, form_problems
from commands import reviews as reviews_cmd
from events.errors import InvalidInput, NotFound
from queries import reviews as reviews_q
from queries.paging import Paging

VIEWS = ["listing_view", "launches_view", "reviews_view"]
NOTICES = {"hidden": "The review is hidden: it no longer shows or counts.", "restored": "The review shows and counts again.",
           "unchanged-hidden": "Nothing changed: the review was hidden already, so nothing was recorded.",
           "unchanged-shown": "Nothing changed: the review is not hidden, so there was nothing to restore and nothing "
                              "was recorded."}


class StaffReviewPages(WebPages):
    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/staff/reviews", page(self.list_page), methods=["GET"]),
            Route("/staff/reviews/{review_id}/hide", page(self.hide, form=True), methods=["POST"]),
            Route("/staff/reviews/{review_id}/restore", page(self.restore, form=True), methods=["POST"]),
        ]

    def list_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._list(request, session, {}, "", 200)

    def hide(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        review_id = request.path_params["review_id"]
        try:
            done = reviews_cmd.hide(self.s.store, review_id, str(data.get("reason") or ""),
                                    self._staff_meta(session))  # recorded as staff, like every staff act
        except InvalidInput as exc:
            return self._list(request, session, {review_id: form_problems(exc)}, str(data.get("reason") or ""), 400)
        except NotFound as exc:
            return self._message(request, session, "Not found", exc.detail, 404, [("/staff/reviews", "Reviews")])
        self._wait(done.position, VIEWS)
        return self._redirect(self._back(data, "hidden" if done.events else "unchanged-hidden"))

    def restore(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        try:
            done = reviews_cmd.restore(self.s.store, request.path_params["review_id"], self._staff_meta(session))
        except NotFound as exc:
            return self._message(request, session, "Not found", exc.detail, 404, [("/staff/reviews", "Reviews")])
        self._wait(done.position, VIEWS)
        return self._redirect(self._back(data, "restored" if done.events else "unchanged-shown"))

    def _list(self, request: Request, session: WebSession | None, errors: dict[str, dict[str, str]], reason: str,
              status: int) -> Response:
        state = request.query_params.get("state") or "all"
        state = state if state in reviews_q.STAFF_STATES else "all"
        page = request.query_params.get("page") or "1"
        paging = Paging(page=min(int(page), 1000) if (page.isascii() and page.isdigit()) and int(page) > 0 else 1, per_page=50)
        found = reviews_q.staff_reviews(self.s.reads, state, paging)
        more = f"/staff/reviews?{urlencode({'state': state, 'page': paging.page + 1})}" if found["has_more"] else None
        ctx: dict[str, Any] = {"reviews": found, "state": state, "states": reviews_q.STAFF_STATES, "more": more,
                               "review_errors": errors, "reason": reason,
                               "notice": NOTICES.get(request.query_params.get("done") or ""),
                               "here": f"/staff/reviews?{urlencode({'state': state, 'page': paging.page})}"}
        return self._render(request, "staff/reviews.html", ctx, session, status)

    @staticmethod
    def _back(data: FormData, done: str) -> str:
        back = str(data.get("next") or "/staff/reviews")
        back = back if back.startswith("/staff/reviews") and "//" not in back else "/staff/reviews"
        return back + ("&" if "?" in back else "?") + f"done={done}"
