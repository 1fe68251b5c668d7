"""Launch for free from the browser: choose the free plan, get the badge's embed code, check the badge now.

- POST `/my/listings/{id}/free`: choose_free_listing's handler with the week
  the operation gives (the least busy of the free window), then the badge page.
- `/my/listings/{id}/badge?shape=&mode=&size=`: the listing's badges in the
  chosen style (get_badges, validated by its own model, so an unknown shape is
  a field-level error), each with a live preview (the badge SVG itself) and its
  embed code; the form works without script and `site.js` re-sends it when an
  option changes. Shows the last badge check's result and reason.
- POST `/my/listings/{id}/badge/check`: the badge watch's check of the
  homepage, now, recorded like the scheduled ones (the `CheckBadgeNow` port,
  wired in `launchdir/bootstrap.py`; the same check as
  `launchdir staff check-badge`).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.services import CheckBadgeNow
from api.sessions import WebSession
from events.week_names import week_name
from api.web_founder_pages import FounderPages, nested_problems
from commands import free_plan as free_cmd
from events.errors import Conflict, InvalidInput, NotFound
from queries import badges as badges_q
from queries import free_plan as free_q

VIEWS = ["listing_view", "search_view", "launches_view", "badge_checks_view"]
CHOICES = {"shape": ("standard", "outline", "pill", "banner", "square"), "mode": ("auto", "light", "dark"),
           "size": ("s", "m", "l")}
SIZE_LABELS = {"s": "small", "m": "medium", "l": "large"}
NOTICES = {"chosen": "Your listing is queued for a free launch week. Put a badge on your homepage, then press "
                     "Check my badge now below (it is also checked on a schedule).",
           "checked": "Your homepage was checked just now; the result is below.",
           "nothing": "Nothing to check: only listings on the free plan are checked."}


def checked_notice(doc: dict[str, Any]) -> tuple[str, str]:
    """What the check just made means, and the notice's kind (`found` or `missing`): what happens next when the
    badge was found, what to do when it was not. Each is said once: a found notice takes the place of the page's
    "keep it there" line, and a missing one points to the page's "paste one badge's code" line."""
    check, name, week = doc.get("badge_check") or {}, doc["name"], doc.get("launch_week")
    if check.get("result") == "found":
        if doc["status"] == "live":
            return f"Your badge is on your homepage, and {name} is live now.", "found"
        when = f" for the week of {week_name(week)}" if week else ""  # named as the status pill names it
        return (f"Your badge is on your homepage. {name} is scheduled{when} and goes live when that week begins, "
                "after one more check that the badge is still there: keep it on your homepage until then.", "found")
    why = f": {check['explanation']}" if check.get("explanation") else ""
    return (f"Your badge was not found on your homepage{why}. Once one of the badges below is there, press Check my "
            "badge now again; it is also checked again automatically.", "missing")


class MyFreeLaunch(FounderPages):
    """The free plan's pages."""

    def __init__(self, identity: Identity, check_badge: CheckBadgeNow) -> None:
        super().__init__(identity)
        self.check_badge = check_badge

    def routes(self) -> list[BaseRoute]:
        mine = "/my/listings/{listing_id}"
        return [
            Route(f"{mine}/free", self._page(self.choose, form=True), methods=["POST"]),
            Route(f"{mine}/badge", self._page(self.badge_page), methods=["GET"]),
            Route(f"{mine}/badge/check", self._page(self.check, form=True), methods=["POST"]),
        ]

    def choose(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        week = free_q.free_week(self.s.reads, self.s.today())
        try:
            position = free_cmd.choose_free_listing(self.s.store, free_cmd.ChooseFreeListing(listing_id=doc["listing_id"]),
                                                    session.account_id, week, self._meta(session), self.s.site_taken)
        except NotFound:
            return self._missing(request, session, "listing")
        except (Conflict, InvalidInput) as exc:
            return self._message(request, session, "This listing cannot launch for free", exc.detail, 409,
                                 [(f"/my/listings/{doc['listing_id']}", "Back to the listing")])
        self._wait(position, VIEWS)
        return self._redirect(f"/my/listings/{doc['listing_id']}/badge?done=chosen")

    def badge_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        q = request.query_params
        style = {k: q.get(k, default) for k, default in (("shape", "standard"), ("mode", "auto"), ("size", "m"))}
        errors: dict[str, str] = {}
        badges: dict[str, Any] | None = None
        try:
            badges = badges_q.get_badges(self.s.reads, badges_q.GetBadges.model_validate({"slug": doc["slug"], **style}),
                                         self.s.links["website"])
        except ValidationError as exc:
            errors = nested_problems(exc)
        except NotFound:
            badges = None  # saved, not launched: no badge earned yet
        notice, kind = self._notice(request, NOTICES), "done"
        if request.query_params.get("done") == "checked" and doc["badge_check"]:
            notice, kind = checked_notice(doc)
        ctx = {"l": doc, "badges": badges, "style": style, "choices": CHOICES, "size_labels": SIZE_LABELS,
               "errors": errors, "check": doc["badge_check"], "notice": notice, "notice_kind": kind,
               "nav_here": "listings", "tab": "", "error_labels": {"shape": "Shape", "mode": "Colours", "size": "Size"}}
        return self._render(request, "founder/my/badge.html", ctx, session, 400 if errors else 200)

    def check(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        position = self.check_badge(doc["listing_id"], self._meta(session))
        if position:
            self._wait(position, VIEWS)
        done = "checked" if position else "nothing"
        return self._redirect(f"/my/listings/{doc['listing_id']}/badge?done={done}#check")


def my_free_routes(identity: Identity, check_badge: CheckBadgeNow) -> list[BaseRoute]:
    return MyFreeLaunch(identity, check_badge).routes()
