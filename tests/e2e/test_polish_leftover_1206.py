"""Left-over polish of 2026-12-06, in Chromium with the demo directory.

A review sent from a listing's page comes back to a notice just above its form ("Your review is published.", then
"updated", or that nothing changed), in view and announced, without JavaScript; nobody else sees it. A logo that
cannot be loaded shows its first letter and no broken-image mark, with JavaScript off as with it on, while a logo
that loads still shows. The checkout page says its times as every other page does ("4 Dec 2026, 17:19 UTC" in a
`<time>`). Screenshots at 390 and 1440 px go to `SHOTS_DIR` when it is set.
"""

from __future__ import annotations

import base64
import re
import struct
import zlib
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import httpx
import pytest

from aggregates.base import Meta
from api.web_pages import moment_words
from commands import listing as listing_cmd
from commands import orders as orders_cmd
from commands.order_inputs import CreateCheckout
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.test_public_pages_polish import person, sign_in
from tests.e2e.test_staff_review_web import account
from tests.e2e.website_support import SHOTS, demo_server, offline

FIRST = "Closing the month takes an hour now; the bank sync missed two payments once."
SECOND = "After three months: the bank sync is reliable now and support answers within a day."
PHONE, WIDE = {"width": 390, "height": 844}, {"width": 1440, "height": 900}
SAME = 48  # the most a channel may differ between two screenshots that look alike (antialiased rounded corners)


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False) as running:
        yield running


@pytest.fixture
def no_script(chromium: Any) -> Iterator[Any]:
    """A browser context with JavaScript off whose demo logos fail to load (their hosts are never reached)."""
    context = chromium.new_context(java_script_enabled=False, viewport=PHONE)
    offline(context)
    yield context
    context.close()


def live_slug(site: RunningServer, n: int = 0) -> str:
    """A live demo listing of this week (the `n`th), its slug."""
    with httpx.Client(base_url=site.url + "/api/v1", timeout=20) as http:
        return str(http.get("/launches/weeks/this").json()["launches"][n]["listing"]["slug"])


def shot(page: Any, name: str, full: bool = False) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=full)


def in_view(page: Any, selector: str) -> bool:
    """Whether the element stands wholly inside the window as the page is scrolled now."""
    return bool(page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; }""", selector))


# ------------------------------------------------------------------ 1. a published review says so


def send_review(page: Any, rating: str, text: str, button: str, done: str, slug: str) -> Any:
    """Send the listing page's review form and land where it comes back to: the notice (`?done=`) above the form."""
    form = page.locator("form.review-form")
    form.get_by_label(rating).check()
    form.get_by_label("Your review").fill(text)
    form.get_by_role("button", name=button).click()
    page.wait_for_url(f"**/listings/{slug}?done={done}#review-done")
    return page.locator("#review-done")


def test_a_sent_review_is_confirmed_above_its_form_without_javascript(site: RunningServer, no_script: Any,
                                                                       chromium: Any) -> None:
    slug = live_slug(site)
    page = no_script.new_page()
    sign_in(page, site, person(site))
    page.goto(f"{site.url}/listings/{slug}")
    assert page.locator("#review-done").count() == 0  # nothing sent yet: no notice

    notice = send_review(page, "4 stars", FIRST, "Publish your review", "published", slug)
    assert notice.inner_text() == "Your review is published." and notice.get_attribute("role") == "status"
    assert page.locator("#review-form-title").inner_text() == "Edit your review"
    assert in_view(page, "#review-done") and in_view(page, "#review-form-title"), "the page comes back to the form"
    assert FIRST in page.locator("#reviews ol.reviews").inner_text()

    notice = send_review(page, "5 stars", SECOND, "Update your review", "updated", slug)
    assert notice.inner_text() == "Your review is updated." and in_view(page, "#review-done")
    shot(page, "review-notice-390")
    notice = send_review(page, "5 stars", SECOND, "Update your review", "unchanged", slug)
    assert notice.inner_text() == "Nothing changed: your review already said this."

    scripted = chromium.new_context(viewport=WIDE, storage_state=no_script.storage_state())  # axe needs scripts
    offline(scripted)
    try:
        page = scripted.new_page()
        page.goto(f"{site.url}/listings/{slug}?done=updated#review-done")
        assert in_view(page, "#review-done") and in_view(page, "#review-form-title")
        shot(page, "review-notice-1440")
        assert not page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
        assert listings.axe_violations(page) == []
    finally:
        scripted.close()


def test_the_notice_shows_only_to_someone_whose_review_it_is(site: RunningServer, no_script: Any) -> None:
    slug = live_slug(site)
    with httpx.Client(base_url=site.url, timeout=20) as anonymous:
        page = anonymous.get(f"/listings/{slug}?done=published")
        assert page.status_code == 200 and 'id="review-done"' not in page.text
    browser = no_script.new_page()
    sign_in(browser, site, person(site))  # signed in, no review of this listing
    browser.goto(f"{site.url}/listings/{slug}?done=published#review-done")
    assert browser.locator("#review-done").count() == 0
    assert browser.locator("#review-form-title").inner_text() == "Write a review"


# ------------------------------------------------------------------ 2. a logo that cannot be loaded


def png(rgb: tuple[int, int, int], size: int = 48) -> bytes:
    """A square PNG of one colour (a logo that loads)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * size for _ in range(size))
    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def logo_and_initial_alone(page: Any, selector: str, name: str) -> tuple[bytes, bytes]:
    """A screenshot of the logo as it shows, then of the same box with its image taken out (the initial alone)."""
    box = page.locator(selector).first
    box.scroll_into_view_if_needed()
    shown = box.screenshot(animations="disabled")
    box.evaluate("el => el.querySelectorAll('img').forEach(i => i.remove())")  # the test's doing, not the page's
    initial = box.screenshot(animations="disabled")
    if SHOTS:
        for kind, png_bytes in (("shown", shown), ("initial", initial)):
            with open(f"{SHOTS}/{name}-{kind}.png", "wb") as out:
                out.write(png_bytes)
    return shown, initial


def largest_difference(chromium: Any, a: bytes, b: bytes) -> int:
    """The largest difference of any colour channel at any pixel of two screenshots of one size, read by a page of
    the browser (0..255): a broken-image mark differs by far more than the edges of a rounded box drawn twice."""
    context = chromium.new_context()
    try:
        return int(context.new_page().evaluate("""async ([a, b]) => {
            const read = async data => {
                const image = new Image(); image.src = 'data:image/png;base64,' + data; await image.decode();
                const canvas = new OffscreenCanvas(image.width, image.height), pen = canvas.getContext('2d');
                pen.drawImage(image, 0, 0);
                return pen.getImageData(0, 0, image.width, image.height).data;
            };
            const [p, q] = [await read(a), await read(b)];
            if (p.length !== q.length) return 255;
            let most = 0;
            for (let i = 0; i < p.length; i++) most = Math.max(most, Math.abs(p[i] - q[i]));
            return most; }""", [base64.b64encode(a).decode(), base64.b64encode(b).decode()]))
    finally:
        context.close()


def test_a_logo_that_fails_shows_its_initial_and_no_broken_image_mark(site: RunningServer, no_script: Any,
                                                                       chromium: Any) -> None:
    slug = live_slug(site)
    page = no_script.new_page()
    for viewport, width in ((PHONE, 390), (WIDE, 1440)):
        page.set_viewport_size(viewport)
        page.goto(f"{site.url}/listings/{slug}")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")  # JavaScript off: Playwright's own
        img = page.locator(".profile header .logo img")
        assert img.count() == 1 and img.evaluate("i => i.naturalWidth") == 0, "the demo logo failed, still in place"
        shot(page, f"logo-failed-{width}")
        shown, initial = logo_and_initial_alone(page, ".profile header .logo", f"logo-box-{width}")
        assert largest_difference(chromium, shown, initial) <= SAME, "the failed logo looks like its initial alone"
        page.goto(f"{site.url}/")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        shot(page, f"home-cards-no-script-{width}")
        shown, initial = logo_and_initial_alone(page, ".card .logo", f"card-logo-box-{width}")
        assert largest_difference(chromium, shown, initial) <= SAME, "a card's failed logo looks like its initial"


def test_a_logo_that_loads_still_shows_and_with_javascript_a_failed_one_is_removed(site: RunningServer,
                                                                                  chromium: Any) -> None:
    slug = live_slug(site)
    context = chromium.new_context(java_script_enabled=False, viewport=WIDE)
    offline(context)  # the other demo logos fail; this one loads (the route added last is asked first)
    context.route(re.compile(rf"https://{re.escape(slug)}\.example\.com/logo\.png"),
                  lambda route: route.fulfill(status=200, content_type="image/png", body=png((200, 30, 30))))
    try:
        page = context.new_page()
        page.goto(f"{site.url}/listings/{slug}")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        assert page.locator(".profile header .logo img").evaluate("i => i.naturalWidth") == 48
        shown, initial = logo_and_initial_alone(page, ".profile header .logo", "logo-loaded-box-1440")
        assert largest_difference(chromium, shown, initial) > 100, "a logo that loads covers its initial"
    finally:
        context.close()
    context = chromium.new_context(viewport=WIDE)  # JavaScript on: the handler removes a failed logo, as before
    offline(context)
    try:
        page = context.new_page()
        page.goto(f"{site.url}/listings/{slug}")
        page.wait_for_function("() => !document.querySelector('.profile header .logo img')")
        assert page.locator(".profile header .logo").inner_text() == slug[:1].upper()
        shot(page, "logo-removed-with-script-1440")
    finally:
        context.close()


# ------------------------------------------------------------------ 3. times on the checkout page


def test_the_checkout_page_says_its_times_as_every_other_page(site: RunningServer) -> None:
    c = site.container
    buyer, _ = account(site, staff=False)
    meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{buyer}", channel="rest")
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Timely Books", "tagline": "Bookkeeping for small shops"}, categories=["analytics"],
        owner_ids=[buyer]), meta)
    body = CreateCheckout.model_validate({"items": [{"product": "ai_review", "listing_id": made.listing_id}],
                                          "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, buyer, meta, meta.at.date(), c.services.orders)
    orders_cmd.set_billing(c.store, placed.token, "Buyer", "US", "", "", meta, c.services.orders)
    state = orders_cmd.load(c.store, placed.number)
    assert state.expires_at is not None
    with httpx.Client(base_url=site.url, timeout=20) as http:
        page = http.get(f"/checkout/{placed.token}").text
        until = state.expires_at.astimezone(timezone.utc)
        assert (f'works until\n  <time datetime="{until.isoformat()}">{moment_words(until, timezone.utc)}</time>.'
                in page), re.findall(r"works until.{0,120}", page, re.S)
        orders_cmd.start_payment(c.store, placed.number, "test", "test_t", meta)
        orders_cmd.confirm_payment(c.store, placed.number, provider="test", reference="test_t",
                                   amount_cents=state.total_cents, source="test", event_id="", meta=meta)
        paid = orders_cmd.load(c.store, placed.number).paid_at
        assert paid is not None
        page = http.get(f"/checkout/{placed.token}").text
        on = paid.astimezone(timezone.utc)
        assert f'on <time datetime="{on.isoformat()}">{moment_words(on, timezone.utc)}</time>.' in page, \
            re.findall(r"Paid</strong>.{0,120}", page)
        assert not re.search(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC", page)  # the old "2026-12-04 17:19 UTC" nowhere
