"""The founder's whole journey in Chromium, from a website address to a scheduled listing, without the API.

One person signs up (the confirmation link comes through the local SMTP
server), submits a fixture site on 127.0.0.1, watches it draft, edits and
locks one field, regenerates another, saves the draft as a listing, launches
it for free (the week and the badge code show), then buys `launch` through
the order form and the test payment page and finds the listing scheduled on
its dashboard. A second person gets 404 on the first person's draft, listing
and order pages. The draft editor and the listing dashboard are checked with
axe-core and shot at 390 and 1440 px.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from events.week_names import week_name
from tests.conftest import Databases, RunningServer
from tests.e2e import founder_support_drafts as drafts
from tests.e2e import founder_support_listings as listings
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import FixtureServer
from tests.integration.test_accounts_mail import LocalSmtp

SHOTS = Path("/tmp/shots")


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:
    yield from drafts.mailing_server(databases)


@pytest.fixture(scope="module")
def saas() -> Iterator[FixtureServer]:
    with serve("saas") as server:
        yield server


def _until(page: Any, url: str, done: Any, what: str, seconds: float = 30) -> None:
    """Reload `url` until `done(page)` holds: the background work (redraft, fulfilment) has landed."""
    deadline = time.monotonic() + seconds
    page.goto(url)
    while not done(page):
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(200)
        page.goto(url)


def _look(page: Any, url: str, name: str) -> None:
    """axe-core finds no serious or critical violation at either width; the screenshots are kept to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in listings.WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url)
        assert listings.axe_violations(page) == [], (name, width)
        page.screenshot(path=str(SHOTS / f"journey-{name}-{width}.png"), full_page=True)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{name} scrolls sideways at {width} px"
    page.set_viewport_size({"width": 1440, "height": 900})


def test_from_a_website_address_to_a_scheduled_listing_in_the_browser(world: tuple[RunningServer, LocalSmtp],
                                                                       chromium: Any, saas: FixtureServer) -> None:
    server, smtp = world
    base = server.url
    founder, stranger = drafts.address("founder"), drafts.address("stranger")
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        drafts.sign_up(page, base, smtp, founder)

        draft_id = drafts.submit_site(page, base, saas.url("/"))
        assert drafts.wait_until_drafted(page) == "ready"
        assert page.locator(".evidence a").count() > 0, "drafted values link to the pages they came from"
        ai = [n for n in ("tagline", "short_description", "description", "name") if drafts.field_state(page, n) == "ai"]
        assert len(ai) >= 2, ai
        edited, regenerated = ai[0], ai[1]

        drafts.edit_field(page, edited, "Invoices that chase themselves")
        drafts.field_button(page, "Lock", page.locator(f'label[for="fields.{edited}"]').inner_text())
        assert drafts.field_state(page, edited) == "override"

        drafts.regenerate(page, [page.locator(f'label[for="fields.{regenerated}"]').inner_text()])
        _until(page, f"{base}/drafts/{draft_id}", lambda p: p.get_by_text("Regenerating").count() == 0,
               "the regenerated field came back")
        assert drafts.field_state(page, regenerated) == "ai"
        assert drafts.field_input(page, edited).input_value() == "Invoices that chase themselves", "locked: kept"
        _look(page, f"{base}/drafts/{draft_id}", "draft-editor")

        drafts.name_a_category_if_none(page)
        listing_id = drafts.save_as_listing(page, base)
        badge_code = listings.launch_free(page, base, listing_id)
        assert badge_code.startswith("<a ") and "/badges/" in badge_code and ".svg" in badge_code, badge_code
        week_shown = re.search(r"launch week of (.+?\s\d{4})", page.locator("main").inner_text())  # "30 Nov – 6 Dec 2026"
        assert week_shown is not None, "the free launch's week shows with the badge"
        listings.open_dashboard(page, base, listing_id)
        assert page.locator("#listing-plan").inner_text().strip() == "Free"
        assert week_shown.group(1) in page.locator("#listing-week").inner_text()

        page.goto(f"{base}/my/listings/{listing_id}/order?product=launch")
        week = str(page.locator("#week-launch option").nth(2).get_attribute("value"))
        number = listings.buy_launch(page, base, listing_id, week)
        assert "Paid" in page.locator("#status").inner_text()
        _until(page, f"{base}/my/listings/{listing_id}",
               lambda p: p.locator("#listing-status").get_attribute("data-status") == "scheduled",
               "fulfilment schedules the listing after the payment")
        assert week_name(week) in page.locator("#listing-week").inner_text()
        assert page.locator("#listing-plan").inner_text().strip() == "Paid"
        _look(page, f"{base}/my/listings/{listing_id}", "listing-dashboard")
    finally:
        context.close()

    other = chromium.new_context()
    try:
        drafts.sign_up(other.new_page(), base, smtp, stranger)
    finally:
        other.close()
    with closing(listings.signed_in_client(base, stranger, drafts.PASSWORD)) as web:
        for path in (f"/drafts/{draft_id}", f"/my/listings/{listing_id}", f"/my/listings/{listing_id}/badge",
                     f"/my/orders/{number}"):
            assert web.get(path).status_code == 404, path
        assert web.get("/my/orders").status_code == 200 and number not in web.get("/my/orders").text
