"""REST routes under /api/v1, generated from the registry.

The route only collects raw input (path, query, JSON body) and presents the
executor's outcome; validation, auth and errors are the executor's.
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

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


def rest_routes(executor: Executor, prefix: str = "/api/v1") -> list[Route]:
    return [
        Route(prefix + op.path, endpoint_for(executor, op), methods=[op.method], name=op.operation_id)
        for op in executor.registry
    ]
