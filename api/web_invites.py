"""The website's co-founder invite page: the emailed link opens it, a signed-in person accepts.

GET /invites/accept?draft=..&invite=..&token=.. shows the invite (signing in
first when needed, then coming back: the sign-in page, sign-up and the
confirmation mail carry `next` back here and say why, "Sign in to accept the
invitation to co-own Acme", from `invite_purpose`); the POST form (CSRF-protected, so
another site cannot make a signed-in visitor accept) calls
`commands.invites.accept_invite`, which makes the account a co-owner of the
draft and, if there is one, of its listing (`commands.listing.add_owner`).

A listing without a draft of its owner's invites from its own page
(`/my/listings/{id}`); its link names the listing (`?listing=..&invite=..&token=..`)
and accepting makes the account a co-owner of the listing
(`commands.invites.accept_listing_invite`). The page names the site as staff
named it (the `site_name` of every page), never a fixed word.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlencode
from uuid import UUID

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.draft import DraftState, Invite
from api.identity import Identity
from api.sessions import WebSession
from api.web_pages import WebPages
from commands import draft as draft_cmd
from commands import invites as invites_cmd
from commands import listing as listing_cmd
from commands.store import EventStore
from events.errors import Conflict, InvalidInput, NotFound

NOT_VALID = "This invite link is not valid. Ask the person who invited you for a new one."
KEYS = ("draft", "listing", "invite", "token")  # what an invite link carries (a draft's or a listing's)


@dataclass(frozen=True)
class Found:
    """An invite whose link's token matches: what it is for, in words, and where it leads."""

    invite: Invite
    product: str  # the product's name (or its site)
    url: str  # the product's website
    site: str  # that website's host, as shown
    draft_id: str | None  # a draft's invite (its co-owners co-own its listing too)
    listing_id: int | None  # the listing it reaches (a draft's, once saved as one)


class WebInvites(WebPages):
    """The invite routes, on the identity pages' sessions, CSRF tokens and templates."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route(INVITE_PAGE, self._page(self.invite_page), methods=["GET"]),
            Route(INVITE_PAGE, self._page(self.accept, form=True), methods=["POST"]),
        ]

    def invite_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        q = {k: request.query_params.get(k, "") for k in KEYS}
        if session is None:
            return self._to_signin(str(request.url.query))
        found = find(self.s.store, q)
        if found is None:
            return self._message(request, session, "This invite does not work", NOT_VALID, 404)
        if found.invite.accepted_by is not None:
            mine = found.invite.accepted_by == session.account_id
            text = "You already accepted this invite." if mine else "This invite was already accepted."
            return self._message(request, session, "Invite already used", text, 409, [("/account", "Your account")])
        ctx = {"product": found.product, "url": found.url, "site": found.site,
               "invite": {"id": found.invite.invite_id, "email": found.invite.email}, "draft_id": found.draft_id,
               "token": q["token"], "listing_id": found.listing_id}
        return self._render(request, "drafts/invite.html", ctx, session)

    def accept(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        q = {k: str(data.get(k) or "") for k in KEYS}
        if session is None:  # signed out since the page was shown: back to this invite after signing in
            return self._to_signin(urlencode({k: v for k, v in q.items() if v}))
        found = find(self.s.store, q)
        if found is None:
            return self._message(request, session, "This invite does not work", NOT_VALID, 404)
        try:
            if found.draft_id is not None:
                accepted = invites_cmd.accept_invite(self.s.store, UUID(found.draft_id), q["invite"], q["token"],
                                                     session.account_id, self._meta(session))
                position, listing_id = accepted.position, accepted.listing_id
            else:
                listing_id = found.listing_id
                position = invites_cmd.accept_listing_invite(self.s.store, int(listing_id or 0), q["invite"],
                                                             q["token"], session.account_id, self._meta(session))
        except (Conflict, InvalidInput, NotFound) as exc:
            return self._message(request, session, "This invite does not work", exc.detail, 409)
        views = ["draft_view"] if found.draft_id else []
        self._wait(position, views + (["listing_view"] if listing_id else []))
        return self._message(request, session, "Invite accepted", *_accepted(found, listing_id))

    def _to_signin(self, query: str) -> Response:
        """To sign in (or sign up), then back to the invite page of this link (`next`), which says why."""
        return self._redirect("/signin?next=" + quote(f"{INVITE_PAGE}?{query}", safe=""))


INVITE_PAGE = "/invites/accept"


def _accepted(found: Found, listing_id: int | None) -> tuple[str, int, list[tuple[str, str]]]:
    """What the page says once the invite is accepted, and where to go next."""
    links: list[tuple[str, str]] = []
    if found.draft_id is None:
        text = (f"You are now a co-owner of the listing of {found.product}. Open it to see its plan and launch "
                "week, edit its profile or post an update.")
    elif listing_id:
        text = (f"You are now a co-owner of {found.product} and its listing. Open the draft to edit its profile "
                "with the other owners, or the listing to see its plan and launch week.")
    else:
        text = (f"You are now a co-owner of the draft of {found.product}. Open it to edit its profile with the "
                "other owners, and save it as a listing when it is ready.")
    if found.draft_id is not None:
        links.append((f"/drafts/{found.draft_id}", "Open the draft"))
    if listing_id:
        links.append((f"/my/listings/{listing_id}", "Open the listing"))
    return text, 200, [*links, ("/account", "Your account")]


def find(store: EventStore, q: dict[str, str]) -> Found | None:
    """The invite a link names (a draft's or a listing's) when its token matches; None for anything else."""
    token = q.get("token", "")
    if q.get("draft"):
        pair = find_invite(store, q["draft"], q.get("invite", ""), token)
        if pair is None:
            return None
        state, invite = pair
        return Found(invite, str(state.value("name") or state.site), state.final_url or state.url, state.site,
                     str(state.id), state.listing_id)
    listing_id = q.get("listing", "")
    if not (listing_id.isascii() and listing_id.isdigit() and 0 < len(listing_id) <= 10 and int(listing_id) < 2**31):
        return None
    mine = invites_cmd.load_listing_invites(store, int(listing_id)).invites.get(q.get("invite", ""))
    if mine is None or not _matches(mine, token):
        return None
    try:
        owned = listing_cmd.load(store, int(listing_id))
    except NotFound:
        return None
    website = str(owned.profile.get("website_url") or "")
    host = website.split("://", 1)[-1].split("/", 1)[0]
    return Found(mine, str(owned.profile.get("name") or owned.slug), website, host, None, owned.listing_id)


def _matches(invite: Invite, token: str) -> bool:
    return len(token) <= 200 and hmac.compare_digest(invites_cmd.token_hash(token), invite.token_hash)


def find_invite(store: EventStore, draft: str, invite_id: str, token: str) -> tuple[DraftState, Invite] | None:
    """The draft and the invite when the link's token matches; None for anything else."""
    try:
        state = draft_cmd.load(store, UUID(draft))
    except (ValueError, NotFound):
        return None
    invite = state.invites.get(invite_id)
    if invite is None or not _matches(invite, token):
        return None
    return state, invite


def invite_purpose(store: EventStore, query: str) -> str:
    """What the sign-in and sign-up pages say a signed-out person opening an invite link is doing.

    "accept the invitation to co-own Acme" for a link whose token matches an
    invite still open (a draft's name is not public, so a link that does not
    work names nothing); "accept your invite" otherwise.
    """
    q = {k: v[0] for k, v in parse_qs(query).items() if v}
    found = find(store, {k: q.get(k, "") for k in KEYS})
    if found is None or found.invite.accepted_by is not None:
        return "accept your invite"
    return f"accept the invitation to co-own {found.product}"


def invite_routes(identity: Identity) -> list[BaseRoute]:
    return WebInvites(identity).routes()
