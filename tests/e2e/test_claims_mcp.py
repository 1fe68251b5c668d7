"""Claims as MCP tools with the official client and an API key: the same answers and problems as REST.

A DNS claim is verified against the local DNS server and the claimant then
edits the listing with update_my_listing over MCP; bounds and someone else's
claim answer as on REST.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.submission_support import Person, person
from tests.fixtures.sites.server import Body, FixtureServer


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


def client(world: ClaimWorld, who: Person) -> Client:
    transport = streamable_http_client(world.server.url + "/mcp",
                                       http_client=httpx2.AsyncClient(headers=who.headers(), timeout=30))
    return Client(transport, mode="auto")


async def call(c: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await c.call_tool(tool, args)
    assert result.is_error is False, result.structured_content
    return result.structured_content  # type: ignore[no-any-return]


async def test_claim_verify_and_edit_over_mcp(world: ClaimWorld) -> None:
    claimant = person(world.server)
    listing_id, slug = live_listing(world, "https://www.mcp-claims.dev/")
    async with client(world, claimant) as c:
        tools = {t.name for t in (await c.list_tools()).tools}
        assert {"claim_listing", "verify_claim", "list_my_claims"} <= tools
        started = await call(c, "claim_listing", {"slug": slug, "method": "dns"})
        record = started["instructions"]["dns"]
        assert started["status"] == "pending" and record["name"] == "_launchdir-challenge.mcp-claims.dev"
        missing = await call(c, "verify_claim", {"claim_id": started["claim_id"]})
        assert (missing["status"], missing["reason"]) == ("pending", "record_not_found")
        world.dns.set_txt(record["name"], record["value"])
        done = await call(c, "verify_claim", {"claim_id": started["claim_id"]})
        assert done["status"] == "verified"
        page = await call(c, "list_my_claims", {})
        assert [(i["claim_id"], i["status"]) for i in page["items"]] == [(started["claim_id"], "verified")]
        edited = await call(c, "update_my_listing", {"listing_id": listing_id, "fields": {"tagline": "Ours now"}})
        assert edited["tagline"] == "Ours now"


async def test_meta_claim_over_mcp(world: ClaimWorld) -> None:
    claimant = person(world.server)
    with FixtureServer() as site:
        _, slug = live_listing(world, site.url("/"))
        async with client(world, claimant) as c:
            started = await call(c, "claim_listing", {"slug": slug, "method": "meta"})
            site.routes["/"] = Body(f"<html><head>{started['instructions']['meta']['tag']}</head></html>".encode())
            assert (await call(c, "verify_claim", {"claim_id": started["claim_id"]}))["status"] == "verified"


async def test_problems_are_the_same_as_on_rest(world: ClaimWorld) -> None:
    claimant = person(world.server)
    stranger = person(world.server)
    _, slug = live_listing(world, "https://www.mcp-problems.dev/")
    async with client(world, claimant) as c:
        off_domain = await c.call_tool("claim_listing", {"slug": slug, "method": "email", "email": "me@gmail.com"})
        unknown = await c.call_tool("claim_listing", {"slug": "no-such-listing-mcp", "method": "dns"})
        zero = await c.call_tool("verify_claim", {"claim_id": 0})
        started = await call(c, "claim_listing", {"slug": slug, "method": "dns"})
    rest = httpx.post(f"{world.server.url}/api/v1/claims", json={"slug": slug, "method": "email", "email": "me@gmail.com"},
                      headers=claimant.headers()).json()
    assert off_domain.is_error is True and off_domain.structured_content == rest
    assert rest["errors"][0]["field"] == "email" and rest["errors"][0]["rule"] == "domain"
    assert unknown.is_error is True and unknown.structured_content["status"] == 404
    assert zero.is_error is True and zero.structured_content["errors"][0]["field"] == "claim_id"
    async with client(world, stranger) as c:
        hidden = await c.call_tool("verify_claim", {"claim_id": started["claim_id"]})
        theirs = await call(c, "list_my_claims", {})
    assert hidden.is_error is True and hidden.structured_content["status"] == 404
    assert theirs["items"] == []
