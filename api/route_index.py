"""The site's routes looked up by their leading literal path segments instead of one by one.

The router tries routes in order and takes the first that matches fully: with
the REST operations, the website and the identity pages that is about 170
regular expressions for a path near the end of the list, and under a burst of
votes that scan was one eighth of the interpreter's time (docs/performance.md,
"Routing by path segments"). `RouteIndex` is one route standing for all of them:
it tries only the routes that can match the request's path, in their original
order, so the first full match, the fallback to a route that matched the path
but not the method (405), and the trailing-slash redirect are the router's own.

A route can match a path only if the path begins with the route's leading
literal segments (the part of its template before the first `{`, cut at a `/`):
its pattern is anchored and those characters are matched as they are. So a
route is filed under those segments (at most `DEPTH` of them), and a request
is tried against the routes filed under each prefix of its own segments.
Routes with no literal first segment (a parameter first, a host, a mount at
the root, or any kind of route this module does not know) are filed under the
empty prefix and so tried for every request.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from starlette.routing import BaseRoute, Match, Mount, NoMatchFound, Route
from starlette.types import Receive, Scope, Send

DEPTH = 3  # literal segments a route is filed under: /api/v1/<resource> tells the REST routes apart
CHOSEN = "launchdir.route"  # the scope key carrying the chosen route from `matches` to `handle`
MEMO_SIZE = 4096  # request prefixes whose candidate list is kept (paths with slugs are many)


def literal_key(route: BaseRoute, depth: int = DEPTH) -> tuple[str, ...]:
    """The leading literal segments of the route's path template (empty: try it for every path)."""
    if not isinstance(route, Route | Mount):
        return ()
    path = route.path
    if not path.startswith("/"):
        return ()
    key: list[str] = []
    for segment in path.split("/")[1:depth + 1]:
        if "{" in segment:
            break
        key.append(segment)
    return tuple(key)


def route_path(scope: Scope) -> str:
    """The path the routes are matched against: the request's path below the application's root path."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        rest = path[len(root):]
        if rest == "" or rest.startswith("/"):
            return rest
    return path


class RouteIndex(BaseRoute):
    """All of the application's routes as one, tried by the literal prefix of the request's path."""

    def __init__(self, routes: Iterable[BaseRoute], depth: int = DEPTH) -> None:
        self.routes: list[BaseRoute] = list(routes)
        self.depth = depth
        self._filed: dict[tuple[str, ...], list[int]] = {}
        for position, route in enumerate(self.routes):
            self._filed.setdefault(literal_key(route, depth), []).append(position)
        self._memo: dict[tuple[str, ...], Sequence[BaseRoute]] = {}

    def candidates(self, path: str) -> Sequence[BaseRoute]:
        """The routes that can match `path`, in their original order."""
        if not path.startswith("/"):
            return self.routes
        segments = tuple(path.split("/", self.depth + 1)[1:self.depth + 1])
        found = self._memo.get(segments)
        if found is None:
            positions: list[int] = []
            for size in range(len(segments) + 1):
                positions.extend(self._filed.get(segments[:size], ()))
            found = tuple(self.routes[p] for p in sorted(positions))
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            self._memo[segments] = found
        return found

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        partial: Scope | None = None
        for route in self.candidates(route_path(scope)):
            match, child = route.matches(scope)
            if match is Match.FULL:
                return Match.FULL, {**child, CHOSEN: route}
            if match is Match.PARTIAL and partial is None:
                partial = {**child, CHOSEN: route}
        if partial is not None:
            return Match.PARTIAL, partial
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        route: BaseRoute = scope.pop(CHOSEN)
        await route.handle(scope, receive, send)

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        for route in self.routes:
            try:
                return route.url_path_for(name, **path_params)
            except NoMatchFound:
                pass
        raise NoMatchFound(name, path_params)
