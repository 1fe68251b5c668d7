"""The visitor's pages after the polish of 2026-12-04, in Chromium with the demo directory, at 390 and 1440 px.

A featured launch wears a "Featured" pill on the boards (the week's ranking, the home page's week, its category's
"Featured this week"), not a bare word after its votes; chips (category links and every other pill) and small links
are at least 24 CSS px tall (WCAG 2.2 target size) on every page that has them, and no page scrolls sideways for it.
axe-core finds no serious or critical violation on each page.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.website_support import demo_server, offline

SMALL_TARGETS = "main .pill, main .chip, main .meta a, main a.inline-action"


def targets_under_24px(page: Any, selector: str = SMALL_TARGETS) -> list[tuple[str, float, float]]:
    """Chips and small links shown on the page that are less than 24 x 24 CSS px: (text, width, height)."""
    return [tuple(t) for t in page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter(e => e.getClientRects().length > 0 && !e.closest('.visually-hidden'))
        .map(e => { const r = e.getBoundingClientRect(); return [e.textContent.trim(), r.width, r.height]; })
        .filter(([, w, h]) => w < 24 || h < 24)""", selector)]


def shown(page: Any, selector: str = SMALL_TARGETS) -> int:
    return int(page.locator(selector).evaluate_all("els => els.filter(e => e.getClientRects().length > 0).length"))


def scrolls_sideways(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth > innerWidth"))


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False) as running:
        yield running


@pytest.fixture(scope="module")
def week(site: RunningServer) -> dict[str, Any]:
    with httpx.Client(base_url=site.url, timeout=20) as api:
        return dict(api.get("/api/v1/launches/weeks/this").json())


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    yield context.new_page()
    context.close()


def _featured_pills(page: Any, card_list: str) -> dict[str, list[str]]:
    """Each card of the list by its listing's name: the texts of its `.pill.featured`, and any bare "Featured"
    written outside a pill."""
    return dict(page.evaluate("""(list) => [...document.querySelectorAll(list + ' > li.card')].map(card => {
        const meta = card.querySelector('.meta');
        const loose = [...meta.childNodes].filter(n => n.nodeType === 3 && n.data.includes('Featured'));
        return [card.querySelector('h3').textContent.trim(),
                [...meta.querySelectorAll('.pill.featured')].map(p => p.textContent.trim())
                  .concat(loose.map(() => 'bare text'))];
    })""", card_list))


def test_a_featured_launch_wears_a_featured_pill_on_the_boards(site: RunningServer, week: dict[str, Any],
                                                               page: Any) -> None:
    featured = {x["listing"]["name"] for x in week["launches"] if x["featured"]}
    assert featured, "the demo week has a featured launch"
    expected = {x["listing"]["name"]: (["Featured"] if x["featured"] else []) for x in week["launches"]}
    for path, cards in (("/launches/this", "#ranking"), ("/", "section[aria-labelledby=week-h] ol.cards")):
        for width in listings.WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(site.url + path)
            assert _featured_pills(page, cards) == expected, (path, width)
            for pill in page.locator(f"{cards} .pill.featured").all():
                box = pill.bounding_box()
                assert box["height"] >= 24, (path, width, box)
                assert pill.evaluate("p => getComputedStyle(p).borderTopStyle") == "solid"  # a badge, not a word
            assert not scrolls_sideways(page), (path, width)
        assert listings.axe_violations(page) == [], path

    slug = next(x["listing"]["slug"] for x in week["launches"] if x["featured"])
    with httpx.Client(base_url=site.url, timeout=20) as api:
        category = api.get(f"/api/v1/listings/{slug}").json()["categories"]["primary"]["slug"]
    page.goto(f"{site.url}/categories/{category}")
    section = "section[aria-labelledby=featured-h] ul.cards"
    pills = _featured_pills(page, section)
    assert pills and all(texts == ["Featured"] for texts in pills.values()), pills
    assert listings.axe_violations(page) == []


def test_chips_and_small_links_are_at_least_24_px_tall(site: RunningServer, week: dict[str, Any], page: Any) -> None:
    slug = week["launches"][0]["listing"]["slug"]
    with httpx.Client(base_url=site.url, timeout=20) as api:
        post = api.get("/api/v1/blog").json()["items"][0]["slug"]
        category = api.get(f"/api/v1/listings/{slug}").json()["categories"]["primary"]["slug"]
    paths = ("/", f"/listings/{slug}", "/launches/this", f"/categories/{category}", "/blog", f"/blog/{post}",
             "/updates", "/leaderboards/community-weekly")
    for path in paths:
        for width in listings.WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(site.url + path)
            assert shown(page) > 0, (path, "has chips or small links")
            assert targets_under_24px(page) == [], (path, width)
            assert not scrolls_sideways(page), (path, width, listings.wider_than_the_screen(page)[:5])
        assert listings.axe_violations(page) == [], path
    page.goto(f"{site.url}/listings/{slug}")
    chip = page.locator("main .meta a.pill").first  # the category chip of the listing's header
    assert chip.bounding_box()["height"] >= 24
