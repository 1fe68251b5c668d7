"""REST routes under /api/v1, generated from the registry.

The route only collects raw input (path, query, JSON body) and presents the
executor's outcome; validation, auth and errors are the executor's.

One route serves every operation of a path, chosen by method, so the path
knows all its methods: `OPTIONS` answers 204 with `Allow` listing them (HEAD
wherever GET is, and OPTIONS), and any other method is a 405 problem with
the same `Allow` (RFC 9110 §15.5.6).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from api.executor import Executor, Outcome, problem_outcome
from api.problems import problem
from api.registry import Operation
from events.errors import FieldProblem

JSON_TYPES = ("application/json", "application/merge-patch+json")


def _client_ip(request: Request) -> str:
    return request.client.host if request.client else ""


def _respond(outcome: Outcome) -> Response:
    return Response(outcome.body, status_code=outcome.status, headers=outcome.headers)


def _bad_body(detail: str, rule: str) -> Response:
    return _respond(problem_outcome(problem(400, "validation-error", "Invalid input", detail,
                                            [FieldProblem("body", rule, detail)])))


async def _read_body(request: Request, op: Operation) -> dict[str, Any] | Response:
    body = await request.body()
    if not body.strip():
        return {}
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype not in JSON_TYPES and not ctype.endswith("+json"):
        return _bad_body("the body must be JSON with Content-Type: application/json", "content_type")
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return _bad_body("the body is not valid JSON", "json")
    if not isinstance(data, dict):
        return _bad_body("the body must be a JSON object", "type_object")
    return data


def endpoint_for(executor: Executor, op: Operation) -> Any:
    query_fields = set(op.input_model.model_fields) - set(op.path_params)

    async def endpoint(request: Request) -> Response:
        raw: dict[str, Any] = {}
        if op.has_body:
            body = await _read_body(request, op)
            if isinstance(body, Response):
                return body
            raw.update(body)
        else:
            for key, value in request.query_params.multi_items():
                if key in query_fields:
                    raw[key] = value
        raw.update(request.path_params)
        outcome = await executor.execute(
            op, raw, channel="rest",
            authorization=request.headers.get("authorization"),
            idempotency_key=request.headers.get("idempotency-key"),
            ip=_client_ip(request),
        )
        etag = outcome.headers.get("etag")
        if etag and outcome.status == 200 and _matches(request.headers.get("if-none-match"), etag):
            keep = {k: v for k, v in outcome.headers.items() if k in ("etag", "cache-control")}
            return Response(status_code=304, headers=keep)
        return _respond(outcome)

    endpoint.__name__ = op.operation_id
    return endpoint


def _matches(header: str | None, etag: str) -> bool:
    if not header:
        return False
    tags = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in tags or etag in tags


METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(methods: set[str]) -> list[str]:
    """Every method a path answers, in a stable order: its operations', HEAD where GET is, and OPTIONS."""
    allowed = set(methods) | {"OPTIONS"} | ({"HEAD"} if "GET" in methods else set())
    return sorted(allowed, key=lambda m: (METHOD_ORDER.index(m) if m in METHOD_ORDER else len(METHOD_ORDER), m))


class PathRoute(Route):
    """All operations of one path: dispatches by method; OPTIONS and 405 list every method of the path."""

    def __init__(self, path: str, endpoints: dict[str, Callable[[Request], Awaitable[Response]]], name: str) -> None:
        self.endpoints = endpoints
        self.allow = ", ".join(allowed_methods(set(endpoints)))

        async def dispatch(request: Request) -> Response:
            if request.method == "OPTIONS":
                return Response(status_code=204, headers={"allow": self.allow})
            return await self.endpoints["GET" if request.method == "HEAD" else request.method](request)

        super().__init__(path, dispatch, methods=allowed_methods(set(endpoints)), name=name)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.methods and scope["method"] not in self.methods:
            detail = f"{scope['method']} is not served at {scope['path']}; allowed: {self.allow}"
            await _respond(problem_outcome(problem(405, "method-not-allowed", "Method not allowed", detail),
                                           {"allow": self.allow}))(scope, receive, send)
            return
        await super().handle(scope, receive, send)


def rest_routes(executor: Executor, prefix: str = "/api/v1") -> list[Route]:
    """One `PathRoute` per path of the registry, in the registry's order of first appearance."""
    by_path: dict[str, dict[str, Operation]] = {}
    for op in executor.registry:
        by_path.setdefault(op.path, {})[op.method] = op
    return [
        PathRoute(prefix + path, {method: endpoint_for(executor, op) for method, op in ops.items()},
                  name="+".join(op.operation_id for op in ops.values()))
        for path, ops in by_path.items()
    ]
