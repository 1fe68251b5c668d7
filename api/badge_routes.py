"""The badge images: GET /badges/{slug}/{kind}.svg?shape=&mode=&size=[&week=].

Founders embed these on their own homepages, so the site serves them itself:
`image/svg+xml`, an ETag (a hash of the bytes) answered with 304 on
`If-None-Match`, and a day of public caching. Bad parameters are 400 and a
badge the listing has not earned (or a listing that is not public) is 404,
as RFC 9457 problems like the API's.
"""

from __future__ import annotations

import functools

from datetime import date
from typing import Literal

import anyio.to_thread
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from api.executor import dumps, etag_of
from api.problems import from_domain, validation_problem
from api.services import Services
from events.errors import NotFound
from api.badge_art import render_badge
from queries import badge_styles
from queries.badges import earned_badge
from queries.paging import SLUG_PATTERN

CACHE_CONTROL = "public, max-age=86400, stale-while-revalidate=604800"
SVG_HEADERS = {
    "x-content-type-options": "nosniff",
    # opened directly, the SVG may use its own inline style and nothing else
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
}


class BadgeImage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")
    slug: str = Field(pattern=SLUG_PATTERN, max_length=220)
    kind: Literal[badge_styles.BADGE_KINDS]  # type: ignore[valid-type]
    shape: Literal[badge_styles.SHAPES] = "standard"  # type: ignore[valid-type]
    mode: Literal[badge_styles.MODES] = "auto"  # type: ignore[valid-type]
    size: Literal[badge_styles.SIZES] = "m"  # type: ignore[valid-type]
    week: date | None = None


def _problem(body: dict[str, object]) -> Response:
    return Response(dumps(body), status_code=int(body["status"]), media_type="application/problem+json")  # type: ignore[call-overload]


@functools.lru_cache(maxsize=4096)
def _drawn(kind: str, shape: str, mode: str, size: str, site_name: str, detail: str | None) -> bytes:
    """The SVG bytes of one badge style (pure, so kept while the process runs)."""
    return render_badge(kind, shape=shape, mode=mode, size=size, site_name=site_name, detail=detail).encode("utf-8")


def badge_routes(services: Services) -> list[Route]:
    async def badge(request: Request) -> Response:
        try:
            q = BadgeImage.model_validate({**dict(request.query_params), **request.path_params})
        except ValidationError as exc:
            return _problem(validation_problem(exc))
        try:
            badge = await anyio.to_thread.run_sync(earned_badge, services.reads, q.slug, q.kind, q.week)
        except NotFound as exc:
            return _problem(from_domain(exc))
        body = _drawn(badge.kind, q.shape, q.mode, q.size, badge.site_name, badge.detail)
        etag = etag_of(body)
        headers = {"etag": etag, "cache-control": CACHE_CONTROL, **SVG_HEADERS}
        if etag in [t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers={"etag": etag, "cache-control": CACHE_CONTROL})
        return Response(body, media_type="image/svg+xml", headers=headers)

    return [Route("/badges/{slug}/{kind}.svg", badge, methods=["GET"], name="badge_svg")]
