"""Over the real server: answer_interview on REST and MCP (200, 400 naming the item, 401, 403), and a listing update
that reaches a follower through the outbox and a local SMTP server, whose unsubscribe link works without signing in
(over HTTP, and in headless Chromium)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from aggregates.base import Meta
from commands import community
from commands import listing as listing_cmd
from commands import updates as updates_cmd
from queries import mail as mail_q
from queries import updates as updates_q
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.e2e.submission_support import Person, ik, person
from tests.integration.test_accounts_mail import LocalSmtp

API = "/api/v1"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
LINK = re.compile(r"(http://127\.0\.0\.1:\d+/unsubscribe/\S+)")


@pytest.fixture(scope="module")
def site(databases: Databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:
    """launchdir whose outbox goes out over SMTP to a local aiosmtpd; rate limits off."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    with LocalSmtp() as smtp:
        port = free_port()
        c = bootstrap(settings_for(databases.create(), port=port, smtp_url=smtp.url, rate_limits=False))
        ensure_catalog(c)
        with RunningServer(c, port) as running:
            yield running, smtp
        c.close()


@pytest.fixture(scope="module")
def live(site: tuple[RunningServer, LocalSmtp]) -> RunningServer:
    return site[0]


def _meta(actor: str = "staff:test") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=actor, channel="cli")


def _problem(r: httpx.Response, status: int = 400) -> tuple[str | None, str | None]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    errors = r.json().get("errors") or [{"field": None, "rule": None}]
    return errors[0]["field"], errors[0]["rule"]


# ---------------------------------------------------------------- answer_interview


def test_answer_interview_over_rest(live: RunningServer) -> None:
    who = person(live)
    with httpx.Client(base_url=live.url + API, timeout=15) as http:
        body = {"answers": [{"question_id": 6, "answer": " Python and PostgreSQL. "}, {"question_id": 1, "answer": "A diary."}]}
        key = ik()
        r = http.put("/me/interview", json=body, headers=who.headers(**key))
        assert r.status_code == 200, r.text
        doc = r.json()
        assert [(i["question_id"], i["answer"]) for i in doc["items"]] == [(1, "A diary."), (6, "Python and PostgreSQL.")]
        assert doc["items"][1]["question"] == "What is your tech stack, and why?" and doc["shown_publicly"] is False
        assert http.put("/me/interview", json=body, headers=who.headers(**key)).json() == doc  # the same key replays

        r = http.put("/me/interview", json={"answers": [{"question_id": 6, "answer": ""}]}, headers=who.headers(**ik()))
        assert [i["question_id"] for i in r.json()["items"]] == [1]

        unknown = {"answers": [{"question_id": 1, "answer": "x"}, {"question_id": 4242, "answer": "y"}]}
        assert _problem(http.put("/me/interview", json=unknown, headers=who.headers())) == ("answers.1.question_id", "enum")
        twice = {"answers": [{"question_id": 2, "answer": "x"}, {"question_id": 2, "answer": "y"}]}
        assert _problem(http.put("/me/interview", json=twice, headers=who.headers())) == ("answers.1.question_id", "unique")
        for bad, expected in [
            ({"answers": [{"question_id": 0, "answer": "x"}]}, ("answers.0.question_id", "minimum")),
            ({"answers": [{"question_id": 1, "answer": "x" * 4001}]}, ("answers.0.answer", "max_length")),
            ({"answers": [{"question_id": 1, "answer": "x", "note": "y"}]}, ("answers.0.note", "unknown_field")),
            ({"answers": [{"question_id": 1, "answer": "x"}] * 31}, ("answers", "max_items")),
            ({"answers": [{"answer": "x"}]}, ("answers.0.question_id", "required")),
            ({}, ("answers", "required")),
            ({"answers": [], "extra": 1}, ("extra", "unknown_field")),
        ]:
            assert _problem(http.put("/me/interview", json=bad, headers=who.headers())) == expected, bad
        assert [i["question_id"] for i in http.put("/me/interview", json={"answers": []},
                                                   headers=who.headers()).json()["items"]] == [1]

        assert _problem(http.put("/me/interview", json=body), 401) == (None, None)
        reader = person(live, scopes=("account:read",))
        assert _problem(http.put("/me/interview", json=body, headers=reader.headers()), 403) == (None, None)


def _mcp(live: RunningServer, who: Person) -> Client:
    return Client(streamable_http_client(live.url + "/mcp", http_client=httpx2.AsyncClient(headers=who.headers(), timeout=15)),
                  mode="auto")


async def test_answer_interview_over_mcp_answers_as_rest_does(live: RunningServer) -> None:
    who = person(live)
    async with _mcp(live, who) as c:
        done = await c.call_tool("answer_interview", {"answers": [{"question_id": 8, "answer": "Teams."}]})
        unknown = await c.call_tool("answer_interview", {"answers": [{"question_id": 999, "answer": "?"}]})
    assert done.is_error is False
    assert [(i["question_id"], i["answer"]) for i in done.structured_content["items"]] == [(8, "Teams.")]  # type: ignore[index]
    rest = httpx.put(f"{live.url}{API}/me/interview", json={"answers": [{"question_id": 999, "answer": "?"}]},
                     headers=who.headers()).json()
    assert unknown.is_error is True and unknown.structured_content == rest
    assert rest["errors"][0]["field"] == "answers.0.question_id"

    reader = person(live, scopes=("account:read",))
    async with _mcp(live, reader) as c:
        refused = await c.call_tool("answer_interview", {"answers": []})
    assert refused.is_error is True and refused.structured_content["status"] == 403  # type: ignore[index]
    anonymous = httpx.post(live.url + "/mcp", timeout=15, headers={"accept": "application/json, text/event-stream"}, json={
        "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "answer_interview", "arguments": {"answers": []}}})
    assert anonymous.status_code == 401 and 'scope="listings:write"' in anonymous.headers["www-authenticate"]


# ---------------------------------------------------------------- updates reach followers; unsubscribing


def _live_listing(live: RunningServer, name: str, owner: Person, *fans: Person) -> tuple[int, str]:
    c: Any = live.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Does things"}, categories=["notes-docs"], owner_ids=[owner.account_id]), _meta())
    listing_cmd.staff_publish(c.store, created.listing_id, _meta())
    for fan in fans:
        community.follow(c.store, created.listing_id, fan.account_id, _meta(f"account:{fan.account_id}"))
    assert c.runtime.wait_for(["updates_view"], c.store.position(), timeout=5)
    return created.listing_id, created.slug


def _posted(live: RunningServer, listing_id: int, owner: Person, title: str) -> int:
    c: Any = live.container
    update_id, _ = listing_cmd.post_update(c.store, listing_id, title, "Now with more.", _meta(f"account:{owner.account_id}"))
    return update_id


def _told(live: RunningServer, listing_id: int, update_id: int) -> None:
    """Wait until the server's notifier has queued the update's emails (its marker is stored with the last of them)."""
    deadline = time.monotonic() + 15
    while not updates_cmd.is_notified(live.container.store, listing_id, update_id):  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the followers were not told"
        time.sleep(0.05)


def _follows(live: RunningServer, listing_id: int, who: Person) -> bool:
    c: Any = live.container
    assert c.runtime.wait_for(["updates_view"], c.store.position(), timeout=5)
    return updates_q.follows(c.services.reads, listing_id, who.account_id)


def test_a_follower_is_emailed_and_the_unsubscribe_link_works_without_signing_in(site: tuple[RunningServer, LocalSmtp]) -> None:
    live, smtp = site
    owner, fan = person(live), person(live)
    listing_id, slug = _live_listing(live, "Postbox", owner, fan, owner)
    first = _posted(live, listing_id, owner, "Shared inboxes")

    [message] = smtp.wait_for(fan.email)
    assert message["Subject"] == "Postbox on launchdir: Shared inboxes"
    text = message.get_content()
    assert "Now with more." in text and f"{live.url}/listings/{slug}" in text
    link = LINK.search(text).group(1)  # type: ignore[union-attr]
    _told(live, listing_id, first)
    assert not [m for m in mail_q.outbox(live.container.services.reads, to=owner.email)  # type: ignore[attr-defined]
                if m["kind"] == "listing_update"]  # the author is not told of their own update

    with httpx.Client(timeout=10, follow_redirects=False) as browser:
        page = browser.get(link)
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        assert "Unsubscribe from Postbox</button>" in page.text
        assert _follows(live, listing_id, fan)  # opening the link changes nothing: mail scanners open links
        assert browser.post(link, data={}).status_code == 403  # a form without its token
        done = browser.post(link, data={"csrf_token": CSRF.search(page.text).group(1)})  # type: ignore[union-attr]
        assert done.status_code == 200 and "You will no longer get updates from Postbox." in done.text
        assert not _follows(live, listing_id, fan)
        again = browser.get(link)
        assert again.status_code == 200 and "You do not get updates from Postbox." in again.text
        token = link.rsplit("/", 1)[1]
        forged = browser.get(link.replace(token, token[:-2] + ("AA" if not token.endswith("AA") else "BB")))
        assert forged.status_code == 404 and "not valid" in forged.text

    second = _posted(live, listing_id, owner, "Labels")
    _told(live, listing_id, second)
    assert [m["subject"] for m in mail_q.outbox(live.container.services.reads, to=fan.email)] == [  # type: ignore[attr-defined]
        "Postbox on launchdir: Shared inboxes"]


def test_the_unsubscribe_page_in_a_browser(site: tuple[RunningServer, LocalSmtp], chromium: Any) -> None:
    live, smtp = site
    owner, fan = person(live), person(live)
    listing_id, _ = _live_listing(live, "Tabby", owner, fan)
    _posted(live, listing_id, owner, "Tab groups")
    [message] = smtp.wait_for(fan.email)
    link = LINK.search(message.get_content()).group(1)  # type: ignore[union-attr]
    context = chromium.new_context()
    page = context.new_page()
    try:
        page.goto(link)
        page.get_by_role("heading", name="Stop updates from Tabby?").wait_for()
        page.get_by_role("button", name="Unsubscribe from Tabby").click()
        page.get_by_role("heading", name="Unsubscribed").wait_for()
        assert "You will no longer get updates from Tabby." in page.get_by_role("status").inner_text()
    finally:
        context.close()
    assert not _follows(live, listing_id, fan)


def test_a_mail_program_unsubscribes_in_one_click_from_the_list_unsubscribe_header(
        site: tuple[RunningServer, LocalSmtp]) -> None:
    """RFC 8058: the header names an address that a POST of `List-Unsubscribe=One-Click` unfollows, no cookie needed."""
    live, smtp = site
    owner, fan = person(live), person(live)
    listing_id, _ = _live_listing(live, "Mailsort", owner, fan, owner)
    _posted(live, listing_id, owner, "Folders")
    [message] = smtp.wait_for(fan.email)
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    one_click = str(message["List-Unsubscribe"]).strip("<>")
    link = LINK.search(message.get_content()).group(1)  # type: ignore[union-attr]
    assert one_click == link + "/one-click"
    with httpx.Client(timeout=10, follow_redirects=False) as program:
        opened = program.get(one_click)  # a scanner opening it is sent to the page with the button
        assert opened.status_code == 303 and opened.headers["location"].endswith(link.split(live.url, 1)[1])
        assert program.post(one_click, data={"other": "x"}).status_code == 400
        assert _follows(live, listing_id, fan)
        done = program.post(one_click, data={"List-Unsubscribe": "One-Click"})
        assert done.status_code == 200 and "no longer get updates from Mailsort" in done.text
        assert not _follows(live, listing_id, fan)
        token = one_click.rsplit("/", 2)[1]
        forged = one_click.replace(token, token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
        assert program.post(forged, data={"List-Unsubscribe": "One-Click"}).status_code == 404
