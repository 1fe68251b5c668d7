"""The consent and connected-apps pages in headless Chromium (Debian's /usr/bin/chromium, driven by Playwright):
sign in, allow, the code reaches the client's redirect URI with `iss`, the token works, Revoke ends it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import RunningServer
from tests.e2e.oauth_support import (  # noqa: F401 - fixtures: tls, oauth_server
    CALLBACK, Pkce, authorize_url, exchange, oauth_server, person, query_of, register, tls)





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
