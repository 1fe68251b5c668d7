"""An AI agent's walk through the service with the official MCP client, against a served process and local product
sites: discover the tools, read the directory, launch two products (one free, one up to the checkout link), manage
a listing and read its version history, and trip over bad input on the way.

What it holds the service to (docs/api.md, "Agents' walk, 2026-12-04"): descriptions read as prose and say what
to call next, the server's instructions give the founder's path, submit_draft answers `next_step`, the version
history is an operation of its own (REST and MCP alike, paged), and a 404 names the field whose value found
nothing (rule `exists`), down to the order line.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import RunningServer
from tests.e2e.submission_support import Person, person
from tests.e2e.test_orders_rest import new_listing
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import FixtureServer

EVERY_SCOPE = ("account:read", "listings:write", "orders:write")
UNKNOWN_DRAFT = "0b0e4c1e-0d3c-4a5e-9a44-2b3f0d3c1a11"


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[FixtureServer, FixtureServer]]:
    with serve("devtool") as devtool, serve("studio") as studio:
        yield devtool, studio


def agent(live: RunningServer, who: Person | None) -> Client:
    headers = who.headers() if who else {}
    transport = streamable_http_client(live.url + "/mcp", http_client=httpx2.AsyncClient(headers=headers, timeout=30))
    return Client(transport, mode="auto")


async def call(c: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await c.call_tool(tool, args)
    assert result.is_error is False, (tool, result.structured_content)
    assert result.structured_content == json.loads(getattr(result.content[0], "text")), tool  # one JSON
    return result.structured_content  # type: ignore[no-any-return]


async def problem(c: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await c.call_tool(tool, args)
    assert result.is_error is True, (tool, result.structured_content)
    return result.structured_content  # type: ignore[no-any-return]


def fields_of(p: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["field"], e["rule"]) for e in p.get("errors") or []]


async def ready_draft(c: Client, url: str) -> dict[str, Any]:
    draft = await call(c, "submit_listing", {"url": url})
    assert draft["status"] == "crawling" and draft["id"]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while draft["status"] in ("crawling", "drafting"):
        assert loop.time() < deadline, draft["status"]
        await asyncio.sleep(0.2)
        draft = await call(c, "get_draft", {"id": draft["id"]})
    assert draft["status"] == "ready", draft.get("failure")
    return draft


async def test_discovery_tells_an_agent_what_each_tool_does_and_what_comes_next(live: RunningServer) -> None:
    async with agent(live, None) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        instructions = c.instructions or ""
        site = await call(c, "get_site_info", {})
    assert site["links"]["mcp"] == live.url + "/mcp"
    for name, tool in tools.items():
        text = tool.description or ""
        # an indented line is a code block in Markdown: descriptions are prose, not the source's indentation
        assert not [line for line in text.splitlines() if line.startswith("    ")], name
    for step in ("submit_listing", "get_draft", "submit_draft", "choose_free_listing", "create_checkout",
                 "checkout_url", "get_my_listing_history"):
        assert step in instructions, step
    submit_draft = tools["submit_draft"].description or ""
    assert "choose_free_listing" in submit_draft and "create_checkout" in submit_draft and "next_step" in submit_draft
    assert "create_checkout" in (tools["quote_order"].description or "")
    assert "failed" in (tools["get_draft"].description or "")
    assert "quote_order" in (tools["list_products"].description or "")
    history = tools["get_my_listing_history"]
    assert history.input_schema["required"] == ["listing_id"]
    assert history.input_schema["properties"]["per_page"]["maximum"] == 100
    assert history.annotations is not None and history.annotations.read_only_hint is True
    assert "`account:read` scope" in (history.description or "")
    document = httpx.get(live.url + "/api/v1/openapi.json", timeout=15).json()
    operation = document["paths"]["/me/listings/{listing_id}/history"]["get"]
    assert operation["operationId"] == "get_my_listing_history" and "404" in operation["responses"]
    assert operation["description"] == history.description.split("\n\nNeeds the")[0]  # type: ignore[union-attr]
    assert not any(line.startswith("    ") for path in document["paths"].values() for op in path.values()
                   for line in op["description"].splitlines())


async def test_the_founders_loop_over_mcp(live: RunningServer, sites: tuple[FixtureServer, FixtureServer]) -> None:
    devtool, studio = sites
    founder = person(live, EVERY_SCOPE)
    async with agent(live, founder) as c:
        # read the directory as a visitor would
        categories = await call(c, "list_categories", {})
        assert categories["items"] and all("slug" in item for item in categories["items"])
        week = await call(c, "get_launch_week", {"week": "this"})
        assert week["next_week"] and week["previous_week"]
        board = await call(c, "get_leaderboard", {"board": "billboard"})
        assert board["paid"] is True
        products = {p["code"]: p for p in (await call(c, "list_products", {}))["items"]}
        assert products["launch"]["needs_listing"] is True and products["launch"]["price_cents"] > 0

        # the free launch: submit, read the evidence, edit, save, choose the free plan
        draft = await ready_draft(c, devtool.url("/"))
        assert draft["fields"]["name"]["evidence"] and draft["fields"]["name"]["state"] == "ai"
        assert set(draft["not_found_on_website"]) <= set(draft["fields"])
        edited = await call(c, "update_draft", {"id": draft["id"], "fields": {"stage": "beta"}})
        assert edited["fields"]["stage"]["state"] in ("edited", "manual")
        saved = await call(c, "submit_draft", {"id": draft["id"]})
        listing_id = saved["listing_id"]
        assert saved["created"] is True and "choose_free_listing" in saved["next_step"]
        mine = await call(c, "get_my_listing", {"listing_id": listing_id})
        assert mine["status"] == "draft" and mine["next_step"] == saved["next_step"]
        free = await call(c, "choose_free_listing", {"listing_id": listing_id})
        assert free["status"] == "awaiting_badge" and free["badges"][0]["embed_html"].startswith("<a ")
        assert "check_my_badge" in free["next_step"]

        # the paid launch, up to the checkout link
        paid_draft = await ready_draft(c, studio.url("/"))
        if not paid_draft["fields"]["categories"]["value"]:  # the site names none: the founder picks one
            await call(c, "update_draft", {"id": paid_draft["id"], "fields": {"categories": ["productivity"]}})
        paid_id = (await call(c, "submit_draft", {"id": paid_draft["id"]}))["listing_id"]
        order = {"items": [{"product": "launch", "listing_id": paid_id}], "billing_country": "DE"}
        quote = await call(c, "quote_order", order)
        placed = await call(c, "create_checkout", order)
        assert placed["status"] == "pending" and placed["total_cents"] == quote["total_cents"]
        assert placed["checkout_url"].startswith(live.url + "/checkout/")
        assert (await call(c, "get_order", {"number": placed["number"]}))["checkout_url"] == placed["checkout_url"]

        # manage the free listing, then read its history: newest first, each change before and after
        await call(c, "update_my_listing", {"listing_id": listing_id, "fields": {"tagline": "Only the tests that matter"}})
        await call(c, "post_listing_update", {"listing_id": listing_id, "title": "Beta", "body": "Open beta today."})
        history = await call(c, "get_my_listing_history", {"listing_id": listing_id, "per_page": 2})
        newest, edit = history["items"]
        assert (newest["kind"], newest["channel"]) == ("update", "mcp")
        assert edit["kind"] == "edited" and edit["changes"]["tagline"]["after"] == "Only the tests that matter"
        assert edit["actor_email"] == founder.email and newest["number"] == edit["number"] + 1
        assert history["listing_id"] == listing_id and history["has_more"] is True and history["total"] >= 3
        older = await call(c, "get_my_listing_history", {"listing_id": listing_id, "per_page": 2, "page": 2})
        assert older["items"] and {v["number"] for v in older["items"]}.isdisjoint({newest["number"], edit["number"]})
        assert history["items"][-1]["number"] > older["items"][0]["number"]
    rest = httpx.get(f"{live.url}/api/v1/me/listings/{listing_id}/history", params={"per_page": 2},
                     headers=founder.headers(), timeout=15)
    assert rest.status_code == 200 and rest.json() == history


async def test_bad_input_names_the_field_and_the_rule(live: RunningServer) -> None:
    owner, stranger = person(live, EVERY_SCOPE), person(live, EVERY_SCOPE)
    listing_id, own_id = new_listing(live, owner, "Walked"), new_listing(live, stranger, "Strangers")
    async with agent(live, owner) as c:
        missing = await problem(c, "submit_listing", {})
        unknown_draft = await problem(c, "get_draft", {"id": UNKNOWN_DRAFT})
        unknown_listing = await problem(c, "get_my_listing", {"listing_id": 2_000_000})
        no_milestone = await problem(c, "delete_milestone", {"listing_id": listing_id, "milestone_id": 999})
        not_live = await problem(c, "compare_listings", {"a": "no-such-a", "b": "no-such-b"})
        no_history = await problem(c, "get_my_listing_history", {"listing_id": 2_000_000})
        bad_page = await problem(c, "get_my_listing_history", {"listing_id": listing_id, "per_page": 101})
    assert missing["status"] == 400 and fields_of(missing) == [("url", "required")]
    assert unknown_draft["status"] == 404 and fields_of(unknown_draft) == [("id", "exists")]
    assert fields_of(unknown_listing) == [("listing_id", "exists")]
    assert no_milestone["status"] == 404 and fields_of(no_milestone) == [("milestone_id", "exists")]
    assert fields_of(not_live) == [("a", "exists"), ("b", "exists")]
    assert {e["message"] for e in not_live["errors"]} == {"no live listing with slug 'no-such-a'",
                                                         "no live listing with slug 'no-such-b'"}
    assert no_history["status"] == 404 and fields_of(no_history) == [("listing_id", "exists")]
    assert fields_of(bad_page) == [("per_page", "maximum")]

    async with agent(live, stranger) as c:
        theirs = await problem(c, "get_my_listing_history", {"listing_id": listing_id})
        order = {"items": [{"product": "launch", "listing_id": own_id}, {"product": "launch", "listing_id": listing_id}]}
        foreign_line = await problem(c, "quote_order", order)
        edit_theirs = await problem(c, "update_my_listing", {"listing_id": listing_id, "fields": {"tagline": "mine"}})
    assert theirs["status"] == 404 and fields_of(theirs) == [("listing_id", "exists")]  # never says it exists
    assert foreign_line["status"] == 404 and fields_of(foreign_line) == [("items.1.listing_id", "exists")]
    assert edit_theirs["status"] == 404 and fields_of(edit_theirs) == [("listing_id", "exists")]
    rest = httpx.post(f"{live.url}/api/v1/orders/quote", json=order, headers=stranger.headers(), timeout=15)
    assert rest.status_code == 404 and rest.json() == foreign_line  # one definition: the same problem on REST

    reader = person(live, ("account:read",))
    async with agent(live, reader) as c:
        readable = await call(c, "get_account", {})
        too_few = await problem(c, "update_my_listing", {"listing_id": listing_id, "fields": {"tagline": "x"}})
    assert readable["scopes"] == ["account:read"]
    assert too_few["status"] == 403 and "listings:write" in too_few["detail"]
    signed_out = httpx.post(live.url + "/mcp", timeout=15, headers={"accept": "application/json, text/event-stream"},
                            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                  "params": {"name": "get_my_listing_history", "arguments": {"listing_id": listing_id}}})
    assert signed_out.status_code == 401 and 'scope="account:read"' in signed_out.headers["www-authenticate"]
