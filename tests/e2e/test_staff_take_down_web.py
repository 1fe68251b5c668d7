"""Staff take a listing down from its history page in headless Chromium, and put it back: the public page goes
and comes back, the owner is mailed the reason and then that it is back; a short reason, a person who is not staff and a form without
its token are refused."""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx

from events.week_names import week_name
from commands import listing as listing_cmd
from queries import mail as mail_q
from tests.e2e.founder_support_listings import axe_violations, screenshots
from tests.e2e.test_staff_review_web import CSRF, VIEWS, account, now_meta, signed_in, staff_signs_in

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="staff-shots-"))


def _live_listing(server: Any) -> tuple[str, str, str]:
    """A live listing of a verified owner in a launch week: (slug, owner's email, week)."""
    c = server.container
    owner_id, owner_email = account(server, staff=False)
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Pillbox {uuid4().hex[:6]}", "tagline": "Cheap pills", "website_url": "https://pills.example"},
        categories=["analytics"], owner_ids=[owner_id]), now_meta())
    position = listing_cmd.staff_publish(c.store, created.listing_id, now_meta(), week="2026-11-23")
    assert c.runtime.wait_for(VIEWS, position, timeout=10)
    return created.slug, owner_email, "2026-11-23"


def _mailed(server: Any, address: str, kind: str) -> list[dict[str, Any]]:
    c = server.container
    deadline = time.monotonic() + 15
    while True:
        c.runtime.wait_for(["mail_view"], c.store.position(), timeout=5)
        found = [m for m in mail_q.outbox(c.services.reads, to=address) if m["kind"] == kind]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_staff_take_a_listing_down_and_put_it_back_in_the_browser(server: Any, chromium: Any) -> None:
    slug, owner_email, week = _live_listing(server)
    _, staff = account(server, staff=True)
    history = f"{server.url}/staff/listings/{slug}/history"
    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        page.goto(history)
        assert page.locator("#standing-status").inner_text().startswith(f"Status: Live, launch week of {week_name(week)}")
        assert axe_violations(page) == []
        shots = screenshots(page, history, SHOTS, "staff-standing")
        assert all(p.stat().st_size > 0 for p in shots)

        page.get_by_label("Reason (the owners are mailed it)").fill("Sells counterfeit medicine.")
        page.get_by_role("button", name="Take it down").click()
        page.get_by_role("status").filter(has_text="taken down").wait_for()
        assert page.locator("#standing-status").inner_text().startswith("Status: Taken down")
        assert httpx.get(f"{server.url}/listings/{slug}").status_code == 404
        assert httpx.get(f"{server.url}/api/v1/listings/{slug}").status_code == 404
        [told] = _mailed(server, owner_email, "notice_unpublished")
        assert told["subject"].endswith("was taken down from launchdir")
        assert "The reason given: Sells counterfeit medicine." in told["text"]

        page.get_by_role("button", name=f"Put it back for the week of {week_name(week)}").click()
        page.get_by_role("status").filter(has_text="live again").wait_for()
        assert httpx.get(f"{server.url}/listings/{slug}").status_code == 200
        assert httpx.get(f"{server.url}/api/v1/listings/{slug}").json()["launch_week"] == week
        [back] = _mailed(server, owner_email, "notice_restored")
        assert back["subject"].endswith("is back on launchdir") and f"/listings/{slug}" in back["text"]
    finally:
        context.close()


def test_the_forms_refuse_a_short_reason_people_who_are_not_staff_and_a_missing_token(server: Any) -> None:
    slug, _, _ = _live_listing(server)
    _, person = account(server, staff=False)
    with closing(signed_in(server, person)) as client:
        token = CSRF.search(client.get("/account").text).group(1)  # type: ignore[union-attr]
        refused = client.post(f"/staff/listings/{slug}/take-down", data={"csrf_token": token, "reason": "Spam spam"})
        assert refused.status_code == 403
    _, staff = account(server, staff=True)
    with closing(signed_in(server, staff)) as client:
        assert client.post(f"/staff/listings/{slug}/take-down", data={"reason": "Spam spam"}).status_code == 403
        token = CSRF.search(client.get(f"/staff/listings/{slug}/history").text).group(1)  # type: ignore[union-attr]
        short = client.post(f"/staff/listings/{slug}/take-down", data={"csrf_token": token, "reason": " x "})
        assert short.status_code == 400 and "Give a reason of 3 to 500 characters" in short.text
        back = client.post(f"/staff/listings/{slug}/put-back", data={"csrf_token": token})
        assert back.status_code == 303 and back.headers["location"].endswith("notice=unchanged-up")  # it is live
        assert "Nothing changed: the listing is not taken down" in client.get(back.headers["location"]).text
        missing = client.post("/staff/listings/no-such-listing/take-down", data={"csrf_token": token, "reason": "Spam"})
        assert missing.status_code == 404
    assert httpx.get(f"{server.url}/api/v1/listings/{slug}").status_code == 200  # nothing happened
