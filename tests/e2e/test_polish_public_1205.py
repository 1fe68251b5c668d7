"""The visitor's pages after the polish of 2026-12-05, in Chromium with the demo directory, at 390 and 1440 px.

A launch week has one name for people on every page that shows one ("30 Nov – 6 Dec 2026", in a heading
"Week 49, 2026 (30 Nov – 6 Dec)"), never its ISO code nor its Monday's date, while addresses keep the Monday; a
month of revenue is said in words ("October 2026"); "Based in" shows a quote of the product's site only beside
the value it was found for (none for a city the owner typed); the header's "Sign in" brings people back to the page
they were on, kept signed-out pages included. No page scrolls sideways, and axe-core finds no serious or critical
violation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote, urlsplit
from uuid import uuid4

import httpx
import pytest

import aggregates.listing as listing
from aggregates.base import Meta
from events.week_names import week_name
from commands import listing as listing_cmd
from tests.conftest import RunningServer
from tests.e2e.test_public_pages_polish import PASSWORD, person
from tests.e2e.website_support import at_both_widths, demo_server, offline

WEEK_CODE = re.compile(r"\b\d{4}-W\d{2}\b")  # "2026-W49"
WEEK_OF_DAY = re.compile(r"week of \d{4}-\d{2}-\d{2}", re.IGNORECASE)  # "week of 2026-11-30"


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False) as running:
        yield running


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    yield context.new_page()
    context.close()


def api(site: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=site.url + "/api/v1", timeout=20)



def words(page: Any) -> str:
    """What a person reads: the title, the meta description and the main text."""
    description = page.locator("meta[name=description]")
    return "\n".join([page.title(), description.get_attribute("content") if description.count() else "",
                      page.locator("main").inner_text()])


def no_machine_week(page: Any) -> str:
    text = words(page)
    assert not WEEK_CODE.search(text) and not WEEK_OF_DAY.search(text), (page.url, text[:2000])
    return text


def test_a_week_has_one_name_for_people_on_every_public_page(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        this = http.get("/launches/weeks/this").json()
        upcoming = http.get("/launches", params={"section": "upcoming", "per_page": 50}).json()["items"]
        awards = http.get("/awards", params={"per_page": 5}).json()["items"]
    monday = this["week"]
    short, long = week_name(monday), week_name(monday, "long")
    assert this["label"].startswith(monday[:4] + "-W")  # the API keeps the ISO code

    at_both_widths(page, site.url + "/", "home")
    text = no_machine_week(page)
    assert page.locator(".hero .meta a", has_text=long).get_attribute("href") == f"/launches/{monday}"
    assert page.locator("#week-h").inner_text() == f"This week: {short}"
    upcoming_box = page.locator("section[aria-labelledby=upcoming-h] .meta").all_inner_texts()
    assert upcoming_box == [f"week of {week_name(x['listing']['launch_week'])}" for x in upcoming[:6]], upcoming_box

    at_both_widths(page, f"{site.url}/launches/this", "week")
    text = no_machine_week(page)
    assert page.locator("h1").inner_text() == f"Launches of {long}"
    assert page.title().startswith(f"Launches of {long} ·")
    assert long in str(page.locator("meta[name=description]").get_attribute("content"))
    previous = page.locator("nav[aria-label=Weeks] a[rel=prev]").get_attribute("href")
    assert previous == "/launches/" + (date.fromisoformat(monday) - timedelta(weeks=1)).isoformat()  # addresses keep it

    at_both_widths(page, f"{site.url}/leaderboards/community-weekly", "board-weekly")
    no_machine_week(page)
    assert page.locator("main > p.meta").first.inner_text() == long
    last = (date.fromisoformat(monday) - timedelta(weeks=1)).isoformat()
    page.goto(f"{site.url}/leaderboards/community-weekly?week=last")
    no_machine_week(page)
    assert page.locator("main > p.meta").first.inner_text() == week_name(last, "long")
    notes = [t for t in page.locator("main ol.cards .meta").all_inner_texts() if " votes in " in t]
    assert notes and all(f"in the week of {week_name(last)}" in t for t in notes), notes

    at_both_widths(page, f"{site.url}/awards", "awards")
    no_machine_week(page)
    assert awards
    first = page.locator("main section h2 a").first
    assert first.inner_text() == week_name(awards[0]["week"], "long")
    assert first.get_attribute("href") == f"/launches/{awards[0]['week']}"

    at_both_widths(page, f"{site.url}/launches?section=upcoming", "launches-upcoming")
    no_machine_week(page)
    cards = page.locator("main ol.cards > li.card")
    for i, x in enumerate(upcoming[:cards.count()]):
        assert f"Launching {week_name(x['listing']['launch_week'])}" in cards.nth(i).inner_text()

    launched = this["launches"][0]["listing"]
    at_both_widths(page, f"{site.url}/listings/{launched['slug']}", "listing")
    text = no_machine_week(page)
    link = page.locator(f"header a[href='/launches/{monday}']")
    assert link.inner_text() == f"week of {short}" and f"Launched in the week of {short}" in text

    scheduled = next(x["listing"] for x in upcoming if x["listing"].get("launch_week"))
    at_both_widths(page, f"{site.url}/listings/{scheduled['slug']}", "upcoming")
    text = no_machine_week(page)
    assert f"launches in the week of {week_name(scheduled['launch_week'])}." in text

    page.goto(f"{site.url}/search?q={quote(scheduled['name'])}")
    no_machine_week(page)


def test_a_month_of_revenue_is_said_in_words(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        board = http.get("/leaderboards/revenue", params={"per_page": 20}).json()["items"]
    assert board
    months = [datetime.strptime(x["metric"]["period"], "%Y-%m").strftime("%B %Y") for x in board]

    at_both_widths(page, f"{site.url}/leaderboards/revenue", "revenue")
    metas = page.locator("main ol.cards > li.card .meta").all_inner_texts()
    assert len(metas) == len(board)
    for meta, month in zip(metas, months, strict=True):
        assert f"revenue in {month}" in meta, (meta, month)
        assert not re.search(r"\b\d{4}-\d{2}\b", meta), meta

    slug = board[0]["listing"]["slug"]
    at_both_widths(page, f"{site.url}/listings/{slug}", "listing-revenue")
    box = page.locator("aside section.box", has=page.locator("h2", has_text="Revenue")).inner_text()
    assert f" in {months[0]}" in box, box


def _meta(actor: str = "staff:test") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=actor, channel="cli")


def _listing_with_evidence(site: RunningServer, evidence: dict[str, list[dict[str, str]]]) -> tuple[int, str]:
    """A published listing based in Tallinn, Estonia, with `evidence` from its site (as a draft leaves it)."""
    c = site.container
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Harbour {uuid4().hex[:6]}", "tagline": "Ships on time", "website_url": "https://harbour.example",
                 "city": "Tallinn", "country": "EE"},
        categories=["analytics"]), _meta())
    c.store.decide(listing.listing_stream(made.listing_id), listing,
                   lambda s: listing.decide_set_evidence(s, evidence, _meta()))
    position = listing_cmd.staff_publish(c.store, made.listing_id, _meta())
    assert c.runtime.wait_for(["listing_view", "search_view"], position, timeout=10)
    return made.listing_id, made.slug


def _edit(site: RunningServer, listing_id: int, changes: dict[str, str]) -> None:
    c = site.container
    position = listing_cmd.edit_listing(c.store, listing_id, changes, _meta("account:owner"))
    assert c.runtime.wait_for(["listing_view", "search_view"], position, timeout=10)


def based_in(page: Any) -> tuple[str, list[str], list[str]]:
    """The "Based in" row: its value, its evidence summaries and their quotes."""
    dd = page.locator("xpath=//aside//dt[.='Based in']/following-sibling::dd[1]")
    value = str(dd.evaluate("e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('')"))
    return (value.strip(), dd.locator("details.evidence summary").all_inner_texts(),
            [str(q) for q in dd.locator("details.evidence blockquote").all_text_contents()])


def test_based_in_shows_a_quote_only_beside_the_value_it_was_found_for(site: RunningServer, page: Any) -> None:
    both = [{"url": "https://harbour.example/about", "quote": "Harbour is made in Tallinn, Estonia."}]
    listing_id, slug = _listing_with_evidence(site, {"city": both, "country": both})
    page.goto(f"{site.url}/listings/{slug}")
    assert based_in(page) == ("Tallinn, Estonia", ["City and country from harbour.example/about"],
                              ["“Harbour is made in Tallinn, Estonia.”"])

    _edit(site, listing_id, {"city": "Tartu"})  # the owner types the city: the site's quote no longer speaks for it
    at_both_widths(page, f"{site.url}/listings/{slug}", "based-in-owner-city")
    value, summaries, _ = based_in(page)
    assert value == "Tartu, Estonia"
    assert summaries == ["Country from harbour.example/about"], summaries

    city = [{"url": "https://harbour.example/contact", "quote": "Visit us in Tallinn."}]
    country = [{"url": "https://harbour.example/legal", "quote": "Harbour OÜ, registered in Estonia."}]
    listing_id, slug = _listing_with_evidence(site, {"city": city, "country": country})
    page.goto(f"{site.url}/listings/{slug}")
    assert based_in(page)[1] == ["City from harbour.example/contact", "Country from harbour.example/legal"]
    _edit(site, listing_id, {"country": "FI"})  # an owner-typed country keeps the city's quote, and no other
    page.goto(f"{site.url}/listings/{slug}")
    value, summaries, quotes = based_in(page)
    assert value == "Tallinn, Finland"
    assert summaries == ["City from harbour.example/contact"] and quotes == ["“Visit us in Tallinn.”"]


def sign_in_href(page: Any) -> str:
    return str(page.locator("nav[aria-label='Your account'] a", has_text="Sign in").get_attribute("href"))


def test_the_headers_sign_in_brings_people_back_to_the_page_they_were_on(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        slug = http.get("/launches/weeks/this").json()["launches"][0]["listing"]["slug"]
    for path in (f"/listings/{slug}", f"/listings/{slug}?page=1", f"/listings/{slug}", "/launches/this",
                 "/launches/this?x=1", "/", "/search?q=analytics&category=analytics", "/api/v1/docs"):
        page.goto(site.url + path)  # each kept signed-out page asked twice or with another query names itself
        assert sign_in_href(page) == "/signin?next=" + quote(path, safe="/"), path

    page.goto(f"{site.url}/signin")
    assert sign_in_href(page) == "/signin"
    page.goto(f"{site.url}/signup?next={quote('/listings/' + slug, safe='')}")
    assert sign_in_href(page) == "/signin?next=" + quote(f"/listings/{slug}", safe="/")  # the carried page, kept

    at_both_widths(page, f"{site.url}/launches?section=trending&page=1", "signin-link")
    page.get_by_role("navigation", name="Your account").get_by_role("link", name="Sign in").click()
    page.get_by_label("Email address").fill(person(site))
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape("/launches?section=trending&page=1") + "$"))
    assert urlsplit(page.url).path == "/launches"
    assert page.get_by_role("navigation", name="Your account").get_by_role("link", name="Account").count() == 1
