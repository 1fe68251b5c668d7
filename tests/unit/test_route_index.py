"""The route index picks the route a scan of every route in order would pick (docs/performance.md, routing)."""

from __future__ import annotations

import pytest
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Host, Match, Mount, Route
from starlette.types import Scope

from api.route_index import RouteIndex, literal_key


async def _ok(request):  # type: ignore[no-untyped-def]
    return PlainTextResponse("ok")


def linear(routes: list[BaseRoute], scope: Scope) -> tuple[Match, BaseRoute | None]:
    """What the router's own loop chooses: the first full match, else the first partial one."""
    partial = None
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return match, route
        if match is Match.PARTIAL and partial is None:
            partial = route
    return (Match.PARTIAL, partial) if partial is not None else (Match.NONE, None)


def chosen(index: RouteIndex, scope: Scope) -> tuple[Match, BaseRoute | None]:
    match, child = index.matches(scope)
    return match, child.get("launchdir.route")


def http(path: str, method: str = "GET", root_path: str = "") -> Scope:
    return {"type": "http", "path": path, "method": method, "root_path": root_path, "headers": []}


ROUTES: list[BaseRoute] = [
    Route("/", _ok, methods=["GET"]),
    Route("/listings/new", _ok, methods=["GET"]),
    Route("/listings/{slug}", _ok, methods=["GET"]),
    Route("/listings/{slug}/vote", _ok, methods=["POST"]),
    Route("/api/v1/listings", _ok, methods=["GET"]),
    Route("/api/v1/listings/{slug}", _ok, methods=["GET", "PATCH"]),
    Route("/api/v1/listings/{slug}", _ok, methods=["DELETE"]),
    Route("/badges/{slug}/{kind}.svg", _ok, methods=["GET"]),
    Route("/files/{rest:path}", _ok, methods=["GET"]),
    Route("/n/{count:int}", _ok, methods=["GET"]),
    Mount("/static", app=_ok),
    Route("/{page}", _ok, methods=["GET"]),  # a parameter first: tried for every path
    Host("admin.example", app=_ok),
    Route("/trailing/", _ok, methods=["GET"]),
]

PATHS = ["/", "", "/listings/new", "/listings/new/", "/listings/notion", "/listings/notion/vote",
         "/listings/notion/vote/", "/api/v1/listings", "/api/v1/listings/", "/api/v1/listings/notion",
         "/api/v1/listingsx", "/api/v1", "/api", "/badges/notion/live.svg", "/badges/notion/live.png",
         "/files/a/b/c.txt", "/files/", "/n/12", "/n/x", "/static/app.css", "/static", "/about",
         "/trailing/", "/trailing", "/nothing/here/at/all", "//double", "/listings//vote"]


@pytest.mark.parametrize("method", ["GET", "POST", "PATCH", "DELETE"])
@pytest.mark.parametrize("path", PATHS)
def test_the_index_chooses_what_the_scan_chooses(path: str, method: str) -> None:
    index = RouteIndex(ROUTES)
    assert chosen(index, http(path, method)) == linear(ROUTES, http(path, method))


def test_a_method_that_no_route_takes_is_a_partial_match_on_the_first_route_of_that_path() -> None:
    index = RouteIndex(ROUTES)
    match, route = chosen(index, http("/listings/notion/vote", "GET"))
    assert match is Match.PARTIAL and route is ROUTES[3]
    match, route = chosen(index, http("/api/v1/listings/notion", "DELETE"))
    assert match is Match.FULL and route is ROUTES[6]


def test_the_path_below_the_root_path_is_what_is_matched() -> None:
    index = RouteIndex(ROUTES)
    for path in ["/app/listings/notion", "/app/api/v1/listings", "/app", "/apple/listings/notion"]:
        scope = http(path, root_path="/app")
        assert chosen(index, scope) == linear(ROUTES, scope)


def test_routes_are_filed_under_their_leading_literal_segments() -> None:
    assert literal_key(Route("/", _ok)) == ("",)
    assert literal_key(Route("/api/v1/listings/{slug}/history", _ok)) == ("api", "v1", "listings")
    assert literal_key(Route("/listings/{slug}/vote", _ok)) == ("listings",)
    assert literal_key(Route("/a{b}/c", _ok)) == ()
    assert literal_key(Mount("/static", app=_ok)) == ("static",)
    assert literal_key(Host("x.example", app=_ok)) == ()


def test_many_distinct_paths_keep_the_memo_bounded() -> None:
    index = RouteIndex(ROUTES)
    for n in range(10_000):
        assert chosen(index, http(f"/listings/p{n}/vote", "POST")) == (Match.FULL, ROUTES[3])
    assert len(index._memo) <= 4096


def test_reverse_lookup_finds_a_route_by_name() -> None:
    named = [Route("/a", _ok, name="a"), Route("/listings/{slug}", _ok, name="listing")]
    assert RouteIndex(named).url_path_for("listing", slug="notion") == "/listings/notion"
