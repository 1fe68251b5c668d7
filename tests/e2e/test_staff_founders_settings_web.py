"""The staff's founder-profile and site-settings pages over real HTTP and in headless Chromium.

A profile made on `/staff/founders/new` is what a listing's founder links to and what `/founders/{slug}` shows;
changes made on its page show there, recorded as `staff:<email>` through the web, and a save that changes nothing
says so. `/staff/settings` changes the site's name, purpose, contact address and free-queue weeks as the command
line does; refusals sit next to their fields with what was typed kept. Staff only; no serious axe-core violation
and no sideways scrolling at 390 or 1440 px.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from aggregates.base import Meta
from aggregates.catalog import CATALOG_ID
from aggregates.content import founder_stream
from commands.catalog import ChangeSiteSettings, change_site_settings, current_catalog
from tests.e2e.founder_support_listings import WIDTHS, axe_violations, screenshots, wider_than_the_screen
from tests.e2e.test_staff_review_web import CSRF, account, signed_in, staff_signs_in

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or "/tmp/staffshots")
SETTINGS = ("name", "purpose", "contact_email", "free_queue_min_weeks", "free_queue_max_weeks")


def recorded(server: Any, slug: str) -> list[tuple[str, str, str]]:
    """(event type, actor, channel) of every event of the profile's stream, oldest first, as the log holds them."""
    found = server.container.runtime.events.newest(None, 50, (), founder_stream(slug))
    return [(type(e).__name__, e.actor, e.channel) for _, e in reversed(found)]


@pytest.fixture
def site_kept(server: Any) -> Iterator[dict[str, Any]]:
    """The site's settings as they were, put back after the test (other tests read the site's name)."""
    store = server.container.store
    before = {k: current_catalog(store).site.get(k) for k in SETTINGS}
    yield before
    meta = Meta(at=server.container.services.now(), actor="staff:tests", channel="cli")
    done = change_site_settings(store, ChangeSiteSettings(changes=before), meta)
    server.container.runtime.wait_for(["catalog_view"], done.position, timeout=5)


def test_staff_make_and_change_a_founder_profile_in_the_browser(server, chromium) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    slug, name = f"ada-{uuid4().hex[:8]}", f"Ada Lovelace {uuid4().hex[:4]}"
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        page.get_by_role("navigation", name="Staff").get_by_role("link", name="Founder profiles").click()
        page.get_by_role("heading", name="Founder profiles").wait_for()
        page.get_by_role("link", name="Make a founder profile").click()
        page.get_by_label("Slug").fill(slug)
        page.get_by_label("Name").fill(name)
        page.get_by_label("Bio (optional)").fill("Wrote the first program.\r\nLikes engines.")
        page.get_by_label("Country (optional)").select_option("GB")
        page.get_by_label("GitHub").fill("https://github.com/ada")
        page.get_by_role("button", name="Make the profile").click()
        page.get_by_role("status").filter(has_text="The profile is made").wait_for()
        assert page.url == f"{server.url}/staff/founders/{slug}?done=created"
        assert page.get_by_label("GitHub").input_value() == "https://github.com/ada"
        assert page.get_by_label("Bio (optional)").input_value() == "Wrote the first program.\nLikes engines."

        public = httpx.get(f"{server.url}/api/v1/founders/{slug}").json()
        assert (public["name"], public["country"], public["socials"]) == (name, "GB", {"github": "https://github.com/ada"})

        page.get_by_role("button", name="Save the changes").click()  # nothing typed: nothing to record
        page.get_by_role("status").filter(has_text="Nothing changed").wait_for()
        page.get_by_label("Name").fill(name + " King")
        page.get_by_label("GitHub").fill("")
        page.get_by_label("X", exact=True).fill("https://x.com/ada")
        page.get_by_role("button", name="Save the changes").click()
        page.get_by_role("status").filter(has_text="The changes are saved").wait_for()
        assert page.get_by_role("heading", level=1).inner_text() == name + " King"
        public = httpx.get(f"{server.url}/api/v1/founders/{slug}").json()
        assert (public["name"], public["socials"]) == (name + " King", {"x": "https://x.com/ada"})

        page.goto(f"{server.url}/staff/founders")
        row = page.locator(f"#founder-{slug}")
        assert "No listing names this profile yet" in row.inner_text() and "United Kingdom" in row.inner_text()
    finally:
        context.close()
    me = (f"staff:{staff}", "web")
    assert recorded(server, slug) == [("FounderProfileCreated", *me), ("FounderProfileEdited", *me)]


def test_founder_refusals_sit_next_to_their_fields_and_keep_what_was_typed(server) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    taken = f"taken-{uuid4().hex[:8]}"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/founders/new").text).group(1)  # type: ignore[union-attr]
        assert client.post("/staff/founders/new", data={"csrf_token": token, "slug": taken,
                                                        "name": "First"}).status_code == 303
        again = client.post("/staff/founders/new", data={"csrf_token": token, "slug": taken, "name": "Second",
                                                         "bio": "Kept bio"})
        assert again.status_code == 409 and 'id="slug-error"' in again.text and "Kept bio" in again.text
        assert "A founder profile has this slug already" in again.text
        bad = client.post("/staff/founders/new", data={"csrf_token": token, "slug": "Not A Slug", "name": " ",
                                                       "avatar_url": "javascript:alert(1)",
                                                       "social-github": "github.com/ada"})
        assert bad.status_code == 400
        for field in ("avatar_url", "social-github"):
            assert f'id="{field}-error"' in bad.text, field
        assert "Give a web address that starts with https:// or http://." in bad.text
        named = client.post("/staff/founders/new", data={"csrf_token": token, "slug": "Not A Slug", "name": " "})
        assert named.status_code == 400 and 'id="slug-error"' in named.text and 'id="name-error"' in named.text
        long_bio = client.post(f"/staff/founders/{taken}", data={"csrf_token": token, "name": "First",
                                                                 "bio": "b" * 3001})
        assert long_bio.status_code == 400 and 'id="bio-error"' in long_bio.text
        control = client.post(f"/staff/founders/{taken}", data={"csrf_token": token, "name": "Bell\x07",
                                                                "bio": "Kept text"})
        assert control.status_code == 400 and 'id="name-error"' in control.text and "Kept text" in control.text
        assert client.get("/staff/founders/no-such-person").status_code == 404
        assert client.post(f"/staff/founders/{taken}", data={"name": "No token"}).status_code == 403
    assert [kind for kind, _, _ in recorded(server, taken)] == ["FounderProfileCreated"]


def test_staff_change_the_site_settings_and_every_page_shows_them(server, chromium, site_kept) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    name, purpose = f"Shipyard {uuid4().hex[:4]}", "Where new software launches, week by week."
    context = chromium.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        page.goto(f"{server.url}/staff/settings")
        assert page.get_by_label("Site name").input_value() == site_kept["name"]
        page.get_by_role("button", name="Save the settings").click()
        page.get_by_role("status").filter(has_text="Nothing changed").wait_for()

        page.get_by_label("Site name").fill("")
        page.get_by_label("Contact address (optional)").fill("not an address")
        page.get_by_label("Earliest week").fill("9")
        page.get_by_label("Latest week").fill("2")
        page.get_by_label("Purpose").fill(purpose)
        page.get_by_role("button", name="Save the settings").click()
        for field in ("name", "contact_email", "free_queue_min_weeks"):
            page.locator(f"#{field}-error").wait_for()
        assert page.get_by_label("Purpose").input_value() == purpose  # what was typed stays
        assert page.get_by_label("Earliest week").get_attribute("aria-invalid") == "true"
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        assert axe_violations(page) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "staff-settings-errors-390.png"), full_page=True)

        page.get_by_label("Site name").fill(name)
        page.get_by_label("Contact address (optional)").fill("team@shipyard.example")
        page.get_by_label("Earliest week").fill("3")
        page.get_by_label("Latest week").fill("5")
        page.get_by_role("button", name="Save the settings").click()
        page.get_by_role("status").filter(has_text="The settings are saved").wait_for()
        page.goto(f"{server.url}/")
        assert page.title().endswith(name) or name in page.title()
        assert purpose in page.locator("main").inner_text()
    finally:
        context.close()
    site = httpx.get(f"{server.url}/api/v1/site").json()
    assert (site["name"], site["purpose"], site["free_queue_weeks"]) == (name, purpose, {"min": 3, "max": 5})
    newest = server.container.runtime.events.newest(None, 20, (), CATALOG_ID)
    changes = [e for _, e in newest if type(e).__name__ == "SiteSettingsChanged"]
    assert changes and changes[0].actor == f"staff:{staff}" and changes[0].channel == "web"


def test_the_pages_are_for_staff_only(server) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    slug = f"staff-only-{uuid4().hex[:8]}"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/founders/new").text).group(1)  # type: ignore[union-attr]
        assert client.post("/staff/founders/new", data={"csrf_token": token, "slug": slug,
                                                        "name": "Mine"}).status_code == 303
    pages = ["/staff/founders", "/staff/founders/new", f"/staff/founders/{slug}", "/staff/settings"]
    with httpx.Client(base_url=server.url, timeout=10) as anonymous:
        for path in pages:
            refused = anonymous.get(path)
            assert refused.status_code == 403 and 'href="/signin?next=/staff"' in refused.text, path
    _, person = account(server, staff=False)
    with closing(signed_in(server, person)) as client:
        assert all(client.get(p).status_code == 403 for p in pages)
        token = CSRF.search(client.get("/account").text).group(1)  # type: ignore[union-attr]
        assert client.post(f"/staff/founders/{slug}", data={"csrf_token": token, "name": "Theirs"}).status_code == 403
        assert client.post("/staff/settings", data={"csrf_token": token, "name": "Theirs", "free_queue_min_weeks": "1",
                                                    "free_queue_max_weeks": "2"}).status_code == 403
    assert [kind for kind, _, _ in recorded(server, slug)] == ["FounderProfileCreated"]


def test_the_pages_fit_a_phone_and_a_wide_screen_without_axe_violations(server, chromium) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    slug = f"a-founder-with-a-rather-long-slug-for-a-phone-{uuid4().hex[:8]}"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/founders/new").text).group(1)  # type: ignore[union-attr]
        assert client.post("/staff/founders/new", data={"csrf_token": token, "slug": slug, "name": "Grace Hopper",
                                                        "country": "US"}).status_code == 303
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        staff_signs_in(page, server.url, staff)
        for name, path in (("list", "/staff/founders"), ("new", "/staff/founders/new"),
                           ("profile", f"/staff/founders/{slug}"), ("settings", "/staff/settings")):
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                page.goto(server.url + path)
                over = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
                assert over <= 0, (path, width, wider_than_the_screen(page)[:5])
                assert axe_violations(page) == [], (path, width)
            shots = screenshots(page, server.url + path, SHOTS, f"staff-founders-{name}")
            assert all(p.stat().st_size > 0 for p in shots)
    finally:
        context.close()
