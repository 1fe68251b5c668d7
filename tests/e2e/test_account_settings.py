"""The account settings of a signed-in person through the real server: changing the password, the list of
browsers signed in and signing them out, and moving the account to another address by an emailed link.

Each page is driven in Chromium (axe on each, screenshots at 390 and 1440 px, nothing wider than a phone);
the refusals are also checked over plain HTTP, and the mail through the outbox."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from aggregates.base import Meta
from api.sessions import reference
from commands import account_settings as settings_cmd
from queries import mail as mail_q
from tests.conftest import Databases, RunningServer
from tests.e2e.founder_support_listings import AXE, WIDTHS, axe_violations, sign_in, wider_than_the_screen
from tests.e2e.submission_support import live_server
from tests.e2e.test_web_accounts import PASSWORD, _address, _browser, _csrf, _link, _post, _signed_in, _signed_up

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="settings-shots-"))
FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
SAFARI = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/18.1 Mobile/15E148 Safari/604.1")
NEW_PASSWORD = "a fresh and longer passphrase"


@pytest.fixture(scope="module")
def server(databases: Databases) -> Iterator[RunningServer]:
    """A server of this module's own: its wrong passwords count against 127.0.0.1 in its own database only."""
    yield from live_server(databases)


@contextmanager
def browser_page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()


def checked(page: Any, name: str) -> None:
    """axe finds nothing serious, nothing is wider than a phone, and screenshots at both widths for a look."""
    if AXE.exists():
        assert axe_violations(page) == [], page.url
    for width in WIDTHS:  # the page as it is (an answer to a form too), not loaded again
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        assert wider_than_the_screen(page) == [], (page.url, width)


def mails(server: Any, address: str, kind: str) -> list[dict[str, Any]]:
    return [m for m in mail_q.outbox(server.container.services.reads, to=address) if m["kind"] == kind]


def mails_when(server: Any, address: str, kind: str, count: int) -> list[dict[str, Any]]:
    """The messages of `kind` to `address` once there are `count` of them (mail queued after an answer)."""
    deadline = time.monotonic() + 10
    while len(found := mails(server, address, kind)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def signs_in(server: Any, address: str, password: str) -> bool:
    with _browser(server) as client:
        return _post(client, "/signin", "/signin", {"email": address, "password": password}).status_code == 303


def new_key(client: httpx.Client) -> str:
    page = client.get("/account")
    r = client.post("/account/keys", data={"csrf_token": _csrf(page), "name": "ci", "scopes": "account:read"})
    assert r.status_code == 200, r.text[:300]
    return str(r.text.split('id="new-key-value"')[1].split('value="')[1].split('"')[0])


# ---------------------------------------------------------------- the password


def test_changing_the_password_in_a_browser_keeps_it_signed_in_and_signs_out_the_others(server: Any,
                                                                                        chromium: Any) -> None:
    with _browser(server) as phone:
        address = _signed_in(server, phone)
        key = new_key(phone)
        with browser_page(chromium) as page:
            sign_in(page, server.url, address, PASSWORD, then="/account")
            page.get_by_role("link", name="Change your password").click()
            page.get_by_role("heading", name="Change your password").wait_for()
            checked(page, "password")

            page.get_by_label("Current password").fill("not my password at all")
            page.get_by_label("New password").fill(NEW_PASSWORD)
            page.get_by_role("button", name="Change password").click()
            assert "This is not your current password." in page.locator("#current_password-error").inner_text()
            assert page.locator("#current_password").get_attribute("aria-invalid") == "true"
            checked(page, "password-error")

            page.get_by_label("Current password").fill(PASSWORD)
            page.get_by_label("New password").fill(address.split("@")[0] + "2026")  # built from the address
            page.get_by_role("button", name="Change password").click()
            page.locator("#new_password-error").wait_for()
            assert page.locator("#current_password-error").count() == 0

            page.get_by_label("Current password").fill(PASSWORD)
            page.get_by_label("New password").fill(NEW_PASSWORD)
            page.get_by_role("button", name="Change password").click()
            assert "was changed" in page.locator("#password-notice").inner_text()
            page.goto(server.url + "/account")
            page.get_by_role("heading", name="Your account").wait_for()  # this browser is still signed in
        assert phone.get("/account").status_code == 303  # the other one is not
    assert httpx.get(f"{server.url}/api/v1/me", headers={"authorization": f"Bearer {key}"}).status_code == 200
    [mail] = mails(server, address, "password_changed")
    assert "changed on your account page just now" in mail["text"] and "keep working" in mail["text"]
    assert signs_in(server, address, NEW_PASSWORD) and not signs_in(server, address, PASSWORD)


def test_changing_the_password_can_revoke_keys_and_refuses_the_same_password(server: Any) -> None:
    with _browser(server) as client:
        address = _signed_in(server, client)
        key = new_key(client)
        form = client.get("/account/password")
        same = client.post("/account/password", data={"csrf_token": _csrf(form), "current_password": PASSWORD,
                                                      "new_password": PASSWORD})
        assert same.status_code == 400 and 'id="new_password-error"' in same.text
        short = client.post("/account/password", data={"csrf_token": _csrf(form), "current_password": PASSWORD,
                                                       "new_password": "short"})
        assert short.status_code == 400 and "Use at least 10 characters." in short.text
        assert PASSWORD not in short.text and 'value="short"' not in short.text  # passwords are never echoed
        done = client.post("/account/password", data={"csrf_token": _csrf(form), "current_password": PASSWORD,
                                                      "new_password": NEW_PASSWORD, "revoke": "yes"})
        assert done.status_code == 303 and done.headers["location"] == "/account/password?changed=yes"
    assert httpx.get(f"{server.url}/api/v1/me", headers={"authorization": f"Bearer {key}"}).status_code == 401
    [mail] = mails(server, address, "password_changed")
    assert "revoked too" in mail["text"]


def test_wrong_current_passwords_count_as_failed_sign_ins(server: Any) -> None:
    with _browser(server) as client:
        address = _signed_in(server, client)
        form = client.get("/account/password")
        for _ in range(5):
            r = client.post("/account/password", data={"csrf_token": _csrf(form), "current_password": "a wrong guess!",
                                                       "new_password": NEW_PASSWORD})
            assert r.status_code == 400 and 'id="current_password-error"' in r.text
        locked = client.post("/account/password", data={"csrf_token": _csrf(form), "current_password": PASSWORD,
                                                        "new_password": NEW_PASSWORD})
        assert locked.status_code == 429 and "Too many failed attempts" in locked.text
        email_form = client.post("/account/email", data={"csrf_token": _csrf(form), "new_email": _address(),
                                                         "current_password": PASSWORD})
        assert email_form.status_code == 429  # the other form with a password is locked too
    assert not signs_in(server, address, PASSWORD)  # and so is signing in, as after five wrong sign-ins
    assert mails(server, address, "password_changed") == []


# ---------------------------------------------------------------- where you are signed in


def test_the_sessions_page_lists_browsers_and_signs_them_out(server: Any, chromium: Any) -> None:
    with _browser(server) as laptop:
        address = _signed_in(server, laptop)
        laptop.headers["user-agent"] = FIREFOX
        assert _post(laptop, "/signin", "/signin", {"email": address, "password": PASSWORD}).status_code == 303
        with _browser(server) as phone:
            phone.headers["user-agent"] = SAFARI
            assert _post(phone, "/signin", "/signin", {"email": address, "password": PASSWORD}).status_code == 303
            cookies = [laptop.cookies["ld_session"], phone.cookies["ld_session"]]
            with browser_page(chromium) as page:
                sign_in(page, server.url, address, PASSWORD, then="/account")
                page.get_by_role("link", name="Where you are signed in").first.click()
                page.get_by_role("heading", name="Where you are signed in").wait_for()
                rows = page.locator("#sessions li.session")
                assert rows.count() == 3
                text = page.locator("#sessions").inner_text()
                assert "Firefox on Windows" in text and "Safari on iPhone" in text and "(this browser)" in text
                assert "127.0.0.1" in text
                html = page.content()
                mine = page.context.cookies()
                for cookie in cookies + [c["value"] for c in mine if c["name"] == "ld_session"]:
                    assert cookie not in html and hashlib.sha256(cookie.encode()).hexdigest() not in html
                checked(page, "sessions")

                page.get_by_role("button", name=re.compile("^Sign out Firefox on Windows")).click()
                assert "That session was ended" in page.get_by_role("status").inner_text()
                assert laptop.get("/account").status_code == 303 and phone.get("/account").status_code == 200

                page.get_by_role("button", name="Sign out every other browser").click()
                assert "Every other session was ended." in page.get_by_role("status").inner_text()
                assert page.locator("#sessions li.session").count() == 1
                assert phone.get("/account").status_code == 303
                page.goto(server.url + "/account")
                page.get_by_role("heading", name="Your account").wait_for()


def test_another_person_s_session_is_not_found(server: Any) -> None:
    with _browser(server) as mine, _browser(server) as theirs:
        _signed_in(server, mine)
        _signed_in(server, theirs)
        their_page = theirs.get("/account/sessions").text
        [their_ref] = re.findall(r'/account/sessions/([0-9a-f]{16})/end', their_page) or [None]
        assert their_ref is None  # their only session is this browser: no button, the reference is not shown
        their_ref = reference(hashlib.sha256(theirs.cookies["ld_session"].encode()).hexdigest())
        page = mine.get("/account/sessions")
        r = mine.post(f"/account/sessions/{their_ref}/end", data={"csrf_token": _csrf(page)})
        assert r.status_code == 404 and "No such session" in r.text
        assert mine.post("/account/sessions/not-a-reference/end", data={"csrf_token": _csrf(page)}).status_code == 404
        assert theirs.get("/account").status_code == 200  # still signed in
        assert mine.post(f"/account/sessions/{their_ref}/end", data={}).status_code == 403  # CSRF as everywhere


def test_settings_pages_send_signed_out_visitors_to_sign_in(server: Any) -> None:
    with _browser(server) as client:
        for path in ("/account/password", "/account/sessions", "/account/email"):
            r = client.get(path)
            assert r.status_code == 303 and r.headers["location"] == f"/signin?next={path}", path


def test_every_settings_form_needs_the_csrf_token_and_keeps_the_text_rule(server: Any) -> None:
    with _browser(server) as client:
        _signed_in(server, client)
        for path in ("/account/password", "/account/sessions/others/end", "/account/sessions/0123456789abcdef/end",
                     "/account/email", "/account/email/confirm", "/account/email/undo"):
            assert client.post(path, data={"current_password": PASSWORD}).status_code == 403, path
        page = client.get("/account/email")
        r = client.post("/account/email", data={"csrf_token": _csrf(page), "new_email": "a\x00b@example.com",
                                                "current_password": PASSWORD})
        assert r.status_code == 400 and 'id="new_email-error"' in r.text and "control_characters" in r.text


# ---------------------------------------------------------------- the address


def test_moving_to_another_address_in_a_browser(server: Any, chromium: Any) -> None:
    with _browser(server) as client:
        old = _signed_in(server, client)
        key = new_key(client)
    new = _address("moved")
    with browser_page(chromium) as page:
        sign_in(page, server.url, old, PASSWORD, then="/account")
        page.locator("#account-email").get_by_role("link", name="Change").click()
        page.get_by_role("heading", name="Change your email address").wait_for()
        checked(page, "email")

        page.get_by_label("New email address").fill(old.upper())
        page.get_by_label("Current password").fill(PASSWORD)
        page.get_by_role("button", name="Send the link").click()
        assert "This is your address already" in page.locator("#new_email-error").inner_text()
        page.get_by_label("New email address").fill(new)
        page.get_by_label("Current password").fill("not my password at all")
        page.get_by_role("button", name="Send the link").click()
        assert "not your current password" in page.locator("#current_password-error").inner_text()
        assert page.get_by_label("New email address").input_value() == new  # kept; the password is not
        checked(page, "email-error")

        page.get_by_label("Current password").fill(PASSWORD)
        page.get_by_role("button", name="Send the link").click()
        assert new in page.locator("#email-sent").inner_text()
        link = _link(server, new, "email_change")
        assert "/account/email/confirm?token=" in link
        assert old in page.locator("#current-email").inner_text()
        page.goto(server.url + "/account/email")
        assert new in page.locator("#pending-email").inner_text()
        assert signs_in(server, old, PASSWORD)  # nothing changed yet

        page.goto(link)
        page.get_by_role("heading", name="Confirm your new email address").wait_for()
        assert new in page.locator("#new-email").inner_text()
        checked(page, "email-confirm")
        page.get_by_role("button", name="Confirm the new address").click()
        page.get_by_role("heading", name="Email address changed").wait_for()

        page.goto(server.url + "/account")
        assert new in page.locator("#account-email").inner_text() and "(confirmed)" in page.locator("#account-email").inner_text()
        page.goto(link)  # opened again
        page.get_by_role("heading", name="Email address changed already").wait_for()

    [notice] = mails(server, old, "email_changed")
    local, domain = new.split("@")
    assert f"{local[0]}***@{domain}" in notice["text"] and new not in notice["text"]
    assert not signs_in(server, old, PASSWORD) and signs_in(server, new, PASSWORD)
    me = httpx.get(f"{server.url}/api/v1/me", headers={"authorization": f"Bearer {key}"}).json()
    assert me["email"] == new and me["email_verified"] is True
    with _browser(server) as stranger:  # the old address is free: it can open a new account
        r = _post(stranger, "/signup", "/signup", {"email": old, "password": PASSWORD})
        assert r.status_code == 200
    assert len(mails_when(server, old, "verify_email", 2)) == 2 and mails(server, old, "signup_existing") == []
    with _browser(server) as client:  # mail to the account now goes to the new address
        _post(client, "/reset", "/reset", {"email": new})
        _link(server, new, "password_reset")


def test_a_taken_address_is_refused_and_the_answer_looks_the_same(server: Any) -> None:
    with _browser(server) as other:
        taken = _signed_up(server, other)
    with _browser(server) as client:
        mine = _signed_in(server, client)
        page = client.get("/account/email")
        refused = client.post("/account/email", data={"csrf_token": _csrf(page), "new_email": taken,
                                                      "current_password": PASSWORD})
        free = _address("free")
        accepted = client.post("/account/email", data={"csrf_token": _csrf(page), "new_email": free,
                                                       "current_password": PASSWORD})
    assert refused.status_code == accepted.status_code == 200

    def strip(r: httpx.Response, address: str) -> str:
        text = re.sub(r'value="[0-9a-f]{64}"', "", r.text).replace(address, "ADDRESS")
        return re.sub(r'<p id="pending-email">.*?</p>', "", text)

    assert strip(refused, taken) == strip(accepted, free)
    _link(server, free, "email_change")
    deadline_notice = _link(server, taken, "email_change_taken")  # the taken address's owner is told, with no link
    assert deadline_notice.endswith("/signin")
    assert mails(server, taken, "email_change") == []
    assert signs_in(server, taken, PASSWORD) and signs_in(server, mine, PASSWORD)


def test_a_superseded_an_expired_and_a_forged_link_say_so(server: Any) -> None:
    with _browser(server) as client:
        address = _signed_in(server, client)
        account_id = re.search(r'id="account-id">([0-9a-f-]{36})<', client.get("/account").text).group(1)  # type: ignore[union-attr]
        first, second = _address("first"), _address("second")
        for new in (first, second):
            page = client.get("/account/email")
            assert client.post("/account/email", data={"csrf_token": _csrf(page), "new_email": new,
                                                       "current_password": PASSWORD}).status_code == 200
        older = _link(server, first, "email_change").replace(server.url, "")
        newer = _link(server, second, "email_change").replace(server.url, "")
        r = client.get(older)
        assert r.status_code == 400 and "A newer request replaced this link" in r.text
        confirm = client.post("/account/email/confirm", data={"csrf_token": _csrf(client.get("/account")),
                                                              "token": older.split("token=")[1]})
        assert confirm.status_code == 400 and "A newer request replaced this link" in confirm.text
        assert client.get("/account/email/confirm?token=garbage").status_code == 400
        assert second in client.get(newer).text  # the latest link still works (it is superseded below)

        # a request made more than a day ago (the same command the page runs, at an earlier time)
        c = server.container
        late = _address("late")
        meta = Meta(at=c.services.now() - timedelta(hours=25), actor=f"account:{account_id}", channel="web")
        settings_cmd.request_email_change(c.store, account_id, late, meta, c.identity.links)
        expired = _link(server, late, "email_change").replace(server.url, "")
        r = client.get(expired)
        assert r.status_code == 400 and "This link has expired." in r.text and 'name="token"' not in r.text
        assert signs_in(server, address, PASSWORD)
        assert "24 hours" in mails(server, late, "email_change")[0]["text"]


@pytest.mark.parametrize("agent, words", [
    (FIREFOX, "Firefox on Windows"), (SAFARI, "Safari on iPhone"),
    ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
     "Chrome on Linux"),
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
     "Safari/537.36 Edg/131.0.0.0", "Edge on macOS"),
    ("python-httpx/0.28.1", "a Python program"), ("", "An unknown browser"),
])
def test_user_agents_in_plain_words(agent: str, words: str) -> None:
    from api.web_account_settings import describe_agent

    assert describe_agent(agent) == words
