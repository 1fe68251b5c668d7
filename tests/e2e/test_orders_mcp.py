"""The order operations as MCP tools with the official client: the tool description tells agents to hand the link
to the person and never ask for card details; quote, checkout, list and get answer as REST does, with the same
problems (bad body, someone else's listing or order, a number longer than 32)."""

from __future__ import annotations

from typing import Any

import httpx


from tests.conftest import RunningServer
from tests.e2e.submission_support import person
from tests.e2e.test_my_listings_mcp import call, client
from tests.e2e.test_orders_rest import SCOPES, new_listing


async def test_order_tools_over_mcp_answer_as_rest(live: RunningServer) -> None:
    owner, stranger = person(live, SCOPES), person(live, SCOPES)
    lid = new_listing(live, owner, "Agent Bought")
    body: dict[str, Any] = {"items": [{"product": "launch", "listing_id": lid}], "billing_country": "DE"}
    async with client(live, owner) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        description = tools["create_checkout"].description or ""
        assert "Give the link to the person" in description and "never ask for card" in description
        assert {"quote_order", "create_checkout", "list_my_orders", "get_order"} <= set(tools)
        quote = await call(c, "quote_order", body)
        rest = httpx.post(f"{live.url}/api/v1/orders/quote", json=body, headers=owner.headers(), timeout=15).json()
        assert quote == rest and quote["vat"]["treatment"] == "standard" and quote["vat"]["rate_bp"] == 1900
        placed = await call(c, "create_checkout", body)
        assert placed["status"] == "pending" and placed["checkout_url"].startswith(live.url + "/checkout/")
        assert placed["total_cents"] == quote["total_cents"]
        listed = await call(c, "list_my_orders", {})
        assert [o["number"] for o in listed["items"]] == [placed["number"]]
        got = await call(c, "get_order", {"number": placed["number"]})
        assert got["number"] == placed["number"] and got["invoice_url"] is None
        extra = await c.call_tool("quote_order", {**body, "coupon": "FREE"})
        long = await c.call_tool("get_order", {"number": "X" * 33})
        bad_number = await c.call_tool("quote_order", {**body, "vat_number": "DE136695977"})
    assert extra.is_error is True and extra.structured_content["status"] == 400
    assert long.is_error is True and long.structured_content["errors"][0]["field"] == "number"
    assert bad_number.structured_content["errors"][0]["field"] == "vat_number"
    rest_bad = httpx.post(f"{live.url}/api/v1/orders/quote", json={**body, "vat_number": "DE136695977"},
                          headers=owner.headers(), timeout=15).json()
    assert bad_number.structured_content == rest_bad
    async with client(live, stranger) as c:
        hidden = await c.call_tool("get_order", {"number": placed["number"]})
        foreign = await c.call_tool("quote_order", body)
    assert hidden.is_error is True and hidden.structured_content["status"] == 404
    assert foreign.is_error is True and foreign.structured_content["status"] == 404
