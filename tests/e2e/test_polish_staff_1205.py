"""The staff's pages and the claim pages after a user's walk (2026-12-05), over HTTP and in Chromium at 390 and 1440 px.

- /staff/votes ticks no vote: "Void ticked votes" with none ticked voids nothing and says why; a whole finding is
  voided only through its own folded form, whose button says how many votes; the page has the staff navigation and
  the "History of listing" box, as every staff page does.
- A version's diff shows values as the pages name them (Beta, Free trial, Ireland, a category's name) and an FAQ as
  a question line and an answer line: in the review queue, a listing's staff history and the owner's history.
- Statuses read as words: a claim ("Not verified yet", "Verified") on /my/claims, /my/claims/{id} and /staff/claims,
  an order ("Waiting for payment") on /staff/orders, a listing ("Taken down") on its staff history.
- A claim verified by its first check says "1 made" and no longer shows an expiry; its tag and its file line get a
  Copy button with script and stay selectable text without it.
- Staff remove an owner's update from the review queue with a reason: it leaves the listing's API document, the
  latest-updates page and feed, and the version counts as reviewed.
- /staff/orders names each order's listing (linked to its staff history) and its products, and the order number
  links to the order's lines on the same page.
- Taking down a listing nobody owns says nobody was mailed.

axe-core on every page opened in the browser; screenshots in LAUNCHDIR_SCREENSHOTS or /tmp/shots/staff.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest
from playwright.sync_api import expect

from aggregates.base import Meta
from aggregates.votes import Observed
from commands import listing as listing_cmd
from commands import orders as orders_cmd
from commands.order_inputs import CreateCheckout
from queries import catalog as catalog_q
from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.founder_support_listings import (
    axe_violations,
    csrf_of,
    screenshots,
    sign_in,
    signed_in_client,
    wider_than_the_screen,
)
from tests.e2e.test_free_plan import with_badge
from tests.e2e.test_staff_review_web import PASSWORD, account, now_meta, staff_signs_in
from tests.e2e.test_vote_integrity_web import _cast
from tests.fixtures.drafting_sites import serve

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/shots/staff"))
VIEWS = ["accounts_view", "listing_view", "history_view", "updates_view", "launches_view", "orders_view"]
STAFF_PAGES = ("/staff", "/staff/review", "/staff/audit", "/staff/claims", "/staff/reviews", "/staff/orders",
               "/staff/votes", "/staff/prices", "/staff/blog", "/staff/blog/new", "/staff/founders",
               "/staff/founders/new", "/staff/settings", "/staff/outbox")


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    """A server of its own that may check claims against the fixture sites on 127.0.0.1."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield from claims_world(databases)


def _wait(world: ClaimWorld, position: int) -> None:
    assert world.container.runtime.wait_for(VIEWS, position, timeout=15)


def _owned_listing(world: ClaimWorld, owner_id: str | None, **profile: Any) -> tuple[int, str, str]:
    """A live listing (of `owner_id`, or nobody's) with the profile given: (listing id, slug, name)."""
    c = world.container
    name = f"Walked {uuid4().hex[:6]}"
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "A product staff look at", "website_url": f"https://{uuid4().hex[:8]}.example/",
                 **profile},
        categories=["productivity"], owner_ids=[owner_id] if owner_id else [],
        faqs=[{"question": "Is there a free plan?", "answer": "Yes, for one user."},
              {"question": "Can I export my data?", "answer": "Yes, as CSV."}]), now_meta())
    _wait(world, listing_cmd.staff_publish(c.store, created.listing_id, now_meta()))
    return created.listing_id, created.slug, name


# ---------------------------------------------------------------- 1. the votes report


def test_the_votes_report_ticks_no_vote_and_voids_a_whole_finding_only_through_its_own_form(
        world: ClaimWorld, chromium: Any) -> None:
    c = world.container
    listing_id, _, name = _owned_listing(world, None)
    now = datetime.now(timezone.utc)
    position = 0
    for i in range(4):  # one office network and browser, accounts made minutes before
        observed = Observed(account_created_at=now - timedelta(minutes=30), email_verified=True,
                            network_hash="c" * 64, agent_hash="d" * 64, first_view_at=now - timedelta(minutes=20))
        position = _cast(world.server, listing_id, now - timedelta(minutes=10 - i), observed)
    assert c.runtime.wait_for(["vote_integrity_view"], position, timeout=10)
    _, staff = account(world.server, staff=True)
    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, world.server.url, staff)
        page.goto(f"{world.server.url}/staff/votes")
        nav = page.get_by_role("navigation", name="Staff")
        assert nav.get_by_role("link", name="Votes report").get_attribute("aria-current") == "page"
        assert nav.get_by_label("History of listing").count() == 1
        finding = page.locator("section.finding").filter(has_text=f"Shared network: {name}")
        boxes = finding.locator("input[type=checkbox][name=vote]")
        assert boxes.count() == 4 and not any(boxes.nth(i).is_checked() for i in range(4))
        assert axe_violations(page) == []
        finding.get_by_text("Void the whole finding (4 counted votes)").click()  # open: how it reads, then closed
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(SHOTS / f"staff-votes-unticked-{width}.png"), full_page=True)
        assert axe_violations(page) == []
        finding.get_by_text("Void the whole finding (4 counted votes)").click()

        ticked = finding.locator("form").first
        ticked.get_by_label("Reason").fill("one network, accounts minutes old")
        ticked.get_by_role("button", name="Void ticked votes").click()  # nothing ticked: nothing voided
        assert "No vote was ticked, so nothing was voided" in page.get_by_role("alert").inner_text()
        finding = page.locator("section.finding").filter(has_text=f"Shared network: {name}")
        assert "voided)" not in finding.locator("h3").inner_text()

        finding.locator("input[type=checkbox][name=vote]").first.check()
        finding.locator("form").first.get_by_label("Reason").fill("one network, accounts minutes old")
        finding.get_by_role("button", name="Void ticked votes").click()
        page.get_by_role("status").filter(has_text="1 vote(s) voided.").wait_for()

        finding = page.locator("section.finding").filter(has_text=f"Shared network: {name}")
        finding.get_by_text("Void the whole finding (3 counted votes)").click()
        whole = finding.locator("details.whole-finding")
        whole.get_by_label("Reason").fill("the rest of the same cluster")
        whole.get_by_role("button", name="Yes, void the 3 counted votes of this finding").click()
        page.get_by_role("status").filter(has_text="3 vote(s) voided.").wait_for()
        done = page.locator("section.finding").filter(has_text=f"Shared network: {name}")
        assert "(4 voided)" in done.locator("h3").inner_text() and done.locator("details.whole-finding").count() == 0

        shots = screenshots(page, f"{world.server.url}/staff/votes", SHOTS, "staff-votes")
        page.set_viewport_size({"width": 390, "height": 900})
        page.goto(f"{world.server.url}/staff/votes")
        assert wider_than_the_screen(page) == []
        assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()


def test_every_staff_page_has_the_staff_navigation_and_the_history_box(world: ClaimWorld) -> None:
    _, slug, _ = _owned_listing(world, None)
    _, staff = account(world.server, staff=True)
    with closing(signed_in_client(world.server.url, staff, PASSWORD)) as desk:
        for path in (*STAFF_PAGES, f"/staff/listings/{slug}/history"):
            html = desk.get(path).text
            assert ('aria-label="Staff"' in html, 'id="staff-history-listing"' in html) == (True, True), path


# ---------------------------------------------------------------- 2. diffs in words


def test_version_diffs_show_values_as_the_pages_name_them(world: ClaimWorld, chromium: Any) -> None:
    c = world.container
    owner_id, owner_email = account(world.server, staff=False)
    listing_id, slug, _ = _owned_listing(world, owner_id, stage="beta", pricing_model="free trial", country="IE")
    owner = Meta(at=datetime.now(timezone.utc), actor=f"account:{owner_id}", channel="web", via="session")
    edit = listing_cmd.edit_listing(c.store, listing_id, {
        "stage": "launched", "pricing_model": "freemium", "country": "EE", "categories": ["notes-docs"],
        "faqs": [{"question": "Is there a free plan?", "answer": "Yes, for up to 3 projects."},
                 {"question": "Can I export my data?", "answer": "Yes, as CSV."}]}, owner)
    _wait(world, edit)
    _, staff = account(world.server, staff=True)
    context = chromium.new_context()
    page = context.new_page()

    def cells(article: Any, label: str) -> tuple[str, str]:
        row = article.locator("table.diff tr").filter(has=page.locator(f'th[scope=row]:text-is("{label}")'))
        tds = row.locator("td:not(.check)")
        return str(tds.nth(0).text_content()), str(tds.nth(1).text_content())

    try:
        staff_signs_in(page, world.server.url, staff)
        for path in ("/staff/review", f"/staff/listings/{slug}/history"):
            page.goto(world.server.url + path)
            version = page.locator(f"#version-{edit}")
            assert cells(version, "Stage") == ("[removed: Beta]", "[added: Launched]"), path
            assert cells(version, "Pricing model") == ("[removed: Free trial]", "[added: Freemium]"), path
            assert cells(version, "Country") == ("[removed: Ireland]", "[added: Estonia]"), path
            assert cells(version, "Categories") == ("[removed: Productivity\n]", "[added: Notes & Docs\n]"), path
            before, after = cells(version, "FAQs")
            assert "Question: Is there a free plan?\n[removed: Answer: Yes, for one user.\n]" in before, path
            assert "[added: Answer: Yes, for up to 3 projects.\n]" in after and "?;" not in before + after, path
            assert axe_violations(page) == [], path
        created = page.locator("article.version").last  # the history's oldest: the creation
        assert cells(created, "Country")[1] == "[added: Ireland]" and cells(created, "Stage")[1] == "[added: Beta]"
        shots = screenshots(page, f"{world.server.url}/staff/listings/{slug}/history", SHOTS, "staff-history-words")
        shots += screenshots(page, f"{world.server.url}/staff/review", SHOTS, "staff-review-words")
        assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()
    with closing(signed_in_client(world.server.url, owner_email, PASSWORD)) as mine:  # the owner's history: same diff
        html = mine.get(f"/my/listings/{listing_id}/history").text
        assert "[added: </span>Estonia" in html and "[added: </span>Notes &amp; Docs" in html
        assert "Free trial" in html and "free trial" not in html


# ---------------------------------------------------------------- 3 and 4. claims in words, checks and copy buttons


def test_a_claim_reads_in_words_counts_the_check_that_verified_it_and_offers_copy_buttons(
        world: ClaimWorld, chromium: Any) -> None:
    base = world.server.url
    _, claimant = account(world.server, staff=False)
    with serve("devtool") as site:
        _, slug = live_listing(world, site.url("/"))
        context = chromium.new_context()
        page = context.new_page()
        try:
            sign_in(page, base, claimant, PASSWORD)
            page.goto(f"{base}/claim/{slug}")
            page.get_by_label("A meta tag on the homepage").check()
            page.get_by_role("button", name="Start the claim").click()
            page.locator("p.notice[role=status]").wait_for()
            claim_id = int(page.url.split("/my/claims/")[1].split("?")[0])
            assert page.locator("#claim-status").inner_text() == "Not verified yet"
            assert page.locator("#claim-expires").count() == 1
            page.get_by_role("button", name="Copy").click()  # site.js: a Copy button under the tag
            # the words come once the clipboard has the tag (an await in site.js): wait for them
            expect(page.locator(".claim-code .copied")).to_have_text("Copied. Paste it into your homepage.")
            page.goto(f"{base}/my/claims")
            assert page.locator("table tbody tr").filter(has_text=f"Claim {claim_id}").locator(".pill").inner_text() \
                == "Not verified yet"

            page.goto(f"{base}/my/claims/{claim_id}")
            with_badge(site, page.get_by_label("The tag").input_value())  # the tag is up before the first check
            page.get_by_role("button", name="Check now").click()
            page.get_by_role("status").filter(has_text="Checked just now").wait_for()
            assert page.locator("#claim-status").inner_text() == "Verified"
            assert page.locator("#claim-checks").inner_text() == "1 made"  # the check that found the tag
            assert page.locator("#claim-expires").count() == 0 and page.locator("#claim-verified-at").count() == 1
            assert axe_violations(page) == []
            shots = screenshots(page, f"{base}/my/claims/{claim_id}", SHOTS, "claim-verified")
            page.goto(f"{base}/my/claims")
            assert "Verified" in page.locator("table tbody tr").filter(has_text=f"Claim {claim_id}").inner_text()
            shots += screenshots(page, f"{base}/my/claims", SHOTS, "my-claims")

            _, other_slug = live_listing(world, site.url("/"))
            page.goto(f"{base}/claim/{other_slug}")
            page.get_by_label("A file on the website").check()
            page.get_by_role("button", name="Start the claim").click()
            page.get_by_label("The line").wait_for()
            line = page.get_by_label("The line")
            assert line.get_attribute("readonly") is not None and len(line.input_value()) >= 32
            page.get_by_role("button", name="Copy").click()
            expect(page.locator(".claim-code .copied")).to_have_text("Copied. Put it in the file on a line of its own.")
            assert axe_violations(page) == []
            file_claim = page.url.split("?")[0]
            shots += screenshots(page, file_claim, SHOTS, "claim-file")
            assert all(p.stat().st_size > 0 for p in shots)
        finally:
            context.close()
        plain = chromium.new_context(java_script_enabled=False)  # without script: the text, selectable, no button
        page = plain.new_page()
        try:
            sign_in(page, base, claimant, PASSWORD)
            page.goto(file_claim)
            assert page.get_by_label("The line").count() == 1 and page.get_by_role("button", name="Copy").count() == 0
        finally:
            plain.close()

    _, staff = account(world.server, staff=True)
    desk_page = chromium.new_context()
    page = desk_page.new_page()
    try:
        staff_signs_in(page, base, staff)
        page.goto(f"{base}/staff/claims")
        assert axe_violations(page) == []
        assert all(p.stat().st_size > 0 for p in screenshots(page, f"{base}/staff/claims", SHOTS, "staff-claims"))
    finally:
        desk_page.close()
    with closing(signed_in_client(base, staff, PASSWORD)) as desk:
        listed = desk.get("/staff/claims").text
        row = re.search(rf'<span class="v">{claim_id}</span>.*?</tr>', listed, re.S)
        assert row is not None and '>Verified</span>' in row.group(0) and "Meta tag" in row.group(0)
        assert '<option value="pending">Not verified yet</option>' in listed
        assert ">pending<" not in listed and ">verified<" not in listed


# ---------------------------------------------------------------- 5. removing an owner's update


def test_staff_remove_an_owners_update_from_the_review_queue_and_it_leaves_public_reads(
        world: ClaimWorld, chromium: Any) -> None:
    c = world.container
    owner_id, _ = account(world.server, staff=False)
    listing_id, slug, _ = _owned_listing(world, owner_id)
    owner = Meta(at=datetime.now(timezone.utc), actor=f"account:{owner_id}", channel="web", via="session")
    title = f"Pills {uuid4().hex[:6]}"
    _, version_id = listing_cmd.post_update(c.store, listing_id, title, "Cheap pills at pills.example", owner)
    _wait(world, version_id)
    base = world.server.url
    assert title in httpx.get(f"{base}/updates").text
    assert [u["title"] for u in httpx.get(f"{base}/api/v1/listings/{slug}").json()["latest_updates"]] == [title]
    _, staff = account(world.server, staff=True)

    with closing(signed_in_client(base, staff, PASSWORD)) as desk:
        queue = desk.get("/staff/review").text
        short = desk.post(f"/staff/review/{version_id}/remove-update",
                          data={"csrf_token": csrf_of(queue), "reason": "no", "next": "/staff/review"})
        assert short.status_code == 400 and "Give a reason of 3 to 500 characters" in short.text

    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, base, staff)
        page.goto(f"{base}/staff/review")
        version = page.locator(f"#version-{version_id}")
        assert version.get_by_role("heading").inner_text() == f"Version 2 of {slug}: update posted"
        version.get_by_text("Remove this update").click()
        version.get_by_label("Reason").fill("Advertises counterfeit medicine")
        assert axe_violations(page) == []
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(SHOTS / f"staff-review-remove-update-{width}.png"), full_page=True)
            assert wider_than_the_screen(page) == [], width
        version.get_by_role("button", name=f"Remove the update of version 2 of {slug}").click()
        page.get_by_role("status").filter(has_text=f"Version 2 of {slug}: the update was removed").wait_for()
        assert page.locator(f"#version-{version_id}").count() == 0  # reviewed: it left the queue

        page.goto(f"{base}/staff/listings/{slug}/history")
        posted = page.locator(f"#version-{version_id}")
        assert posted.locator(".review-state").inner_text() == "update removed"
        assert page.get_by_role("heading", name="Version 3: update removed").count() == 1
        assert "removes the update of version 2" in page.locator("article.version").first.inner_text()
        assert posted.get_by_text("Remove this update").count() == 0
        shots = screenshots(page, f"{base}/staff/listings/{slug}/history", SHOTS, "staff-update-removed")
        assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()

    assert httpx.get(f"{base}/api/v1/listings/{slug}").json()["latest_updates"] == []
    assert title not in httpx.get(f"{base}/updates").text and title not in httpx.get(f"{base}/feeds/updates.atom").text
    assert title not in httpx.get(f"{base}/listings/{slug}").text
    with closing(signed_in_client(base, staff, PASSWORD)) as desk:
        again = desk.post(f"/staff/review/{version_id}/accept",
                          data={"csrf_token": csrf_of(desk.get("/staff/review").text), "next": "/staff/review"})
        assert again.status_code == 409 and "its update was removed" in again.text
        audit = desk.get("/staff/audit", params={"listing": slug, "type": "ListingUpdateRemoved"}).text
        assert "Advertises counterfeit medicine" in audit


# ---------------------------------------------------------------- 6. the staff's orders


def test_staff_orders_name_the_listing_and_products_and_link_each_order_to_its_lines(
        world: ClaimWorld, chromium: Any) -> None:
    c = world.container
    owner_id, _ = account(world.server, staff=False)
    listing_id, slug, name = _owned_listing(world, owner_id)
    meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{owner_id}", channel="web", via="session")
    body = CreateCheckout.model_validate({"items": [{"product": "ai_review", "listing_id": listing_id}],
                                          "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, owner_id, meta, meta.at.date(), c.services.orders)
    _wait(world, placed.position)
    product = next(p["name"] for p in catalog_q.list_products(c.services.reads, meta.at.date())["items"]
                   if p["code"] == "ai_review")
    _, staff = account(world.server, staff=True)
    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, world.server.url, staff)
        page.goto(f"{world.server.url}/staff/orders")
        row = page.locator("table[aria-labelledby=orders-title] tbody tr").filter(has_text=placed.number)
        cells = row.locator("td")
        assert cells.nth(1).inner_text() == "Waiting for payment"
        listing = cells.nth(2).get_by_role("link", name=name)
        assert listing.get_attribute("href") == f"/staff/listings/{slug}/history"
        assert cells.nth(3).inner_text() == product and "ai_review" not in row.inner_text()
        row.get_by_role("link", name=f"Lines of order {placed.number}").click()
        assert page.url.endswith(f"#order-{placed.number}")
        lines = page.locator(f"#order-{placed.number}")
        assert product in lines.inner_text() and name in lines.inner_text() and "After payment." in lines.inner_text()
        assert axe_violations(page) == []
        shots = screenshots(page, f"{world.server.url}/staff/orders", SHOTS, "staff-orders")
        page.set_viewport_size({"width": 390, "height": 900})
        page.goto(f"{world.server.url}/staff/orders")
        assert wider_than_the_screen(page) == []
        assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()


# ---------------------------------------------------------------- 7. a take-down nobody is mailed about


def test_taking_down_a_listing_nobody_owns_says_nobody_was_mailed(world: ClaimWorld, chromium: Any) -> None:
    _, slug, _ = _owned_listing(world, None)
    _, staff = account(world.server, staff=True)
    history = f"{world.server.url}/staff/listings/{slug}/history"
    context = chromium.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    try:
        staff_signs_in(page, world.server.url, staff)
        page.goto(history)
        page.get_by_label("Reason (kept in the audit trail; the listing has no owners to mail)").fill("A dead product.")
        page.get_by_role("button", name="Take it down").click()
        notice = page.get_by_role("status").filter(has_text="taken down")
        notice.wait_for()
        assert "Nobody was mailed: the listing has no owners." in notice.inner_text()
        assert "were mailed" not in notice.inner_text()
        assert page.locator("#standing-status").inner_text().startswith("Status: Taken down")
        assert "Nobody is mailed: the listing has no owners." in page.locator("form[action$='/put-back']").inner_text()
        assert axe_violations(page) == [] and wider_than_the_screen(page) == []
        page.screenshot(path=str(SHOTS / "takedown-unowned-390.png"), full_page=True)
    finally:
        context.close()
