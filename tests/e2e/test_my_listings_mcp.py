"""The owner's listing operations as MCP tools with the official client and an API key: the same answers and
problems as REST, for a listing saved from a drafted fixture site."""

from __future__ import annotations

import json
from typing import Any

import httpx
import httpx2
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import RunningServer
from tests.e2e.submission_support import Person, person, saved_listing


def client(live: RunningServer, who: Person) -> Client:
    return Client(streamable_http_client(live.url + "/mcp", http_client=httpx2.AsyncClient(headers=who.headers(), timeout=15)),
                  mode="auto")


async def call(c: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await c.call_tool(tool, args)
    assert result.is_error is False, result.structured_content
    assert result.structured_content == json.loads(result.content[0].text), tool  # one JSON: times read alike
    return result.structured_content  # type: ignore[no-any-return]


async def test_every_owner_tool_over_mcp(live: RunningServer) -> None:
    who = person(live)
    with httpx.Client(base_url=live.url + "/api/v1", timeout=15) as http:
        listing_id = saved_listing(http, who, "devtool")
    async with client(live, who) as c:
        page = await call(c, "list_my_listings", {})
        assert [i["listing_id"] for i in page["items"]] == [listing_id]
        edited = await call(c, "update_my_listing", {"listing_id": listing_id,
                                                     "fields": {"tagline": "Ship from the terminal", "keywords": ["cli"]}})
        assert edited["tagline"] == "Ship from the terminal" and edited["keywords"] == ["cli"]
        got = await call(c, "get_my_listing", {"listing_id": listing_id})
        assert got["tagline"] == "Ship from the terminal" and got["status"] == "draft"
        posted = await call(c, "post_listing_update", {"listing_id": listing_id, "title": "Beta", "body": "Open beta."})
        assert posted["update"]["title"] == "Beta" and "+00:00" in str(posted["update"])  # a time, as REST writes it
        added = await call(c, "add_milestone", {"listing_id": listing_id, "date": "2025-06-01", "title": "Open beta"})
        milestone_id = added["milestone"]["milestone_id"]
        story = await call(c, "set_founder_story", {"listing_id": listing_id, "problem": "Deploys were slow."})
        assert story["story"] == {"problem": "Deploys were slow."}
        deleted = await call(c, "delete_milestone", {"listing_id": listing_id, "milestone_id": milestone_id})
        assert deleted["deleted"] is True
        bad = await c.call_tool("update_my_listing", {"listing_id": listing_id, "fields": {"tagline": "x" * 201}})
        zero = await c.call_tool("get_my_listing", {"listing_id": 0})
    rest = httpx.patch(f"{live.url}/api/v1/me/listings/{listing_id}", json={"fields": {"tagline": "x" * 201}},
                       headers=who.headers()).json()
    assert bad.is_error is True and bad.structured_content == rest
    assert zero.is_error is True and zero.structured_content["errors"][0]["field"] == "listing_id"
    stranger = person(live)
    async with client(live, stranger) as c:
        hidden = await c.call_tool("get_my_listing", {"listing_id": listing_id})
        edit = await c.call_tool("update_my_listing", {"listing_id": listing_id, "fields": {"tagline": "mine"}})
    assert hidden.is_error is True and hidden.structured_content["status"] == 404
    assert edit.is_error is True and edit.structured_content["status"] == 404


async def test_one_idempotency_key_is_one_request_through_rest_and_mcp(live: RunningServer) -> None:
    """The path's `listing_id` is text over REST and a number over MCP: the key still replays, not a 409."""
    who = person(live)
    with httpx.Client(base_url=live.url + "/api/v1", timeout=15) as http:
        listing_id = saved_listing(http, who, "devtool")
        body = {"title": "Beta", "body": "Open beta."}
        first = http.post(f"/me/listings/{listing_id}/updates", json=body,
                          headers={**who.headers(), "Idempotency-Key": "one-request-two-doors"})
        assert first.status_code == 201, first.text
    async with client(live, who) as c:
        again = await c.call_tool("post_listing_update", {"listing_id": listing_id, **body},
                                  meta={"idempotency_key": "one-request-two-doors"})  # type: ignore[arg-type]
        other = await c.call_tool("post_listing_update", {"listing_id": listing_id, **body, "title": "Gamma"},
                                  meta={"idempotency_key": "one-request-two-doors"})  # type: ignore[arg-type]
    assert again.is_error is False and again.structured_content == first.json()  # the first answer, replayed
    assert other.is_error is True and other.structured_content["status"] == 409  # a different request: refused
