"""Reviews from people on the website: the review form (write or edit one's review) and the listing page's review list.

Reviews exist only on the website, like votes: there is no review operation
in the API or MCP; get_listing carries the genuine-only rating
(`community.rating`). The rules live in `aggregates/reviews.py` and
docs/reviews.md: a signed-in account with a verified email address, not an
owner or co-founder, on a live listing; a rating of 1..5 and a text of 20 to
2000 characters; one review per person and listing, which its author edits.

`/listings/{slug}/review` shows the form alone (GET) and takes it (POST, with
CSRF); the listing page shows the same form inline. A refused form comes back
with each field's message (status 400). Each account may send `REVIEW_QUOTA`
reviews or edits a minute and `REVIEW_HOURLY` an hour (429), like votes.
The answer waits until the views have the review, so the listing page shown
next already carries it and the new rating, and comes back with `?done=`
(published, updated or unchanged; public/_review_form.html holds the
sentences) to a notice just above the form (`#review-done`), so the person
sees that it worked without scrolling and without JavaScript.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.ratelimit import Limits, LocalRateLimiter, OverLimit, Policy
from api.services import Principal
from api.sessions import WebSession
from api.web_pages import WebPages, form_problems
from api.web_review_section import RULES, review_section
from commands import reviews as reviews_cmd
from events import text as text_rule
from events.errors import Conflict, Forbidden, InvalidInput, NotFound
from queries import listings as listings_q
from queries import reviews as reviews_q

REVIEW_QUOTA = 10  # reviews or edits per account per minute
REVIEW_HOURLY = 60
VIEWS = ["listing_view", "launches_view", "reviews_view"]


def review_limits() -> Limits:
    per_account = (Policy("reviews", REVIEW_QUOTA, 60), Policy("reviews-hour", REVIEW_HOURLY, 3600))
    return Limits(credential=per_account, anonymous=per_account)


class ReviewPages(WebPages):
    def __init__(self, identity: Identity, limited: bool = True) -> None:
        super().__init__(identity)
        self.limiter = LocalRateLimiter(review_limits()) if limited else None  # off with LAUNCHDIR_RATE_LIMITS=off

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/listings/{slug}/review", page(self.form), methods=["GET"]),
            Route("/listings/{slug}/review", page(self.write, form=True, invalid=self._invalid), methods=["POST"]),
        ]

    def form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        slug = request.path_params["slug"]
        if session is None:
            return self._redirect(f"/signin?next=/listings/{slug}/review")
        doc = listings_q.live_document(self.s.reads, slug)
        if doc is None:
            return self._message(request, session, "Not found", "There is no live listing at this address.", 404)
        return self._show_form(request, session, doc, {}, {}, 200)

    def write(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        slug = request.path_params["slug"]
        if session is None:
            return self._redirect(f"/signin?next=/listings/{slug}%23reviews")  # back at the review form
        doc = listings_q.live_document(self.s.reads, slug)
        if doc is None:
            return self._message(request, session, "Not found", "There is no live listing at this address.", 404)
        if self.limiter is not None:
            try:
                self.limiter.hit(Principal(account_id=session.account_id, scopes=frozenset(), kind="session"),
                                 self._ip(request))
            except OverLimit as exc:
                response = self._message(request, session, "Slow down", exc.detail, 429)
                response.headers["retry-after"] = str(exc.retry_after)
                return response
        values = {"rating": str(data.get("rating") or ""), "text": str(data.get("text") or "")}
        before = reviews_q.my_review(self.s.reads, int(doc["listing_id"]), session.account_id)
        try:
            _, position = reviews_cmd.write_review(self.s.store, int(doc["listing_id"]), session.account_id,
                                                   values["rating"], values["text"], self._meta(session))
        except InvalidInput as exc:
            return self._show_form(request, session, doc, form_problems(exc), values, 400)
        except Forbidden:
            return self._message(request, session, "Verify your email address first",
                                 "Only accounts with a verified email address can write reviews. Open the link we "
                                 "emailed you, or send a new one from your account page.", 403,
                                 [("/account", "Your account")])
        except (Conflict, NotFound) as exc:
            return self._message(request, session, "This review cannot be saved", _sentence(exc.detail), 409,
                                 [(f"/listings/{slug}", f"Back to {doc['name']}")])
        self._wait(position, VIEWS)
        done = self._done(before, int(doc["listing_id"]), session.account_id)
        return self._redirect(f"/listings/{slug}?done={done}#review-done")

    def _done(self, before: dict[str, Any] | None, listing_id: int, account_id: str) -> str:
        """What the form did, for its notice: a first review, an edit, or the same words sent again (no event)."""
        if before is None:
            return "published"
        return "unchanged" if reviews_q.my_review(self.s.reads, listing_id, account_id) == before else "updated"

    def _invalid(self, request: Request, data: FormData, session: WebSession | None, errors: dict[str, str]) -> Response:
        """A field broke the text rule: the form again with its message (nothing stored)."""
        doc = listings_q.live_document(self.s.reads, request.path_params["slug"])
        if doc is None or session is None:
            return self._message(request, session, "This cannot be sent", " ".join(errors.values()), 400)
        values = {k: text_rule.storable(str(data.get(k) or "")) for k in ("rating", "text")}
        return self._show_form(request, session, doc, errors, values, 400)

    def _show_form(self, request: Request, session: WebSession, doc: dict[str, Any], errors: dict[str, str],
                   values: dict[str, str], status: int) -> Response:
        section = review_section(self.s.reads, int(doc["listing_id"]), session.account_id, 1)
        ctx = {"l": doc, "errors": errors, "values": values, "my_review": section["my_review"],
               "owns": section["owns"], "review_rules": RULES}
        return self._render(request, "public/review_form.html", ctx, session, status)


def _sentence(detail: str) -> str:
    return detail[:1].upper() + detail[1:] + ("" if detail.endswith(".") else ".")
