"""The submission flow over MCP with the official client (both protocol eras) and an API key: submit a fixture
website, poll get_draft until ready, edit, save as a listing, resubmit the same listing; the same problems as REST."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import RunningServer
from tests.e2e.submission_support import Person, person
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import FixtureServer

MODES = ["legacy", "auto", "2026-07-28"]


@pytest.fixture(scope="module")
def site() -> Iterator[FixtureServer]:
    with serve("devtool") as server:
        yield server


def client(live: RunningServer, mode: str, who: Person | None) -> Client:
    headers = who.headers() if who else {}
    return Client(streamable_http_client(live.url + "/mcp", http_client=httpx2.AsyncClient(headers=headers, timeout=15)),
                  mode=mode)


async def call(c: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await c.call_tool(tool, args)
    assert result.is_error is False, result.structured_content
    return result.structured_content  # type: ignore[no-any-return]


async def poll(c: Client, draft_id: str, until: Any, timeout: float = 30) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        draft = await call(c, "get_draft", {"id": draft_id})
        if until(draft):
            return draft
        assert loop.time() < deadline, draft["status"]
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("mode", MODES)
async def test_the_whole_flow_over_mcp(live: RunningServer, site: FixtureServer, mode: str) -> None:
    who = person(live)
    async with client(live, mode, who) as c:
        draft = await call(c, "submit_listing", {"url": site.url("/")})
        assert (draft["status"], draft["existing"]) == ("crawling", False)
        draft = await poll(c, draft["id"], lambda d: d["status"] == "ready")
        draft_id = draft["id"]
        assert draft["fields"]["name"]["state"] == "ai" and draft["fields"]["name"]["evidence"]
        assert (await call(c, "submit_listing", {"url": site.url("/")}))["existing"] is True

        d = await call(c, "update_draft", {"id": draft_id, "fields": {"name": "Renamed", "stage": "beta"}})
        assert d["fields"]["name"]["state"] == "edited"
        assert d["fields"]["stage"]["state"] in ("edited", "manual")
        d = await call(c, "update_draft", {"id": draft_id, "fields": {"tagline": None}, "lock_fields": ["keywords"]})
        assert d["fields"]["tagline"]["state"] == "deleted" and d["fields"]["keywords"]["state"] == "override"
        d = await call(c, "update_draft", {"id": draft_id, "restore": ["name", "tagline"]})
        assert d["fields"]["name"]["state"] == "ai" and d["fields"]["tagline"]["state"] in ("ai", "not_found")
        await call(c, "update_draft", {"id": draft_id, "regenerate": ["features", "keywords"]})
        d = await poll(c, draft_id, lambda x: not x["regenerating"])
        assert d["last_regeneration"]["skipped"] == ["keywords"] and d["fields"]["keywords"]["state"] == "override"

        listed = await call(c, "submit_draft", {"id": draft_id})
        listing_id = listed["listing_id"]
        assert isinstance(listing_id, int) and listed["created"] is True
        await call(c, "update_draft", {"id": draft_id, "fields": {"city": "Berlin"}})
        again = await call(c, "submit_draft", {"id": draft_id})
        assert (again["listing_id"], again["created"]) == (listing_id, False)
        page = await call(c, "list_my_drafts", {"per_page": 5})
        assert page["total"] == 1 and page["items"][0]["listing_id"] == listing_id


@pytest.mark.parametrize("mode", ["auto"])
async def test_problems_are_the_same_as_rest(live: RunningServer, site: FixtureServer, mode: str) -> None:
    who = person(live)
    async with client(live, mode, who) as c:
        bad = await c.call_tool("update_draft", {"id": "0b0e4c1e-0d3c-4a5e-9a44-2b3f0d3c1a11",
                                                 "fields": {"name": "x" * 501}})
        private = await c.call_tool("submit_listing", {"url": "http://10.0.0.1/"})
        extra = await c.call_tool("submit_listing", {"url": site.url("/"), "name": "Acme"})
        missing = await c.call_tool("get_draft", {"id": "0b0e4c1e-0d3c-4a5e-9a44-2b3f0d3c1a11"})
    rest = httpx.patch(live.url + "/api/v1/drafts/0b0e4c1e-0d3c-4a5e-9a44-2b3f0d3c1a11",
                       json={"fields": {"name": "x" * 501}}, headers=who.headers()).json()
    assert bad.is_error is True and bad.structured_content == rest
    assert bad.structured_content["errors"][0]["field"] == "fields.name"
    assert private.is_error is True and private.structured_content["errors"][0]["field"] == "url"
    assert private.structured_content["errors"][0]["rule"] == "private_address"
    assert extra.is_error is True and extra.structured_content["errors"][0]["rule"] == "unknown_field"
    assert missing.is_error is True and missing.structured_content["status"] == 404
    # without credentials a protected tool is an HTTP 401 with the challenge, so MCP clients sign in (docs/oauth.md)
    refused = httpx.post(live.url + "/mcp", timeout=15, headers={"accept": "application/json, text/event-stream"}, json={
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "submit_listing", "arguments": {"url": site.url("/")}}})
    assert refused.status_code == 401 and refused.json()["status"] == 401
    assert 'scope="listings:write"' in refused.headers["www-authenticate"]
