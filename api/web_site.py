"""The public website, assembled: directory and reading pages, feeds, votes and follows, reviews, the stylesheet.

`public_site(identity, executor)` is called once by the composition root.
The pages read through an `Executor` over the API's own services and registry
(no authentication, no idempotency, no per-operation rate limit: a page is
counted once by the page limiter instead). `not_found` is the HTML 404 page
the application shows for unknown website addresses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.executor import Executor
from api.identity import Identity
from api.ratelimit import Limits, LocalRateLimiter
from api.web_about_pages import AboutPages
from api.web_page_cache import STALE_SECONDS, never_busy
from api.web_content_pages import ContentPages
from api.web_feeds import FeedPages
from api.web_public import PublicSite
from api.web_public_pages import DirectoryPages
from api.web_reviews import ReviewPages
from api.web_staff_reviews import StaffReviewPages
from api.web_vote_method import VoteMethodPage
from api.web_votes import VotePages

STATIC_DIR = Path(__file__).parent / "static"
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
NOT_HTML = ("/api/", "/mcp", "/.well-known/", "/oauth/", "/badges/", "/webhooks/", "/feeds/", "/static/")


@dataclass
class PublicWebsite:
    routes: list[BaseRoute]
    pages: PublicSite

    async def not_found(self, request: Request) -> Response | None:
        """The HTML 404 page for a browser's unknown address; None where JSON problems are the answer."""
        if request.method != "GET" or request.url.path.startswith(NOT_HTML):
            return None
        return await self.pages.not_found(request)


def static_routes() -> list[BaseRoute]:
    """The stylesheet and script, read once, with a strong ETag and a day of caching."""
    routes: list[BaseRoute] = []
    for path in sorted(STATIC_DIR.iterdir()):
        if path.suffix not in STATIC_TYPES:
            continue
        body = path.read_bytes()
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        media = STATIC_TYPES[path.suffix]

        def serve(request: Request, body: bytes = body, etag: str = etag, media: str = media) -> Response:
            headers = {"etag": etag, "cache-control": "public, max-age=86400"}
            if request.headers.get("if-none-match") == etag:
                return Response(status_code=304, headers=headers)
            return Response(body, media_type=media, headers=headers)

        routes.append(Route(f"/static/{path.name}", serve, methods=["GET"]))
    return routes


def public_site(identity: Identity, executor: Executor, *, rate_limits: bool = True,
                anonymous_quota: int = 3000, window: int = 900, vote_secret: str | None = None,
                busy: Callable[[], bool] = never_busy, stale_seconds: float = STALE_SECONDS,
                vote_threads: int | None = None) -> PublicWebsite:
    """The public website's routes; `busy`/`stale_seconds`: when signed-out pages may be a little old;
    `vote_threads`: the votes' own pool (None: `api/web_votes.py` VOTE_THREADS)."""
    reader = Executor(executor.services, executor.registry)
    limiter = LocalRateLimiter(Limits.of(anonymous=anonymous_quota, window=window)) if rate_limits else None
    directory = DirectoryPages(identity, reader, limiter, busy=busy, stale_seconds=stale_seconds)
    content = ContentPages(identity, reader, limiter)
    feeds = FeedPages(identity, reader, limiter)
    votes = VotePages(identity, limited=rate_limits, vote_secret=vote_secret,  # the vote-signal key (docs/voting.md)
                      threads=vote_threads)
    routes = static_routes() + directory.routes() + content.routes() + feeds.routes() + votes.routes()
    routes += ReviewPages(identity, limited=rate_limits).routes() + StaffReviewPages(identity).routes()  # docs/reviews.md
    routes += VoteMethodPage(identity, reader, limiter).routes()  # /about/votes
    routes += AboutPages(identity, reader, limiter).routes()  # /about, /pricing
    return PublicWebsite(routes, directory)
