"""Removing an owner's update from a listing's staff history in Chromium: the form says the owners are mailed, the
status says they were, the owner's mail names the update and the reason, and the listing's page brings the next
older update back among its latest ones. Over HTTP: when no owner has a confirmed address, the status says nobody
was mailed.

axe-core on the page with the form open and after the removal; screenshots at 390 and 1440 px in
LAUNCHDIR_SCREENSHOTS or /tmp/shots/updates.
"""

from __future__ import annotations

import os
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx

from aggregates.base import Meta
from commands import account as account_cmd
from commands import listing as listing_cmd
from commands import review as review_cmd
from queries import mail as mail_q
from tests.e2e.founder_support_listings import axe_violations, csrf_of, signed_in_client, wider_than_the_screen
from tests.e2e.test_staff_review_web import PASSWORD, account, now_meta, staff_signs_in

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS", "/tmp/shots/updates"))
VIEWS = ["accounts_view", "listing_view", "history_view", "updates_view", "mail_view"]


def _listing_with_updates(server: Any, owner_id: str, count: int) -> tuple[str, dict[int, int]]:
    """A live listing of `owner_id` with `count` updates posted a minute apart: (slug, update id -> version id)."""
    c = server.container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Removal {uuid4().hex[:6]}", "tagline": "Posts news", "website_url": "https://removal.example"},
        categories=["analytics"], owner_ids=[owner_id]), now_meta())
    listing_cmd.staff_publish(c.store, created.listing_id, now_meta())
    start = datetime.now(timezone.utc) - timedelta(hours=1)
    versions: dict[int, int] = {}
    for n in range(1, count + 1):
        meta = Meta(at=start + timedelta(minutes=n), actor=f"account:{owner_id}", channel="web", via="session")
        update_id, versions[n] = listing_cmd.post_update(c.store, created.listing_id, f"Update number {n}",
                                                         f"What changed in release {n}.", meta)
        assert update_id == n
    assert c.runtime.wait_for(VIEWS, versions[count], timeout=15)
    return created.slug, versions


def test_staff_remove_an_update_on_the_history_page_its_owner_is_mailed_and_an_older_one_moves_up(
        server: Any, chromium: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    c = server.container
    owner_id, owner_email = account(server, staff=False)
    slug, versions = _listing_with_updates(server, owner_id, 6)
    base = server.url
    shown = httpx.get(f"{base}/listings/{slug}").text
    assert "Update number 6" in shown and "Update number 1" not in shown  # five latest
    _, staff = account(server, staff=True)

    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, base, staff)
        page.goto(f"{base}/staff/listings/{slug}/history")
        version = page.locator(f"#version-{versions[6]}")
        version.get_by_text("Remove this update").click()
        assert version.get_by_text("Its owners are mailed the reason").is_visible()
        version.get_by_label("Reason").fill("Links to a counterfeit shop")
        assert axe_violations(page) == []
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(SHOTS / f"staff-remove-update-form-{width}.png"), full_page=True)
            assert wider_than_the_screen(page) == [], width
        version.get_by_role("button", name="Remove the update of version 7").click()
        status = page.get_by_role("status").filter(has_text=f"Version 7 of {slug}: the update was removed")
        status.wait_for()
        assert "Its owners with a confirmed email address were mailed the reason." in status.inner_text()
        assert axe_violations(page) == []
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(SHOTS / f"staff-update-removed-status-{width}.png"), full_page=False)
            assert wider_than_the_screen(page) == [], width

        assert c.runtime.wait_for(VIEWS, c.store.position(), timeout=15)
        page.goto(f"{base}/listings/{slug}")
        latest = page.locator("section[id^=update-] h3").all_inner_texts()
        assert latest == [f"Update number {n}" for n in (5, 4, 3, 2, 1)]  # the next older one moved up
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(SHOTS / f"listing-after-removal-{width}.png"), full_page=True)
    finally:
        context.close()

    [told] = [m for m in mail_q.outbox(c.services.reads, to=owner_email) if m["kind"] == review_cmd.REMOVED_KIND]
    assert '"Update number 6"' in told["text"] and "The reason given: Links to a counterfeit shop" in told["text"]


def test_when_no_owner_has_a_confirmed_address_the_status_says_nobody_was_mailed(server: Any) -> None:
    c = server.container
    email = f"unconfirmed-{uuid4().hex[:8]}@example.com"
    registered = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=None, verified=False), now_meta(), None)
    assert registered.account_id is not None
    slug, versions = _listing_with_updates(server, registered.account_id, 1)
    _, staff = account(server, staff=True)
    with closing(signed_in_client(server.url, staff, PASSWORD)) as desk:
        here = f"/staff/listings/{slug}/history"
        removed = desk.post(f"/staff/review/{versions[1]}/remove-update", follow_redirects=True,
                            data={"csrf_token": csrf_of(desk.get(here).text), "reason": "Off topic", "next": here})
        assert removed.status_code == 200
        assert "Nobody was mailed: none of its owners has a confirmed email address." in removed.text
        assert "were mailed the reason" not in removed.text
