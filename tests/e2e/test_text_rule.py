"""The one text rule at every API door: NUL, the other C0 controls (tab, newline and carriage return excepted)
and lone surrogates in any path, query or body input are a 400 naming the field and `control_characters`,
on REST and on MCP (both protocol eras) alike; `GET /mcp` is a prompt 405 instead of an idle stream."""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx
import httpx2
import orjson
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from events.text import RULE
from tests.conftest import RunningServer
from tests.e2e.submission_support import Person, person
from tests.fixtures.drafting_sites import serve

API = "/api/v1"
MODES = ["legacy", "2026-07-28"]
REFUSED = [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"]
KEPT = ["\t", "\n", "\r"]


@pytest.fixture(scope="module")
def who(live: RunningServer) -> Person:
    return person(live)


@pytest.fixture(scope="module")
def draft_id(live: RunningServer, who: Person) -> str:
    """A ready draft of the fixture site `saas`, owned by `who`."""
    with serve("saas") as site:
        r = httpx.post(live.url + API + "/drafts", json={"url": site.url("/")}, headers=who.headers(), timeout=15)
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 60
        while True:
            d = httpx.get(live.url + API + f"/drafts/{r.json()['id']}", headers=who.headers(), timeout=15).json()
            if d["status"] in ("ready", "failed"):
                break
            assert time.monotonic() < deadline, d["status"]
            time.sleep(0.1)
    assert d["status"] == "ready", d
    return str(d["id"])


def ik() -> dict[str, str]:
    return {"Idempotency-Key": "text-" + uuid.uuid4().hex}


def refused(r: httpx.Response) -> list[tuple[str, str]]:
    """The (field, rule) pairs of a 400 problem."""
    assert r.status_code == 400, (r.status_code, r.text)
    assert r.headers["content-type"] == "application/problem+json"
    body = r.json()
    assert body["type"] == "/problems/validation-error"
    return [(e["field"], e["rule"]) for e in body["errors"]]


def mcp(live: RunningServer, mode: str, who: Person | None = None) -> Client:
    headers = who.headers() if who else {}
    return Client(streamable_http_client(live.url + "/mcp", http_client=httpx2.AsyncClient(headers=headers, timeout=15)),
                  mode=mode)


# ---------------------------------------------------------------- REST: query, path, body


@pytest.mark.parametrize("name", ["domain", "q"])
@pytest.mark.parametrize("char", ["\x00", "\x1f", "\x01", "\x0b"])
def test_search_query_parameters_refuse_control_characters(live: RunningServer, name: str, char: str) -> None:
    r = httpx.get(live.url + API + "/listings", params={name: f"a{char}b"}, timeout=15)
    assert refused(r) == [(name, RULE)]


def test_a_nul_domain_is_a_400_not_a_500(live: RunningServer) -> None:
    r = httpx.get(live.url + API + "/listings?domain=%00", timeout=15)
    assert refused(r) == [("domain", RULE)]
    r = httpx.get(live.url + API + "/listings?q=%1F&domain=ok.example", timeout=15)
    assert refused(r) == [("q", RULE)]


def test_path_parameters_refuse_control_characters(live: RunningServer, who: Person) -> None:
    assert refused(httpx.get(live.url + API + "/listings/%00", timeout=15)) == [("slug", RULE)]
    assert refused(httpx.get(live.url + API + "/launches/weeks/this%01", timeout=15)) == [("week", RULE)]
    assert refused(httpx.get(live.url + API + "/drafts/%1F", headers=who.headers(), timeout=15)) == [("id", RULE)]


def test_every_c0_control_but_tab_newline_and_cr_is_refused_in_update_draft(
        live: RunningServer, who: Person, draft_id: str) -> None:
    url = live.url + API + f"/drafts/{draft_id}"
    for char in REFUSED:
        r = httpx.patch(url, json={"fields": {"name": f"a{char}b"}}, headers=who.headers(**ik()), timeout=15)
        assert refused(r) == [("fields.name", RULE)], repr(char)
    for char in KEPT:
        value = f"line one{char}line two"
        r = httpx.patch(url, json={"fields": {"description": value}}, headers=who.headers(**ik()), timeout=15)
        assert r.status_code == 200, (repr(char), r.text)
        assert r.json()["fields"]["description"]["value"] == value
    assert httpx.get(live.url + API + "/listings", params={"q": "a\tb\nc"}, timeout=15).status_code == 200


def test_nested_fields_and_keys_are_named_by_their_dotted_path(live: RunningServer, who: Person, draft_id: str) -> None:
    url = live.url + API + f"/drafts/{draft_id}"
    body: dict[str, Any] = {
        "faqs": [{"question": "Fine?", "answer": "Yes."}, {"question": "Bell\x07?", "answer": "No."}],
        "founders": [{"name": "Ana", "bio": "x\x00y"}],
        "story": {"title": "ok", "story": "\x1b[31mred"},
    }
    r = httpx.patch(url, json=body, headers=who.headers(**ik()), timeout=15)
    assert sorted(refused(r)) == [("faqs.1.question", RULE), ("founders.0.bio", RULE), ("story.story", RULE)]
    r = httpx.patch(url, json={"fields": {"na\x00me": "x"}}, headers=who.headers(**ik()), timeout=15)
    assert refused(r) == [("fields.na\ufffdme", RULE)]
    name = httpx.get(url, headers=who.headers(), timeout=15).json()["fields"]["name"]["value"]
    assert "\x00" not in name and "\x07" not in name


def test_invite_with_a_nul_in_the_email_is_a_400_not_a_500(live: RunningServer, who: Person, draft_id: str) -> None:
    url = live.url + API + f"/drafts/{draft_id}/invites"
    r = httpx.post(url, json={"email": "a\x00@example.org"}, headers=who.headers(**ik()), timeout=15)
    assert refused(r) == [("email", RULE)]
    r = httpx.get(live.url + API + f"/drafts/{draft_id}", headers=who.headers(), timeout=15)
    assert r.status_code == 200 and r.json()["invites"] == []


def test_submit_listing_refuses_a_control_character_in_the_url(live: RunningServer, who: Person) -> None:
    for url in ("https://exa\x00mple.com/", "https://example.com/\x1f"):
        r = httpx.post(live.url + API + "/drafts", json={"url": url}, headers=who.headers(**ik()), timeout=15)
        assert refused(r) == [("url", RULE)]


def test_a_lone_surrogate_never_reaches_a_handler(live: RunningServer, who: Person) -> None:
    # REST bodies are parsed strictly: a lone surrogate escape is not JSON we accept
    body = b'{"url": "https://example.com/\\ud800"}'
    r = httpx.post(live.url + API + "/drafts", content=body, timeout=15,
                   headers=who.headers(**{"content-type": "application/json"}))
    assert refused(r) == [("body", "json")]
    # the 2026-07-28 MCP era parses leniently, so the surrogate reaches the executor and the text rule
    request = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
               "params": {"name": "search_listings", "arguments": {"q": "PLACEHOLDER"},
                          "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                    "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                                    "io.modelcontextprotocol/clientCapabilities": {}}}}
    raw = orjson.dumps(request).replace(b'"PLACEHOLDER"', b'"a\\ud800b"')
    r = httpx.post(live.url + "/mcp", content=raw, timeout=15, headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_listings"})
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["status"] == 400
    assert [(e["field"], e["rule"]) for e in result["structuredContent"]["errors"]] == [("q", RULE)]


# ---------------------------------------------------------------- MCP: the same problem as REST


@pytest.mark.parametrize("mode", MODES)
async def test_mcp_tool_calls_answer_the_same_problem_as_rest(live: RunningServer, who: Person, draft_id: str,
                                                              mode: str) -> None:
    async with mcp(live, mode, who) as c:
        search = await c.call_tool("search_listings", {"domain": "\x00"})
        update = await c.call_tool("update_draft", {"id": draft_id, "fields": {"name": "a\x00b"}})
        invite = await c.call_tool("invite_cofounder", {"id": draft_id, "email": "a\x00@example.org"})
        submit = await c.call_tool("submit_listing", {"url": "https://exa\x1fmple.com/"})
        kept = await c.call_tool("search_listings", {"q": "tab\there"})
    rest = httpx.get(live.url + API + "/listings?domain=%00", timeout=15).json()
    assert search.is_error is True and search.structured_content == rest
    for result, field in ((update, "fields.name"), (invite, "email"), (submit, "url")):
        assert result.is_error is True
        problem = result.structured_content
        assert problem is not None and problem["status"] == 400
        assert [(e["field"], e["rule"]) for e in problem["errors"]] == [(field, RULE)]
        assert orjson.loads(result.content[0].text) == problem  # type: ignore[union-attr]
    assert kept.is_error is False


# ---------------------------------------------------------------- GET /mcp


def test_get_mcp_is_a_prompt_405_allowing_post_only(live: RunningServer) -> None:
    for method in ("GET", "DELETE"):
        r = httpx.request(method, live.url + "/mcp", headers={"accept": "text/event-stream"}, timeout=10)
        assert r.status_code == 405, (method, r.text)
        assert r.headers["allow"] == "POST"
        assert r.json()["status"] == 405


async def test_the_mcp_app_itself_answers_405_to_get(live: RunningServer) -> None:
    """Whatever route it is mounted on, the MCP app never opens an idle stream (its manager is not even running)."""
    from api.mcp_server import VersionGuard, build_mcp_server, session_manager

    guard = VersionGuard(session_manager(build_mcp_server(live.container.executor), ["127.0.0.1:*"], []))
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    await guard({"type": "http", "method": "GET", "path": "/mcp", "headers": []}, receive, send)
    assert sent[0]["status"] == 405 and (b"allow", b"POST") in sent[0]["headers"]
    assert orjson.loads(sent[1]["body"])["error"]["code"] == -32600
