"""The text rule on the website's forms and the OAuth endpoints, over real HTTP: a field (or query parameter)
holding NUL or another forbidden control character is refused with the page's own error display, status 400,
naming the field and the rule, and nothing is stored."""

from __future__ import annotations

import re
from typing import Any
from uuid import uuid4

import httpx
import pytest

from events.text import RULE
from tests.conftest import RunningServer
from tests.e2e.oauth_support import CALLBACK, Pkce, authorize_url, csrf, person, register, requests_changed

PASSWORD = "a good long password"


def _browser(server: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=10, follow_redirects=False)


def _stored_mentioning(server: RunningServer, marker: str) -> int:
    """How many stored events (their JSON state) contain `marker`: the whole log, whoever appended them."""
    with server.container.pool.connection() as conn:
        row = conn.execute("SELECT count(*) FROM launchdir_events WHERE position(convert_to(%s, 'UTF8') in state) > 0",
                           (marker,)).fetchone()
    return int(row[0]) if row else 0


def _quiet(server: RunningServer) -> None:
    """Let deferred account work (sign-up, reset) finish, so a check of the log sees everything."""
    server.container.identity.deferred.wait_idle(10)


def _signed_in(server: RunningServer, client: httpx.Client) -> Any:
    who = person(server.container)
    form = client.get("/signin")
    r = client.post("/signin", data={"csrf_token": csrf(form), "email": who.email, "password": who.password})
    assert r.status_code == 303, r.text[:300]
    return who


def _field_error(page: httpx.Response, field: str) -> str:
    m = re.search(rf'id="{field}-error"><span class="visually-hidden">Error:</span>\s*(.+?)</p>', page.text)
    assert m, page.text[:2000]
    return m.group(1)


def test_sign_up_with_nul_in_the_address_is_400_and_stores_nothing(server: RunningServer) -> None:
    marker = uuid4().hex
    before = server.container.store.position()
    with _browser(server) as client:
        form = client.get("/signup")
        r = client.post("/signup", content=f"csrf_token={csrf(form)}&email=nul%00{marker}@example.org&password="
                        + PASSWORD.replace(" ", "+"), headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400
    message = _field_error(r, "email")
    assert "email" in message and RULE in message
    assert 'role="alert"' in r.text and 'aria-invalid="true"' in r.text
    _quiet(server)
    assert _stored_mentioning(server, marker) == 0
    assert [e for e in requests_changed(server.container, before) if "Account" in e or "Email" in e] == []


@pytest.mark.parametrize("path, form_page, fields, field", [
    ("/signin", "/signin", {"email": "a\x00b@example.org", "password": PASSWORD}, "email"),
    ("/signin", "/signin", {"email": "ok@example.org", "password": PASSWORD, "next": "/account\x01"}, "next"),
    ("/reset", "/reset", {"email": "x\x1b@example.org"}, "email"),
    ("/signup", "/signup", {"email": "ok@example.org", "password": "a good long\x00password"}, "password"),
])
def test_signed_out_forms_show_the_error_on_their_own_page(server: RunningServer, path: str, form_page: str,
                                                          fields: dict[str, str], field: str) -> None:
    before = server.container.store.position()
    with _browser(server) as client:
        form = client.get(form_page)
        r = client.post(path, data={"csrf_token": csrf(form), **fields})
    assert r.status_code == 400
    assert form.text.split("<h1>")[1].split("</h1>")[0] in r.text  # the same page, with its errors
    assert f'href="#{field}"' in r.text and RULE in r.text
    _quiet(server)
    assert [e for e in requests_changed(server.container, before) if "Account" in e or "Email" in e] == []


def test_reset_confirm_with_a_control_character_in_the_token_is_400_on_its_form(server: RunningServer) -> None:
    with _browser(server) as client:
        form = client.get("/reset")
        r = client.post("/reset/confirm", data={"csrf_token": csrf(form), "token": "abc\x07", "password": PASSWORD})
    assert r.status_code == 400 and "Choose a new password" in r.text
    assert 'href="#token"' in r.text and RULE in r.text


def test_api_key_names_with_control_characters_are_refused_and_no_key_is_made(server: RunningServer) -> None:
    marker = uuid4().hex
    with _browser(server) as client:
        _signed_in(server, client)
        page = client.get("/account")
        r = client.post("/account/keys", data={"csrf_token": csrf(page), "name": f"ci\x00{marker}",
                                                "scopes": "account:read"})
    assert r.status_code == 400 and "Your account" in r.text
    assert RULE in _field_error(r, "name")
    assert "Your new API key" not in r.text
    assert _stored_mentioning(server, marker) == 0


def test_invite_acceptance_with_control_characters_is_400(server: RunningServer) -> None:
    with _browser(server) as client:
        _signed_in(server, client)
        page = client.get("/account")
        r = client.post("/invites/accept", data={"csrf_token": csrf(page), "draft": str(uuid4()),
                                                  "invite": "i\x00", "token": "t"})
        assert r.status_code == 400 and "invite" in r.text and RULE in r.text
        r = client.get("/invites/accept", params={"draft": str(uuid4()), "invite": "i", "token": "t\x00"})
        assert r.status_code == 400 and RULE in r.text


def test_consent_answers_and_pages_with_control_characters_are_400(server: RunningServer) -> None:
    with _browser(server) as client:
        _signed_in(server, client)
        page = client.get("/account")
        r = client.post("/oauth/consent", data={"csrf_token": csrf(page), "request": "r\x00", "decision": "allow"})
        assert r.status_code == 400 and "request" in r.text and RULE in r.text
        r = client.get("/oauth/consent", params={"request": "r\x00"})
        assert r.status_code == 400 and RULE in r.text
        r = client.get("/staff/outbox", params={"to": "\x00"})
        assert r.status_code == 400 and RULE in r.text


# ---------------------------------------------------------------- the OAuth endpoints


def test_client_registration_with_control_characters_is_invalid_client_metadata(server: RunningServer) -> None:
    marker = uuid4().hex
    r = httpx.post(server.url + "/oauth/register", timeout=10, json={
        "client_name": f"evil\u0000{marker}", "redirect_uris": [CALLBACK], "token_endpoint_auth_method": "none"})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "invalid_client_metadata"
    assert "client_name" in body["error_description"] and RULE in body["error_description"]
    assert _stored_mentioning(server, marker) == 0


def test_authorize_token_and_revoke_refuse_control_characters(server: RunningServer) -> None:
    client = register(server.url, CALLBACK)
    url = authorize_url(server.url, client["client_id"], CALLBACK, Pkce.new(), state="s\x00t",
                        resource=server.url + "/mcp")
    r = httpx.get(url, timeout=10, follow_redirects=False)
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    assert "state" in r.json()["error_description"] and RULE in r.json()["error_description"]
    for path, form in [
        ("/oauth/token", {"grant_type": "authorization_code", "code": "c\x00", "redirect_uri": CALLBACK,
                          "client_id": client["client_id"], "code_verifier": "v" * 43}),
        ("/oauth/revoke", {"token": "t\x00", "client_id": client["client_id"]}),
    ]:
        r = httpx.post(server.url + path, data=form, timeout=10)
        assert r.status_code == 400, (path, r.text)
        assert r.json()["error"] == "invalid_request" and RULE in r.json()["error_description"], path
