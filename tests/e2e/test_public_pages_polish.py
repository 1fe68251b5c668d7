"""The visitor's pages after a walk of the demo directory at 390 x 844 and 1440 x 900, in Chromium.

A vote moves every count of its listing on the page (with script in place, without it after the reload); the
followed listings are the search page's cards; Trending says what it is ranked by and shows that figure; the
revenue board keeps the listing's "Verified" apart from how its revenue is known; a comparison shows where each
listing is based, keeps its row names whole on a phone and asks for names in a form of its own; a founder's story
cards have a gap; breadcrumbs are 24 px targets; the pricing page says where orders and invoices are and whom to
write to. No page scrolls sideways, and axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates.base import Meta
from commands import account as account_cmd
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.website_support import at_both_widths, demo_server, offline

PASSWORD = "a good long password"


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False) as running:
        yield running


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    yield context
    context.close()


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()


def api(site: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=site.url + "/api/v1", timeout=20)


def person(site: RunningServer) -> str:
    """A verified account with a password (as an operator makes one): its email address."""
    c = site.container
    address = f"walker-{uuid4().hex[:8]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=address, password=PASSWORD, verified=True)
    account_cmd.register_account(c.store, cmd, Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli"),
                                 None)
    c.runtime.catch_up("accounts_view")
    return address


def sign_in(page: Any, site: RunningServer, address: str) -> None:
    page.goto(f"{site.url}/signin?next=/account")
    page.get_by_label("Email address").fill(address)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(site.url + "/account")))



def community_votes(page: Any) -> str:
    return str(page.locator("xpath=//aside//dt[.='Votes']/following-sibling::dd[1]").inner_text()).strip()


def test_a_vote_moves_every_count_of_its_listing_on_its_page(site: RunningServer, page: Any, chromium: Any) -> None:
    with api(site) as http:
        week = http.get("/launches/weeks/this").json()["launches"]
    first, second = week[-1]["listing"]["slug"], week[-2]["listing"]["slug"]
    address = person(site)
    sign_in(page, site, address)

    page.goto(f"{site.url}/listings/{first}")
    button = page.locator(f"#vote-{first} button")
    before = int(button.locator(".n").inner_text())
    assert community_votes(page) == str(before)
    button.click()
    page.wait_for_function("(n) => document.querySelector('button.vote .n').textContent === String(n)", arg=before + 1)
    assert community_votes(page) == str(before + 1), "the Community box moves with the button"
    assert button.get_attribute("aria-pressed") == "true"
    at_both_widths(page, f"{site.url}/listings/{first}", "listing-voted")
    assert community_votes(page) == str(before + 1)  # and the page says so when read again

    without_script = chromium.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    offline(without_script)
    try:
        plain = without_script.new_page()
        sign_in(plain, site, address)
        plain.goto(f"{site.url}/listings/{second}")
        count = int(plain.locator(f"#vote-{second} button .n").inner_text())
        plain.locator(f"#vote-{second} button").click()
        plain.wait_for_url(re.compile(re.escape(f"/listings/{second}")))
        assert int(plain.locator(f"#vote-{second} button .n").inner_text()) == count + 1
        assert community_votes(plain) == str(count + 1), "the page after the form's POST shows the new count"
    finally:
        without_script.close()


def test_the_followed_listings_are_the_search_pages_cards(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        slugs = [x["listing"]["slug"] for x in http.get("/launches/weeks/this").json()["launches"][:2]]
        cards = {s: http.get(f"/listings/{s}").json() for s in slugs}
    sign_in(page, site, person(site))
    for slug in slugs:
        page.goto(f"{site.url}/listings/{slug}")
        page.locator(f"#follow-{slug} button").click()
        page.wait_for_url(re.compile(re.escape(f"/listings/{slug}")))
    at_both_widths(page, f"{site.url}/account/following", "following")
    shown = page.evaluate("""() => [...document.querySelectorAll('main ul.cards > li.card')].map(card => ({
        rank: card.querySelectorAll('.rank').length,
        empty: [...card.children].filter(e => e.tagName === 'SPAN' && !e.textContent.trim()).length,
        letter: (card.querySelector('.logo.initial') || {textContent: ''}).textContent.trim(),
        name: card.querySelector('h3').textContent.trim(),
        tagline: (card.querySelector('h3 + p') || {textContent: ''}).textContent.trim(),
        unranked: card.classList.contains('unranked'),
    }))""")
    assert len(shown) == 2, shown
    for card in shown:
        doc = next(d for d in cards.values() if d["name"] == card["name"])
        assert card == {"rank": 0, "empty": 0, "letter": doc["name"][0], "name": doc["name"],
                        "tagline": doc["tagline"], "unranked": True}, card


def test_trending_says_what_it_is_ranked_by_and_shows_that_figure(site: RunningServer, page: Any) -> None:
    def figures(texts: list[str]) -> list[float]:
        found = [re.search(r"([\d.]+) weighted votes", t) for t in texts]
        assert all(found), texts
        return [float(m.group(1)) for m in found if m]

    at_both_widths(page, site.url + "/", "home")
    box = page.locator("section[aria-labelledby=trending-h]")
    assert "newest weigh most" in box.locator("p.meta").first.inner_text()
    home = figures(box.locator("ol > li .meta").all_inner_texts())
    assert len(home) > 1 and home == sorted(home, reverse=True), home

    at_both_widths(page, f"{site.url}/launches?section=trending", "trending")
    assert "newest weigh most" in page.locator("main > p.meta").first.inner_text()
    feed = figures(page.locator("main ol.cards > li.card .meta").all_inner_texts())
    assert len(feed) > 1 and feed == sorted(feed, reverse=True), feed


def test_the_revenue_board_says_the_revenue_is_self_reported_apart_from_the_verified_listing(
        site: RunningServer, page: Any) -> None:
    at_both_widths(page, f"{site.url}/leaderboards/revenue", "revenue")
    metas = page.locator("main ol.cards > li.card .meta").all_inner_texts()
    assert metas and not [m for m in metas if "(self-reported)" in m or "(verified)" in m], metas
    pills = page.evaluate("""() => [...document.querySelectorAll('main ol.cards > li.card .meta')].map(m =>
        [...m.querySelectorAll('.pill')].map(p => p.textContent.trim()))""")
    for texts in pills:
        assert len([t for t in texts if t in ("Revenue self-reported", "Revenue verified")]) == 1, texts
    assert any("Verified" in t and "Revenue self-reported" in t for t in pills), "the demo's contradiction, now apart"


def test_a_comparison_shows_where_each_listing_is_based_and_a_form_to_compare_others(
        site: RunningServer, page: Any) -> None:
    with api(site) as http:
        based = http.get("/listings", params={"country": "EE", "per_page": 1}).json()["items"][0]
        other = http.get(f"/listings/{based['slug']}/alternatives", params={"per_page": 1}).json()["items"][0]
        doc = http.get(f"/listings/{based['slug']}").json()
    where = (f"{doc['city']}, " if doc.get("city") else "") + "Estonia"
    page.goto(f"{site.url}/listings/{based['slug']}")
    assert where in page.locator("dl.facts").first.evaluate("e => e.closest('aside').innerText")

    url = f"{site.url}/compare?a={based['slug']}&b={other['slug']}"
    at_both_widths(page, url, "compare")
    rows = dict(page.evaluate("""() => [...document.querySelectorAll('table.compare tbody tr')]
        .map(r => [r.querySelector('th').textContent.trim(), r.querySelector('td').textContent.trim()])"""))
    assert rows["Based in"] == where, rows
    page.set_viewport_size({"width": 390, "height": 844})
    assert listings.words_split_across_lines(page, "table.compare th, table.compare td") == []
    table, form = page.locator("table.compare").bounding_box(), page.locator("form[action='/compare']").bounding_box()
    assert form["y"] - (table["y"] + table["height"]) >= 24, "the form stands apart from the table"
    assert page.get_by_label("First listing").get_attribute("aria-describedby") == "compare-hint"

    page.get_by_label("First listing").fill(based["name"])  # a name as the listing's page shows it
    page.get_by_label("Second listing").fill(f"{site.url}/listings/{other['slug']}")  # or its page's address
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url(re.compile(re.escape(f"/compare?a={based['slug']}&b={other['slug']}") + "$"))
    assert page.locator("h1").inner_text() == f"{based['name']} vs {other['name']}"


def test_story_cards_have_a_gap_and_breadcrumbs_are_24_px_targets(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        founders = http.get("/founders", params={"per_page": 100}).json()["items"]
        slug = next(f["slug"] for f in founders
                    if len(http.get(f"/founders/{f['slug']}").json().get("stories") or []) > 1)
        post = http.get("/blog").json()["items"][0]["slug"]
        category = http.get("/categories").json()["items"][0]["slug"]
    at_both_widths(page, f"{site.url}/founders/{slug}", "founder")
    boxes = [b.bounding_box() for b in page.locator("main h2:text-is('Stories') ~ section.box").all()]
    assert len(boxes) > 1
    for upper, lower in zip(boxes, boxes[1:], strict=False):
        assert lower["y"] - (upper["y"] + upper["height"]) >= 12, (upper, lower)

    for path in (f"/categories/{category}", f"/founders/{slug}", f"/blog/{post}"):
        at_both_widths(page, site.url + path, "crumbs-" + path.strip("/").replace("/", "-"))
        page.set_viewport_size({"width": 390, "height": 844})
        crumbs = [a.bounding_box() for a in page.locator("nav[aria-label=Breadcrumb] a").all()]
        assert crumbs and all(c["height"] >= 24 and c["width"] >= 24 for c in crumbs), (path, crumbs)


def test_the_pricing_page_says_where_orders_and_invoices_are_and_whom_to_ask(site: RunningServer,
                                                                              page: Any) -> None:
    at_both_widths(page, f"{site.url}/pricing", "pricing")
    text = page.locator("main").inner_text()
    assert "your orders show each one" not in text
    section = page.locator("h2", has_text="Questions about an order").locator("xpath=following-sibling::p[1]")
    words = section.inner_text()
    assert "invoice" in words and "signed in" in words.lower(), words
    assert section.locator("a[href='/my/orders']").count() == 1
    contact = section.locator("a[href^='mailto:']")
    assert contact.count() == 1 and contact.inner_text() == "hello@launchdir.example"
