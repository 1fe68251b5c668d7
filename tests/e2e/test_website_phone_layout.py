"""The visitor's and the founder's pages on a 390 px phone and a 1440 px screen, in Chromium with the demo directory.

No page scrolls sideways at either width (`scrollWidth <= innerWidth`), axe-core finds no serious or critical
violation, and the small layout and wording fixes found by walking both journeys stay fixed: the error box's
heading sits at its top, sign-in's boxes share one width and its error says what to do next, the 404 page's
search form stays inside the page, search filters line up on a phone, an empty search offers a next step, and
tick boxes and round choices are big enough to hit with a thumb.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.test_web_accounts import PASSWORD, _signed_in
from tests.e2e.website_support import demo_server, offline

VISITOR_PAGES = ("/", "/search?q=analytcs", "/search?q=zzqxwvnothing", "/categories/developer-tools",
                 "/launches/this", "/leaderboards/community-weekly", "/signup", "/signin", "/no/such/page",
                 "/api/v1/docs")
FOUNDER_PAGES = ("/submit", "/drafts", "/my/listings", "/my/orders", "/account", "/account/password",
                 "/account/sessions", "/account/email", "/account/close")


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False) as running:
        yield running


@pytest.fixture(scope="module")
def slug(site: RunningServer) -> str:
    with httpx.Client(base_url=site.url, timeout=20) as api:
        items = api.get("/api/v1/launches", params={"section": "most-voted", "per_page": 1}).json()["items"]
    return str(items[0]["listing"]["slug"])


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    yield context.new_page()
    context.close()


def _fits(page: Any, url: str) -> None:
    """At 390 and 1440 px: nothing wider than the screen, and axe-core content (at the last width)."""
    for width in listings.WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url)
        over = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert over <= 0, (url, width, listings.wider_than_the_screen(page)[:5])
    assert listings.axe_violations(page) == [], url


def _box(page: Any, selector: str) -> dict[str, float]:
    return dict(page.locator(selector).first.bounding_box())


def test_no_visitor_page_scrolls_sideways(site: RunningServer, slug: str, page: Any) -> None:
    for path in (*VISITOR_PAGES, f"/listings/{slug}"):
        _fits(page, site.url + path)


def test_no_signed_in_founder_page_scrolls_sideways(site: RunningServer, slug: str, page: Any) -> None:
    with httpx.Client(base_url=site.url, timeout=20, follow_redirects=False) as client:
        address = _signed_in(site, client)
    listings.sign_in(page, site.url, address, PASSWORD, then="/account")
    for path in (*FOUNDER_PAGES, f"/listings/{slug}"):
        _fits(page, site.url + path)
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{site.url}/listings/{slug}")
    for choice in page.locator('input[name="rating"]').all():  # the review's stars: thumb-sized, not 13 px
        box = choice.bounding_box()
        assert box["width"] >= 18 and box["height"] >= 18, box


def test_a_wrong_password_says_what_to_do_and_the_form_lines_up(site: RunningServer, page: Any) -> None:
    for width in listings.WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(site.url + "/signin")
        page.get_by_label("Email address").fill("nobody@example.com")
        page.get_by_label("Password").fill("not the password at all")
        page.get_by_role("button", name="Sign in").click()
        page.locator(".error-summary").wait_for()
        assert "Forgot your password?" in page.locator("#password-error").inner_text()
        summary, heading = _box(page, ".error-summary"), _box(page, ".error-summary h2")
        assert heading["y"] - summary["y"] < 24, "no empty band above the error box's heading"
        email, password = _box(page, "#email"), _box(page, "#password")
        assert abs(email["width"] - password["width"]) < 1, (width, email, password)
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
    assert listings.axe_violations(page) == []


def test_the_404_search_form_stays_inside_the_page_on_a_phone(site: RunningServer, page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(site.url + "/no/such/page")
    form, button = _box(page, "main .site-search"), _box(page, "main .site-search button")
    assert button["x"] + button["width"] <= form["x"] + form["width"] + 1, (form, button)


def test_search_filters_line_up_on_a_phone_and_an_empty_search_offers_a_next_step(site: RunningServer,
                                                                                  page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(site.url + "/search?q=analytcs")
    main = _box(page, "main")
    for label in ("Category", "Stage", "Pricing", "Country", "Status"):
        box = _box(page, f'form.filters label:has-text("{label}") select')
        assert box["width"] >= 140, (label, box)  # two a row, each half the phone's width
        assert box["x"] + box["width"] <= main["x"] + main["width"], (label, box)
    page.goto(site.url + "/search?q=zzqxwvnothing")
    empty = page.locator("main p.empty")
    assert empty.get_by_role("link", name="browse the categories").get_attribute("href") == "/categories"


def test_the_api_docs_page_names_the_site_and_shows_names_as_code(site: RunningServer, page: Any) -> None:
    """The docs page says the site's name as every page does, and the descriptions' `names` read as code."""
    with httpx.Client(base_url=site.url, timeout=20) as api:
        name = api.get("/api/v1/site").json()["name"]
    page.goto(site.url + "/api/v1/docs")
    assert page.locator("a.brand").inner_text() == name and page.locator("h1").inner_text().startswith(f"{name} API")
    assert "`" not in page.locator("main").inner_text()
    described = page.locator("main td:last-child code")  # e.g. search's `q`, an order's `checkout_url`
    assert described.count() > 0 and "checkout_url" in described.all_inner_texts()
