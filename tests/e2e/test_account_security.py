"""What a password reset does to a possibly stolen account, one mailbox per account, page headers, API key expiry
bounds, confirmation links opened twice and sign-in redirects from votes, over real HTTP."""

from __future__ import annotations

import unicodedata
from typing import Any

import httpx

from queries import mail as mail_q
from tests.e2e.test_web_accounts import PASSWORD, _browser, _csrf, _link, _post, _signed_in


def _reset(server: Any, client: httpx.Client, address: str, password: str, revoke: bool) -> httpx.Response:
    _post(client, "/reset", "/reset", {"email": address})
    path = _link(server, address, "password_reset").replace(server.url, "")
    form = client.get(path)
    assert address in form.text  # the form says which account it resets
    data = {"csrf_token": _csrf(form), "token": path.split("token=")[1], "password": password}
    return client.post("/reset/confirm", data={**data, **({"revoke": "yes"} if revoke else {})})


def _new_key(client: httpx.Client) -> str:
    page = client.get("/account")
    r = client.post("/account/keys", data={"csrf_token": _csrf(page), "name": "ci", "scopes": "account:read"})
    assert r.status_code == 200, r.text[:300]
    return str(r.text.split('id="new-key-value"')[1].split('value="')[1].split('"')[0])


def test_a_reset_refuses_a_password_built_from_the_address(server: Any) -> None:
    with _browser(server) as client:
        address = _signed_in(server, client)
        local = address.split("@")[0]
        weak = _reset(server, client, address, f"{local}2024", revoke=True)
        assert weak.status_code == 400 and 'id="password-error"' in weak.text  # as sign-up would say


def test_a_reset_revokes_keys_when_asked_mails_the_owner_and_lifts_the_lock(server: Any) -> None:
    with _browser(server) as client, _browser(server) as stranger:
        address = _signed_in(server, client)
        key = _new_key(client)
        api = {"authorization": f"Bearer {key}"}
        assert httpx.get(f"{server.url}/api/v1/me", headers=api).status_code == 200
        for _ in range(5):  # someone else locks the address with wrong guesses
            _post(stranger, "/signin", "/signin", {"email": address, "password": "wrong password!"})
        done = _reset(server, client, address, "a brand new long password", revoke=True)
        assert done.status_code == 303 and done.headers["location"] == "/signin?reset=done"
        assert httpx.get(f"{server.url}/api/v1/me", headers=api).status_code == 401  # the key stopped working
        mails = [m for m in mail_q.outbox(server.container.services.reads, to=address) if m["kind"] == "password_changed"]
        assert len(mails) == 1 and "revoked too" in mails[0]["text"] and "/reset" in mails[0]["text"]
        back = _post(client, "/signin", "/signin", {"email": address, "password": "a brand new long password"})
        assert back.status_code == 303  # the owner proved the mailbox: the lock of others' guesses is over


def test_a_reset_without_revoking_keeps_keys_and_says_so(server: Any) -> None:
    with _browser(server) as client:
        address = _signed_in(server, client)
        key = _new_key(client)
        assert _reset(server, client, address, "another new long password", revoke=False).status_code == 303
        assert httpx.get(f"{server.url}/api/v1/me", headers={"authorization": f"Bearer {key}"}).status_code == 200
        _link(server, address, "password_changed")
        [mail] = [m for m in mail_q.outbox(server.container.services.reads, to=address) if m["kind"] == "password_changed"]
        assert "keep working" in mail["text"]


def test_one_mailbox_is_one_account_whatever_its_unicode_form(server: Any) -> None:
    composed = f"jürgen-{id(server) % 100000}@exämple.test"
    with _browser(server) as client:
        for form in (composed, unicodedata.normalize("NFD", composed), composed.replace("exämple", "xn--exmple-cua")):
            r = _post(client, "/signup", "/signup", {"email": form, "password": PASSWORD})
            assert r.status_code == 200
    _link(server, composed, "signup_existing")  # the later forms reached the first account's mailbox
    reads = server.container.services.reads
    assert len([m for m in mail_q.outbox(reads, to=composed) if m["kind"] == "verify_email"]) == 1


def test_pages_carry_a_content_security_policy_and_answers_nosniff(server: Any) -> None:
    page = httpx.get(f"{server.url}/signin")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    for path in ("/signin", "/api/v1/site", "/api/v1/openapi.json", "/api/v1/docs"):
        assert httpx.get(f"{server.url}{path}").headers["x-content-type-options"] == "nosniff", path
    assert "content-security-policy" not in httpx.get(f"{server.url}/api/v1/site").headers  # JSON: no page to guard


def test_a_key_expiry_far_in_the_future_is_a_field_error(server: Any) -> None:
    with _browser(server) as client:
        _signed_in(server, client)
        page = client.get("/account")
        r = client.post("/account/keys", data={"csrf_token": _csrf(page), "name": "far", "scopes": "account:read",
                                                "expires_on": "9999-12-31"})
        assert r.status_code == 400 and 'id="expires_on-error"' in r.text and "2099-12-31" in r.text


def test_a_confirmation_link_opened_again_says_the_address_is_confirmed(server: Any) -> None:
    with _browser(server) as client:
        address = _signed_in(server, client)  # opened once already
        again = client.get(_link(server, address, "verify_email").replace(server.url, ""))
        assert again.status_code == 200 and "already confirmed" in again.text
        page = client.get("/account")
        twice = [client.post("/account/verification", data={"csrf_token": _csrf(page)}) for _ in range(2)]
        assert [r.headers["location"] for r in twice] == ["/account", "/account"]  # confirmed: nothing sent or claimed
    with _browser(server) as client:
        _signed_in(server, client, verified=False)
        page = client.get("/account")
        asked = [client.post("/account/verification", data={"csrf_token": _csrf(page)}).headers["location"]
                 for _ in range(2)]
        assert asked == ["/account?verification=sent", "/account?verification=recent"]  # one mail a minute, said
        assert "less than a minute ago" in client.get(asked[1]).text


def test_a_signed_out_vote_keeps_its_whole_return_address(server: Any) -> None:
    with _browser(server) as client:
        form = client.get("/signin")
        r = client.post("/listings/anything/vote", data={"csrf_token": _csrf(form), "next": "/search?q=a&page=2"})
        assert r.status_code == 303 and r.headers["location"] == "/signin?next=/search%3Fq%3Da%26page%3D2%23vote-anything"
