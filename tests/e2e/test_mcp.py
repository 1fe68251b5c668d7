"""MCP over real HTTP with the official client, in both protocol eras, plus raw protocol checks."""

from __future__ import annotations

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from api.ops import build_registry

MODES = ["legacy", "auto", "2026-07-28"]


def client(server, mode: str) -> Client:  # type: ignore[no-untyped-def]
    return Client(streamable_http_client(server.url + "/mcp", http_client=httpx2.AsyncClient(timeout=10)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
async def test_tools_are_the_registry_with_annotations(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with client(server, mode) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == {op.operation_id for op in build_registry()}
    cat = tools["get_category"]
    assert cat.annotations is not None and cat.annotations.read_only_hint is True
    assert cat.input_schema["properties"]["per_page"]["maximum"] == 100
    assert cat.input_schema["required"] == ["slug"]
    hints = {name: (t.annotations.read_only_hint, t.annotations.idempotent_hint)  # type: ignore[union-attr]
             for name, t in tools.items()}
    # a POST that takes an Idempotency-Key is not idempotent: called twice without one, it does the work twice
    assert hints["post_listing_update"] == hints["add_milestone"] == hints["create_checkout"] == (False, False)
    assert hints["quote_order"] == (True, True)  # computes a price, saves nothing
    assert hints["get_category"] == (True, True) and hints["delete_milestone"] == (False, True)
    update = tools["post_listing_update"].description or ""
    assert "`listings:write` scope" in update and "idempotency_key" in update
    assert "scope" not in (cat.description or "")  # public: no credentials needed


@pytest.mark.parametrize("mode", MODES)
async def test_calls_return_structured_content_and_text(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with client(server, mode) as c:
        result = await c.call_tool("get_site_info", {})
        category = await c.call_tool("get_category", {"slug": "ai-assistants"})
    assert result.is_error is False
    assert result.structured_content["name"] == "launchdir"
    assert '"name":"launchdir"' in result.content[0].text
    assert category.structured_content["parent"]["slug"] == "ai"


@pytest.mark.parametrize("mode", MODES)
async def test_bad_arguments_are_tool_errors_with_the_same_problem(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with client(server, mode) as c:
        bad = await c.call_tool("get_category", {"slug": "ai", "per_page": 500})
        missing = await c.call_tool("get_category", {"slug": "no-such-category"})
        extra = await c.call_tool("list_products", {"colour": "red"})
    rest = httpx.get(server.url + "/api/v1/categories/ai", params={"per_page": 500}).json()
    assert bad.is_error is True and bad.structured_content == rest
    assert bad.structured_content["errors"][0]["field"] == "per_page"
    assert missing.is_error is True and missing.structured_content["status"] == 404
    assert extra.is_error is True and extra.structured_content["errors"][0]["rule"] == "unknown_field"


def _post(server, body: dict, **headers: str) -> httpx.Response:  # type: ignore[no-untyped-def]
    base = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    return httpx.post(server.url + "/mcp", json=body, headers={**base, **headers}, timeout=10)


def _init(version: str) -> dict:  # type: ignore[type-arg]
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


@pytest.mark.parametrize("version", ["2025-03-26", "2025-06-18", "2025-11-25"])
def test_handshake_versions_are_accepted_as_offered(server, version: str) -> None:  # type: ignore[no-untyped-def]
    r = _post(server, _init(version))
    assert r.status_code == 200 and r.json()["result"]["protocolVersion"] == version


def test_an_older_offer_is_answered_with_our_newest_handshake_version(server) -> None:  # type: ignore[no-untyped-def]
    r = _post(server, _init("2024-11-05"))
    assert r.status_code == 200 and r.json()["result"]["protocolVersion"] == "2025-11-25"


@pytest.mark.parametrize("version", ["2024-11-05", "2099-01-01"])
def test_unsupported_version_headers_are_refused(server, version: str) -> None:  # type: ignore[no-untyped-def]
    body = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    r = _post(server, body, **{"mcp-protocol-version": version})
    assert r.status_code == 400
    assert r.json()["error"]["code"] in (-32022, -32600)


def test_foreign_origins_are_refused(server) -> None:  # type: ignore[no-untyped-def]
    r = _post(server, _init("2025-11-25"), origin="https://evil.example")
    assert r.status_code == 403
    r = _post(server, _init("2025-11-25"), host="evil.example")
    assert r.status_code in (403, 421)
