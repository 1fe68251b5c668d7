"""The website's co-founder invite page: the emailed link opens it, a signed-in person accepts.

GET /invites/accept?draft=..&invite=..&token=.. shows the invite (signing in
first when needed, then coming back); the POST form (CSRF-protected, so
another site cannot make a signed-in visitor accept) calls
`commands.invites.accept_invite`, which makes the account a co-owner of the
draft and, if there is one, of its listing (`commands.listing.add_owner`).
"""

from __future__ import annotations

import hmac
from urllib.parse import quote
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
from events.errors import Conflict, InvalidInput, NotFound

NOT_VALID = "This invite link is not valid. Ask the person who invited you for a new one."


class WebInvites(WebPages):
    """The invite routes, on the identity pages' sessions, CSRF tokens and templates."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/invites/accept", self._page(self.invite_page), methods=["GET"]),
            Route("/invites/accept", self._page(self.accept, form=True), methods=["POST"]),
        ]

    def invite_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        q = request.query_params
        if session is None:
            here = "/invites/accept?" + str(request.url.query)
            return self._redirect("/signin?next=" + quote(here, safe=""))
        found = self._invite(q.get("draft", ""), q.get("invite", ""), q.get("token", ""))
        if found is None:
            return self._message(request, session, "This invite does not work", NOT_VALID, 404)
        state, invite = found
        if invite.accepted_by is not None:
            mine = invite.accepted_by == session.account_id
            text = "You already accepted this invite." if mine else "This invite was already accepted."
            return self._message(request, session, "Invite already used", text, 409, [("/account", "Your account")])
        ctx = {"product": str(state.value("name") or state.site), "url": state.final_url or state.url, "site": state.site,
               "invite": {"id": invite.invite_id, "email": invite.email}, "draft_id": str(state.id),
               "token": q.get("token", ""), "listing_id": state.listing_id}
        return self._render(request, "drafts/invite.html", ctx, session)

    def accept(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._redirect("/signin")
        draft, invite, token = (str(data.get(k) or "") for k in ("draft", "invite", "token"))
        found = self._invite(draft, invite, token)
        if found is None:
            return self._message(request, session, "This invite does not work", NOT_VALID, 404)
        product = str(found[0].value("name") or found[0].site)
        try:
            accepted = invites_cmd.accept_invite(self.s.store, UUID(draft), invite, token,
                                                 session.account_id, self._meta(session))
        except (Conflict, InvalidInput, NotFound) as exc:
            return self._message(request, session, "This invite does not work", exc.detail, 409)
        self._wait(accepted.position, ["draft_view", "listing_view"] if accepted.listing_id else ["draft_view"])
        links = [(f"/drafts/{accepted.draft_id}", "Open the draft")]
        if accepted.listing_id:
            text = (f"You are now a co-owner of {product} and its listing. Open the draft to edit its profile "
                    "with the other owners, or the listing to see its plan and launch week.")
            links.append((f"/my/listings/{accepted.listing_id}", "Open the listing"))
        else:
            text = (f"You are now a co-owner of the draft of {product}. Open it to edit its profile with the "
                    "other owners, and save it as a listing when it is ready.")
        return self._message(request, session, "Invite accepted", text, 200, [*links, ("/account", "Your account")])

    def _invite(self, draft: str, invite_id: str, token: str) -> tuple[DraftState, Invite] | None:
        """The draft and the invite when the link's token matches; None for anything else."""
        try:
            state = draft_cmd.load(self.s.store, UUID(draft))
        except (ValueError, NotFound):
            return None
        invite = state.invites.get(invite_id)
        if invite is None or len(token) > 200 or not hmac.compare_digest(invites_cmd.token_hash(token), invite.token_hash):
            return None
        return state, invite


def invite_routes(identity: Identity) -> list[BaseRoute]:
    return WebInvites(identity).routes()
