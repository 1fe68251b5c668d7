"""Property-based fuzzing of every operation, through REST from the OpenAPI document and through MCP from the tool
input schemas, with an account whose API key has every scope.

REST: schemathesis generates valid and invalid inputs for every operation; every answer must be a documented
status, never a 5xx, and conform to its schema; invalid inputs must be refused and valid ones accepted (a 404 for
an id that does not exist is an acceptance: the schema promises shapes, not which resources exist). Path ids that
parse as UUIDs go, for half of the cases, to a real draft of the fuzzing account so the draft operations run
their handlers to the end; for those, domain rules that depend on the draft's state may refuse a well-formed
input, so acceptance of valid data is checked only against the other half.

MCP: each tool is called with arguments drawn from its own input schema with schemathesis' generators; a call
may fail as a tool error, but its problem must never be a 5xx. Each set of arguments is sent again with a NUL
added to one of its strings, which must be the text rule's 400 naming that string.

The example counts are bounded (`MAX_EXAMPLES`, `MCP_EXAMPLES`) to keep CI time modest.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import httpx
import httpx2
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from api.mcp_server import tool_for
from api.ops import build_registry
from tests.conftest import Databases, RunningServer
from tests.e2e.submission_support import Person, live_server, person
from tests.fixtures.drafting_sites import serve

MAX_EXAMPLES = 25
MCP_EXAMPLES = 10
SCOPES = ("account:read", "listings:write", "orders:write")
# Operations whose valid inputs the server may still refuse for reasons no schema can say:
NOT_ALWAYS_ACCEPTED = {
    "submit_listing": "the server resolves the URL's host and refuses addresses that are not public",
    "answer_interview": "question ids must name questions of list_interview_questions (the catalogue's), once per call",
    "quote_order": "product codes, weeks and categories must be list_products' and list_categories' current ones",
    "create_checkout": "product codes, weeks and categories must be list_products' and list_categories' current ones",
}
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, negative_data_rejection]


@pytest.fixture(scope="module")
def fuzz_server(databases: Databases) -> Iterator[RunningServer]:
    """A server of its own (rate limits off, so the fuzzer is never answered 429 instead of the real answer)."""
    yield from live_server(databases)


@pytest.fixture(scope="module")
def fuzzer(fuzz_server: RunningServer) -> Person:
    return person(fuzz_server, SCOPES)


@pytest.fixture(scope="module")
def draft_id(fuzz_server: RunningServer, fuzzer: Person) -> str:
    """A ready draft of the fuzzing account, made from the fixture site `saas`."""
    api = fuzz_server.url + "/api/v1"
    with serve("saas") as site:
        r = httpx.post(api + "/drafts", json={"url": site.url("/")}, headers=fuzzer.headers(), timeout=15)
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 60
        while (d := httpx.get(api + f"/drafts/{r.json()['id']}", headers=fuzzer.headers(), timeout=15).json())[
                "status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline, d["status"]
            time.sleep(0.1)
    assert d["status"] == "ready", d
    return str(d["id"])


@pytest.fixture
def api_schema(fuzz_server: RunningServer) -> Any:
    return schemathesis.openapi.from_url(fuzz_server.url + "/api/v1/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


def _to_real_draft(case: Any, draft_id: str) -> bool:
    """Send half of the cases with a well-formed path id to the real draft; True when this one goes there."""
    current = (case.path_parameters or {}).get("id")
    try:
        chosen = UUID(str(current)).int % 2 == 0
    except ValueError:
        return False
    if chosen:
        case.path_parameters["id"] = draft_id
    return chosen


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_over_rest(case: Any, fuzzer: Person, draft_id: str) -> None:
    operation_id = case.operation.definition.raw["operationId"]
    real = _to_real_draft(case, draft_id)
    checks = list(CHECKS)
    if not real and operation_id not in NOT_ALWAYS_ACCEPTED:
        checks.append(positive_data_acceptance)
    case.call_and_validate(headers={"Authorization": f"Bearer {fuzzer.key}"}, checks=checks)


# ---------------------------------------------------------------- MCP tool calls


def _strategy(input_schema: dict[str, Any]) -> Any:
    """Arguments drawn from a tool's input schema, with schemathesis' generators (through a one-operation document)."""
    body = copy.deepcopy(input_schema)
    defs = body.pop("$defs", {})
    document = {
        "openapi": "3.1.0", "info": {"title": "tool", "version": "1"},
        "paths": {"/call": {"post": {
            "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
            "responses": {"200": {"description": "the tool's result"}},
        }}},
        "components": {"schemas": defs},
    }
    raw = _rewrite_refs(document)
    operation = schemathesis.openapi.from_dict(raw)["/call"]["POST"]
    return operation.as_strategy(generation_mode=schemathesis.GenerationMode.POSITIVE).map(lambda case: case.body)


def _rewrite_refs(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: (v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else _rewrite_refs(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite_refs(v) for v in value]
    return value


def _examples(input_schema: dict[str, Any], count: int) -> list[dict[str, Any]]:
    drawn: list[dict[str, Any]] = []

    @given(_strategy(input_schema))
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    def collect(arguments: dict[str, Any]) -> None:
        drawn.append(arguments)

    collect()
    return drawn


def _poisoned(value: Any, path: str = "") -> tuple[Any, str] | None:
    """`value` with its first string given a NUL, and that string's dotted path; None when it holds no string."""
    if isinstance(value, str):
        return value + "\x00", path
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) if isinstance(value, list) else []
    for key, item in items:
        found = _poisoned(item, f"{path}.{key}" if path else str(key))
        if found is not None:
            copy_ = copy.deepcopy(value)
            copy_[key] = found[0]
            return copy_, found[1]
    return None


@pytest.mark.parametrize("tool", sorted(op.operation_id for op in build_registry()))
async def test_every_tool_over_mcp(fuzz_server: RunningServer, fuzzer: Person, tool: str) -> None:
    """Valid arguments never give an internal error; the same with a NUL in one string give the text rule's 400."""
    op = build_registry().get(tool)
    assert op is not None
    examples = _examples(tool_for(op).input_schema, MCP_EXAMPLES)
    assert examples
    http = httpx2.AsyncClient(headers=fuzzer.headers(), timeout=30)
    async with Client(streamable_http_client(fuzz_server.url + "/mcp", http_client=http), mode="2026-07-28") as c:
        for arguments in examples:
            result = await c.call_tool(tool, arguments)
            if result.is_error:
                problem = result.structured_content or {}
                assert 400 <= int(problem.get("status", 500)) < 500, (arguments, problem)
            poisoned = _poisoned(arguments)
            if poisoned is None:
                continue
            result = await c.call_tool(tool, poisoned[0])
            problem = result.structured_content or {}
            assert result.is_error and problem.get("status") == 400, (poisoned, problem)
            assert [(e["field"], e["rule"]) for e in problem["errors"]] == [(poisoned[1], "control_characters")]
