"""The website's identity pages over real HTTP: forms, CSRF, errors tied to fields, sessions, staff;
and the whole journey in headless Chromium with a real SMTP server."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from uuid import uuid4

import httpx
import pytest

from aggregates.base import Meta
from commands import account as account_cmd
from queries import mail as mail_q
from tests.conftest import RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.integration.test_accounts_mail import LocalSmtp

PASSWORD = "a good long password"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')


def _address(tag: str = "web") -> str:
    return f"{tag}-{uuid4().hex[:10]}@example.com"


def _csrf(page: httpx.Response) -> str:
    m = CSRF.search(page.text)
    assert m, page.text[:500]
    return m.group(1)


def _browser(server) -> httpx.Client:  # type: ignore[no-untyped-def]
    return httpx.Client(base_url=server.url, timeout=10, follow_redirects=False)


def _post(client: httpx.Client, path: str, form_page: str, data: dict) -> httpx.Response:  # type: ignore[type-arg]
    token = _csrf(client.get(form_page))
    return client.post(path, data={"csrf_token": token, **data})


def _link(server, address: str, kind: str) -> str:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [m for m in mail_q.outbox(server.container.services.reads, to=address) if m["kind"] == kind]
        if found:
            return re.search(r"(https?://\S+)", found[0]["text"]).group(1)  # type: ignore[union-attr]
        time.sleep(0.05)
    raise AssertionError(f"no {kind} email to {address}")


def _signed_up(server, client: httpx.Client, verified: bool = True) -> str:  # type: ignore[no-untyped-def]
    address = _address()
    r = _post(client, "/signup", "/signup", {"email": address, "password": PASSWORD})
    assert r.status_code == 200 and "Check your email" in r.text
    link = _link(server, address, "verify_email")  # the account exists once its link is queued (after the answer)
    if verified:
        assert client.get(link.replace(server.url, "")).status_code == 200
    return address


def _signed_in(server, client: httpx.Client, verified: bool = True) -> str:  # type: ignore[no-untyped-def]
    address = _signed_up(server, client, verified)
    r = _post(client, "/signin", "/signin", {"email": address, "password": PASSWORD, "next": "/account"})
    assert r.status_code == 303 and r.headers["location"] == "/account"
    return address


# ---------------------------------------------------------------- forms, CSRF and errors


def test_every_form_needs_the_csrf_token(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        client.get("/signup")
        for path in ("/signup", "/signin", "/reset", "/reset/confirm", "/signout", "/account/keys"):
            missing = client.post(path, data={"email": _address(), "password": PASSWORD})
            assert missing.status_code == 403, path
            forged = client.post(path, data={"email": _address(), "password": PASSWORD, "csrf_token": "0" * 64})
            assert forged.status_code == 403, path
    with _browser(server) as other:  # a token from another browser does not fit this one's cookie
        token = _csrf(other.get("/signup"))
    with _browser(server) as client:
        client.get("/signup")
        assert client.post("/signup", data={"email": _address(), "password": PASSWORD, "csrf_token": token}).status_code == 403


def test_cookies_are_http_only_and_same_site_lax(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        csrf_cookie = client.get("/signup").headers["set-cookie"]
        assert "HttpOnly" in csrf_cookie and "SameSite=lax" in csrf_cookie and "Secure" not in csrf_cookie
        address = _signed_up(server, client)
        r = _post(client, "/signin", "/signin", {"email": address, "password": PASSWORD})
        session_cookie = r.headers["set-cookie"]
        assert session_cookie.startswith("ld_session=") and "HttpOnly" in session_cookie and "SameSite=lax" in session_cookie
        assert "Max-Age=" in session_cookie


def test_bad_input_re_renders_the_form_with_errors_tied_to_fields(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        r = _post(client, "/signup", "/signup", {"email": "not-an-address", "password": "short"})
        assert r.status_code == 400
        assert 'id="email-error"' in r.text and 'id="password-error"' in r.text
        assert re.search(r'id="email"[^>]*aria-describedby="email-hint email-error"[^>]*aria-invalid="true"', r.text)
        assert 'value="not-an-address"' in r.text and 'role="alert"' in r.text
        assert "Use at least 10 characters." in r.text
        assert 'value="short"' not in r.text  # passwords are never echoed back


def test_signing_up_with_a_taken_address_looks_the_same(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        address = _signed_up(server, client)
        first = client.get("/signup")
        again = client.post("/signup", data={"email": address.upper(), "password": "some other password",
                                             "csrf_token": _csrf(first)})
        fresh = _post(client, "/signup", "/signup", {"email": _address(), "password": PASSWORD})
    assert again.status_code == fresh.status_code == 200
    strip = lambda r, a: re.sub(r'value="[0-9a-f]{64}"', "", r.text).replace(a, "ADDRESS")  # noqa: E731
    assert strip(again, address) == strip(fresh, re.search(r"<strong>(.+?)</strong>", fresh.text).group(1))  # type: ignore[union-attr]
    assert _link(server, address, "signup_existing").endswith("/signin")


def test_sign_in_sign_out_and_the_session_ends_server_side(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        address = _signed_in(server, client)
        page = client.get("/account")
        assert page.status_code == 200 and address in page.text and page.headers["cache-control"] == "no-store"
        assert 'href="/account/apps"' in page.text  # connected apps are one click away
        for path in ("/submit", "/drafts", "/my/listings", "/my/orders", "/my/claims"):  # and the founder's work
            assert f'href="{path}"' in page.text, path
        cookie = client.cookies.get("ld_session")
        r = client.post("/signout", data={"csrf_token": _csrf(page)})
        assert r.status_code == 303
        assert client.get("/account").status_code == 303
    with _browser(server) as thief:  # replaying the old cookie does not work: the session is gone
        thief.cookies.set("ld_session", cookie)
        assert thief.get("/account").status_code == 303


def test_wrong_passwords_lock_the_address_for_a_while(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        address = _signed_up(server, client)
        for _ in range(5):
            r = _post(client, "/signin", "/signin", {"email": address, "password": "wrong password!"})
            assert r.status_code == 400 and 'id="password-error"' in r.text
        r = _post(client, "/signin", "/signin", {"email": address, "password": PASSWORD})
        assert r.status_code == 429 and "Too many failed attempts" in r.text


def test_unverified_accounts_cannot_make_keys_and_can_ask_for_a_new_link(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        address = _signed_in(server, client, verified=False)
        page = client.get("/account")
        assert "not confirmed yet" in page.text
        r = client.post("/account/keys", data={"csrf_token": _csrf(page), "name": "ci", "scopes": "account:read"})
        assert r.status_code == 400 and "Verify your email address" in r.text
        r = client.post("/account/verification", data={"csrf_token": _csrf(page)})
        assert r.status_code == 303 and r.headers["location"] == "/account?verification=sent"
        assert len([m for m in mail_q.outbox(server.container.services.reads, to=address) if m["kind"] == "verify_email"]) == 2


def test_key_form_errors_are_tied_to_their_fields(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client:
        _signed_in(server, client)
        page = client.get("/account")
        r = client.post("/account/keys", data={"csrf_token": _csrf(page), "name": "", "expires_on": "31/12/2099"})
        assert r.status_code == 400
        for field in ("name", "scopes", "expires_on"):
            assert f'id="{field}-error"' in r.text, field
        r = client.post("/account/keys", data={"csrf_token": _csrf(page), "name": "x", "scopes": "account:read",
                                                "expires_on": "2001-01-01"})
        assert r.status_code == 400 and "must be in the future" in r.text
        r = client.post("/account/keys/ffffffffffffffff/revoke", data={"csrf_token": _csrf(page)})
        assert r.status_code == 404


def test_password_reset_through_the_pages(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as client, _browser(server) as other_device:
        address = _signed_in(server, client)
        _post(other_device, "/signin", "/signin", {"email": address, "password": PASSWORD})
        assert other_device.get("/account").status_code == 200
        r = _post(client, "/reset", "/reset", {"email": address})
        assert r.status_code == 200 and "If <strong>" in r.text
        unknown = _post(client, "/reset", "/reset", {"email": _address("nobody")})
        assert unknown.status_code == 200
        path = _link(server, address, "password_reset").replace(server.url, "")
        form = client.get(path)
        assert form.status_code == 200 and form.headers["referrer-policy"] == "no-referrer"
        token = path.split("token=")[1]
        short = client.post("/reset/confirm", data={"csrf_token": _csrf(form), "token": token, "password": "short"})
        assert short.status_code == 400 and 'id="password-error"' in short.text
        done = client.post("/reset/confirm", data={"csrf_token": _csrf(form), "token": token, "password": "my new password"})
        assert done.status_code == 303 and done.headers["location"] == "/signin?reset=done"
        assert other_device.get("/account").status_code == 303  # signed out everywhere
        again = client.post("/reset/confirm", data={"csrf_token": _csrf(client.get("/reset")), "token": token,
                                                    "password": "another new password"})
        assert again.status_code == 400 and "already used" in again.text
        reopened = client.get(path)  # the used link, opened again: says so at once, with no password form
        assert reopened.status_code == 400 and "already used" in reopened.text and 'name="password"' not in reopened.text
        r = _post(client, "/signin", "/signin", {"email": address, "password": "my new password"})
        assert r.status_code == 303
        assert client.get("/reset/confirm?token=garbage").status_code == 400


def test_staff_pages_are_for_staff_only(server) -> None:  # type: ignore[no-untyped-def]
    with _browser(server) as anonymous:
        assert anonymous.get("/staff").status_code == 403
        assert anonymous.get("/staff/outbox").status_code == 403
    with _browser(server) as client:
        address = _signed_in(server, client)
        assert client.get("/staff").status_code == 403
        assert client.get("/staff/outbox").status_code == 403
        meta = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")
        position = account_cmd.grant_staff(server.container.store, address, meta)
        assert server.container.runtime.wait_for(["accounts_view"], position, timeout=5)
        assert client.get("/staff").status_code == 200
        outbox = client.get("/staff/outbox", params={"to": address})
        assert outbox.status_code == 200 and "Confirm your email address for launchdir" in outbox.text


async def test_https_public_urls_get_secure_host_only_cookies(fresh_db: str) -> None:
    from launchdir.bootstrap import bootstrap, web_app

    c = bootstrap(settings_for(fresh_db, public_url="https://launchdir.example"))
    try:
        transport = httpx.ASGITransport(app=web_app(c))
        async with httpx.AsyncClient(transport=transport, base_url="https://launchdir.example") as client:
            r = await client.get("/signin")
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-ld_csrf=") and "; Secure" in cookie and "HttpOnly" in cookie
        assert "Path=/" in cookie and "Domain" not in cookie
    finally:
        c.close()


# ---------------------------------------------------------------- the whole journey in Chromium


@pytest.fixture(scope="module")
def mail_server(databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:  # type: ignore[no-untyped-def]
    """A second server whose outbox really goes out over SMTP to a local aiosmtpd."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    with LocalSmtp() as smtp:
        port = free_port()
        c = bootstrap(settings_for(databases.create(), port=port, smtp_url=smtp.url))
        ensure_catalog(c)
        with RunningServer(c, port) as running:
            yield running, smtp
        c.close()




def test_sign_up_verify_sign_in_create_use_and_revoke_a_key_in_a_browser(mail_server, chromium) -> None:  # type: ignore[no-untyped-def]
    server, smtp = mail_server
    address = _address("browser")
    context = chromium.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    try:
        page.goto(server.url + "/signup")
        page.get_by_label("Email address").fill(address)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Create account").click()
        page.get_by_role("heading", name="Check your email").wait_for()

        [message] = smtp.wait_for(address)
        link = re.search(r"(http://\S+/verify\?token=\S+)", message.get_content()).group(1)  # type: ignore[union-attr]
        page.goto(link)
        page.get_by_role("heading", name="Email address confirmed").wait_for()

        page.get_by_role("link", name="Sign in").first.click()
        page.get_by_label("Email address").fill(address)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.get_by_role("heading", name="Your account").wait_for()
        assert address in page.locator("#account-email").inner_text()

        page.get_by_label("Name").fill("browser key")
        page.get_by_label("account:read").check()
        page.get_by_role("button", name="Create key").click()
        page.get_by_role("heading", name="Your new API key").wait_for()
        key = page.get_by_label("API key", exact=True).input_value()
        assert re.fullmatch(r"ldk_[0-9a-f]{16}_[0-9a-f]{64}", key)

        page.goto(server.url + "/account")  # shown once: not on the page again
        assert key not in page.content() and key[:20] in page.content()

        me = httpx.get(server.url + "/api/v1/me", headers={"Authorization": f"Bearer {key}"})
        assert me.status_code == 200 and me.json()["email"] == address and me.json()["scopes"] == ["account:read"]

        page.get_by_role("button", name="Revoke the key browser key").click()
        page.get_by_text("was revoked").wait_for()
        assert page.locator(f"#key-{key[4:20]} .status").inner_text() == "revoked"
        gone = httpx.get(server.url + "/api/v1/me", headers={"Authorization": f"Bearer {key}"})
        assert gone.status_code == 401 and gone.json()["detail"] == "this API key was revoked"

        page.get_by_role("button", name="Sign out").click()
        page.goto(server.url + "/account")
        assert "/signin" in page.url
    finally:
        context.close()
