"""A listing's staff tools: unlocking paid sections by hand, and checking its badge now.

- `/staff/listings/{slug}/tools`: where the listing stands, its paid sections
  (the unlocked ones shown as such, a tick box for each locked one, a reason)
  and its badge check (the last one, and a button that checks now). Linked
  from the listing's staff history.
- `POST /staff/listings/{slug}/unlock` (`sections`, `reason`): the command
  `launchdir staff unlock` runs (`commands.listing.unlock`, the
  `ListingSectionsUnlocked` event orders append too), recorded as
  `staff:<email>` with the reason. The page then says what was unlocked, and
  "Nothing changed" when every ticked section was unlocked already. No
  section ticked, a section that is not a paid one, or a reason out of bounds
  shows the form again (400) with the message next to its field.
- `POST /staff/listings/{slug}/badge/check`: the badge watch's check of the
  homepage, now, through the `CheckBadgeNow` port the owners' "Check my badge
  now" uses (the check of `launchdir staff check-badge`), recorded like the
  scheduled checks with the staff member as who asked. The page then shows
  the result: found, or not found and why, and where the listing stands after
  it. A listing with nothing to check (not on the free plan, saved, taken
  down) is said to have none, and nothing is recorded.

Staff only: a signed-out visitor is sent to sign in and back here, a signed-in
person who is not staff gets the 403 page of every staff page; the forms carry
the CSRF token as every staff form does (post/redirect/get).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.listing import PAID_SECTIONS
from aggregates.listing.badge import CHECKED_STATUSES, is_checked
from api.identity import Identity
from api.sessions import WebSession
from api.web_founder_pages import FounderPages
from commands import listing as listing_cmd
from events import text as text_rule
from queries import badge_checks as badge_q
from queries import listings as listings_q

VIEWS = ["listing_view", "history_view"]
BADGE_VIEWS = ["listing_view", "search_view", "badge_checks_view"]
UNLOCK_REASON = (3, 500)  # characters, kept with the event in the audit trail
SECTIONS = {  # each paid section in words, and what unlocking it shows
    "story": ("The founder story", "the story on the listing's public page"),
    "milestones": ("Milestones", "the milestones on the listing's public page"),
    "media": ("Media", "screenshots and the demo video on the listing's public page"),
    "extra_categories": ("Extra categories", "up to three categories besides the primary one"),
}
LABELS = {"sections": "Sections to unlock", "reason": "Reason"}
NONE_TICKED = "Tick at least one section to unlock."
NOT_PAID = "Choose among the locked sections listed."


def section_names(codes: list[str]) -> str:
    """Sections as people read them: "The founder story and Media"."""
    names = [SECTIONS[c][0] for c in codes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def listed(value: str) -> list[str]:
    """A comma-separated list of paid sections from a query (anything else dropped), in the catalogue's order."""
    given = set(value.split(","))
    return [s for s in PAID_SECTIONS if s in given]


class StaffListingTools(FounderPages):
    """The tools page and its two forms, on the identity pages' sessions, CSRF tokens and templates."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        base = "/staff/listings/{slug}"
        return [
            Route(f"{base}/tools", page(self.tools), methods=["GET"]),
            Route(f"{base}/unlock", page(self.unlock, form=True, invalid=self._invalid), methods=["POST"]),
            Route(f"{base}/badge/check", page(self.check_badge, form=True), methods=["POST"]),
        ]

    # ------------------------------------------------------------ the page

    def tools(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        listing, refused = self._staff_and_listing(request, session)
        if refused is not None:
            return refused
        assert listing is not None and session is not None
        return self._show(request, session, listing, {}, {}, 200)

    def _show(self, request: Request, session: WebSession | None, listing: dict[str, Any], values: dict[str, Any],
              errors: dict[str, str], status: int) -> Response:
        slug = str(request.path_params["slug"])
        state = listing_cmd.load(self.s.store, listing["listing_id"])
        q = request.query_params
        unlocked, already = listed(q.get("unlocked", "")), listed(q.get("already", ""))
        was = q.get("was", "")
        ctx = {
            "slug": slug, "standing": listing, "name": state.profile.get("name") or slug,
            "website": state.profile.get("website_url") or "",
            "sections": [{"code": c, "name": SECTIONS[c][0], "shows": SECTIONS[c][1], "unlocked": c in state.unlocked}
                         for c in PAID_SECTIONS],
            "done_unlocked": section_names(unlocked) if unlocked else "",
            "done_already": section_names(already) if already else "", "already_many": len(already) > 1,
            "checkable": is_checked(state), "checked_statuses": CHECKED_STATUSES,
            "check": badge_q.last_check(self.s.reads, listing["listing_id"]),
            "checked_now": q.get("done") == "checked", "nothing_to_check": q.get("done") == "nothing",
            "was": was if was in (*CHECKED_STATUSES, "draft", "unpublished") else "",
            "values": values, "errors": errors, "error_labels": LABELS,
        }
        return self._render(request, "staff/listing_tools.html", ctx, session, status)

    # ------------------------------------------------------------ unlocking paid sections

    def unlock(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        listing, refused = self._staff_and_listing(request, session)
        if refused is not None:
            return refused
        assert listing is not None and session is not None
        ticked = [str(s) for s in data.getlist("sections")]
        reason = " ".join(str(data.get("reason") or "").split())
        values = {"sections": ticked, "reason": text_rule.storable(reason)}
        errors: dict[str, str] = {}
        if not ticked:
            errors["sections"] = NONE_TICKED
        elif any(s not in PAID_SECTIONS for s in ticked):
            errors["sections"] = NOT_PAID
        low, high = UNLOCK_REASON
        if not low <= len(reason) <= high:
            errors["reason"] = f"Give a reason of {low} to {high} characters: it is kept with the unlock in the audit trail."
        if errors:
            return self._show(request, session, listing, values, errors, 400)
        wanted = [s for s in PAID_SECTIONS if s in ticked]
        before = listing_cmd.load(self.s.store, listing["listing_id"]).unlocked
        position = listing_cmd.unlock(self.s.store, listing["listing_id"], wanted, reason, self._staff_meta(session))
        self._wait(position, VIEWS)
        told = {"unlocked": ",".join(s for s in wanted if s not in before),
                "already": ",".join(s for s in wanted if s in before)}
        return self._redirect(f"{self._here(request)}?{urlencode({k: v for k, v in told.items() if v})}#unlock")

    def _invalid(self, request: Request, data: FormData, session: WebSession | None,
                 errors: dict[str, str]) -> Response:
        """A field that breaks the text rule: the form again with the message, once the person is known as staff."""
        listing, refused = self._staff_and_listing(request, session)
        if refused is not None:
            return refused
        assert listing is not None and session is not None
        values = {"sections": [str(s) for s in data.getlist("sections")],
                  "reason": text_rule.storable(str(data.get("reason") or ""))}
        return self._show(request, session, listing, values, errors, 400)

    # ------------------------------------------------------------ the badge check

    def check_badge(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        listing, refused = self._staff_and_listing(request, session)
        if refused is not None:
            return refused
        assert listing is not None and session is not None
        check = self.s.badge_checks  # wired when the app is built (launchdir/bootstrap.py), before any request
        if check is None:
            return self._message(request, session, "Please try again in a minute",
                                 "Badge checks are not running on this server.", 503, [(self._here(request), "Back")])
        position = check(listing["listing_id"], self._staff_meta(session))
        if not position:
            return self._redirect(f"{self._here(request)}?done=nothing#badge")
        self._wait(position, BADGE_VIEWS)
        return self._redirect(f"{self._here(request)}?{urlencode({'done': 'checked', 'was': listing['status']})}#badge")

    # ------------------------------------------------------------ helpers

    def _staff_and_listing(self, request: Request,
                           session: WebSession | None) -> tuple[dict[str, Any] | None, Response | None]:
        """The listing the address names, or the answer instead: sign-in, the 403 page or the 404 page."""
        if (refused := self._refused(request, session)) is not None:
            return None, refused
        listing = self._listing(request)
        return (listing, None) if listing is not None else (None, self._no_listing(request, session))

    def _refused(self, request: Request, session: WebSession | None) -> Response | None:
        """Signed out: to the sign-in page and back to the tools; signed in without the staff role: the 403 page."""
        if session is None:
            return self._redirect("/signin?next=" + quote(self._here(request), safe="/"))
        return self._staff_only(request, session)

    @staticmethod
    def _here(request: Request) -> str:
        return f"/staff/listings/{quote(str(request.path_params['slug']))}/tools"

    def _listing(self, request: Request) -> dict[str, Any] | None:
        return listings_q.standing(self.s.reads, str(request.path_params["slug"]))

    def _no_listing(self, request: Request, session: WebSession | None) -> Response:
        slug = str(request.path_params["slug"])
        return self._message(request, session, "No such listing", f"No listing has the slug {slug[:220]!r}.", 404,
                             [("/staff/review", "Review queue")])


def staff_listing_tools_routes(identity: Identity) -> list[BaseRoute]:
    return StaffListingTools(identity).routes()
