"""A listing owner's pages say what is true of the listing and look finished, in Chromium at 390 and 1440 px.

A saved edit says where it shows for each status a listing can have (live: public at once; queued or scheduled:
from launch day; saved, not published: owners only; taken down: nobody else); every listing status is said in
words, its code kept in `data-status`; a badge check says plainly that the badge was found and what happens next,
or what to do when it was not, and each embed code gets a Copy button only where scripts run; "Your orders" is a
card per order on a phone; address, number and date boxes look like the other boxes and groups of fields are boxes
of the site's lines no wider than their fields; the interview page says where to ask for a founder profile.
axe-core on every page; screenshots in LAUNCHDIR_SCREENSHOTS or /tmp/ownershots.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest
from playwright.sync_api import expect

from events.week_names import week_name
from commands import listing as listing_cmd
from queries import notices as notices_q
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.submission_support import PASSWORD, Person, ik, person
from tests.e2e.test_free_plan import with_badge
from tests.e2e.test_orders_rest import SCOPES, STAFF
from tests.e2e.website_support import demo_server, offline
from tests.fixtures.drafting_sites import serve

API = "/api/v1"
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/ownershots"))
STATUS_WORDS = {"draft": "Not published yet", "awaiting_badge": "Waiting for your badge", "live": "Live",
                "unpublished": "Taken down"}  # scheduled: "Scheduled for the week of <its week>"


@dataclass
class Owner:
    who: Person
    ids: dict[str, int]  # a listing in each status
    week: str  # the scheduled one's week


def _listing(site: RunningServer, who: Person, name: str, website: str | None = None) -> int:
    c: Any = site.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Ship small things often",
                 "website_url": website or f"https://{name.lower().replace(' ', '-')}-{uuid4().hex[:8]}.example"},
        categories=["developer-tools"], owner_ids=[who.account_id]), STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view"], created.position, timeout=5)
    return created.listing_id


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False, crawl_allow_loopback=True) as running:
        yield running


@pytest.fixture(scope="module")
def owner(site: RunningServer) -> Owner:
    c: Any = site.container
    who = person(site, SCOPES, password=PASSWORD)
    ids = {s: _listing(site, who, f"Tallyho {n}") for n, s in
           enumerate(("draft", "awaiting_badge", "scheduled", "live", "unpublished"), start=1)}
    today = date.today()
    week = (today - timedelta(days=today.weekday()) + timedelta(weeks=3)).isoformat()
    with httpx.Client(base_url=site.url + API, timeout=20) as api:
        r = api.post(f"/me/listings/{ids['awaiting_badge']}/free", headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
    listing_cmd.schedule_paid(c.store, ids["scheduled"], week, STAFF)
    listing_cmd.staff_publish(c.store, ids["live"], STAFF)
    listing_cmd.staff_publish(c.store, ids["unpublished"], STAFF)
    listing_cmd.unpublish(c.store, ids["unpublished"], "Broken links", STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view", "launches_view", "badge_checks_view"], c.store.position(), timeout=10)
    return Owner(who, ids, week)


@pytest.fixture(scope="module")
def page(chromium: Any, site: RunningServer, owner: Owner) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    page = context.new_page()
    listings.sign_in(page, site.url, owner.who.email, PASSWORD)
    yield page
    context.close()


def _at(page: Any, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
    page.goto(url)


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def _sideways(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth > innerWidth"))


def _words(status: str, week: str) -> str:
    return STATUS_WORDS.get(status, f"Scheduled for the week of {week_name(week)}")


def test_a_saved_edit_says_where_it_shows_for_each_status(site: RunningServer, owner: Owner, page: Any) -> None:
    said = {
        "live": "Your changes are saved and public.",
        "scheduled": "Your changes are saved. The full profile shows them from launch day",
        "awaiting_badge": "Your changes are saved. The full profile shows them from launch day",
        "draft": "Your changes are saved. The listing is not published yet, so only its owners see them.",
    }
    before_save = {"live": "Edits are public as soon as you save them.",
                   "scheduled": "Edits show on the public profile from launch day",
                   "awaiting_badge": "Edits show on the public profile from launch day",
                   "draft": "The listing is not published yet: only its owners see edits until it launches.",
                   "unpublished": "The listing was taken down by the site team, so it cannot be changed"}
    for status, listing_id in owner.ids.items():
        _at(page, f"{site.url}/my/listings/{listing_id}/edit", 1440)
        assert page.locator("#edits-show").inner_text().startswith(before_save[status]), status
        if status == "unpublished":  # refused, as the page said
            continue
        page.get_by_label("Tagline", exact=True).fill(f"Ship small things often ({status} {uuid4().hex[:6]})")
        page.get_by_role("button", name="Save").click()
        page.get_by_role("status").wait_for()
        notice = page.get_by_role("status").inner_text()
        assert notice.startswith(said[status]), (status, notice)
        assert "public" not in notice or status == "live", (status, notice)
        pill = page.locator("#listing-status")
        assert pill.get_attribute("data-status") == status
        assert pill.inner_text().strip() == _words(status, owner.week)
        if status == "scheduled":
            _shot(page, "dashboard-saved-scheduled")
    assert listings.axe_violations(page) == []


def test_every_listing_status_is_said_in_words(site: RunningServer, owner: Owner, page: Any) -> None:
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/my/listings", width)
        shown = {}
        for row in page.locator("main table tbody tr").all():
            pill = row.locator("td[data-label=Status] .pill")
            shown[pill.get_attribute("data-status")] = pill.inner_text().strip()
        assert shown == {s: _words(s, owner.week) for s in owner.ids}, width
        text = page.locator("main").inner_text()
        assert not any(code in text for code in ("awaiting_badge", "awaiting badge", "unpublished")), width
        assert not _sideways(page), width
        _shot(page, "listings")
    assert listings.axe_violations(page) == []
    _at(page, f"{site.url}/my/listings/{owner.ids['awaiting_badge']}/badge", 390)
    status = page.locator("main p").filter(has_text="Status:").first.inner_text()
    assert status.startswith("Status: Waiting for your badge, launch week of "), status


def test_a_badge_check_says_found_and_what_comes_next_or_what_to_do(site: RunningServer, owner: Owner,
                                                                   chromium: Any, page: Any) -> None:
    with serve("devtool") as homepage:
        listing_id = _listing(site, owner.who, "Pebblepost", website=homepage.url("/"))
        listings.open_dashboard(page, site.url, listing_id)
        page.get_by_role("button", name="Launch for free").click()
        page.get_by_role("heading", name="Badges and their code").wait_for()
        embed = str(page.locator("textarea.code").first.input_value())

        assert listings.check_badge_now(page, site.url, listing_id) == "missing"
        notice = page.locator("#badge-notice")
        assert notice.get_attribute("data-kind") == "missing" and "notice warn" in notice.get_attribute("class")
        said = notice.inner_text()
        assert said.startswith("Your badge was not found on your homepage: ") and "Check my badge now" in said
        assert page.locator("#badge-next").inner_text().startswith("Paste one badge's code into your homepage")
        _shot(page, "badge-missing")

        with_badge(homepage, embed)
        assert listings.check_badge_now(page, site.url, listing_id) == "found"
        said = page.locator("#badge-notice").inner_text()
        assert page.locator("#badge-notice").get_attribute("data-kind") == "found"
        week = page.locator("main .pill[data-status]").first.inner_text()
        assert week.startswith("Scheduled for the week of "), week
        assert said.startswith("Your badge is on your homepage. Pebblepost is scheduled for the week of "
                               f"{week.removeprefix('Scheduled for the week of ')} and goes live when that week "
                               "begins"), said
        assert page.locator("#badge-next").count() == 0  # the notice says "keep it there"; not said twice
        assert "Paste one badge's code" not in page.locator("main").inner_text()
        for width in listings.WIDTHS:
            page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
            assert not _sideways(page), width
            _shot(page, "badge-found")
        assert listings.axe_violations(page) == []

        # the Copy button: each embed code's, with scripts; the code copied as shown
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
        copies = page.get_by_role("button", name="Copy")
        assert copies.count() == page.locator("textarea.code").count() > 0
        copies.first.click()
        page.locator(".copied").first.wait_for()
        expect(page.locator(".copied").first).to_have_text("Copied. Paste it into your homepage.")  # once copied
        assert page.evaluate("() => navigator.clipboard.readText()") == page.locator("textarea.code").first.input_value()
        assert listings.axe_violations(page) == []

        plain = chromium.new_context(java_script_enabled=False)  # without scripts: the code to select, no button
        try:
            offline(plain)
            bare = plain.new_page()
            listings.sign_in(bare, site.url, owner.who.email, PASSWORD)
            bare.goto(f"{site.url}/my/listings/{listing_id}/badge")
            assert bare.locator("textarea.code").count() > 0 and bare.get_by_role("button", name="Copy").count() == 0
        finally:
            plain.close()


def test_your_orders_are_cards_on_a_phone(site: RunningServer, owner: Owner, page: Any) -> None:
    body = {"items": [{"product": "launch", "listing_id": owner.ids["draft"]}], "billing_country": "DE"}
    with httpx.Client(base_url=site.url + API, timeout=20) as api:
        r = api.post("/orders/checkout", json=body, headers=owner.who.headers(**ik()))
        assert r.status_code == 201, r.text
    _at(page, f"{site.url}/my/orders", 390)
    row = page.locator("main table tbody tr").first
    cells = row.locator("td").all()
    assert [c.get_attribute("data-label") for c in cells] == ["Order", "Products", "Status", "Total", "Placed"]
    for cell in cells:  # "Placed" was beyond the right edge of a sideways-scrolling box
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (cell.get_attribute("data-label"), box)
        assert cell.is_visible()
    assert page.evaluate("() => [...document.querySelectorAll('main *')].every(e => e.scrollWidth <= e.clientWidth + 1"
                         " || !['auto', 'scroll'].includes(getComputedStyle(e).overflowX))")
    assert not _sideways(page)
    _shot(page, "orders")
    assert listings.axe_violations(page) == []
    _at(page, f"{site.url}/my/orders", 1440)  # a table on a wide screen
    assert page.locator("main table thead th").first.is_visible()
    _shot(page, "orders")


def _boxes(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => {
        const h = (sel) => [...document.querySelectorAll(sel)].map(e => Math.round(e.getBoundingClientRect().height));
        const sets = [...document.querySelectorAll('main form fieldset:not(.row-item)')].map(f => {
          const s = getComputedStyle(f), widest = Math.max(...[...f.querySelectorAll('input, textarea, label')]
            .map(e => e.getBoundingClientRect().width));
          return {border: s.borderTopStyle + ' ' + s.borderTopColor + ' ' + s.borderTopWidth, radius: s.borderTopLeftRadius,
                  width: f.getBoundingClientRect().width, widest};
        });
        const line = getComputedStyle(document.documentElement).getPropertyValue('--line').trim();
        const probe = document.createElement('div'); probe.style.color = line; document.body.append(probe);
        const lineRgb = getComputedStyle(probe).color; probe.remove();
        return {url: h('main input[type=url]'), text: h('main input[type=text]'), date: h('main input[type=date]'),
                sets, lineRgb};
    }"""))


def test_address_and_date_boxes_and_groups_of_fields_look_like_the_sites(site: RunningServer, owner: Owner,
                                                                           page: Any) -> None:
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/my/listings/{owner.ids['live']}/edit", width)
        boxes = _boxes(page)
        assert boxes["url"] and set(boxes["url"]) == set(boxes["text"]), boxes  # 31 px against 38 px before
        assert len(boxes["sets"]) == 2  # company links, questions and answers
        for s in boxes["sets"]:
            assert s["border"] == f"solid {boxes['lineRgb']} 1px" and s["radius"] != "0px", s
            assert s["width"] <= s["widest"] + 40, s  # no wider than the boxes in it
        assert not _sideways(page), width
        _shot(page, "edit")
    assert listings.axe_violations(page) == []
    _at(page, f"{site.url}/my/listings/{owner.ids['live']}/milestones", 1440)
    boxes = _boxes(page)
    assert boxes["url"] and set(boxes["url"]) == set(boxes["text"]), boxes
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/account", width)
        boxes = _boxes(page)
        [scopes] = boxes["sets"]
        assert scopes["border"] == f"solid {boxes['lineRgb']} 1px", scopes
        assert set(boxes["date"]) == set(boxes["text"]), boxes
        name = page.locator("#name").bounding_box()
        assert scopes["width"] <= name["width"] + 40, (scopes, name)  # wider than the boxes around it before
        assert not _sideways(page), width
        _shot(page, "account")
    assert listings.axe_violations(page) == []


def test_the_interview_page_says_what_is_missing_and_where_to_ask(site: RunningServer, owner: Owner,
                                                                  page: Any) -> None:
    contact = notices_q.contact_address(site.container.services.reads)
    assert contact  # the demo directory has one
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/my/interview", width)
        standing = page.locator("#interview-standing")
        assert [t.strip() for t in standing.locator("li").all_inner_texts()][0].startswith("A live listing of yours")
        assert standing.locator("p").first.inner_text() == "They do not show yet:"
        ask = standing.get_by_role("link", name=contact)
        assert ask.get_attribute("href") == f"mailto:{contact}"
        assert not _sideways(page), width
        _shot(page, "interview")
    assert listings.axe_violations(page) == []
