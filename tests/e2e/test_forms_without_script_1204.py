"""Every main form of the website works without JavaScript (2026-12-04): Chromium with scripts turned off.

The pages promise to be server-rendered: each form posts to the server and the page that comes back says what
happened. As a signed-out visitor (sign up and its emailed link, the reset request, sign in, search, compare), a
member (vote and unvote, follow, a review), a founder (submit a fixture site on 127.0.0.1, the draft page reloading
itself while drafting, save a draft edit, save the draft as a listing, the free plan, the order form and checkout's
billing and payment, an update, a milestone, a co-owner invite, a claim) and staff (accept a version in the review
queue, the site settings). Each step asserts the page it lands on and its words; no step needs a script (no dead
button, no form posting nowhere, nothing shown only by script). Result pages are checked with axe-core and shot at
390 and 1440 px into LAUNCHDIR_SCREENSHOTS or /tmp/shots/nojs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from aggregates.base import Meta
from commands import listing as listing_cmd
from tests.conftest import Databases, RunningServer
from tests.e2e import founder_support_drafts as drafts
from tests.e2e.founder_support_listings import axe_violations, screenshots, wider_than_the_screen
from tests.e2e.test_staff_review_web import PASSWORD, account, now_meta, staff_signs_in
from tests.fixtures.drafting_sites import serve
from tests.integration.test_accounts_mail import LocalSmtp

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/shots/nojs"))
VIEWS = ["accounts_view", "listing_view", "history_view"]


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield from drafts.mailing_server(databases)


@pytest.fixture()
def page(chromium: Any) -> Iterator[Any]:
    """A page of a browser context with scripts turned off."""
    context = chromium.new_context(java_script_enabled=False, viewport={"width": 1440, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()


def _listing(server: RunningServer, owner_id: str | None = None, website: str | None = None) -> tuple[int, str, str]:
    """A live listing (of `owner_id`, or nobody's): (id, slug, name)."""
    c: Any = server.container
    name = f"Plain {uuid4().hex[:6]}"
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Works with plain forms",
                 "website_url": website or f"https://{uuid4().hex[:8]}.example/"},
        categories=["productivity"], owner_ids=[owner_id] if owner_id else []), now_meta())
    position = listing_cmd.staff_publish(c.store, created.listing_id, now_meta())
    assert c.runtime.wait_for(VIEWS, position, timeout=15)
    return created.listing_id, created.slug, name


def _sign_in(page: Any, base: str, email: str, then: str) -> None:
    page.goto(f"{base}/signin?next={then}")
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(base + then)))


def _looks_right(page: Any, name: str) -> None:
    """Shots at 390 and 1440 px of the page as it is (scripts off), no sideways scroll at 390 px; axe-core finds
    nothing serious (it runs on timers, which a page without scripts never fires: checked in a context with
    scripts, signed in as the same person)."""
    url = page.url
    screenshots(page, url, SHOTS, name)
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(url)
    assert wider_than_the_screen(page) == [], name
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(url)
    checking = page.context.browser.new_context(storage_state=page.context.storage_state())
    try:
        scripted = checking.new_page()
        scripted.goto(url)
        assert axe_violations(scripted) == [], name
    finally:
        checking.close()


def _no_script_needed(page: Any) -> None:
    """Nothing on the page waits for a script: every form posts somewhere, every button submits a form."""
    dead = page.evaluate("""() => [
        ...[...document.querySelectorAll('form')].filter(f => !f.getAttribute('action') && f.method !== 'get')
            .map(f => 'form#' + f.id),
        ...[...document.querySelectorAll('button')].filter(b => b.type !== 'submit' || !b.form)
            .map(b => 'button:' + b.textContent.trim()),
        ...[...document.querySelectorAll('a[href^="javascript:"], [onclick]')].map(e => e.outerHTML.slice(0, 80)),
    ]""")
    assert dead == [], dead


# ---------------------------------------------------------------- a signed-out visitor


def test_a_visitor_signs_up_asks_for_a_reset_signs_in_searches_and_compares(
        world: tuple[RunningServer, LocalSmtp], page: Any) -> None:
    server, smtp = world
    base = server.url
    _, slug_a, name_a = _listing(server)
    _, slug_b, name_b = _listing(server)
    email = drafts.address("plain")

    page.goto(base + "/signup")
    _no_script_needed(page)
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.get_by_role("heading", name="Check your email").wait_for()
    _looks_right(page, "signup-sent")
    page.goto(drafts.mailed_link(smtp, email, drafts.VERIFY_LINK))
    page.get_by_role("heading", name="Email address confirmed").wait_for()

    page.goto(base + "/reset")
    _no_script_needed(page)
    page.get_by_label("Email address").fill(email)
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url(re.compile(r"/reset"))
    assert "link" in page.locator("main").inner_text().lower()
    page.get_by_role("heading", name="Check your email").wait_for()
    _looks_right(page, "reset-sent")

    _sign_in(page, base, email, "/account")
    page.get_by_role("heading", name="Your account").wait_for()

    page.goto(base + "/search")
    page.get_by_role("search").first.get_by_label("Search listings").fill(name_a)
    page.get_by_role("search").first.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r"/search\?"))
    assert name_a in page.locator("ol.cards").inner_text()

    page.goto(base + "/compare")
    _no_script_needed(page)
    page.locator("#compare-a").fill(slug_a)
    page.locator("#compare-b").fill(slug_b)
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url(re.compile(r"/compare\?"))
    table = page.locator("table").first.inner_text()
    assert name_a in table and name_b in table
    _looks_right(page, "compare")


# ---------------------------------------------------------------- a member


def test_a_member_votes_unvotes_follows_and_reviews(world: tuple[RunningServer, LocalSmtp], page: Any) -> None:
    server, _ = world
    base = server.url
    _, slug, name = _listing(server)
    _, email = account(server, staff=False)
    _sign_in(page, base, email, f"/listings/{slug}")
    _no_script_needed(page)

    page.get_by_role("button", name=re.compile(f"^Vote for {re.escape(name)}, 0 votes$")).click()
    page.get_by_role("button", name=re.compile(f"^Remove your vote for {re.escape(name)}, 1 vote$")).click()
    page.get_by_role("button", name=re.compile(f"^Vote for {re.escape(name)}, 0 votes$")).wait_for()

    page.get_by_role("button", name="Follow", exact=True).click()
    page.get_by_role("button", name="Following", exact=True).wait_for()

    page.get_by_label("4 stars, good").check()
    page.get_by_label(re.compile("^Your review")).fill("We planned a month of work in it; the plain forms never got in the way.")
    page.get_by_role("button", name="Publish your review").click()
    page.get_by_role("heading", name="Edit your review").wait_for()  # back on the listing: the review is in its list
    assert "We planned a month of work in it" in page.locator("ol.reviews").inner_text()
    _looks_right(page, "review-published")


# ---------------------------------------------------------------- a founder


def test_a_founder_drafts_a_site_saves_it_launches_free_orders_and_runs_the_listing(
        world: tuple[RunningServer, LocalSmtp], page: Any) -> None:
    server, _ = world
    base = server.url
    owner_id, email = account(server, staff=False)
    _sign_in(page, base, email, "/submit")
    with serve("saas") as site:
        _no_script_needed(page)
        draft_id = drafts.submit_site(page, base, site.url("/"))
        assert drafts.wait_until_drafted(page) == "ready"  # the page reloads itself while drafting (meta refresh)
    _no_script_needed(page)
    drafts.edit_field(page, "tagline", "Invoices that chase themselves")
    assert drafts.field_input(page, "tagline").input_value() == "Invoices that chase themselves"
    drafts.name_a_category_if_none(page)
    _looks_right(page, "draft-saved")
    listing_id = drafts.save_as_listing(page, base)
    assert draft_id

    page.goto(f"{base}/my/listings/{listing_id}")
    _no_script_needed(page)
    page.get_by_role("button", name="Launch for free").click()
    page.get_by_role("heading", name="Badges and their code").wait_for()
    assert page.locator("textarea.code").first.input_value().startswith("<a ")  # selectable without a Copy button
    page.goto(f"{base}/my/listings/{listing_id}")
    assert page.locator("#listing-plan").inner_text().strip() == "Free"

    page.get_by_label("Co-owner's email address").fill(f"co-{uuid4().hex[:8]}@example.com")
    page.get_by_role("button", name="Invite a co-owner").click()
    page.wait_for_url(re.compile(r"done=invited#co-owners$"))
    assert "The invite is on its way" in page.locator("#co-owners [role=status]").inner_text()

    page.goto(f"{base}/my/listings/{listing_id}/updates")
    page.get_by_label("Title").fill("Version 2 is out")
    page.get_by_label("What's new (plain text)").fill("Faster invoices and a new dashboard.")
    page.get_by_role("button", name="Post the update").click()
    page.get_by_role("status").first.wait_for()
    assert page.locator("section[id^=update-] h3").first.inner_text() == "Version 2 is out"

    page.goto(f"{base}/my/listings/{listing_id}/milestones")
    _no_script_needed(page)
    page.get_by_label("Date").fill("2024-03-01")
    page.get_by_label("Title").fill("First paying customer")
    page.get_by_role("button", name="Add the milestone").click()
    page.get_by_role("status").first.wait_for()
    assert "First paying customer" in page.locator("ul.milestones").inner_text()

    page.goto(f"{base}/my/listings/{listing_id}/order?product=launch")
    _no_script_needed(page)
    week = str(page.locator("#week-launch option").nth(2).get_attribute("value"))
    page.get_by_label("Week for Launch", exact=True).select_option(week)
    page.get_by_role("button", name="See the quote").click()
    page.locator("#quote-total").wait_for()
    page.get_by_role("button", name="Go to checkout").click()
    page.wait_for_url(re.compile(r"/checkout/"))
    assert page.get_by_role("button", name=re.compile(r"^Pay \$")).count() == 0  # no billing details saved yet
    page.get_by_label("Name or company").fill("Ada Founder")
    page.get_by_label("Country", exact=True).select_option("US")
    page.get_by_role("button", name="Save billing details").click()
    page.get_by_role("button", name="Update billing details").wait_for()
    assert "Ada Founder" in page.locator("#totals-for").inner_text()
    _looks_right(page, "checkout-billing-saved")
    page.get_by_role("button", name=re.compile(r"^Pay \$")).click()
    page.locator("#confirm").click()  # the test payment page (no payment provider configured)
    page.wait_for_url(re.compile(r"/checkout/[^/]+$"))
    assert "Paid" in page.locator("#status").inner_text()


def test_a_founder_starts_a_claim(world: tuple[RunningServer, LocalSmtp], page: Any) -> None:
    server, _ = world
    base = server.url
    _, email = account(server, staff=False)
    with serve("saas") as site:
        _, slug, name = _listing(server, website=site.url("/"))
        _sign_in(page, base, email, f"/claim/{slug}")
        _no_script_needed(page)
        page.get_by_label("A meta tag on the homepage").check()
        page.get_by_role("button", name="Start the claim").click()
        page.wait_for_url(re.compile(r"/my/claims/[0-9a-f-]+"))
        assert name in page.locator("main").inner_text()
        assert page.locator("textarea.code").first.input_value().startswith("<meta ")  # the tag, selectable text
        _looks_right(page, "claim-started")


# ---------------------------------------------------------------- staff


def test_staff_accept_a_version_and_save_the_settings(world: tuple[RunningServer, LocalSmtp], page: Any) -> None:
    server, _ = world
    base = server.url
    c: Any = server.container
    owner_id, _ = account(server, staff=False)
    listing_id, _, _ = _listing(server, owner_id)
    owner = Meta(at=datetime.now(timezone.utc), actor=f"account:{owner_id}", channel="web", via="session")
    edit = listing_cmd.edit_listing(c.store, listing_id, {"tagline": "A tagline staff look at"}, owner)
    assert c.runtime.wait_for(VIEWS, edit, timeout=15)
    _, staff = account(server, staff=True)
    staff_signs_in(page, base, staff)
    version = page.locator(f"#version-{edit}")
    version.get_by_role("button", name=re.compile("^Accept")).click()
    page.get_by_role("status").first.wait_for()
    assert page.locator(f"#version-{edit}").count() == 0 or "accepted" in page.locator("main").inner_text().lower()

    page.goto(f"{base}/staff/settings")
    _no_script_needed(page)
    purpose = f"Where new software launches, plainly ({uuid4().hex[:4]})."
    page.get_by_label("Purpose").fill(purpose)
    page.get_by_role("button", name="Save the settings").click()
    page.get_by_role("status").filter(has_text="The settings are saved").wait_for()
    page.goto(base + "/")
    assert purpose in page.locator("main").inner_text()
    page.goto(f"{base}/staff/settings")
    _looks_right(page, "staff-settings")
