"""The founder's listings: `/my/listings`, the dashboard `/my/listings/{id}`, and its version history.

- `/my/listings`: every listing the person owns (list_my_listings).
- `/my/listings/{id}`: status, plan, launch week, unlocked sections, public
  address, the next step, the last badge check, and links to every action
  (get_my_listing; another person's listing is the 404 page).
- `/my/listings/{id}/history`: every version with who, when, before and after
  (the history query the staff pages read).
- `POST /my/listings/{id}/invites`: "Invite a co-owner" from the dashboard. With
  a draft of this person's that became the listing, the draft's invite
  (invite_cofounder: the invited person co-owns both); without one (a claimed
  listing), the listing's own invite (`commands.invites.invite_to_listing`).

The editor is `api/web_my_listing_edit.py`; it returns here with `?done=`.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from pydantic import ValidationError

from aggregates.draft import INVITE_TTL, MAX_INVITES
from api.identity import Identity
from api.sessions import WebSession
from api.web_diff import field_diffs
from api.web_draft_view import INVITE_WORDS
from api.web_founder_pages import FounderPages, nested_problems
from commands import draft as draft_cmd
from commands import invites as invites_cmd
from events.errors import Conflict, InvalidInput, NotFound
from queries import drafts as drafts_q
from queries import history as history_q
from queries import my_listings as q
from queries.catalog import category_names
from queries.paging import Paging

NOTICES = {"unchanged": "Nothing changed, so nothing was saved.",
           "invited": f"The invite is on its way; it is valid for {INVITE_TTL.days} days."}
INVITE_LABELS = {"email": "Co-owner's email address"}
# What a saved edit means depends on where the listing stands (SPEC §3.3): public at once only while live
SAVED = {
    "live": "Your changes are saved and public. The site team may review them.",
    "scheduled": "Your changes are saved. The full profile shows them from launch day; until then the page announcing "
                 "the launch shows only its name, tagline and logo. The site team may review them.",
    "awaiting_badge": "Your changes are saved. The full profile shows them from launch day; until then the page "
                      "announcing the launch shows only its name, tagline and logo. The site team may review them.",
    "draft": "Your changes are saved. The listing is not published yet, so only its owners see them.",
}
# What the editor says before a save, by the same rule (a taken-down listing refuses edits)
EDITS_SHOW = {
    "live": "Edits are public as soon as you save them.",
    "scheduled": "Edits show on the public profile from launch day; until then the page announcing the launch shows "
                 "only the name, tagline and logo.",
    "awaiting_badge": "Edits show on the public profile from launch day; until then the page announcing the launch "
                      "shows only the name, tagline and logo.",
    "draft": "The listing is not published yet: only its owners see edits until it launches.",
    "unpublished": "The listing was taken down by the site team, so it cannot be changed until they publish it again.",
}


def saved_notice(status: str) -> str:
    """The notice after the editor saved, true for the listing's status."""
    return SAVED.get(status, "Your changes are saved.")


def edits_show(status: str) -> str:
    """When the editor's changes show publicly, for the listing's status."""
    return EDITS_SHOW.get(status, "")


PER_PAGE = 10
KIND_WORDS = {"created": "created", "edited": "profile edited", "story": "founder story saved",
              "milestone_added": "milestone added", "milestone_deleted": "milestone deleted", "update": "update posted",
              "revert": "fields put back by the site team", "update_removed": "update removed by the site team"}
"""What a version did, in the words of the founder's pages (`queries.history.Version.kind`)."""
CHANNEL_WORDS = {"web": "on the website", "rest": "through the API", "mcp": "through an AI agent (MCP)",
                 "oauth": "through a connected app", "cli": "from the site team's command line",
                 "system": "automatically"}
"""Through what a version was made (`Meta.channel`), for people; an unknown channel is shown as it is."""
REVIEW_WORDS = {"pending": "the site team may review it", "not_needed": "no review needed",
                "accepted": "reviewed and accepted by the site team", "reverted": "put back by the site team",
                "removed": "taken off the site by the site team"}
"""The site team's review of a version (`queries.history.Version.review`), for people."""


def who_made(version: dict[str, Any]) -> str:
    """The person's email address; the site team or the site itself for staff and automatic changes."""
    actor = str(version.get("actor") or "")
    if actor.startswith("staff:"):
        return "the site team"
    if actor.startswith("system"):
        return "the site"
    return str(version.get("actor_email") or actor)


def version_words(version: dict[str, Any]) -> dict[str, str]:
    """A version's kind, channel and review in words (the codes stay in the history query's answer)."""
    kind, channel, review = str(version["kind"]), str(version["channel"]), str(version["review"])
    return {"what": KIND_WORDS.get(kind, kind.replace("_", " ")), "who": who_made(version),
            "how": CHANNEL_WORDS.get(channel, f"through {channel}"),
            "review_words": REVIEW_WORDS.get(review, review.replace("_", " "))}


class MyListingPages(FounderPages):
    """/my/listings, the dashboard and the history."""

    def routes(self) -> list[BaseRoute]:
        mine = "/my/listings/{listing_id}"
        return [
            Route("/my/listings", self._page(self.list_page), methods=["GET"]),
            Route(mine, self._page(self.dashboard), methods=["GET"]),
            Route(f"{mine}/history", self._page(self.history), methods=["GET"]),
            Route(f"{mine}/invites", self._page(self.invite, form=True), methods=["POST"]),
        ]

    # ------------------------------------------------------------ list and dashboard

    def list_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        page = self._page_number(request)
        found = q.list_my_listings(self.s.reads, session.account_id, Paging(page=page, per_page=20), self.s.links)
        return self._render(request, "founder/my/listings.html", {"found": found}, session)

    def dashboard(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        done = request.query_params.get("done", "")
        notice = saved_notice(str(doc["status"])) if done == "saved" else self._notice(request, NOTICES)
        return self._dashboard(request, session, doc, {"notice": notice, "invited": done == "invited"})

    def _dashboard(self, request: Request, session: WebSession, doc: dict[str, Any], ctx: dict[str, Any],
                   status: int = 200) -> Response:
        versions = self._versions(doc["listing_id"], 1, 3)["items"]
        page = {"l": doc, "versions": versions, "unlock_offer": self._sections_offer(session, doc),
                "co": self._co_owners(session, int(doc["listing_id"])), "invite_words": INVITE_WORDS,
                "error_labels": INVITE_LABELS, "invite_days": INVITE_TTL.days}
        return self._render(request, "founder/my/listing.html", page | ctx, session, status)

    def invite(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        """Invite a co-owner: through the listing's draft when this person owns it, else on the listing itself."""
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        listing_id, email = int(doc["listing_id"]), str(data.get("email") or "").strip()
        draft_id = self._draft_of(session, listing_id)
        website = self.s.links["website"]
        try:
            if draft_id is not None:
                cmd = draft_cmd.InviteCofounder.model_validate({"id": draft_id, "email": email})
                position = invites_cmd.invite_cofounder(self.s.store, cmd, session.account_id, self._meta(session),
                                                        website=website).position
            else:
                own = invites_cmd.InviteListingCoOwner.model_validate({"listing_id": listing_id, "email": email})
                position = invites_cmd.invite_to_listing(self.s.store, own, session.account_id, self._meta(session),
                                                         website=website).position
        except NotFound:
            return self._missing(request, session, "listing")
        except (ValidationError, InvalidInput, Conflict) as exc:
            said = {"email": exc.detail} if isinstance(exc, Conflict) else nested_problems(exc)
            errors = {"email": said.get("email") or next(iter(said.values()), "This invite cannot be sent.")}
            return self._dashboard(request, session, doc, {"errors": errors, "values": {"email": email}}, 400)
        if draft_id is not None:
            self._wait(position, ["draft_view"])
        return self._redirect(f"/my/listings/{listing_id}?done=invited#co-owners")

    def _co_owners(self, session: WebSession, listing_id: int) -> dict[str, Any]:
        """The listing's invites and how many are left: the draft's when this person owns it, else the listing's."""
        draft_id = self._draft_of(session, listing_id)
        invites: list[dict[str, str]] = []
        if draft_id is not None:
            try:
                draft = drafts_q.get_draft(self.s.reads, UUID(draft_id), session.account_id, self.s.now())
                invites = [{"email": i["email"], "status": i["status"], "until": str(i["expires_at"])[:10]}
                           for i in draft["invites"]]
            except NotFound:
                draft_id = None
        if draft_id is None:
            now = self.s.now()
            for i in invites_cmd.load_listing_invites(self.s.store, listing_id).invites.values():
                status = "accepted" if i.accepted_by else "expired" if now >= i.expires_at else "pending"
                invites.append({"email": i.email, "status": status, "until": i.expires_at.date().isoformat()})
        return {"draft_id": draft_id, "invites": invites, "left": max(0, MAX_INVITES - len(invites)),
                "max": MAX_INVITES}

    def history(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        page = self._page_number(request)
        found = self._versions(doc["listing_id"], page, PER_PAGE)
        more = f"{request.url.path}?page={page + 1}" if found["has_more"] else None
        return self._render(request, "founder/my/history.html",
                            {"l": doc, "versions": found["items"], "more": more}, session)

    def _versions(self, listing_id: int, page: int, per_page: int) -> dict[str, Any]:
        """The listing's versions, newest first, each with its readable diff and who made it."""
        try:
            found = history_q.history(self.s.reads, listing_id, Paging(page=page, per_page=per_page))
        except NotFound:  # history has not seen the listing yet
            return {"items": [], "has_more": False}
        names = category_names(self.s.reads) if found["items"] else {}
        items = [{**v, "diffs": field_diffs(v["changes"], names), **version_words(v)} for v in found["items"]]
        return {**found, "items": items}

    @staticmethod
    def _page_number(request: Request) -> int:
        value = request.query_params.get("page", "1")
        return max(1, min(int(value), 1000)) if value.isascii() and value.isdigit() and len(value) < 6 else 1


def my_listing_routes(identity: Identity) -> list[BaseRoute]:
    return MyListingPages(identity).routes()
