"""The free plan end to end over REST and MCP against a real server and local websites on 127.0.0.1.

A founder submits a site, saves the draft as a listing and chooses the free
plan: the listing waits for our badge; the site shows it, the badge watch
finds it within seconds and the listing is scheduled for its week; with the
server's clock set to that week's Monday the scheduler puts it live and the
public profile answers. A site without the badge stays `awaiting_badge`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from markupsafe import escape
from mcp.client.streamable_http import streamable_http_client

from api.field_labels import field_label
from api.web_public import paragraphs
from queries import badge_checks as badge_q
from queries import mail as mail_q
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.e2e.submission_support import Person, ik, person
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import Body, FixtureServer

API = "/api/v1"


@dataclass
class MovableClock:
    """The server's clock: real time, moved by `offset` (the app takes its clock from bootstrap)."""

    offset: timedelta = field(default_factory=timedelta)

    def __call__(self) -> datetime:
        return datetime.now(timezone.utc) + self.offset

    def set(self, at: datetime) -> None:
        self.offset = at - datetime.now(timezone.utc)


@pytest.fixture(scope="module")
def clock() -> MovableClock:
    return MovableClock()


@pytest.fixture(scope="module")
def live(databases: Databases, clock: MovableClock) -> Iterator[RunningServer]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, crawl_allow_loopback=True, rate_limits=False), clock=clock)
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        yield running
    c.close()


@pytest.fixture(scope="module")
def http(live: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.url + API, timeout=15) as client:
        yield client


def saved_listing(http: httpx.Client, who: Person, site: FixtureServer) -> tuple[int, str]:
    """Submit the running fixture site, wait until drafted, save it as a listing: (listing_id, slug)."""
    r = http.post("/drafts", json={"url": site.url("/")}, headers=who.headers(**ik()))
    assert r.status_code == 201, r.text
    draft_id = r.json()["id"]
    deadline = time.monotonic() + 60
    while (d := http.get(f"/drafts/{draft_id}", headers=who.headers()).json())["status"] not in ("ready", "failed"):
        assert time.monotonic() < deadline, d["status"]
        time.sleep(0.1)
    assert d["status"] == "ready", d
    r = http.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    listing_id = int(r.json()["listing_id"])
    mine = http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()
    return listing_id, str(mine["slug"])


def with_badge(site: FixtureServer, snippet: str) -> None:
    """The founder pastes the snippet into the homepage."""
    route = site.routes["/"]
    assert isinstance(route, Body)
    site.routes["/"] = Body(route.content.replace(b"</body>", snippet.encode() + b"</body>"), route.content_type)


def wait_until(condition: Any, seconds: float = 15.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)
    return value


def status_of(http: httpx.Client, who: Person, listing_id: int) -> str:
    return str(http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()["status"])


def notices_to(c: Any, who: Person, kind: str) -> list[dict[str, Any]]:
    """The founder's mails of one notice kind in the outbox, once `mail_view` has caught up."""
    c.runtime.wait_for(["mail_view"], c.store.position(), timeout=5)
    return [m for m in mail_q.outbox(c.services.reads, to=who.email) if m["kind"] == kind]


def problem(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    return r.json()  # type: ignore[no-any-return]


def test_free_flow_from_draft_to_live(live: RunningServer, http: httpx.Client, clock: MovableClock) -> None:
    who = person(live)
    c: Any = live.container
    with serve("devtool") as site:
        listing_id, slug = saved_listing(http, who, site)
        with_badge(site, f'<a href="{live.url}/listings/{slug}">We are on launchdir</a>')  # shown before choosing
        r = http.post(f"/me/listings/{listing_id}/free", headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
        chosen = r.json()
        today = clock().date()
        window = [(today - timedelta(days=today.weekday()) + timedelta(weeks=k)).isoformat() for k in (6, 7, 8)]
        assert (chosen["listing_id"], chosen["plan"], chosen["slug"]) == (listing_id, "free", slug)
        assert chosen["status"] in ("awaiting_badge", "scheduled") and chosen["week"] in window
        assert chosen["badge_link_url"] == f"{live.url}/listings/{slug}"
        assert any(b["kind"] == "upcoming" and f'href="{live.url}/listings/{slug}"' in b["embed_html"]
                   for b in chosen["badges"])
        assert "badge" in chosen["next_step"]
        wait_until(lambda: status_of(http, who, listing_id) == "scheduled")  # the watch found it within seconds
        check = badge_q.last_check(c.services.reads, listing_id)
        assert check is not None and check["result"] == "found" and check["checked_url"].startswith(site.url("/"))
        mine = http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()
        assert mine["badge_check"] is not None and mine["badge_check"]["result"] == "found"  # the owner sees it too
        assert http.get(f"/listings/{slug}").status_code == 404  # scheduled is not live yet
        soon = httpx.get(f"{live.url}/listings/{slug}")  # where the pasted badge takes people: the upcoming page
        assert soon.status_code == 200 and f'href="/launches/{chosen["week"]}"' in soon.text
        again = problem(http.post(f"/me/listings/{listing_id}/free", headers=who.headers(**ik())), 409)
        assert "already scheduled" in again["detail"]
        [scheduled] = wait_until(lambda: notices_to(c, who, "notice_scheduled"))  # the founder is told by mail
        assert f"{live.url}/listings/{slug}" in scheduled["text"] and "badge" in scheduled["text"]

        from launchdir.bootstrap import launch_scheduler

        monday = datetime.combine(date.fromisoformat(chosen["week"]), datetime.min.time(), tzinfo=timezone.utc)
        clock.set(monday + timedelta(seconds=30))  # the site's timezone is UTC
        result = launch_scheduler(c).tick()  # serve's scheduler does this every minute
        assert listing_id in result.launched
    assert status_of(http, who, listing_id) == "live"
    public = http.get(f"/listings/{slug}")
    assert public.status_code == 200, public.text
    page = httpx.get(f"{live.url}/listings/{slug}").text  # the same address: the kept upcoming page is gone
    doc = public.json()
    assert "Launching soon" not in page and doc["description"].count("\n") >= 1
    for para in paragraphs(doc["description"]):  # the site's paragraphs kept
        assert f"<p>{escape(para)}</p>" in page
    assert doc["not_found_on_website"]  # named as the forms name them, not by their keys
    assert ", ".join(field_label(f) for f in doc["not_found_on_website"]) in page
    live_again = problem(http.post(f"/me/listings/{listing_id}/free", headers=who.headers(**ik())), 409)
    assert "already live" in live_again["detail"]
    [went_live] = wait_until(lambda: notices_to(c, who, "notice_live"))
    assert went_live["subject"] == f"{doc['name']} is live on launchdir"
    assert f"{live.url}/listings/{slug}" in went_live["text"]


def test_a_site_without_the_badge_stays_awaiting_badge(live: RunningServer, http: httpx.Client) -> None:
    who = person(live)
    c: Any = live.container
    with serve("devtool") as site:
        listing_id, slug = saved_listing(http, who, site)
        r = http.post(f"/me/listings/{listing_id}/free", headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
        check = wait_until(lambda: badge_q.last_check(c.services.reads, listing_id))
    assert (check["result"], check["reason"], check["misses_in_a_row"]) == ("missing", "not_found", 1)
    assert check["next_check_at"] is not None
    assert status_of(http, who, listing_id) == "awaiting_badge"
    assert http.get(f"/listings/{slug}").status_code == 404


def test_choose_free_listing_refusals(live: RunningServer, http: httpx.Client) -> None:
    owner, stranger = person(live), person(live)
    with serve("devtool") as site:
        listing_id, _ = saved_listing(http, owner, site)
    hidden = problem(http.post(f"/me/listings/{listing_id}/free", headers=stranger.headers(**ik())), 404)
    assert hidden["status"] == 404
    zero = problem(http.post("/me/listings/0/free", headers=owner.headers(**ik())), 400)
    assert zero["errors"][0]["field"] == "listing_id"
    reader = person(live, scopes=("account:read",))
    problem(http.post(f"/me/listings/{listing_id}/free", headers=reader.headers(**ik())), 403)
    problem(http.post(f"/me/listings/{listing_id}/free", headers=ik()), 401)
    assert status_of(http, owner, listing_id) == "draft"  # none of that moved it
    key = ik()
    first = http.post(f"/me/listings/{listing_id}/free", headers=owner.headers(**key))
    replay = http.post(f"/me/listings/{listing_id}/free", headers=owner.headers(**key))
    assert first.status_code == replay.status_code == 200 and first.json()["week"] == replay.json()["week"]


async def test_choose_free_listing_over_mcp(live: RunningServer, http: httpx.Client) -> None:
    who = person(live)
    with serve("devtool") as site:
        listing_id, slug = saved_listing(http, who, site)
    mcp = Client(streamable_http_client(live.url + "/mcp", http_client=httpx2.AsyncClient(headers=who.headers(),
                                                                                          timeout=15)), mode="auto")
    async with mcp as c:
        result = await c.call_tool("choose_free_listing", {"listing_id": listing_id})
        zero = await c.call_tool("choose_free_listing", {"listing_id": 0})
        again = await c.call_tool("choose_free_listing", {"listing_id": listing_id})
    assert result.is_error is False, result.structured_content
    doc = result.structured_content
    assert doc is not None and (doc["listing_id"], doc["slug"], doc["plan"]) == (listing_id, slug, "free")
    assert doc["status"] == "awaiting_badge" and doc["badges"]
    assert zero.is_error is True and zero.structured_content["errors"][0]["field"] == "listing_id"
    assert again.is_error is True and again.structured_content["status"] == 409


async def test_a_badge_pasted_after_choosing_is_found_when_the_owner_asks(live: RunningServer, http: httpx.Client) -> None:
    """The first check runs when the plan is chosen, before the badge can be there; check_my_badge looks again now."""
    who, stranger = person(live), person(live)
    c: Any = live.container
    with serve("devtool") as site, serve("devtool") as elsewhere:
        listing_id, slug = saved_listing(http, who, site)
        other, _ = saved_listing(http, who, elsewhere)  # another site: a draft of the same one is the same draft
        chosen = http.post(f"/me/listings/{listing_id}/free", headers=who.headers(**ik())).json()
        first = wait_until(lambda: badge_q.last_check(c.services.reads, listing_id))
        assert first["result"] == "missing" and status_of(http, who, listing_id) == "awaiting_badge"
        path = f"/me/listings/{listing_id}/badge-check"
        assert problem(http.post(path, headers=stranger.headers()), 404)["status"] == 404
        problem(http.post(path, headers=person(live, scopes=("account:read",)).headers()), 403)
        problem(http.post(path), 401)
        refused = problem(http.post(f"/me/listings/{other}/badge-check", headers=who.headers()), 409)
        assert "nothing to check" in refused["detail"]  # a saved listing, not on the free plan
        with_badge(site, chosen["badges"][0]["embed_html"])  # the founder pastes the badge the answer gave
        r = http.post(path, headers=who.headers())
        assert r.status_code == 200, r.text
        doc = r.json()
        assert (doc["status"], doc["badge_check"]["result"]) == ("scheduled", "found")
        assert status_of(http, who, listing_id) == "scheduled"  # the answer came after the views showed it
        mcp = Client(streamable_http_client(live.url + "/mcp", http_client=httpx2.AsyncClient(headers=who.headers(),
                                                                                              timeout=15)), mode="auto")
        async with mcp as m:
            again = await m.call_tool("check_my_badge", {"listing_id": listing_id})
            saved = await m.call_tool("check_my_badge", {"listing_id": other})
    assert again.is_error is False and again.structured_content["badge_check"]["result"] == "found"
    assert again.structured_content["slug"] == slug
    assert saved.is_error is True and saved.structured_content["status"] == 409
    assert "nothing to check" in saved.structured_content["detail"]


def test_one_public_listing_per_site(live: RunningServer, http: httpx.Client) -> None:
    """Someone else's site that already has a public listing gets no second one: the answer says how to claim it.
    A saved listing made before the site's listing went public cannot launch afterwards, free or paid."""
    owner, copier, early = person(live), person(live), person(live, scopes=("account:read", "listings:write",
                                                                            "orders:write"))
    with serve("devtool") as site:
        early_id, _ = saved_listing(http, early, site)  # saved (private) while the site has no public listing
        listing_id, slug = saved_listing(http, owner, site)  # the owner's: saved too, nothing public yet
        assert http.post(f"/me/listings/{listing_id}/free", headers=owner.headers(**ik())).status_code == 200
        r = http.post("/drafts", json={"url": site.url("/")}, headers=copier.headers(**ik()))
        draft_id = r.json()["id"]
        wait_until(lambda: http.get(f"/drafts/{draft_id}", headers=copier.headers()).json()["status"] == "ready")
        refused = problem(http.post(f"/drafts/{draft_id}/submit", headers=copier.headers(**ik())), 409)
        assert slug in refused["detail"] and "claim" in refused["detail"]
        assert http.get("/me/listings", headers=copier.headers()).json()["items"] == []  # nothing was made
        free = problem(http.post(f"/me/listings/{early_id}/free", headers=early.headers(**ik())), 409)
        assert slug in free["detail"]
        order = {"items": [{"product": "launch", "listing_id": early_id}]}
        assert slug in problem(http.post("/orders/quote", json=order, headers=early.headers()), 409)["detail"]
        assert slug in problem(http.post("/orders/checkout", json=order, headers=early.headers(**ik())), 409)["detail"]
        assert status_of(http, early, early_id) == "draft"
        page = problem(http.post(f"/drafts/{draft_id}/submit", headers=copier.headers(**ik())), 409)
        assert page["detail"] == refused["detail"]
    with serve("devtool") as other_site:  # another site (another port): listed as before
        other_id, _ = saved_listing(http, copier, other_site)
        assert http.post(f"/me/listings/{other_id}/free", headers=copier.headers(**ik())).status_code == 200
