"""Votes and follows from people on the website: form POSTs with CSRF, no script needed.

Votes exist only here (SPEC: there is no vote operation in the API or MCP).
Who may vote: a signed-in account whose email address is verified, on a live
listing, one standing vote per person and listing (the vote streams decide
that: voting twice changes nothing). Signed out, the form leads to sign-in and
back. Each account may vote or unvote `VOTE_QUOTA` times a minute and
`VOTE_HOURLY` times an hour (refused with 429), so a script behind one account
cannot churn rankings.

The answer waits (bounded) until the launch and listing views have the vote, so
the page shown next (or the count a script updates in place: `Accept:
application/json` answers `{"voted", "votes"}`) already ranks with it. That wait
holds no thread: the handler returns `AfterViews` and the endpoint awaits the
projections on the event loop (docs/performance.md, "Voting burst").
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import anyio
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.ratelimit import Limits, LocalRateLimiter, OverLimit, Policy
from api.services import Principal
from api.sessions import WebSession
from api.vote_signals import VoteSignals, vote_signal_key
from api.web_pages import AfterViews, WebPages, safe_next
from aggregates.votes import Observed
from commands import community as community_cmd
from events.errors import Conflict
from queries import accounts as accounts_q
from queries import community as community_q
from queries import listings as listings_q
from queries import search as search_q

VOTE_QUOTA = 30  # votes or unvotes per account per minute
VOTE_HOURLY = 300
VIEWS = ["launches_view", "listing_view", "search_view", "updates_view"]
VOTE_THREADS = 8
"""Threads of the votes' own pool (the reads and the append; the wait for the views holds none): a launch-day
burst of votes must not hold the threads that render every other page (docs/voting.md, "A burst of votes").
Few, because a vote's thread time is mostly CPU under one interpreter lock: 64 threads made a burst slower
than 8, the threads spending the difference handing the lock around. 4 gave the week's board a shorter tail
but carried 165 votes/s in the full burst against 197 with 8; on a faster machine 4 carried 200 votes/s with
the board's p99 at 41.6 and 50.8 ms, but a vote's answer waited 2.2-4.7 s at p99 against 0.7-0.9 s with 8
(docs/performance.md, "Threads of the votes' pool", "Reads in autocommit, forms in one call, and the votes'
threads" and "Fewer votes' threads: the board against the voters"). `LAUNCHDIR_VOTE_THREADS` sets it."""


def vote_limits() -> Limits:
    per_account = (Policy("votes", VOTE_QUOTA, 60), Policy("votes-hour", VOTE_HOURLY, 3600))
    return Limits(credential=per_account, anonymous=per_account)


class VotePages(WebPages):
    def __init__(self, identity: Identity, limited: bool = True, vote_secret: str | None = None,
                 threads: int | None = None) -> None:
        super().__init__(identity)
        self.limiter = LocalRateLimiter(vote_limits()) if limited else None  # off with LAUNCHDIR_RATE_LIMITS=off
        self.signals = VoteSignals(vote_signal_key(vote_secret, self.s.reads))  # keyed hashes, never raw values
        self.threads = anyio.CapacityLimiter(threads or VOTE_THREADS)  # LAUNCHDIR_VOTE_THREADS

    def routes(self) -> list[BaseRoute]:
        page, own = self._page, self.threads
        return [
            Route("/listings/{slug}/vote", page(self.vote, form=True, threads=own), methods=["POST"]),
            Route("/listings/{slug}/unvote", page(self.unvote, form=True, threads=own), methods=["POST"]),
            Route("/listings/{slug}/follow", page(self.follow, form=True, threads=own), methods=["POST"]),
            Route("/listings/{slug}/unfollow", page(self.unfollow, form=True, threads=own), methods=["POST"]),
            Route("/account/following", page(self.following), methods=["GET"]),
        ]

    def following(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        """The listings this person follows, each with its unfollow button."""
        if session is None:
            return self._redirect("/signin?next=/account/following")
        follows = community_q.followed_listings(self.s.reads, session.account_id)
        cards = {c["id"]: c for c in search_q.cards_by_id(self.s.reads, [f["listing_id"] for f in follows])}
        listings = [f | {"card": cards.get(f["listing_id"])} for f in follows]  # the search page's card of each
        return self._render(request, "public/following.html", {"listings": listings}, session)

    def vote(self, request: Request, data: FormData, session: WebSession | None) -> Response | AfterViews:
        return self._act(request, data, session, "vote")

    def unvote(self, request: Request, data: FormData, session: WebSession | None) -> Response | AfterViews:
        return self._act(request, data, session, "unvote")

    def follow(self, request: Request, data: FormData, session: WebSession | None) -> Response | AfterViews:
        return self._act(request, data, session, "follow")

    def unfollow(self, request: Request, data: FormData, session: WebSession | None) -> Response | AfterViews:
        return self._act(request, data, session, "unfollow")

    def _act(self, request: Request, data: FormData, session: WebSession | None,
             action: str) -> Response | AfterViews:
        slug = request.path_params["slug"]
        noun = "vote" if "vote" in action else "follow"
        page = safe_next(str(data.get("next") or "") or f"/listings/{slug}").partition("#")[0]
        back = f"{page}#{noun}-{slug}"  # the page again, at the button pressed (its anchor), not at its top
        wants_json = "application/json" in request.headers.get("accept", "")
        if session is None:
            signin = "/signin?next=" + quote(back, safe="/")  # its own query and the anchor stay part of `next`
            if wants_json:
                return JSONResponse({"signin": signin, "detail": f"Sign in to {noun}."}, status_code=401)
            return self._redirect(signin)
        me = accounts_q.account(self.s.reads, session.account_id)
        if me is None or not me["email_verified"]:
            return self._refuse(request, session, wants_json, 403, "Verify your email address first",
                                f"Only accounts with a verified email address can {noun}. "
                                "Open the link we emailed you, or send a new one from your account page.",
                                [("/account", "Your account")])
        principal = Principal(account_id=session.account_id, scopes=frozenset(), kind="session")
        try:
            if self.limiter is not None:
                self.limiter.hit(principal, self._ip(request))
        except OverLimit as exc:
            response = self._refuse(request, session, wants_json, 429, "Slow down", exc.detail)
            response.headers["retry-after"] = str(exc.retry_after)
            return response
        listing_id = listings_q.live_listing_id(self.s.reads, slug)
        if listing_id is None:
            return self._refuse(request, session, wants_json, 404, "Not found",
                                "There is no live listing at this address.")
        meta = self._meta(session)
        try:
            observed = self._observed(request, me) if action == "vote" else None
            position = self._apply(action, listing_id, session.account_id, meta, observed)
        except Conflict as exc:
            return self._refuse(request, session, wants_json, 409, "This cannot be done now", exc.detail)
        if not wants_json:
            return AfterViews(position, VIEWS, lambda: self._redirect(back), reads=False)

        def counts() -> Response:
            community: dict[str, Any] = listings_q.live_community(self.s.reads, slug) or {}  # {}: taken off since
            return JSONResponse({"voted": action == "vote" if noun == "vote" else None,
                                 "following": action == "follow" if noun == "follow" else None,
                                 "votes": community.get("votes"), "followers": community.get("followers")})

        return AfterViews(position, VIEWS, counts)

    def _observed(self, request: Request, me: dict[str, Any]) -> Observed:
        """The vote's integrity signals as measured here: account facts and keyed hashes (docs/voting.md)."""
        return Observed(account_created_at=me["created_at"], email_verified=bool(me["email_verified"]),
                        network_hash=self.signals.network_hash(self._ip(request)),
                        agent_hash=self.signals.agent_hash(request.headers.get("user-agent", "")),
                        first_view_at=self.first_views.first(str(me["account_id"])))

    def _apply(self, action: str, listing_id: int, account_id: str, meta: Any, observed: Observed | None) -> int:
        store = self.s.store
        if action == "vote":
            return community_cmd.cast_vote(store, listing_id, account_id, meta, observed)
        if action == "unvote":
            return community_cmd.withdraw_vote(store, listing_id, account_id, meta)
        return community_cmd.follow(store, listing_id, account_id, meta, on=action == "follow")

    def _refuse(self, request: Request, session: WebSession | None, wants_json: bool, status: int, title: str,
                text: str, links: list[tuple[str, str]] | None = None) -> Response:
        if wants_json:
            return JSONResponse({"detail": text}, status_code=status)
        return self._message(request, session, title, text, status, links)


def vote_routes(identity: Identity) -> list[BaseRoute]:
    return VotePages(identity).routes()
