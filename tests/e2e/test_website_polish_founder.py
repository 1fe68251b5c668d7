"""The founder's pages after the polish of 2026-12-04, in Chromium against the demo directory, at 390 and 1440 px.

The badge page's status pill is followed by its comma with no gap ("awaiting badge, launch week of ..."); "Your
listings" is one card per listing on a phone, every cell in reach without scrolling sideways, and a table on a wide
screen; web addresses in a listing's recent changes and in its public updates wrap at their separators
("github.com/" / "patchwork"), never inside a word; the order form shows a week's message between the week's label
and its menu, as every other field's, tied by aria-describedby; the checkout page and the order form's quote say the
VAT note once, only when it adds to the VAT row; chips and small links on these pages (the draft editor's too) are
at least 24 px tall. axe-core on each page.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import time

import httpx
import pytest

from commands import listing as listing_cmd
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.submission_support import PASSWORD, Person, ik, person
from tests.e2e.test_orders_rest import SCOPES, STAFF, new_listing
from tests.e2e.test_website_polish_public import scrolls_sideways, shown, targets_under_24px
from tests.e2e.website_support import demo_server, offline
from tests.fixtures.drafting_sites import serve

API = "/api/v1"
LINKS = {"github": "https://github.com/patchwork-deployments/patchwork-command-line-interface-and-rollbacks",
         "linkedin": "https://www.linkedin.com/company/patchwork-deployments-and-rollbacks-incorporated/"}
# where a web address may wrap, as in print: before these, after "//" and after a hyphen
BREAK_BEFORE = "/.?#&=~_%"


@dataclass
class Founder:
    who: Person
    free_id: int  # on the free plan, awaiting its badge
    draft_id: int  # saved, not launched; its last version changed the company links to long addresses


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False, crawl_allow_loopback=True) as running:  # drafts of fixture sites
        yield running


@pytest.fixture(scope="module")
def founder(site: RunningServer) -> Founder:
    who = person(site, SCOPES, password=PASSWORD)
    free_id, draft_id = new_listing(site, who, "Patchwork CI"), new_listing(site, who, "Inkpot")
    with httpx.Client(base_url=site.url + API, timeout=20) as api:
        assert api.post(f"/me/listings/{free_id}/free", headers=who.headers(**ik())).status_code == 200
        r = api.patch(f"/me/listings/{draft_id}", json={"socials": LINKS}, headers=who.headers(**ik()))
        assert r.status_code == 200, r.text
    return Founder(who, free_id, draft_id)


@pytest.fixture(scope="module")
def page(chromium: Any, site: RunningServer, founder: Founder) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    page = context.new_page()
    listings.sign_in(page, site.url, founder.who.email, PASSWORD)
    yield page
    context.close()


def _at(page: Any, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
    page.goto(url)


def _gaps_before_punctuation(page: Any) -> list[tuple[str, float]]:
    """Each pill followed by a comma, full stop, colon or semicolon: its text and the punctuation, and the gap in px."""
    return [tuple(g) for g in page.evaluate("""() => [...document.querySelectorAll('main .pill')].flatMap(pill => {
        const next = pill.nextSibling;
        if (!next || next.nodeType !== 3 || !/^[,.;:]/.test(next.data)) return [];
        const range = document.createRange();
        range.setStart(next, 0);
        range.setEnd(next, 1);
        return [[pill.textContent.trim() + next.data[0],
                 range.getBoundingClientRect().left - pill.getBoundingClientRect().right]];
    })""")]


def _address_breaks_inside_words(page: Any, selector: str) -> list[str]:
    """Where a web address in the elements matching `selector` wraps to a new line other than at a separator
    ("bsky.ex|ample"); text hidden for screen readers only is left out."""
    return list(page.evaluate("""([selector, before]) => {
        const bad = [];
        for (const cell of document.querySelectorAll(selector)) {
          const chars = [];
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement.closest('.visually-hidden')) continue;
            for (let i = 0; i < node.data.length; i++) chars.push([node, i]);
          }
          const text = chars.map(([node, i]) => node.data[i]).join('');
          for (const address of text.matchAll(/https?:\\/\\/\\S+/g)) {
            let top = null;
            for (let k = address.index; k < address.index + address[0].length; k++) {
              const range = document.createRange();
              range.setStart(chars[k][0], chars[k][1]);
              range.setEnd(chars[k][0], chars[k][1] + 1);
              const rects = range.getClientRects();
              if (!rects.length) continue;
              const here = rects[0].top;
              if (top !== null && here > top + 2 && !before.includes(text[k]) && text[k - 1] !== '-'
                  && text.slice(k - 2, k) !== '//') bad.push(text.slice(Math.max(address.index, k - 8), k) + '|'
                                                             + text.slice(k, k + 8));
              top = here;
            }
          }
        }
        return bad;
    }""", [selector, BREAK_BEFORE]))


def _errors_out_of_place(page: Any) -> list[dict[str, Any]]:
    """Each field message of the page's form that is not between its field's label and the field itself, or not
    named by the field's aria-describedby (tick boxes, whose label follows the box, are left out)."""
    return list(page.evaluate("""() => [...document.querySelectorAll('main form p.error[id$="-error"]')]
      .flatMap(error => {
        const field = document.getElementById(error.id.slice(0, -'-error'.length));
        if (!field || field.type === 'checkbox' || field.tagName === 'FIELDSET') return [];
        const label = document.querySelector(`label[for="${field.id}"]`).getBoundingClientRect();
        const e = error.getBoundingClientRect(), f = field.getBoundingClientRect();
        const described = (field.getAttribute('aria-describedby') || '').split(' ').includes(error.id);
        return label.bottom <= e.top + 1 && e.bottom <= f.top + 1 && described ? [] :
          [{error: error.id, label: label.bottom, top: e.top, bottom: e.bottom, field: f.top, described}];
    })"""))


def test_the_badge_pages_status_pill_is_followed_by_its_comma_with_no_gap(site: RunningServer, founder: Founder,
                                                                           page: Any) -> None:
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/my/listings/{founder.free_id}/badge", width)
        gaps = _gaps_before_punctuation(page)
        assert [text for text, _ in gaps] == ["Waiting for your badge,"]
        assert all(gap < 1 for _, gap in gaps), (width, gaps)
        status = page.locator("main p").filter(has_text="Status:").first.inner_text()
        assert status.startswith("Status: Waiting for your badge, launch week of "), status
        assert targets_under_24px(page) == [] and not scrolls_sideways(page), width
    assert listings.axe_violations(page) == []


def test_your_listings_are_cards_on_a_phone_with_every_cell_in_reach(site: RunningServer, founder: Founder,
                                                                     page: Any) -> None:
    _at(page, f"{site.url}/my/listings", 390)
    main = page.locator("main").bounding_box()
    rows = page.locator("main table tbody tr")
    assert rows.count() == 2
    for row in rows.all():
        card, cells = row.bounding_box(), row.locator("td").all()
        for cell in cells:  # the last column was cut inside its scrolling box; now each cell is a line of the card
            box = cell.bounding_box()
            assert box["x"] >= main["x"] and box["x"] + box["width"] <= min(390, main["x"] + main["width"]) + 1, box
            assert box["x"] >= card["x"] and box["x"] + box["width"] <= card["x"] + card["width"] + 1, box
        assert [c.get_attribute("data-label") for c in cells] == ["Listing", "Status", "Plan", "Launch week",
                                                                   "Public page"]
        for cell in cells:  # each line says what it is: the cell's name, then its value
            name = cell.get_attribute("data-label")
            assert cell.evaluate("c => getComputedStyle(c, '::before').content") == f'"{name}"'
    assert not scrolls_sideways(page)
    assert page.evaluate("() => [...document.querySelectorAll('main *')].every(e => e.scrollWidth <= e.clientWidth + 1"
                         " || !['auto', 'scroll'].includes(getComputedStyle(e).overflowX))")  # nor does a box of it
    assert targets_under_24px(page) == [] and shown(page) >= 2  # the status pills
    assert listings.axe_violations(page) == []
    _at(page, f"{site.url}/my/listings", 1440)  # a table on a wide screen: the column heads shown, a row a line
    assert page.locator("main table thead th").first.is_visible()
    tops = {round(c.bounding_box()["y"]) for c in rows.first.locator("td").all()}
    assert len(tops) == 1, tops
    assert listings.axe_violations(page) == []


def test_web_addresses_in_recent_changes_wrap_at_their_separators(site: RunningServer, founder: Founder,
                                                                  page: Any) -> None:
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/my/listings/{founder.draft_id}/history", width)  # the diffs moved off the dashboard
        changes = page.locator("main")
        assert LINKS["linkedin"] in changes.inner_text()  # shown whole
        assert _address_breaks_inside_words(page, "table.diff td, .facts dd") == [], width
        assert listings.overflowing(page, "table.diff td") == [], width
        assert not scrolls_sideways(page), (width, listings.wider_than_the_screen(page)[:5])
        assert targets_under_24px(page) == [], width
    lines = page.evaluate("""() => { const cell = [...document.querySelectorAll('table.diff td')]
        .find(td => td.textContent.includes('linkedin')); const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }""")
    assert lines > 2  # at 390 px the addresses did wrap, so the check above had breaks to look at
    assert listings.axe_violations(page) == []


def test_web_addresses_in_a_listings_public_updates_wrap_at_their_separators(site: RunningServer, founder: Founder,
                                                                             page: Any) -> None:
    c: Any = site.container
    listing_id = new_listing(site, founder.who, "Quillstone")
    assert c.runtime.wait_for(["listing_view", "search_view", "launches_view"], listing_cmd.staff_publish(c.store, listing_id, STAFF),
                              timeout=10)
    body = f"Release notes: {LINKS['github']}/releases/tag/version-two-point-zero, and we are on {LINKS['linkedin']}"
    with httpx.Client(base_url=site.url + API, timeout=20) as api:
        r = api.post(f"/me/listings/{listing_id}/updates", json={"title": "Version 2", "body": body},
                     headers=founder.who.headers(**ik()))
        assert r.status_code in (200, 201), r.text
        slug = api.get(f"/me/listings/{listing_id}", headers=founder.who.headers()).json()["slug"]
    assert c.runtime.wait_for(["updates_view", "listing_view", "search_view"], c.store.position(), timeout=10)
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/listings/{slug}", width)
        update = page.locator("section[id^=update-] .text").first
        assert update.inner_text() == body  # the text as written: the break opportunities add no character
        assert _address_breaks_inside_words(page, "section[id^=update-] .text") == [], width
        assert not scrolls_sideways(page), width
        lines = page.evaluate("""() => { const range = document.createRange();
            range.selectNodeContents(document.querySelector('section[id^=update-] .text'));
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }""")
        assert width > 390 or lines > 3  # on the phone the addresses did wrap: the check had breaks to look at
    assert listings.axe_violations(page) == []


def test_a_weeks_message_sits_between_its_label_and_its_menu_as_every_fields_does(site: RunningServer,
                                                                                   founder: Founder, page: Any) -> None:
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/my/listings/{founder.draft_id}/order?product=featured", width)
        page.get_by_label("Billing country").select_option("DE")
        page.get_by_label("EU VAT number (businesses, optional)").fill("DE123")
        page.get_by_role("button", name="See the quote").click()
        page.locator("#week-featured-error").wait_for()
        assert page.locator("#week-featured-error").inner_text().endswith("Choose a week.")
        assert page.locator("#vat_number-error").is_visible()  # a field of the macros, for comparison
        assert _errors_out_of_place(page) == [], width
        assert page.get_by_label("Week for Featured placement").get_attribute("aria-invalid") == "true"
        assert not scrolls_sideways(page)
    assert listings.axe_violations(page) == []


def test_the_vat_note_is_said_once_and_only_when_it_adds_to_the_vat_row(site: RunningServer, founder: Founder,
                                                                         page: Any) -> None:
    body = {"items": [{"product": "launch", "listing_id": founder.draft_id}], "billing_country": "DE"}
    with httpx.Client(base_url=site.url + API, timeout=20) as api:
        r = api.post("/orders/checkout", json=body, headers=founder.who.headers(**ik()))
        assert r.status_code == 201, r.text
        checkout = r.json()["checkout_url"]
    for width in listings.WIDTHS:
        _at(page, checkout, width)
        assert page.locator("#vat-label").inner_text().strip() == "VAT 19 % (Germany)"
        assert "Standard VAT of Germany" not in page.locator("main").inner_text()  # the row says it
        assert page.locator("#vat-note").inner_text() == ""
    assert listings.axe_violations(page) == []
    page.get_by_label("Country", exact=True).select_option("FR")
    page.get_by_label("VAT number", exact=False).press_sequentially("FR40303265045")
    page.wait_for_function("() => document.getElementById('vat-label').textContent.trim()"
                           " === 'VAT reverse charge (0 %)'")
    note = page.locator("#vat-note").inner_text().strip()  # a note that says more: who accounts for the VAT
    assert note.startswith("Reverse charge: VAT to be accounted for by the customer")
    assert page.locator("main").inner_text().count(note) == 1
    assert listings.axe_violations(page) == []

    _at(page, f"{site.url}/my/listings/{founder.draft_id}/order?product=launch", 1440)  # the order form's quote too
    page.get_by_label("Billing country").select_option("DE")
    page.get_by_role("button", name="See the quote").click()
    page.locator("#quote-total").wait_for()
    assert "Standard VAT of Germany" not in page.locator("#quote").inner_text()
    _at(page, f"{site.url}/my/listings/{founder.draft_id}/order?product=launch", 1440)
    page.get_by_role("button", name="See the quote").click()
    page.locator("#quote-total").wait_for()
    assert "VAT is decided once the billing country is known" not in page.locator("#quote").inner_text()


def test_the_accounts_change_link_is_24_px_tall(site: RunningServer, page: Any) -> None:
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/account", width)
        change = page.locator("#account-email").get_by_role("link", name="Change").bounding_box()
        assert change["height"] >= 24 and change["width"] >= 24, (width, change)
        assert targets_under_24px(page) == [] and not scrolls_sideways(page), width
    assert listings.axe_violations(page) == []


def test_the_draft_editors_chips_are_24_px_tall(site: RunningServer, founder: Founder, page: Any) -> None:
    with serve("devtool") as fixture, httpx.Client(base_url=site.url + API, timeout=20) as api:
        r = api.post("/drafts", json={"url": fixture.url("/")}, headers=founder.who.headers(**ik()))
        assert r.status_code == 201, r.text
        draft = r.json()["id"]
        deadline = time.monotonic() + 60
        while api.get(f"/drafts/{draft}", headers=founder.who.headers()).json()["status"] not in ("ready", "failed"):
            assert time.monotonic() < deadline
            time.sleep(0.1)
    for width in listings.WIDTHS:
        _at(page, f"{site.url}/drafts/{draft}", width)
        assert shown(page, "main .chip") > 5  # each field's state
        assert targets_under_24px(page) == [] and not scrolls_sideways(page), width
    assert listings.axe_violations(page) == []
