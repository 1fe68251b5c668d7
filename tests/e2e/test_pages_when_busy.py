"""A busy process lets signed-out visitors share a launch week's board a fraction of a second old; the voter never.

The server here counts as busy from its first request in flight (`LAUNCHDIR_BUSY_REQUESTS` = 1) and keeps a
signed-out page for at most 6 s while busy, so what a burst does is shown one step at a time: a vote moves the
board, a signed-out visitor still gets the kept page, the voter gets the board with the vote, and once the kept
page is older than the bound the visitor gets the new board. The quiet default (exact pages) is the rest of the
website's tests, which read signed-out pages right after writes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import RunningServer
from tests.e2e.test_web_accounts import _csrf, _signed_in
from tests.e2e.website_support import demo_server

STALE_SECONDS = 6.0


@pytest.fixture(scope="module")
def busy_site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, busy_requests=1, busy_stale_seconds=STALE_SECONDS) as running:
        yield running


COUNT = re.compile(r'<span class="n">(\d+)</span>')


def _count(page: str, slug: str) -> int:
    """The week's votes the ranking shows on `slug`'s card (its vote button follows the card's link)."""
    start = page.index(f'href="/listings/{slug}"', page.index('id="ranking"'))
    m = COUNT.search(page, start)
    assert m, f"no vote count after {slug}"
    return int(m.group(1))


def test_a_busy_board_is_shared_while_young_and_the_voter_sees_the_vote(busy_site: RunningServer) -> None:
    week = httpx.get(busy_site.url + "/api/v1/launches/weeks/this").json()["launches"]
    slug = week[0]["listing"]["slug"]
    with httpx.Client(base_url=busy_site.url, timeout=20) as visitor, \
            httpx.Client(base_url=busy_site.url, timeout=20, follow_redirects=False) as person:
        _signed_in(busy_site, person)
        token = _csrf(person.get(f"/listings/{slug}"))
        kept = visitor.get("/launches/this")
        rendered = time.monotonic()
        assert kept.status_code == 200
        shown = _count(kept.text, slug)

        r = person.post(f"/listings/{slug}/vote", data={"csrf_token": token}, headers={"accept": "application/json"})
        assert r.status_code == 200 and r.json()["voted"] is True
        mine = person.get("/launches/this").text
        again = visitor.get("/launches/this")
        if time.monotonic() - rendered < STALE_SECONDS:  # a machine slower than that would have rendered anew
            assert again.text == kept.text  # the kept page, the vote not on it yet
        assert _count(mine, slug) == shown + 1  # the voter's own board is never a kept one
        assert re.search(rf'action="/listings/{slug}/unvote"', mine)

        time.sleep(max(0.0, rendered + STALE_SECONDS + 0.5 - time.monotonic()))
        fresh = visitor.get("/launches/this")
        assert _count(fresh.text, slug) == shown + 1  # older than the bound: rendered again, with the vote
        assert fresh.text != kept.text


def test_past_half_the_bound_a_visit_renews_the_kept_board_in_the_background(busy_site: RunningServer) -> None:
    """The visit past half the bound gets the kept page at once; the next visits get the renewed one, still in bound."""
    week = httpx.get(busy_site.url + "/api/v1/launches/weeks/this").json()["launches"]
    slug = week[-1]["listing"]["slug"]
    with httpx.Client(base_url=busy_site.url, timeout=20) as visitor, \
            httpx.Client(base_url=busy_site.url, timeout=20, follow_redirects=False) as person:
        _signed_in(busy_site, person)
        token = _csrf(person.get(f"/listings/{slug}"))
        time.sleep(STALE_SECONDS + 0.5)  # whatever the test before kept is past the bound now
        kept = visitor.get("/launches/this")
        rendered = time.monotonic()
        shown = _count(kept.text, slug)
        r = person.post(f"/listings/{slug}/unvote" if re.search(rf'action="/listings/{slug}/unvote"', person.get(
            "/launches/this").text) else f"/listings/{slug}/vote", data={"csrf_token": token},
            headers={"accept": "application/json"})
        assert r.status_code == 200
        moved = shown + (1 if r.json()["voted"] else -1)

        time.sleep(max(0.0, rendered + STALE_SECONDS / 2 + 0.3 - time.monotonic()))
        half = visitor.get("/launches/this")
        renewed = None
        while time.monotonic() < rendered + STALE_SECONDS - 0.5:  # before the bound, only a background render renews
            page = visitor.get("/launches/this").text
            if _count(page, slug) == moved:
                renewed = page
                break
            time.sleep(0.1)
        if time.monotonic() - rendered < STALE_SECONDS:  # a machine slower than the bound would have rendered anew
            assert half.text == kept.text  # that visit did not wait for the render
            assert renewed is not None, "the kept board was not renewed in the background within the bound"
