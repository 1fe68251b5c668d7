"""The staff pages of version history over real HTTP, and a revert in headless Chromium that moves the public profile."""

from __future__ import annotations

import json
import os
import re
import tempfile
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx

from aggregates.base import Meta
from commands import account as account_cmd
from commands import listing as listing_cmd
from tests.e2e.founder_support_listings import (
    axe_violations,
    overflowing,
    screenshots,
    wider_than_the_screen,
    words_split_in_diffs,
)

PASSWORD = "a good long password"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')
VIEWS = ["accounts_view", "listing_view", "history_view"]
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="staff-shots-"))


def now_meta(actor: str = "staff:setup", channel: str = "cli", via: str = "staff") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=actor, channel=channel, via=via)


def account(server: Any, staff: bool) -> tuple[str, str]:
    """A verified account with a password (id, email), made staff when asked; the read models know it."""
    c = server.container
    email = f"{'staff' if staff else 'person'}-{uuid4().hex[:8]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=email, password=PASSWORD, verified=True)
    registered = account_cmd.register_account(c.store, cmd, now_meta(), None)
    position = registered.position
    if staff:
        position = account_cmd.grant_staff(c.store, email, now_meta())
    assert c.runtime.wait_for(VIEWS, position, timeout=10)
    assert registered.account_id is not None
    return registered.account_id, email


def edited_listing(server: Any) -> tuple[str, int]:
    """A live listing whose owner changed the tagline through the API: (slug, the version id of that edit)."""
    c = server.container
    owner_id, _ = account(server, staff=False)
    name = f"Review Web {uuid4().hex[:8]}"
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "An honest tagline", "website_url": "https://review-web.example"},
        categories=["analytics"], owner_ids=[owner_id]), now_meta())
    listing_cmd.staff_publish(c.store, created.listing_id, now_meta())
    edit = listing_cmd.edit_listing(c.store, created.listing_id, {"tagline": "Cheap pills here", "city": "Oslo"},
                                    now_meta(f"account:{owner_id}", "rest", "api_key:k1"))
    assert c.runtime.wait_for(VIEWS, edit, timeout=10)
    return created.slug, edit


def signed_in(server: Any, email: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=10, follow_redirects=False)
    token = CSRF.search(client.get("/signin").text).group(1)  # type: ignore[union-attr]
    r = client.post("/signin", data={"csrf_token": token, "email": email, "password": PASSWORD, "next": "/staff/review"})
    assert r.status_code == 303, r.text[:300]
    return client


def staff_signs_in(page: Any, base: str, email: str) -> None:
    """Sign in through the form in the browser; the review queue is where staff land."""
    page.goto(f"{base}/signin?next=/staff/review")
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="Review queue").wait_for()


def test_the_pages_are_for_staff_only_and_forms_need_the_csrf_token(server) -> None:  # type: ignore[no-untyped-def]
    slug, edit = edited_listing(server)
    pages = ["/staff/review", f"/staff/listings/{slug}/history", "/staff/audit"]
    with httpx.Client(base_url=server.url, timeout=10) as anonymous:
        assert all(anonymous.get(p).status_code == 403 for p in pages)
    _, person = account(server, staff=False)
    with closing(signed_in(server, person)) as client:
        assert all(client.get(p).status_code == 403 for p in pages)
        token = CSRF.search(client.get("/account").text).group(1)  # type: ignore[union-attr]
        refused = client.post(f"/staff/review/{edit}/accept", data={"csrf_token": token})
        assert refused.status_code == 403
    _, staff = account(server, staff=True)
    with closing(signed_in(server, staff)) as client:
        queue = client.get("/staff/review")
        assert queue.status_code == 200 and "Cheap pills here" in queue.text
        assert f'Version 2 of <a href="/staff/listings/{slug}/history">' in queue.text  # its place in the listing
        assert f">Log position {edit}</a>" in queue.text  # the log's own number, for staff
        no_token = client.post(f"/staff/review/{edit}/accept", data={"next": "/staff/review"})
        assert no_token.status_code == 403
        history = client.get(f"/staff/listings/{slug}/history")
        assert history.status_code == 200 and "<del>" in history.text and "<ins>" in history.text
        assert client.get("/staff/listings/no-such-listing/history").status_code == 404
        audit = client.get("/staff/audit", params={"listing": slug, "type": "ListingEdited"})
        assert audit.status_code == 200 and str(edit) in audit.text
        assert client.get("/staff/audit", params={"type": "NoSuchEvent"}).status_code == 400
        assert client.get("/staff/audit", params={"since": "soon"}).status_code == 400

        token = CSRF.search(queue.text).group(1)  # type: ignore[union-attr]
        accepted = client.post(f"/staff/review/{edit}/accept", data={"csrf_token": token, "next": "/staff/review"})
        assert accepted.status_code == 303 and accepted.headers["location"] == f"/staff/review?notice=accepted&version={edit}"
        assert f"Version 2 of {slug} was accepted." in client.get(accepted.headers["location"]).text


def test_staff_revert_a_field_in_the_browser_and_the_public_profile_changes(server, chromium) -> None:  # type: ignore[no-untyped-def]
    slug, edit = edited_listing(server)
    _, staff = account(server, staff=True)
    assert httpx.get(f"{server.url}/api/v1/listings/{slug}").json()["tagline"] == "Cheap pills here"

    context = chromium.new_context()
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)

        version = page.locator(f"#version-{edit}")
        assert "Cheap pills here" in version.inner_text() and "An honest tagline" in version.inner_text()
        page.get_by_label(f"Put back Tagline of version 2 of {slug}").check()
        page.get_by_role("button", name=f"Put back the ticked fields of version 2 of {slug}").click()
        page.get_by_role("status").filter(has_text=f"Version 2 of {slug}").wait_for()
        assert page.locator(f"#version-{edit}").count() == 0  # reviewed: it left the queue

        page.goto(f"{server.url}/api/v1/listings/{slug}")  # the public profile, as anyone reads it
        public = json.loads(page.locator("body").inner_text())
        assert public["tagline"] == "An honest tagline" and public["city"] == "Oslo"

        page.goto(f"{server.url}/staff/listings/{slug}/history")
        reviewed = page.locator(f"#version-{edit}")
        assert reviewed.locator(".review-state").inner_text() == "fields put back"  # the state in words
        assert reviewed.locator(".review-state").get_attribute("data-review") == "reverted"
        assert "put back: Tagline (version 3)" in reviewed.inner_text()
        assert page.get_by_role("heading", name="Version 3: fields put back").count() == 1
        assert "puts back fields of version 2" in page.locator("article.version").first.inner_text()
        assert [h.split(":")[0] for h in page.locator("article.version h2").all_inner_texts()] == [
            "Version 3", "Version 2", "Version 1"]
    finally:
        context.close()


def test_the_history_reads_well_on_a_phone(server, chromium) -> None:  # type: ignore[no-untyped-def]
    """At 390 px nothing is wider than the screen, and field names and values wrap between words, never inside one."""
    c = server.container
    slug, edit = edited_listing(server)
    listing_id = history_listing_id(server, slug)
    longer = listing_cmd.edit_listing(c.store, listing_id, {
        "description": "A longer description of what it does.\nIn two paragraphs.",
        "short_description": "Short and sweet", "seo_description": "Found by the words people search for"},
        now_meta())
    assert c.runtime.wait_for(VIEWS, longer, timeout=10)
    _, staff = account(server, staff=True)
    context = chromium.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        for path in (f"/staff/listings/{slug}/history", "/staff/review"):
            page.goto(server.url + path)
            assert (path, wider_than_the_screen(page)) == (path, [])
            assert (path, words_split_in_diffs(page)) == (path, [])  # names and values wrap between words
            assert (path, overflowing(page, "table.diff th[scope=row]")) == (path, [])  # and each word fits
            assert (path, axe_violations(page)) == (path, [])
        page.goto(f"{server.url}/staff/listings/{slug}/history")
        assert page.get_by_role("heading", name="Version 3: edited").count() == 1
        shots = screenshots(page, f"{server.url}/staff/listings/{slug}/history", SHOTS, "staff-history")
        assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()


def history_listing_id(server: Any, slug: str) -> int:
    from queries import history as history_q

    return history_q.listing_of(server.container.services.reads, slug)[0]
