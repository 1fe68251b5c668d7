"""Voting and following on the website, end to end: a person signs up, verifies the address (real SMTP),
votes (the listing moves in the week ranking and in get_listing), unvotes and follows, in Chromium;
and the refusals over plain HTTP (unverified accounts, listings that are not live, the rate limit)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates.base import Meta
from commands import community as community_cmd
from tests.conftest import RunningServer
from tests.e2e.test_web_accounts import PASSWORD, _csrf, _signed_in
from tests.e2e.website_support import demo_server, offline
from tests.integration.test_accounts_mail import LocalSmtp


@pytest.fixture(scope="module")
def mailing_site(databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:  # type: ignore[no-untyped-def]
    with LocalSmtp() as smtp, demo_server(databases, smtp_url=smtp.url) as running:
        yield running, smtp


def _week(server: RunningServer) -> list[dict[str, Any]]:
    return list(httpx.get(server.url + "/api/v1/launches/weeks/this").json()["launches"])


def _ranked(server: RunningServer) -> list[str]:
    return [x["listing"]["slug"] for x in _week(server)]


def _votes(server: RunningServer, slug: str) -> int:
    return int(httpx.get(f"{server.url}/api/v1/listings/{slug}").json()["community"]["votes"])


def _first_votes(server: RunningServer, *ids: int) -> list[Any]:
    """When each listing got its first vote of the week (`launches_view`), which breaks ties of the week's votes."""
    c = server.container
    with c.pool.connection() as conn:
        found = dict(conn.execute(f"SELECT id, first_vote_at FROM {c.runtime.tables('launches_view')['listings']} "
                                  "WHERE id = ANY(%s)", (list(ids),)).fetchall())
    return [found.get(i) for i in ids]


def _just_below(server: RunningServer, lower: dict[str, Any], upper: dict[str, Any]) -> None:
    """Votes from other people until one more vote for `lower` puts it ahead of `upper`, while it is still below.

    Ties go to the earlier first vote of the week. The demo's votes fall at times drawn from the
    week so far, so either listing may have been voted first: a tie when it keeps `lower` below
    (`upper` was voted first), one vote short of one otherwise.
    """
    c = server.container
    lower_first, upper_first = _first_votes(server, lower["listing"]["id"], upper["listing"]["id"])
    tie_keeps_it_below = lower_first is None or (upper_first is not None and upper_first <= lower_first)
    position = 0
    for _ in range(upper["week_votes"] - lower["week_votes"] - (0 if tie_keeps_it_below else 1)):
        meta = Meta(at=c.services.now(), actor="test", channel="web")
        position = community_cmd.cast_vote(c.store, lower["listing"]["id"], f"tie-{uuid4().hex[:8]}", meta)
    c.runtime.wait_for(["launches_view", "listing_view", "search_view"], position, timeout=5)


def test_a_person_signs_up_verifies_votes_unvotes_and_follows_in_chromium(mailing_site, chromium) -> None:  # type: ignore[no-untyped-def]
    server, smtp = mailing_site
    launches = _week(server)
    upper, lower = launches[-2], launches[-1]
    _just_below(server, lower, upper)
    slug, name = lower["listing"]["slug"], lower["listing"]["name"]
    ranked = _ranked(server)
    assert ranked.index(slug) > ranked.index(upper["listing"]["slug"])  # still below: one vote short, or tied and voted later
    before = _votes(server, slug)

    address = f"voter-{uuid4().hex[:8]}@example.com"
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        page.goto(server.url + "/signup")
        page.get_by_label("Email address").fill(address)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create account").click()
        page.get_by_role("heading", name="Check your email").wait_for()
        [message] = smtp.wait_for(address)
        link = re.search(r"(http://\S+/verify\?token=\S+)", message.get_content()).group(1)  # type: ignore[union-attr]
        page.goto(link)
        page.get_by_role("heading", name="Email address confirmed").wait_for()

        page.goto(server.url + "/launches/this")
        page.get_by_role("link", name=f"Sign in to vote for {name}", exact=False).click()
        page.get_by_label("Email address").fill(address)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(re.compile(r"/launches/this#vote-[^/]+$"))  # back on the button pressed

        vote = page.get_by_role("button", name=re.compile(f"^Vote for {re.escape(name)},"))
        vote.click()  # the script posts it and updates the count in place
        pressed = page.get_by_role("button", name=re.compile(f"^Remove your vote for {re.escape(name)},"))
        pressed.wait_for()
        assert pressed.get_attribute("aria-pressed") == "true"
        assert pressed.locator(".n").inner_text() == str(before + 1)
        assert _votes(server, slug) == before + 1
        ranked = _ranked(server)
        assert ranked.index(slug) < ranked.index(upper["listing"]["slug"])  # the vote moved it up the week
        page.reload()
        order = [a.inner_text() for a in page.locator("#ranking li h3 a").all()]
        assert order.index(name) < order.index(upper["listing"]["name"])

        pressed = page.get_by_role("button", name=re.compile(f"^Remove your vote for {re.escape(name)},"))
        pressed.focus()
        page.keyboard.press("Enter")  # from the keyboard: focus stays on the button, not back at the page's top
        page.get_by_role("button", name=re.compile(f"^Vote for {re.escape(name)}, {before} votes?$")).wait_for()
        assert _votes(server, slug) == before
        assert page.evaluate("document.activeElement.dataset.name") == name

        page.goto(f"{server.url}/listings/{slug}")
        page.get_by_role("button", name="Follow").click()
        page.get_by_role("button", name="Following").wait_for()
        page.goto(server.url + "/account/following")
        page.get_by_role("link", name=name).wait_for()
    finally:
        context.close()


def test_votes_work_without_script_and_refuse_what_they_must(mailing_site) -> None:  # type: ignore[no-untyped-def]
    server, _ = mailing_site
    slug = _week(server)[0]["listing"]["slug"]
    with httpx.Client(base_url=server.url, timeout=20, follow_redirects=False) as unverified:
        _signed_in(server, unverified, verified=False)
        r = unverified.post(f"/listings/{slug}/vote", data={"csrf_token": _csrf(unverified.get("/account"))})
        assert r.status_code == 403 and "verified email" in r.text
    with httpx.Client(base_url=server.url, timeout=20, follow_redirects=False) as person:
        _signed_in(server, person)
        token = _csrf(person.get(f"/listings/{slug}"))
        before = _votes(server, slug)
        r = person.post(f"/listings/{slug}/vote", data={"csrf_token": token, "next": "/launches/this"})
        assert r.status_code == 303 and r.headers["location"] == f"/launches/this#vote-{slug}"
        assert _votes(server, slug) == before + 1
        again = person.post(f"/listings/{slug}/vote", data={"csrf_token": token})
        assert again.status_code == 303 and _votes(server, slug) == before + 1  # one vote per person
        page = person.get("/launches/this").text
        assert re.search(rf'action="/listings/{slug}/unvote"', page)  # shown as voted
        assert person.post(f"/listings/{slug}/vote", data={}).status_code == 403  # CSRF still required
        upcoming = httpx.get(server.url + "/api/v1/listings", params={"status": "upcoming", "per_page": 1}).json()
        r = person.post(f"/listings/{upcoming['items'][0]['slug']}/vote", data={"csrf_token": token})
        assert r.status_code == 404  # only live listings take votes
        codes = [person.post(f"/listings/{slug}/{'unvote' if i % 2 == 0 else 'vote'}",
                             data={"csrf_token": token}).status_code for i in range(40)]
        assert 429 in codes  # rate-limited per account


def test_votes_sent_at_once_are_each_counted_once_and_each_answer_shows_its_own(mailing_site) -> None:  # type: ignore[no-untyped-def]
    """Each answer waits (on the event loop) until the views show its vote: the count it gives includes it, and
    once every answer is in, the week and the listing show every vote without waiting further."""
    server, _ = mailing_site
    slug = _week(server)[1]["listing"]["slug"]
    people = [httpx.Client(base_url=server.url, timeout=20, follow_redirects=False) for _ in range(12)]
    try:
        for person in people:
            _signed_in(server, person)
        tokens = [_csrf(person.get(f"/listings/{slug}")) for person in people]
        before = _votes(server, slug)
        week_before = next(x["week_votes"] for x in _week(server) if x["listing"]["slug"] == slug)

        def vote(i: int) -> dict[str, Any]:
            r = people[i].post(f"/listings/{slug}/vote", data={"csrf_token": tokens[i]},
                               headers={"accept": "application/json"})
            assert r.status_code == 200
            return dict(r.json())

        with ThreadPoolExecutor(len(people)) as pool:
            answers = list(pool.map(vote, range(len(people))))
        assert all(a["voted"] is True and before + 1 <= a["votes"] <= before + len(people) for a in answers)
        assert max(a["votes"] for a in answers) == before + len(people)  # the last one shown sees them all
        assert _votes(server, slug) == before + len(people)
        assert next(x["week_votes"] for x in _week(server) if x["listing"]["slug"] == slug) == week_before + len(people)
    finally:
        for person in people:
            person.close()
