"""Undoing a change of address from the old address ("this wasn't me"), through the real server: the undo link in
the notice, its page and button, what it ends (sessions, keys, connected apps, the password), the reset link it
mails, and the links that do nothing (used, taken address, changed again, expired, forged). The mail is read from
the outbox; the page is also checked in Chromium (axe, 390 and 1440 px)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest

from aggregates.base import Meta
from commands import account_settings as settings_cmd
from commands import catalog as catalog_cmd
from tests.conftest import Databases, RunningServer
from tests.e2e.founder_support_listings import sign_in
from tests.e2e.oauth_support import Person, refresh, tokens_for
from tests.e2e.submission_support import live_server
from tests.e2e.test_account_settings import NEW_PASSWORD, browser_page, checked, mails, mails_when, new_key, signs_in
from tests.e2e.test_web_accounts import PASSWORD, _address, _browser, _csrf, _link, _post, _signed_in

CONTACT = "staff-desk@example.org"


@pytest.fixture(scope="module")
def server(databases: Databases) -> Iterator[RunningServer]:
    """A server of this module's own: its failed sign-ins count against 127.0.0.1 in its own database only."""
    yield from live_server(databases)


def path(server: RunningServer, link: str) -> str:
    return link.replace(server.url, "")


def token_of(link: str) -> str:
    return link.split("token=", 1)[1]


def account_id(client: httpx.Client) -> str:
    return str(re.search(r'id="account-id">([0-9a-f-]{36})<', client.get("/account").text).group(1))  # type: ignore[union-attr]


def move(server: RunningServer, client: httpx.Client, new: str) -> None:
    """The signed-in `client` moves its account to `new`: the request, then the link mailed there, confirmed."""
    page = client.get("/account/email")
    asked = client.post("/account/email", data={"csrf_token": _csrf(page), "new_email": new,
                                                "current_password": PASSWORD})
    assert asked.status_code == 200, asked.text[:300]
    link = path(server, _link(server, new, "email_change"))
    form = client.get(link)
    done = client.post("/account/email/confirm", data={"csrf_token": _csrf(form), "token": token_of(link)})
    assert done.status_code == 200 and "Email address changed" in done.text, done.text[:300]


def undo_link(server: RunningServer, old: str) -> str:
    """The undo link of the notice to the old address (its first link)."""
    link = _link(server, old, "email_changed")
    assert "/account/email/undo?token=" in link, link
    return path(server, link)


def with_contact(server: RunningServer) -> None:
    """The staff's address as a site setting (set once; setting it again changes nothing)."""
    c = server.container
    staff = Meta(at=c.services.now(), actor="staff:test", channel="cli", via="staff")
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(changes={"contact_email": CONTACT}), staff)


def press_undo(server: RunningServer, link: str) -> httpx.Response:
    """The owner, signed out, sends the undo form (the CSRF token of a signed-out browser)."""
    with _browser(server) as mailbox:
        return mailbox.post("/account/email/undo", data={"csrf_token": _csrf(mailbox.get("/reset")),
                                                         "token": token_of(link)})


def test_the_old_address_undoes_a_change_and_locks_out_whoever_made_it(server: RunningServer) -> None:
    with _browser(server) as owner, _browser(server) as thief:
        old = _signed_in(server, owner)
        key = new_key(owner)
        app = tokens_for(server.url, Person(account_id(owner), old))
        assert _post(thief, "/signin", "/signin", {"email": old, "password": PASSWORD}).status_code == 303
        new = _address("thief")
        move(server, thief, new)
        assert owner.get("/account").status_code == 200  # a change of address keeps sessions

        link = undo_link(server, old)
        with _browser(server) as mailbox:  # the owner opens the notice, signed out
            page = mailbox.get(link)
            assert page.status_code == 200 and "Undo the change of your email address" in page.text
            assert old in page.text and settings_cmd.masked(new) in page.text and new not in page.text
            assert thief.get("/account").status_code == 200  # opening the page changes nothing
            done = mailbox.post("/account/email/undo", data={"csrf_token": _csrf(page), "token": token_of(link)})
        assert done.status_code == 200 and "Change undone" in done.text and old in done.text

        for browser in (owner, thief):  # every session ended
            assert browser.get("/account").status_code == 303
    assert not signs_in(server, new, PASSWORD)  # the new address finds no account
    assert not signs_in(server, old, PASSWORD)  # and the password that moved it no longer signs in
    assert httpx.get(f"{server.url}/api/v1/me", headers={"authorization": f"Bearer {key}"}).status_code == 401
    assert httpx.get(f"{server.url}/api/v1/me",
                     headers={"authorization": f"Bearer {app['access_token']}"}).status_code == 401
    assert refresh(server.url, app["client_id"], app["refresh_token"]).status_code == 400
    assert mails(server, new, "email_change_undone")  # the dropped address is told

    reset = path(server, _link(server, old, "password_reset"))  # mailed to the old address at once
    with _browser(server) as mailbox:
        form = mailbox.get(reset)
        assert form.status_code == 200 and old in form.text
        r = mailbox.post("/reset/confirm", data={"csrf_token": _csrf(form), "token": token_of(reset),
                                                 "password": NEW_PASSWORD})
        assert r.status_code == 303 and r.headers["location"] == "/signin?reset=done"
    assert signs_in(server, old, NEW_PASSWORD)

    with _browser(server) as mailbox:  # the link again: it says so, and changes nothing
        again = mailbox.get(link)
        assert again.status_code == 200 and "Change undone already" in again.text and 'name="token"' not in again.text
    posted = press_undo(server, link)
    assert posted.status_code == 200 and "Change undone already" in posted.text
    assert signs_in(server, old, NEW_PASSWORD) and len(mails(server, old, "password_reset")) == 1


def test_an_old_address_taken_since_changes_nothing_and_names_the_staff(server: RunningServer) -> None:
    with_contact(server)
    with _browser(server) as owner:
        old = _signed_in(server, owner)
        new = _address("moved")
        move(server, owner, new)
        link = undo_link(server, old)
        assert CONTACT in mails(server, old, "email_changed")[0]["text"]
        with _browser(server) as stranger:  # the freed address opens another account
            assert _post(stranger, "/signup", "/signup", {"email": old, "password": PASSWORD}).status_code == 200
            assert len(mails_when(server, old, "verify_email", 2)) == 2

        with _browser(server) as mailbox:
            page = mailbox.get(link)
            assert page.status_code == 409 and "used for another account" in page.text and CONTACT in page.text
            assert 'name="token"' not in page.text  # no button
        posted = press_undo(server, link)
        assert posted.status_code == 409 and "Nothing was changed." in posted.text and CONTACT in posted.text

        assert owner.get("/account").status_code == 200 and new in owner.get("/account").text
    assert signs_in(server, new, PASSWORD) and signs_in(server, old, PASSWORD)  # each account as it was
    assert mails(server, old, "password_reset") == []


def test_undo_links_changed_again_since_expired_or_forged_say_so(server: RunningServer) -> None:
    c = server.container
    with_contact(server)
    with _browser(server) as owner:
        old = _signed_in(server, owner)
        first, second = _address("first"), _address("second")
        move(server, owner, first)
        first_undo = undo_link(server, old)
        move(server, owner, second)

        r = owner.get(first_undo)
        assert r.status_code == 400 and "has changed again since this link was sent" in r.text
        assert 'name="token"' not in r.text and CONTACT in r.text  # whom to ask, if it was not the owner
        refused = press_undo(server, first_undo)
        assert refused.status_code == 400 and "has changed again" in refused.text and CONTACT in refused.text

        forged = first_undo[:-3] + ("abc" if not first_undo.endswith("abc") else "xyz")
        bad = owner.get(forged)
        assert bad.status_code == 400 and "This link is not valid." in bad.text and CONTACT not in bad.text
        confirm = path(server, _link(server, second, "email_change"))  # a link of another purpose
        wrong = owner.get("/account/email/undo?token=" + token_of(confirm))
        assert wrong.status_code == 400 and "This link is not valid." in wrong.text

        # a change made more than 7 days ago (the same commands the pages run, at an earlier time)
        me, late = account_id(owner), _address("late")
        then = Meta(at=c.services.now() - timedelta(days=7, minutes=5), actor=f"account:{me}", channel="web")
        settings_cmd.request_email_change(c.store, me, late, then, c.identity.links)
        confirmed = Meta(at=then.at + timedelta(minutes=1), actor="anonymous", channel="web")
        settings_cmd.confirm_email_change(c.store, token_of(_link(server, late, "email_change")), confirmed,
                                          c.identity.links)
        expired = undo_link(server, second)
        r = owner.get(expired)
        assert r.status_code == 400 and "This link has expired" in r.text and "7 days" in r.text
        assert press_undo(server, expired).status_code == 400
    assert signs_in(server, late, PASSWORD)  # none of them changed anything


def test_the_undo_page_in_a_browser(server: RunningServer, chromium: Any) -> None:
    with _browser(server) as owner:
        old = _signed_in(server, owner)
        move(server, owner, _address("moved"))
    link = server.url + undo_link(server, old)
    with browser_page(chromium) as page:
        page.goto(link)
        page.get_by_role("heading", name="Undo the change of your email address").wait_for()
        assert old in page.locator("#old-email").inner_text()
        checked(page, "email-undo")
        page.get_by_role("button", name="Undo the change").click()
        page.get_by_role("heading", name="Change undone").wait_for()
        checked(page, "email-undone")
        page.goto(link)
        page.get_by_role("heading", name="Change undone already").wait_for()
    reset = _link(server, old, "password_reset")
    with browser_page(chromium) as page:  # the owner chooses a new password and is back in
        page.goto(reset)
        page.get_by_label("New password").fill(NEW_PASSWORD)
        page.get_by_role("button", name="Save the new password").click()
        page.wait_for_url(re.compile(re.escape(server.url + "/signin?reset=done")))
        sign_in(page, server.url, old, NEW_PASSWORD, then="/account")
        assert old in page.locator("#account-email").inner_text()
