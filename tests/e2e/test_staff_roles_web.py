"""The staff role given and taken away on /staff, over real HTTP and in headless Chromium.

Staff give the role to an existing account by its address and take it from another staff account, with the
command the CLI uses, recorded as `staff:<email>` on channel `web`. Nobody takes it from themselves here, an
unknown address is named next to its box, a step that changes nothing says so, and only staff can do any of it.
The overview lists every staff page, fits 390 and 1440 px and has no serious axe-core violation.
"""

from __future__ import annotations

import os
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx

from commands.account import find_account
from tests.e2e.founder_support_listings import WIDTHS, axe_violations, screenshots, wider_than_the_screen
from tests.e2e.test_staff_review_web import CSRF, account, signed_in, staff_signs_in

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or "/tmp/staffshots")


def role_events(server: Any, email: str) -> list[tuple[str, str, str]]:
    """(event type, actor, channel) of the staff-role events of the account with `email`, oldest first."""
    state = find_account(server.container.store, email)
    assert state is not None
    found = server.container.runtime.events.newest(None, 50, (), state.id)
    return [(type(e).__name__, e.actor, e.channel) for _, e in reversed(found) if "Staff" in type(e).__name__]


def test_staff_give_and_take_the_role_in_the_browser(server, chromium) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    _, person = account(server, staff=False)
    context = chromium.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        page.get_by_role("navigation", name="Staff").get_by_role("link", name="Staff home").click()
        page.get_by_role("heading", name="The staff role").wait_for()
        assert f"Signed in as {staff}" in page.get_by_role("main").inner_text()  # the page's own names hide nothing
        for link in ("Site settings", "founder profiles", "Claims", "prices"):  # every staff page is named
            assert page.get_by_role("main").get_by_role("link", name=link, exact=True).count() >= 1, link
        page.get_by_label("Give the staff role to").fill(person.upper())  # an address in any case
        page.get_by_role("button", name="Give the staff role").click()
        page.get_by_role("status").filter(has_text=f"{person} is staff now").wait_for()
        with closing(signed_in(server, person)) as theirs:
            assert theirs.get("/staff/review").status_code == 200  # the role works at their next page

        page.get_by_label("Give the staff role to").fill(person)
        page.get_by_role("button", name="Give the staff role").click()
        page.get_by_role("status").filter(has_text=f"Nothing changed: {person} is staff already").wait_for()

        page.get_by_role("button", name=f"Take the role away from {person}").click()
        page.get_by_role("status").filter(has_text=f"{person} is no longer staff").wait_for()
        assert page.get_by_role("button", name=f"Take the role away from {person}").count() == 0
        assert page.get_by_role("button", name=f"Take the role away from {staff}").count() == 0  # not oneself
        with closing(signed_in(server, person)) as theirs:
            assert theirs.get("/staff/review").status_code == 403

        page.get_by_label("Give the staff role to").fill("nobody-here@example.com")
        page.get_by_role("button", name="Give the staff role").click()
        error = page.locator("#email-error")
        assert "No account has this address" in error.inner_text()
        assert page.get_by_label("Give the staff role to").input_value() == "nobody-here@example.com"
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        assert axe_violations(page) == []
    finally:
        context.close()
    me = (f"staff:{staff}", "web")
    assert role_events(server, person) == [("AccountStaffGranted", *me), ("AccountStaffRevoked", *me)]


def test_nobody_takes_the_role_from_themselves_and_only_staff_change_roles(server) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    _, person = account(server, staff=False)
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff").text).group(1)  # type: ignore[union-attr]
        mine = client.post("/staff/roles/revoke", data={"csrf_token": token, "email": staff})
        assert mine.status_code == 400 and 'id="revoke-error"' in mine.text
        assert "You cannot take the staff role from yourself here" in mine.text
        not_staff = client.post("/staff/roles/revoke", data={"csrf_token": token, "email": person})
        assert not_staff.status_code == 303
        assert f"Nothing changed: {person} is not staff" in client.get(not_staff.headers["location"]).text
        assert client.post("/staff/roles/grant", data={"email": person}).status_code == 403  # no CSRF token
    with closing(signed_in(server, person)) as client:
        token = CSRF.search(client.get("/account").text).group(1)  # type: ignore[union-attr]
        assert client.post("/staff/roles/grant", data={"csrf_token": token, "email": person}).status_code == 403
        assert client.post("/staff/roles/revoke", data={"csrf_token": token, "email": staff}).status_code == 403
    with httpx.Client(base_url=server.url, timeout=10) as anonymous:
        assert anonymous.post("/staff/roles/grant", data={"email": person}).status_code == 403
    assert role_events(server, person) == []
    assert [kind for kind, _, _ in role_events(server, staff)] == ["AccountStaffGranted"]  # the set-up's grant only


def test_the_overview_fits_a_phone_and_a_wide_screen(server, chromium) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        staff_signs_in(page, server.url, staff)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{server.url}/staff")
            over = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
            assert over <= 0, (width, wider_than_the_screen(page)[:5])
            assert axe_violations(page) == [], width
        assert all(p.stat().st_size > 0 for p in screenshots(page, f"{server.url}/staff", SHOTS, "staff-home"))
    finally:
        context.close()
