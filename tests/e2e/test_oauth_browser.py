"""The consent and connected-apps pages in headless Chromium (Debian's /usr/bin/chromium, driven by Playwright):
sign in, allow, the code reaches the client's redirect URI with `iss`, the token works, Revoke ends it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import WIDTHS, axe_violations, wider_than_the_screen
from tests.e2e.oauth_support import (  # noqa: F401 - fixtures: tls, oauth_server
    CALLBACK, Browser, Pkce, authorize_url, exchange, oauth_server, person, query_of, register, tls)





def test_connect_an_app_and_revoke_it_in_a_browser(oauth_server: RunningServer, chromium: Any) -> None:
    base = oauth_server.url
    who = person(oauth_server.container)
    client = register(base, CALLBACK, client_name="Browser Test App")
    pkce = Pkce.new()
    landed: list[str] = []
    context = chromium.new_context()
    page = context.new_page()

    def callback(route: Any) -> None:  # the client's redirect URI: record where the browser was sent
        landed.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<h1>Back in the app</h1>")

    page.route("http://127.0.0.1:9/**", callback)
    try:
        page.goto(authorize_url(base, client["client_id"], CALLBACK, pkce, resource=base + "/api/v1",
                                scope="account:read orders:write"))
        assert "/signin" in page.url
        page.get_by_label("Email address").fill(who.email)
        page.get_by_label("Password").fill(who.password)
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("heading", name="Allow Browser Test App to use your account?").wait_for()
        assert page.locator("#client-domain").inner_text() == "127.0.0.1"
        assert "orders:write" in page.locator("#scopes").inner_text()
        page.get_by_role("button", name="Allow").click()
        page.get_by_role("heading", name="Back in the app").wait_for()
        answer = query_of(landed[-1])
        assert answer["iss"] == base and answer["state"] == "st-1"
        token = exchange(base, client["client_id"], answer["code"], CALLBACK, pkce).json()["access_token"]
        me = httpx.get(base + "/api/v1/me", headers={"authorization": f"Bearer {token}"})
        assert me.status_code == 200 and me.json()["client_id"] == client["client_id"]

        page.goto(base + "/account/apps")
        page.get_by_role("button", name="Revoke the access of Browser Test App").click()
        page.get_by_text("The app was disconnected").wait_for()
        gone = httpx.get(base + "/api/v1/me", headers={"authorization": f"Bearer {token}"})
        assert gone.status_code == 401 and gone.json()["detail"] == "this access token was revoked"
    finally:
        context.close()


def _consent_page(page: Any, base: str, url: str, who: Any) -> None:
    """Open an authorization URL in the browser, signing in on the way, and wait for the consent page."""
    page.goto(url)
    if "/signin" in page.url:
        page.get_by_label("Email address").fill(who.email)
        page.get_by_label("Password").fill(who.password)
        page.get_by_role("button", name="Sign in").click()
    page.locator("#scopes").wait_for()


def test_an_app_on_the_device_shows_its_scheme_instead_of_a_domain(oauth_server: RunningServer, chromium: Any) -> None:
    """A native app's redirect URI has a private-use scheme and no host: the page says so and shows the scheme."""
    base = oauth_server.url
    who = person(oauth_server.container)
    client = register(base, "com.example.app:/oauth", client_name="Phone App")
    assert client.get("client_uri") is None
    context = chromium.new_context()
    page = context.new_page()
    try:
        _consent_page(page, base, authorize_url(base, client["client_id"], "com.example.app:/oauth", Pkce.new(),
                                                resource=base + "/api/v1"), who)
        domain = page.locator("#client-domain").inner_text()
        assert domain == "None: an app on your device"
        assert page.locator("#redirect-scheme").inner_text() == "com.example.app:"
        assert "an app installed on this phone or computer" in page.locator("dl").inner_text()
        assert page.locator("#redirect-host").inner_text() == "the app on your device that opens com.example.app: addresses"
        assert axe_violations(page) == []
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"/tmp/consent-app-{width}.png", full_page=True)
            assert wider_than_the_screen(page) == []
    finally:
        context.close()


def test_a_step_up_marks_the_scopes_that_are_new(oauth_server: RunningServer, chromium: Any) -> None:
    """An app connected with account:read asks for account:read and orders:write: only orders:write is marked new;
    once allowed, the new token carries both."""
    base = oauth_server.url
    who = person(oauth_server.container)
    client = register(base, CALLBACK, client_name="Step Up App")
    first = Pkce.new()
    browser = Browser(base, who)
    try:
        answer = browser.authorize(authorize_url(base, client["client_id"], CALLBACK, first, resource=base + "/api/v1"))
    finally:
        browser.close()
    assert exchange(base, client["client_id"], answer["code"], CALLBACK, first).status_code == 200  # connected

    second = Pkce.new()
    landed: list[str] = []
    context = chromium.new_context()
    page = context.new_page()

    def callback(route: Any) -> None:
        landed.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<h1>Back in the app</h1>")

    page.route("http://127.0.0.1:9/**", callback)
    try:
        _consent_page(page, base, authorize_url(base, client["client_id"], CALLBACK, second, resource=base + "/api/v1",
                                                scope="account:read orders:write"), who)
        assert page.get_by_role("heading", name="It asks for more").is_visible()
        assert "1 more permission, marked New" in page.locator("#step-up").inner_text()
        rows = {row.locator("code").inner_text(): row.inner_text() for row in page.locator("#scopes li").all()}
        assert rows["orders:write"].endswith("New") and rows["account:read"].endswith("Allowed before")
        assert page.locator("#scopes li.new-scope code").all_inner_texts() == ["orders:write"]
        assert axe_violations(page) == []
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"/tmp/consent-step-up-{width}.png", full_page=True)
        page.get_by_role("button", name="Allow").click()
        page.get_by_role("heading", name="Back in the app").wait_for()
        token = exchange(base, client["client_id"], query_of(landed[-1])["code"], CALLBACK, second).json()
        assert set(token["scope"].split()) == {"account:read", "orders:write"}
    finally:
        context.close()


def test_a_first_consent_marks_nothing_as_new(oauth_server: RunningServer, chromium: Any) -> None:
    base = oauth_server.url
    who = person(oauth_server.container)
    client = register(base, CALLBACK, client_name="Fresh App")
    context = chromium.new_context()
    page = context.new_page()
    try:
        _consent_page(page, base, authorize_url(base, client["client_id"], CALLBACK, Pkce.new(),
                                                resource=base + "/api/v1", scope="account:read orders:write"), who)
        assert page.get_by_role("heading", name="It asks to").is_visible()
        assert page.locator("#step-up").count() == 0 and page.locator("#scopes .pill").count() == 0
        assert page.locator("#redirect-host").inner_text() == "127.0.0.1 (a program on this computer)"
    finally:
        context.close()
