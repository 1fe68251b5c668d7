"""A listing's staff tools on the website (2026-12-04), in headless Chromium at 390 and 1440 px and over HTTP.

- Staff open "Paid sections and badge check" from a listing's staff history, tick locked paid sections, give a
  reason and unlock them (`commands.listing.unlock`, as `launchdir staff unlock`): the page says what was
  unlocked, shows those sections as unlocked and no longer offers them; the public API document shows the
  milestones; the event is recorded as `staff:<email>` on the web with the reason. Ticking a section unlocked
  meanwhile says "Nothing changed". No section ticked or a short reason is shown next to its field.
- "Check the badge now" runs the owners' check (the `CheckBadgeNow` port, as `launchdir staff check-badge`) on a
  free listing's homepage on 127.0.0.1: not found and why, then found, the listing scheduled, recorded as the
  staff member; a saved listing (no plan) has nothing to check and no button.
- Signed out: to the sign-in page and back; signed in without the staff role: 403; a form without its token: 403;
  an unknown slug: 404. The staff navigation fits a phone's width on the new page.
- The owner's DNS claim shows the record's name and value as read-only text boxes with a Copy button each
  (site.js); without script they are the same boxes, selectable, with no button; the copied value verifies.

axe-core on every page opened in the browser; screenshots in LAUNCHDIR_SCREENSHOTS or /tmp/shots/staff-tools.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates import listing
from commands import free_plan as free_cmd
from commands import listing as listing_cmd
from queries import free_plan as free_q
from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world
from tests.e2e.founder_support_listings import (
    axe_violations,
    csrf_of,
    screenshots,
    sign_in,
    signed_in_client,
    wider_than_the_screen,
)
from tests.e2e.test_staff_review_web import PASSWORD, account, now_meta, staff_signs_in
from tests.fixtures.sites.server import Body, FixtureServer

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/shots/staff-tools"))
VIEWS = ["accounts_view", "listing_view", "history_view", "launches_view", "badge_checks_view"]


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    """A server of its own that may fetch homepages on 127.0.0.1 and asks a local DNS server for TXT records."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield from claims_world(databases)


def _listing(world: ClaimWorld, website: str, owner: str | None = None, live: bool = True) -> tuple[int, str]:
    """A listing with a story and a milestone, put live by staff on the free plan (saved, with no plan, unless `live`):
    (listing id, slug)."""
    c = world.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Toolbox {uuid4().hex[:6]}", "tagline": "A product staff look after", "website_url": website},
        categories=["productivity"], owner_ids=[owner] if owner else [],
        story={"problem": "Notes got lost.", "journey": "One place for them."},
        milestones=[{"date": "2026-01-05", "title": "First customer"}]), now_meta())
    position = created.position
    if live:
        position = listing_cmd.staff_publish(c.store, created.listing_id, now_meta())
    assert c.runtime.wait_for(VIEWS, position, timeout=15)
    return created.listing_id, created.slug


def _free_listing(world: ClaimWorld, website: str) -> tuple[int, str]:
    """A saved listing of an owner that chose the free plan: waiting for its badge on `website`."""
    c = world.container
    owner_id, _ = account(world.server, staff=False)
    listing_id, slug = _listing(world, website, owner_id, live=False)
    week = free_q.free_week(c.services.reads, c.services.today())
    position = free_cmd.choose_free_listing(c.store, free_cmd.ChooseFreeListing(listing_id=listing_id), owner_id, week,
                                            now_meta(f"account:{owner_id}", "web", "session"))
    assert c.runtime.wait_for(VIEWS, position, timeout=15)
    return listing_id, slug


def _home(badge: str = "") -> Body:
    return Body(f"<!doctype html><html><body><h1>Product</h1>{badge}</body></html>".encode())


def _events(world: ClaimWorld, listing_id: int) -> list[Any]:
    return list(world.container.store.stream(listing.listing_stream(listing_id)))


# ---------------------------------------------------------------- 1. unlocking paid sections


def test_staff_unlock_paid_sections_from_the_listings_staff_page(world: ClaimWorld, chromium: Any) -> None:
    base = world.server.url
    listing_id, slug = _listing(world, "https://toolbox.example/")
    assert "milestones" not in httpx.get(f"{base}/api/v1/listings/{slug}").json()
    _, staff = account(world.server, staff=True)
    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, base, staff)
        page.goto(f"{base}/staff/listings/{slug}/history")
        page.get_by_role("link", name="Paid sections and badge check").click()
        page.get_by_role("heading", name=f"Tools for {slug}").wait_for()
        assert page.get_by_role("checkbox").count() == 4  # every paid section is locked
        assert axe_violations(page) == []
        shots = screenshots(page, f"{base}/staff/listings/{slug}/tools", SHOTS, "tools-locked")

        page.get_by_role("button", name="Unlock the ticked sections").click()  # nothing ticked, no reason
        page.get_by_role("heading", name="There is a problem").wait_for()
        assert page.locator("#sections-error").inner_text().endswith("Tick at least one section to unlock.")
        assert "Give a reason of 3 to 500 characters" in page.locator("#reason-error").inner_text()
        assert page.title().startswith("Error: ")
        assert axe_violations(page) == []
        page.set_viewport_size({"width": 390, "height": 900})
        page.screenshot(path=str(SHOTS / "tools-errors-390.png"), full_page=True)
        assert wider_than_the_screen(page) == []
        page.set_viewport_size({"width": 1440, "height": 900})

        page.get_by_label("Milestones").check()
        page.get_by_label("The founder story").check()
        page.get_by_label("Reason").fill("Goodwill for the outage in November.")
        page.get_by_role("button", name="Unlock the ticked sections").click()
        done = page.locator("#unlock-done")
        done.wait_for()
        assert done.inner_text().startswith("Unlocked: The founder story and Milestones.")
        assert page.locator(".is-unlocked").all_inner_texts() == ["The founder story", "Milestones"]
        assert [b.get_attribute("value") for b in page.get_by_role("checkbox").all()] == ["media", "extra_categories"]
        assert axe_violations(page) == []
        shots += screenshots(page, page.url, SHOTS, "tools-unlocked")
        assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()

    doc = httpx.get(f"{base}/api/v1/listings/{slug}").json()
    assert doc["milestones"][0]["title"] == "First customer" and doc["story"]["problem"] == "Notes got lost."
    unlocked = [e for e in _events(world, listing_id) if type(e).__name__ == "ListingSectionsUnlocked"]
    assert [(e.sections, e.reason, e.actor, e.channel) for e in unlocked] == [
        (["story", "milestones"], "Goodwill for the outage in November.", f"staff:{staff}", "web")]

    with closing(signed_in_client(base, staff, PASSWORD)) as desk:  # a page opened before the unlock, sent again
        token = csrf_of(desk.get(f"/staff/listings/{slug}/tools").text)
        again = desk.post(f"/staff/listings/{slug}/unlock",
                          data={"csrf_token": token, "sections": ["milestones"], "reason": "Sent twice"})
        assert again.status_code == 303 and again.headers["location"].endswith("?already=milestones#unlock")
        said = desk.get(again.headers["location"]).text
        assert "Nothing changed: Milestones was unlocked already, so nothing was recorded." in said
        mixed = desk.post(f"/staff/listings/{slug}/unlock",
                          data={"csrf_token": token, "sections": ["story", "media"], "reason": "Media too"})
        assert "Unlocked: Media. The founder story was unlocked already." in desk.get(mixed.headers["location"]).text
        wrong = desk.post(f"/staff/listings/{slug}/unlock",
                          data={"csrf_token": token, "sections": ["billboard"], "reason": "Not a section"})
        assert wrong.status_code == 400 and "Choose among the locked sections listed." in wrong.text
    assert len([e for e in _events(world, listing_id) if type(e).__name__ == "ListingSectionsUnlocked"]) == 2


# ---------------------------------------------------------------- 2. checking the badge now


def test_staff_check_a_free_listings_badge_now(world: ClaimWorld, chromium: Any) -> None:
    base = world.server.url
    with FixtureServer() as site:
        site.routes["/"] = _home()
        listing_id, slug = _free_listing(world, site.url("/"))
        _, staff = account(world.server, staff=True)
        context = chromium.new_context()
        page = context.new_page()
        try:
            staff_signs_in(page, base, staff)
            page.goto(f"{base}/staff/listings/{slug}/tools")
            page.get_by_role("button", name="Check the badge now").click()
            done = page.locator("#badge-done")
            done.wait_for()
            assert done.inner_text().startswith("Checked just now: our badge was not found: the homepage does not show "
                                                "our badge")
            assert "The listing stays waiting for its badge." in done.inner_text()
            assert page.locator("#badge-result").inner_text() == "Not found"
            assert axe_violations(page) == []
            shots = screenshots(page, page.url, SHOTS, "tools-badge-missing")

            badge = f'<a href="{world.container.settings.base_url}/listings/{slug}"><img src="x.png" alt="badge"></a>'
            site.routes["/"] = _home(badge)
            page.get_by_role("button", name="Check the badge now").click()
            page.locator("#badge-done[data-kind=found]").wait_for()
            assert page.locator("#badge-done").inner_text() == (
                "Checked just now: our badge is on the homepage. The listing went from waiting for its badge to "
                "scheduled.")
            assert page.locator("#badge-result").inner_text() == "Found"
            assert page.locator("#standing-status strong").inner_text() == "Scheduled"
            assert axe_violations(page) == []
            shots += screenshots(page, page.url, SHOTS, "tools-badge-found")
            assert all(p.stat().st_size > 0 for p in shots)
        finally:
            context.close()
    found = [e for e in _events(world, listing_id) if type(e).__name__ == "ListingBadgeFound"]
    assert [(e.actor, e.channel) for e in found] == [(f"staff:{staff}", "web")]
    missing = [e for e in _events(world, listing_id) if type(e).__name__ == "ListingBadgeMissing"]
    assert (f"staff:{staff}", "web") in [(e.actor, e.channel) for e in missing]

    _, saved_slug = _listing(world, "https://no-plan.example/", live=False)  # saved, no plan: nothing to check
    with closing(signed_in_client(base, staff, PASSWORD)) as desk:
        tools = desk.get(f"/staff/listings/{saved_slug}/tools").text
        assert 'id="badge-not-checked"' in tools and "Check the badge now" not in tools
        nothing = desk.post(f"/staff/listings/{saved_slug}/badge/check", data={"csrf_token": csrf_of(tools)})
        assert nothing.status_code == 303 and nothing.headers["location"].endswith("?done=nothing#badge")
        assert "Nothing was checked and nothing recorded" in desk.get(nothing.headers["location"]).text


# ---------------------------------------------------------------- 3. who may use them


def test_the_tools_are_for_staff_with_the_forms_token(world: ClaimWorld) -> None:
    base = world.server.url
    _, slug = _listing(world, "https://guarded.example/")
    tools = f"/staff/listings/{slug}/tools"
    with httpx.Client(base_url=base, timeout=15) as anonymous:
        away = anonymous.get(tools)
        assert away.status_code == 303 and away.headers["location"] == f"/signin?next={tools}"
        token = csrf_of(anonymous.get("/signin").text)  # a token of this browser, signed out
        posted = anonymous.post(f"/staff/listings/{slug}/unlock",
                                data={"csrf_token": token, "sections": ["media"], "reason": "No one"})
        assert posted.status_code == 303 and posted.headers["location"] == f"/signin?next={tools}"
        checked = anonymous.post(f"/staff/listings/{slug}/badge/check", data={"csrf_token": token})
        assert checked.status_code == 303 and checked.headers["location"] == f"/signin?next={tools}"
    _, person = account(world.server, staff=False)
    with closing(signed_in_client(base, person, PASSWORD)) as client:
        assert client.get(tools).status_code == 403
        token = csrf_of(client.get("/account").text)
        assert client.post(f"/staff/listings/{slug}/unlock",
                           data={"csrf_token": token, "sections": ["media"], "reason": "Not staff"}).status_code == 403
        assert client.post(f"/staff/listings/{slug}/badge/check", data={"csrf_token": token}).status_code == 403
    _, staff = account(world.server, staff=True)
    with closing(signed_in_client(base, staff, PASSWORD)) as desk:
        page = desk.get(tools)
        assert page.status_code == 200 and f'href="{tools}"' in desk.get(f"/staff/listings/{slug}/history").text
        assert desk.post(f"/staff/listings/{slug}/unlock",
                         data={"sections": ["media"], "reason": "No token"}).status_code == 403
        assert desk.post(f"/staff/listings/{slug}/badge/check", data={}).status_code == 403
        token = csrf_of(page.text)
        short = desk.post(f"/staff/listings/{slug}/unlock", data={"csrf_token": token, "sections": ["media"], "reason": " x "})
        assert short.status_code == 400
        assert re.search(r'<p class="error" id="reason-error">.*Give a reason of 3 to 500 characters', short.text)
        assert 'value="media" id="section-media"' in short.text and "checked" in short.text.split('id="section-media"')[1][:120]
        control = desk.post(f"/staff/listings/{slug}/unlock",
                            data={"csrf_token": token, "sections": ["media"], "reason": "Bad\x07bell"})
        assert control.status_code == 400 and 'id="reason-error"' in control.text
        assert desk.get("/staff/listings/no-such-listing/tools").status_code == 404
        assert desk.post("/staff/listings/no-such-listing/unlock",
                         data={"csrf_token": token, "sections": ["media"], "reason": "Nothing"}).status_code == 404
    assert "ListingSectionsUnlocked" not in [type(e).__name__ for e in _events(world, _id(world, slug))]


def _id(world: ClaimWorld, slug: str) -> int:
    found = listing_cmd.listing_id_for_slug(world.container.store, slug)
    assert found is not None
    return found


# ---------------------------------------------------------------- 4. the DNS claim's Copy buttons


def test_the_dns_claim_offers_copy_buttons_and_stays_selectable_without_script(world: ClaimWorld, chromium: Any) -> None:
    from playwright.sync_api import expect

    base = world.server.url
    domain = f"copy-{uuid4().hex[:6]}.example-claims.com"
    _, slug = _listing(world, f"https://www.{domain}/")
    _, claimant = account(world.server, staff=False)
    context = chromium.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    try:
        sign_in(page, base, claimant, PASSWORD)
        page.goto(f"{base}/claim/{slug}")
        page.get_by_label("A DNS TXT record").check()
        page.get_by_role("button", name="Start the claim").click()
        page.get_by_label("Value").wait_for()
        claim_url = page.url.split("?")[0]
        name, value = page.get_by_label("Name"), page.get_by_label("Value")
        assert name.input_value() == f"_launchdir-challenge.{domain.split('.', 1)[1]}"
        assert name.get_attribute("readonly") is not None and value.get_attribute("readonly") is not None
        copies = page.get_by_role("button", name="Copy")
        assert copies.count() == 2
        copies.nth(1).click()
        expect(page.locator(".claim-code .copied").nth(1)).to_have_text("Copied. Paste it as the record's value.")
        assert page.evaluate("navigator.clipboard.readText()") == value.input_value()
        copies.nth(0).click()
        expect(page.locator(".claim-code .copied").nth(0)).to_have_text("Copied. Paste it as the record's name.")
        assert axe_violations(page) == []
        shots = screenshots(page, claim_url, SHOTS, "claim-dns-copy")
        assert all(p.stat().st_size > 0 for p in shots)
        page.set_viewport_size({"width": 390, "height": 900})
        assert wider_than_the_screen(page) == []

        world.dns.set_txt(name.input_value(), value.input_value())  # what was copied is what verifies
        page.get_by_role("button", name="Check now").click()
        page.get_by_role("status").filter(has_text="Checked just now").wait_for()
        assert page.locator("#claim-status").inner_text() == "Verified"
    finally:
        context.close()

    _, other_slug = _listing(world, f"https://www.other-{domain}/")
    plain = chromium.new_context(java_script_enabled=False)  # without script: the text boxes, selectable, no button
    page = plain.new_page()
    try:
        sign_in(page, base, claimant, PASSWORD)
        page.goto(f"{base}/claim/{other_slug}")
        page.get_by_label("A DNS TXT record").check()
        page.get_by_role("button", name="Start the claim").click()
        page.get_by_label("Value").wait_for()
        assert page.get_by_role("button", name="Copy").count() == 0
        assert len(page.get_by_label("Value").input_value()) >= 32 and page.get_by_label("Name").count() == 1
        page.get_by_label("Value").select_text()  # selectable by hand
        assert page.evaluate("window.getSelection().toString() || document.activeElement.value") != ""
    finally:
        plain.close()
