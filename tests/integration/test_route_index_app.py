"""Every route of the served application is reached through the route index as a scan would reach it."""

from __future__ import annotations

import re
import uuid

from starlette.routing import BaseRoute, Match, Route
from starlette.types import Scope

from api.route_index import CHOSEN, RouteIndex

PARAM = re.compile(r"\{(\w+)(?::(\w+))?\}")
SAMPLE = {"path": "a/b", "int": "7", "float": "1.5", "uuid": str(uuid.UUID(int=1))}


def sample_path(route: Route) -> str:
    return PARAM.sub(lambda m: SAMPLE.get(m.group(2) or "", "x1"), route.path)


def scan(routes: list[BaseRoute], scope: Scope) -> tuple[Match, BaseRoute | None]:
    partial = None
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return match, route
        if match is Match.PARTIAL and partial is None:
            partial = route
    return (Match.PARTIAL, partial) if partial is not None else (Match.NONE, None)


def test_every_route_of_the_site_is_chosen_as_the_scan_chooses_it(container) -> None:  # type: ignore[no-untyped-def]
    from launchdir.bootstrap import web_app

    app = web_app(container)
    [index] = app.router.routes
    assert isinstance(index, RouteIndex)
    routes = index.routes
    assert len(routes) > 100
    paths = {sample_path(r) for r in routes if isinstance(r, Route)}
    paths |= {p + "/" for p in list(paths)} | {p.rstrip("/") + "/extra" for p in list(paths)}
    paths |= {"/", "/nothing", "/api/v1/nothing", "/listings/x1/nothing", "/favicon.ico"}
    checked = 0
    for path in sorted(paths):
        for method in ("GET", "POST", "PATCH", "DELETE", "HEAD"):
            scope = {"type": "http", "path": path, "method": method, "root_path": "", "headers": []}
            match, child = index.matches(scope)
            assert (match, child.get(CHOSEN)) == scan(routes, scope), (method, path)
            checked += 1
    assert checked > 1000
