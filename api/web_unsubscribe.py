"""The website's unsubscribe page: the link in every follower email stops updates from one listing, no sign-in needed.

GET /unsubscribe/<token> names the listing and shows one button; only the
POST (CSRF-protected like every form here) unfollows, because mail filters
open links to scan them and must not unsubscribe anyone. The token
(`commands.updates.UnsubscribeTokens`) is what proves the link came from us
and names the account and the listing; the POST appends `ListingUnfollowed`
for that account, whoever is signed in.

Mail programs unsubscribe in one click (RFC 8058): each follower mail names
`/unsubscribe/<token>/one-click` in its `List-Unsubscribe` header, and the
program POSTs `List-Unsubscribe=One-Click` there, without cookies or a CSRF
token: the signed token is the proof, and a scanner that merely opens the
address (GET) is sent to the page with its button, so it unfollows no one.
"""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from aggregates.base import Meta
from api.sessions import WebSession
from api.web_auth import Identity, WebAuth
from api.web_forms import read_form
from commands import updates as updates_cmd
from events.errors import NotFound
from queries import updates as updates_q

NOT_VALID = "This unsubscribe link is not valid. Copy the whole link from the email, or unfollow the listing on its page."
VIEWS = ["updates_view", "listing_view"]


class WebUnsubscribe(WebAuth):
    """The unsubscribe routes, on the identity pages' sessions, CSRF tokens and templates."""

    def __init__(self, identity: Identity, tokens: updates_cmd.UnsubscribeTokens) -> None:
        super().__init__(identity)
        self.tokens = tokens

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/unsubscribe/{token}", self._page(self.unsubscribe_page), methods=["GET"]),
            Route("/unsubscribe/{token}", self._page(self.unsubscribe, form=True), methods=["POST"]),
            Route("/unsubscribe/{token}" + updates_cmd.ONE_CLICK, self.one_click, methods=["GET", "POST"]),
        ]

    async def one_click(self, request: Request) -> Response:
        """RFC 8058: a POST with `List-Unsubscribe=One-Click` unfollows at once; a GET shows the page and its button."""
        token = str(request.path_params.get("token") or "")
        if request.method == "GET":
            return RedirectResponse(f"/unsubscribe/{token}", 303)
        form = await read_form(request)
        if form.get("List-Unsubscribe") != "One-Click":
            return PlainTextResponse("Send List-Unsubscribe=One-Click to unsubscribe.\n", 400)
        target = await run_in_threadpool(self._target, request)
        if target is None:
            return PlainTextResponse(NOT_VALID + "\n", 404)
        account_id, listing_id, listing = target
        meta = Meta(at=self.s.now(), actor=f"account:{account_id}", channel="web", via="one_click_unsubscribe")
        try:
            await run_in_threadpool(updates_cmd.unsubscribe, self.s.store, listing_id, account_id, meta)
        except NotFound:
            return PlainTextResponse(NOT_VALID + "\n", 404)
        return PlainTextResponse(f"You will no longer get updates from {listing['name']}.\n")

    def _target(self, request: Request) -> tuple[str, int, dict[str, str]] | None:
        """The account, the listing id and its names, when the link is ours and the listing exists."""
        found = self.tokens.read(str(request.path_params.get("token") or ""))
        if found is None:
            return None
        account_id, listing_id = found
        listing = updates_q.listing_named(self.s.reads, listing_id)
        return (account_id, listing_id, listing) if listing else None

    def unsubscribe_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        target = self._target(request)
        if target is None:
            return self._message(request, session, "This link does not work", NOT_VALID, 404)
        account_id, listing_id, listing = target
        if not updates_q.follows(self.s.reads, listing_id, account_id):
            return self._message(request, session, "Already unsubscribed",
                                 f"You do not get updates from {listing['name']}.", 200)
        ctx = {"listing": listing, "token": request.path_params["token"]}
        return self._render(request, "updates/unsubscribe.html", ctx, session)

    def unsubscribe(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        target = self._target(request)
        if target is None:
            return self._message(request, session, "This link does not work", NOT_VALID, 404)
        account_id, listing_id, listing = target
        meta = Meta(at=self.s.now(), actor=f"account:{account_id}", channel="web", via="unsubscribe_link")
        try:
            position = updates_cmd.unsubscribe(self.s.store, listing_id, account_id, meta)
        except NotFound:
            return self._message(request, session, "This link does not work", NOT_VALID, 404)
        self._wait(position, VIEWS)
        return self._message(request, session, "Unsubscribed",
                             f"You will no longer get updates from {listing['name']}.", 200)


def unsubscribe_routes(identity: Identity, tokens: updates_cmd.UnsubscribeTokens) -> list[BaseRoute]:
    return WebUnsubscribe(identity, tokens).routes()
