"""The staff claims page on a phone: one card per claim, each readable and its Void form reachable without scrolling
sideways at 390 px; the same claims as a table at 1440 px. Headless Chromium against the running server, axe at both
widths, screenshots kept (LAUNCHDIR_SCREENSHOTS, else a temporary folder)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.founder_support_listings import axe_violations, sign_in
from tests.e2e.submission_support import ik, person
from tests.e2e.test_staff_claims_void_web import PASSWORD, public, staffer, verified_claim

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="claims-phone-shots-"))
API = "/api/v1"


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


def _past_the_right_edge(page: Any) -> list[str]:
    """Every element of the page, inside scrolling boxes too, whose right edge passes the viewport's (what a clip
    hides from sight, such as the column heads kept for screen readers, is not seen and scrolls nothing)."""
    return list(page.evaluate("""() => {
        const w = document.documentElement.clientWidth;
        const clipped = e => { for (let a = e; a; a = a.parentElement) if (getComputedStyle(a).clip !== 'auto') return true;
                               return false; };
        return [...document.querySelectorAll('main *')]
          .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > w + 1 && !clipped(e); })
          .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : ''));
    }"""))


def _scrolls_sideways(page: Any) -> bool:
    return bool(page.evaluate("""() => document.documentElement.scrollWidth > document.documentElement.clientWidth
        || [...document.querySelectorAll('.table-wrap')].some(e => e.scrollWidth > e.clientWidth + 1)"""))


def _inside(page: Any, selector: str, width: int) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def test_each_claim_is_a_card_on_a_phone_and_a_table_row_on_a_desktop(world: ClaimWorld, chromium: Any) -> None:
    claimant, other, staff = person(world.server), person(world.server), staffer(world)
    domain = f"a-rather-long-product-domain-{uuid4().hex[:8]}.com"
    listing_id, slug = live_listing(world, f"https://www.{domain}/")
    claim_id = verified_claim(world, claimant, slug)
    pending = httpx.post(f"{world.server.url}{API}/claims", json={"slug": slug, "method": "email",
                                                                   "email": f"founder@{domain}"},
                         headers=other.headers(**ik()), timeout=15)
    assert pending.status_code == 201, pending.text
    url = f"{world.server.url}/staff/claims"
    context = chromium.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    try:
        sign_in(page, world.server.url, staff.email, PASSWORD, then="/staff/claims")
        page.goto(url)
        card = page.locator("table.claims tbody tr").first
        assert card.evaluate("e => getComputedStyle(e).display") == "block"  # a card, not a table row
        assert page.locator("table.claims thead").evaluate("e => e.getBoundingClientRect().height") <= 1
        assert not _scrolls_sideways(page) and _past_the_right_edge(page) == []
        row = page.locator("table.claims tbody tr", has=page.locator(f"#void-reason-{claim_id}"))
        for label in ("Claim", "Started", "Listing", "Domain", "Method", "Claimant", "Status", "Checks"):
            assert row.locator(f'td[data-label="{label}"]').is_visible(), label
        assert domain in row.locator('td[data-label="Domain"]').inner_text()
        page.screenshot(path=str(SHOTS / "staff-claims-cards-390.png"), full_page=True)

        row.locator("details.void-claim summary").click()
        assert _inside(page, f"#void-reason-{claim_id}", 390)
        assert _inside(page, f'form[action="/staff/claims/{claim_id}/void"] button', 390)
        assert not _scrolls_sideways(page) and _past_the_right_edge(page) == []
        page.screenshot(path=str(SHOTS / "staff-claims-cards-void-open-390.png"), full_page=True)
        assert axe_violations(page) == []

        page.set_viewport_size({"width": 1440, "height": 900})
        page.goto(url)
        assert page.locator("table.claims tbody tr").first.evaluate("e => getComputedStyle(e).display") == "table-row"
        assert page.locator("table.claims thead th").first.is_visible()
        assert not _scrolls_sideways(page)
        page.screenshot(path=str(SHOTS / "staff-claims-table-1440.png"), full_page=True)
        assert axe_violations(page) == []

        page.set_viewport_size({"width": 390, "height": 900})  # void it on the phone: the form is reachable and works
        page.goto(url)
        row.locator("details.void-claim summary").click()
        page.locator(f"#void-reason-{claim_id}").fill("A record the domain's previous owner left behind.")
        page.locator(f'form[action="/staff/claims/{claim_id}/void"] button').click()
        page.get_by_role("status").filter(has_text=f"Claim {claim_id} is voided").wait_for()
        voided = page.locator("table.claims tbody tr", has_text="A record the domain's previous owner left behind.")
        assert "Voided" in voided.locator('td[data-label="Status"]').inner_text()
        assert not _scrolls_sideways(page) and _past_the_right_edge(page) == []
        page.screenshot(path=str(SHOTS / "staff-claims-cards-voided-390.png"), full_page=True)
        assert axe_violations(page) == []
    finally:
        context.close()
    assert public(world, slug)["verified"] is False and listing_id > 0
