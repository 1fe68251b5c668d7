"""OAuth bad input over real HTTP: each refusal has its OAuth error code and a specific description, and
changes nothing (except a replayed code and a reused refresh token, which revoke their tokens on purpose)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import httpx
import orjson
import pytest

from aggregates.base import Meta
from commands import oauth as oauth_cmd
from tests.conftest import RunningServer
from tests.e2e.oauth_support import (  # noqa: F401 - fixtures: tls, docs, oauth_server
    CALLBACK, Browser, DocumentServer, Pkce, Reply, authorize_url, csrf, docs, exchange, oauth_server, person,
    query_of, refresh, register, requests_changed, tls, tokens_for)


def _position(server: RunningServer) -> int:
    return server.container.store.position()


def _get(url: str) -> httpx.Response:
    return httpx.get(url, timeout=10, follow_redirects=False)


def _me(server: RunningServer, token: str, path: str = "/api/v1/me") -> httpx.Response:
    return httpx.get(server.url + path, headers={"authorization": f"Bearer {token}"}, timeout=10)


@pytest.fixture(scope="module")
def client(oauth_server: RunningServer) -> dict[str, Any]:
    return register(oauth_server.url, CALLBACK)


# ---------------------------------------------------------------- /oauth/authorize


@pytest.mark.parametrize("case, error, words", [
    ("no_pkce", "invalid_request", "code_challenge"),
    ("plain", "invalid_request", "S256"),
    ("no_method", "invalid_request", "code_challenge_method is required"),
    ("short_challenge", "invalid_request", "43 characters"),
    ("wrong_resource", "invalid_target", "unknown resource"),
    ("no_resource", "invalid_target", "resource is required"),
    ("unknown_scope", "invalid_scope", "unknown scope 'admin'"),
    ("no_scope", "invalid_scope", "scope is required"),
    ("token_response", "unsupported_response_type", "response_type"),
])
def test_authorization_errors_go_back_to_the_client_with_state_and_iss(
        oauth_server: RunningServer, client: dict[str, Any], case: str, error: str, words: str) -> None:
    pkce = Pkce.new()
    url = authorize_url(oauth_server.url, client["client_id"], CALLBACK, pkce, **{
        "no_pkce": {"code_challenge": None, "code_challenge_method": None},
        "plain": {"code_challenge_method": "plain"},
        "no_method": {"code_challenge_method": None},
        "short_challenge": {"code_challenge": "abc"},
        "wrong_resource": {"resource": "https://evil.example/mcp"},
        "no_resource": {"resource": None},
        "unknown_scope": {"scope": "account:read admin"},
        "no_scope": {"scope": None},
        "token_response": {"response_type": "token"},
    }[case])
    if case == "no_resource":
        url = url.replace("&resource=" + httpx.URL(oauth_server.url + "/mcp").raw_path.decode(), "")
        url = "&".join(p for p in url.split("&") if not p.startswith("resource="))
    before = _position(oauth_server)
    r = _get(url)
    assert r.status_code == 302, r.text
    location = r.headers["location"]
    assert location.startswith(CALLBACK)
    answer = query_of(location)
    assert answer["error"] == error and words in answer["error_description"], answer
    assert answer["state"] == "st-1" and answer["iss"] == oauth_server.url  # RFC 9207 on errors too
    assert requests_changed(oauth_server.container, before) == []


def test_a_redirect_uri_that_does_not_match_exactly_is_not_followed(oauth_server: RunningServer,
                                                                    client: dict[str, Any]) -> None:
    for other in ("http://127.0.0.1:9/callback/", "http://127.0.0.1:9/callback?x=1", "http://127.0.0.1:8/callback",
                  "https://evil.example/callback"):
        r = _get(authorize_url(oauth_server.url, client["client_id"], other, Pkce.new()))
        assert r.status_code == 400 and "location" not in r.headers, other
        assert r.json()["error"] == "invalid_request" and "not registered" in r.json()["error_description"]


def test_unknown_clients_are_told_at_the_authorization_endpoint(oauth_server: RunningServer) -> None:
    for client_id in (str(uuid.uuid4()), "not-a-client", "ldc_whatever"):
        r = _get(authorize_url(oauth_server.url, client_id, CALLBACK, Pkce.new()))
        assert r.status_code == 400 and "location" not in r.headers
        assert r.json()["error"] == "invalid_client" and "unknown client_id" in r.json()["error_description"]


def test_repeated_parameters_are_refused(oauth_server: RunningServer, client: dict[str, Any]) -> None:
    url = authorize_url(oauth_server.url, client["client_id"], CALLBACK, Pkce.new()) + "&scope=orders:write"
    r = _get(url)
    assert r.status_code == 400 and r.json() == {"error": "invalid_request",
                                                 "error_description": "parameter scope is repeated (each may appear once)"}


# ---------------------------------------------------------------- consent page


def test_consent_needs_sign_in_csrf_and_a_confirmed_address(oauth_server: RunningServer, client: dict[str, Any]) -> None:
    r = _get(authorize_url(oauth_server.url, client["client_id"], CALLBACK, Pkce.new()))
    consent = r.headers["location"]
    page = _get(consent)
    assert page.status_code == 303 and page.headers["location"].startswith("/signin?next=%2Foauth%2Fconsent")
    request_id = query_of(consent)["request"]
    unconfirmed = person(oauth_server.container, verified=False)
    browser = Browser(oauth_server.url, unconfirmed)
    try:
        browser.sign_in()
        refused = browser.get(consent)
        assert refused.status_code == 403 and "Confirm your email address" in refused.text
        forged = browser.http.post(oauth_server.url + "/oauth/consent", data={"request": request_id, "decision": "allow"})
        assert forged.status_code == 403  # no CSRF token
    finally:
        browser.close()
    assert _get(oauth_server.url + "/oauth/consent?request=nope").status_code == 400


def test_deny_goes_back_with_access_denied(oauth_server: RunningServer, client: dict[str, Any]) -> None:
    browser = Browser(oauth_server.url, person(oauth_server.container))
    try:
        before = _position(oauth_server)
        answer = browser.authorize(authorize_url(oauth_server.url, client["client_id"], CALLBACK, Pkce.new()), "deny")
    finally:
        browser.close()
    assert answer["error"] == "access_denied" and answer["state"] == "st-1" and answer["iss"] == oauth_server.url
    assert "code" not in answer and requests_changed(oauth_server.container, before) == []


def test_an_answered_request_cannot_be_answered_again(oauth_server: RunningServer, client: dict[str, Any]) -> None:
    browser = Browser(oauth_server.url, person(oauth_server.container))
    try:
        r = browser.get(authorize_url(oauth_server.url, client["client_id"], CALLBACK, Pkce.new()))
        browser.sign_in()
        page = browser.get(r.headers["location"])
        form = {"csrf_token": csrf(page), "request": query_of(r.headers["location"])["request"], "decision": "allow"}
        assert browser.http.post(oauth_server.url + "/oauth/consent", data=form).status_code == 303
        again = browser.http.post(oauth_server.url + "/oauth/consent", data=form)
        assert again.status_code == 400 and "expired or was already answered" in again.text
    finally:
        browser.close()


# ---------------------------------------------------------------- /oauth/token


def _code(server: RunningServer, client_id: str, pkce: Pkce, **params: str) -> str:
    browser = Browser(server.url, person(server.container))
    try:
        answer = browser.authorize(authorize_url(server.url, client_id, CALLBACK, pkce, **params))
    finally:
        browser.close()
    return answer["code"]


def test_token_refusals_change_nothing_and_the_code_still_works(oauth_server: RunningServer,
                                                                client: dict[str, Any]) -> None:
    base, cid = oauth_server.url, client["client_id"]
    pkce = Pkce.new()
    code = _code(oauth_server, cid, pkce)
    before = _position(oauth_server)
    cases = [
        (exchange(base, cid, code, CALLBACK, pkce, resource=base + "/api/v1"), "invalid_target", "not the resource"),
        (exchange(base, cid, code, CALLBACK, Pkce.new()), "invalid_grant", "code_verifier"),
        (exchange(base, cid, code, "http://127.0.0.1:9/other", pkce), "invalid_request", "redirect_uri"),
        (exchange(base, cid, code[:-1] + ("A" if code[-1] != "A" else "B"), CALLBACK, pkce), "invalid_grant", "does not exist"),
        (exchange(base, str(uuid.uuid4()), code, CALLBACK, pkce), "invalid_client", "unknown client_id"),
        (exchange(base, cid, code, CALLBACK, pkce, grant_type="password"), "invalid_request", "grant_type"),
    ]
    for r, error, words in cases:
        assert r.status_code in (400, 401) and r.json()["error"] == error and words in r.json()["error_description"], r.text
        assert r.headers["cache-control"] == "no-store"
    assert requests_changed(oauth_server.container, before) == []
    ok = exchange(base, cid, code, CALLBACK, pkce, resource=base + "/mcp")
    assert ok.status_code == 200 and ok.json()["scope"] == "account:read"


def test_a_replayed_code_is_refused_and_revokes_what_it_gave(oauth_server: RunningServer, client: dict[str, Any]) -> None:
    base, cid = oauth_server.url, client["client_id"]
    pkce = Pkce.new()
    code = _code(oauth_server, cid, pkce, resource=base + "/api/v1")
    first = exchange(base, cid, code, CALLBACK, pkce).json()
    assert _me(oauth_server, first["access_token"]).status_code == 200
    replay = exchange(base, cid, code, CALLBACK, pkce)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert "already used" in replay.json()["error_description"]
    gone = _me(oauth_server, first["access_token"])
    assert gone.status_code == 401 and gone.json()["detail"] == "this access token was revoked"
    stale = refresh(base, cid, first["refresh_token"])
    assert stale.status_code == 400 and "revoked (code replayed)" in stale.json()["error_description"]


def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_family(oauth_server: RunningServer,
                                                                       client: dict[str, Any]) -> None:
    base, cid = oauth_server.url, client["client_id"]
    pkce = Pkce.new()
    code = _code(oauth_server, cid, pkce, resource=base + "/api/v1")
    first = exchange(base, cid, code, CALLBACK, pkce).json()
    second = refresh(base, cid, first["refresh_token"])
    assert second.status_code == 200, second.text
    rotated = second.json()
    assert rotated["refresh_token"] != first["refresh_token"] and rotated["access_token"] != first["access_token"]
    assert _me(oauth_server, rotated["access_token"]).json()["credential_kind"] == "oauth"
    narrower = refresh(base, cid, rotated["refresh_token"], scope="orders:write")
    assert narrower.status_code == 400 and narrower.json()["error"] == "invalid_scope"
    reused = refresh(base, cid, first["refresh_token"])
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
    assert "already used once" in reused.json()["error_description"]
    for token in (first["access_token"], rotated["access_token"]):
        assert _me(oauth_server, token).json()["detail"] == "this access token was revoked"
    latest = refresh(base, cid, rotated["refresh_token"])
    assert latest.status_code == 400 and "refresh token reused" in latest.json()["error_description"]


def test_refresh_with_another_resource_is_invalid_target(oauth_server: RunningServer, client: dict[str, Any]) -> None:
    tokens = tokens_for(oauth_server.url, person(oauth_server.container))
    before = _position(oauth_server)
    r = refresh(oauth_server.url, tokens["client_id"], tokens["refresh_token"], resource=oauth_server.url + "/api/v1")
    assert r.status_code == 400 and r.json()["error"] == "invalid_target"
    assert requests_changed(oauth_server.container, before) == []
    assert refresh(oauth_server.url, tokens["client_id"], tokens["refresh_token"]).status_code == 200


# ---------------------------------------------------------------- bearer tokens on REST and MCP


def test_bad_bearer_tokens_are_401_with_a_specific_detail(oauth_server: RunningServer) -> None:
    who = person(oauth_server.container)
    rest = tokens_for(oauth_server.url, who, resource=oauth_server.url + "/api/v1")
    mcp = tokens_for(oauth_server.url, who)
    c = oauth_server.container
    past = Meta(at=c.services.now() - timedelta(hours=2), actor="test", channel="oauth")
    issued = oauth_cmd.give_consent(c.store, oauth_cmd.GiveConsent(
        account_id=who.account_id, client_id=rest["client_id"], client_name="Old", client_host="127.0.0.1",
        client_kind="registered", scopes=["account:read"], resource=oauth_server.url + "/api/v1", redirect_uri=CALLBACK,
        redirect_uri_explicit=True, code_challenge=Pkce.new().challenge), past)
    expired = oauth_cmd.redeem_code(c.store, oauth_cmd.RedeemCode(code=issued.code, client_id=rest["client_id"]), past)
    assert c.runtime.wait_for(["oauth_view"], expired.position, 5)
    cases = {
        "ldo_short": "malformed access token",
        "ldo_" + "A" * 43: "unknown access token",
        rest["refresh_token"]: "this is a refresh token",
        mcp["access_token"]: f"issued for {oauth_server.url}/mcp, not for {oauth_server.url}/api/v1",
        expired.access_token: "this access token expired at",
    }
    before = _position(oauth_server)
    for token, detail in cases.items():
        r = _me(oauth_server, token)
        assert r.status_code == 401 and detail in r.json()["detail"], (token, r.text)
        assert 'error="invalid_token"' in r.headers["www-authenticate"]
    assert requests_changed(oauth_server.container, before) == []
    assert _me(oauth_server, rest["access_token"]).status_code == 200


def test_a_rest_token_on_mcp_is_an_http_401(oauth_server: RunningServer) -> None:
    rest = tokens_for(oauth_server.url, person(oauth_server.container), resource=oauth_server.url + "/api/v1")
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    r = httpx.post(oauth_server.url + "/mcp", json=body, timeout=10, headers={
        "authorization": f"Bearer {rest['access_token']}", "accept": "application/json, text/event-stream"})
    assert r.status_code == 401 and f"not for {oauth_server.url}/mcp" in r.json()["detail"]
    assert "oauth-protected-resource/mcp" in r.headers["www-authenticate"]


# ---------------------------------------------------------------- revocation (RFC 7009) and connected apps


def test_revocation_endpoint(oauth_server: RunningServer) -> None:
    tokens = tokens_for(oauth_server.url, person(oauth_server.container), resource=oauth_server.url + "/api/v1")
    url = oauth_server.url + "/oauth/revoke"
    assert httpx.post(url, data={"token": tokens["access_token"]}).json()["error"] == "invalid_client"
    other = register(oauth_server.url, CALLBACK)
    assert httpx.post(url, data={"token": tokens["access_token"], "client_id": other["client_id"]}).status_code == 200
    assert _me(oauth_server, tokens["access_token"]).status_code == 200  # another client's token: untouched
    assert httpx.post(url, data={"client_id": tokens["client_id"]}).json()["error"] == "invalid_request"
    assert httpx.post(url, data={"token": "ldo_" + "B" * 43, "client_id": tokens["client_id"]}).status_code == 200
    done = httpx.post(url, data={"token": tokens["access_token"], "client_id": tokens["client_id"],
                                 "token_type_hint": "access_token"})
    assert done.status_code == 200
    assert _me(oauth_server, tokens["access_token"]).json()["detail"] == "this access token was revoked"
    assert refresh(oauth_server.url, tokens["client_id"], tokens["refresh_token"]).json()["error"] == "invalid_grant"


def test_connected_apps_lists_and_revokes(oauth_server: RunningServer) -> None:
    who = person(oauth_server.container)
    tokens = tokens_for(oauth_server.url, who, resource=oauth_server.url + "/api/v1", scope="account:read orders:write")
    browser = Browser(oauth_server.url, who)
    try:
        assert browser.get("/account/apps").status_code == 303
        browser.sign_in("/account/apps")
        page = browser.get("/account/apps")
        assert page.status_code == 200 and "Test MCP client" in page.text and "orders:write" in page.text
        action = page.text.split('action="/account/apps/')[1].split('"')[0]
        revoked = browser.http.post(f"{oauth_server.url}/account/apps/{action}", data={"csrf_token": csrf(page)})
        assert revoked.status_code == 303 and revoked.headers["location"] == "/account/apps?revoked=1"
        after = browser.get(revoked.headers["location"])
        assert "Test MCP client" not in after.text and "was disconnected" in after.text
        stranger = Browser(oauth_server.url, person(oauth_server.container))
        try:
            stranger.sign_in("/account/apps")
            theirs = stranger.get("/account/apps")
            r = stranger.http.post(f"{oauth_server.url}/account/apps/{action}", data={"csrf_token": csrf(theirs)})
            assert r.status_code == 404
        finally:
            stranger.close()
    finally:
        browser.close()
    assert _me(oauth_server, tokens["access_token"]).json()["detail"] == "this access token was revoked"
    gone = refresh(oauth_server.url, tokens["client_id"], tokens["refresh_token"])
    assert gone.status_code == 400 and "revoked" in gone.json()["error_description"]


def test_consent_is_remembered_while_the_app_stays_connected(oauth_server: RunningServer) -> None:
    base = oauth_server.url
    who = person(oauth_server.container)
    client = register(base, CALLBACK)
    browser = Browser(base, who)
    try:
        def connect(scope: str = "account:read", resource: str | None = None) -> dict[str, str]:
            pkce = Pkce.new()
            answer = browser.authorize(authorize_url(base, client["client_id"], CALLBACK, pkce, scope=scope,
                                                     resource=resource))
            assert exchange(base, client["client_id"], answer["code"], CALLBACK, pkce).status_code == 200
            return answer

        first = connect("account:read listings:write")
        assert not browser.remembered and first["iss"] == base  # asked the first time
        again = connect("account:read")  # fewer scopes, same resource: not asked again
        assert browser.remembered and again["state"] == "st-1" and again["iss"] == base
        connect("account:read orders:write")  # a scope never allowed: asked
        assert not browser.remembered
        connect("account:read", resource=base + "/api/v1")  # another resource: asked
        assert not browser.remembered
        page = browser.get("/account/apps")  # disconnect the app: asked again next time
        action = page.text.split('action="/account/apps/')[1].split('"')[0]
        assert browser.http.post(f"{base}/account/apps/{action}", data={"csrf_token": csrf(page)}).status_code == 303
        connect("account:read")
        assert not browser.remembered
    finally:
        browser.close()
    other = Browser(base, person(oauth_server.container))  # another person is always asked
    try:
        answer = other.authorize(authorize_url(base, client["client_id"], CALLBACK, Pkce.new()))
        assert "code" in answer and not other.remembered
    finally:
        other.close()


# ---------------------------------------------------------------- dynamic client registration


@pytest.mark.parametrize("body, error, words", [
    ({"redirect_uris": ["http://app.example/cb"]}, "invalid_redirect_uri", "only for loopback"),
    ({"redirect_uris": ["https://app.example/cb#x"]}, "invalid_redirect_uri", "fragment"),
    ({"redirect_uris": ["javascript:alert(1)"]}, "invalid_redirect_uri", "not allowed"),
    ({"redirect_uris": []}, "invalid_client_metadata", "redirect_uris"),
    ({"redirect_uris": [CALLBACK], "grant_types": ["authorization_code", "client_credentials"]},
     "invalid_client_metadata", "grant_types"),
    ({"redirect_uris": [CALLBACK], "scope": "account:read admin"}, "invalid_client_metadata", "admin"),
    ({"redirect_uris": [CALLBACK], "token_endpoint_auth_method": "private_key_jwt"}, "invalid_client_metadata",
     "private_key_jwt"),
])
def test_registration_refusals(oauth_server: RunningServer, body: dict[str, Any], error: str, words: str) -> None:
    before = _position(oauth_server)
    r = httpx.post(oauth_server.url + "/oauth/register", json={"token_endpoint_auth_method": "none", **body})
    assert r.status_code == 400 and r.json()["error"] == error and words in r.json()["error_description"], r.text
    assert requests_changed(oauth_server.container, before) == []


def test_public_and_confidential_registration(oauth_server: RunningServer) -> None:
    public = register(oauth_server.url, "com.example.app:/oauth")
    assert public["token_endpoint_auth_method"] == "none" and "client_secret" not in public
    secret = register(oauth_server.url, CALLBACK, token_endpoint_auth_method="client_secret_post")
    assert len(secret["client_secret"]) == 64
    pkce = Pkce.new()
    code = _code(oauth_server, secret["client_id"], pkce)
    wrong = exchange(oauth_server.url, secret["client_id"], code, CALLBACK, pkce, client_secret="0" * 64)
    assert wrong.status_code == 401 and wrong.json() == {"error": "invalid_client", "error_description": "wrong client secret"}
    missing = exchange(oauth_server.url, secret["client_id"], code, CALLBACK, pkce)
    assert missing.status_code == 401 and "secret is missing" in missing.json()["error_description"]
    ok = exchange(oauth_server.url, secret["client_id"], code, CALLBACK, pkce, client_secret=secret["client_secret"])
    assert ok.status_code == 200


def test_a_basic_client_sends_its_id_in_the_header_only(oauth_server: RunningServer) -> None:
    """RFC 6749 §2.3.1: with client_secret_basic the form need not repeat client_id (token, refresh, revoke)."""
    client = register(oauth_server.url, CALLBACK, token_endpoint_auth_method="client_secret_basic")
    basic = (client["client_id"], client["client_secret"])
    pkce = Pkce.new()
    code = _code(oauth_server, client["client_id"], pkce)
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK, "code_verifier": pkce.verifier}
    tokens = httpx.post(oauth_server.url + "/oauth/token", data=form, auth=basic, timeout=10)
    assert tokens.status_code == 200, tokens.text
    again = httpx.post(oauth_server.url + "/oauth/token", auth=basic, timeout=10,
                       data={"grant_type": "refresh_token", "refresh_token": tokens.json()["refresh_token"]})
    assert again.status_code == 200, again.text
    wrong = httpx.post(oauth_server.url + "/oauth/token", auth=(client["client_id"], "0" * 64), timeout=10,
                       data={"grant_type": "refresh_token", "refresh_token": again.json()["refresh_token"]})
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"
    revoked = httpx.post(oauth_server.url + "/oauth/revoke", auth=basic, timeout=10,
                         data={"token": again.json()["refresh_token"]})
    assert revoked.status_code == 200, revoked.text
    gone = httpx.post(oauth_server.url + "/oauth/token", auth=basic, timeout=10,
                      data={"grant_type": "refresh_token", "refresh_token": again.json()["refresh_token"]})
    assert gone.status_code == 400 and gone.json()["error"] == "invalid_grant"


# ---------------------------------------------------------------- client ID metadata documents


def _doc(docs: DocumentServer, **overrides: Any) -> tuple[str, dict[str, Any]]:
    path = f"/cimd/{uuid.uuid4().hex}.json"
    url = docs.url + path
    doc = {"client_id": url, "client_name": "Doc App", "redirect_uris": [CALLBACK], **overrides}
    return path, doc


@pytest.mark.parametrize("case, words", [
    ("oversized", "larger than 5120 bytes"),
    ("mismatch", "is not the URL it was fetched from"),
    ("not_json", "not valid JSON"),
    ("no_name", "client_name is required"),
    ("secret", "must not contain a client_secret"),
    ("html", "not application/json"),
    ("redirect", "redirects are not followed"),
    ("missing", "answered HTTP 404"),
    ("bad_redirect_uri", "only for loopback"),
])
def test_client_metadata_documents_that_cannot_be_used(oauth_server: RunningServer, docs: DocumentServer,
                                                       case: str, words: str) -> None:
    path, doc = _doc(docs)
    reply = Reply(orjson.dumps(doc))
    if case == "oversized":
        reply = Reply(orjson.dumps({**doc, "client_uri": "https://app.example/" + "x" * 6000}))
    elif case == "mismatch":
        reply = Reply(orjson.dumps({**doc, "client_id": docs.url + "/other.json"}))
    elif case == "not_json":
        reply = Reply(b"{client_id: nope")
    elif case == "no_name":
        reply = Reply(orjson.dumps({k: v for k, v in doc.items() if k != "client_name"}))
    elif case == "secret":
        reply = Reply(orjson.dumps({**doc, "client_secret": "s3cret"}))
    elif case == "html":
        reply = Reply(b"<html></html>", headers={"content-type": "text/html"})
    elif case == "redirect":
        reply = Reply(b"", status=302, headers={"location": docs.url + "/elsewhere.json"})
    elif case == "bad_redirect_uri":
        reply = Reply(orjson.dumps({**doc, "redirect_uris": ["http://app.example/cb"]}))
    if case != "missing":
        docs.serve(path, reply)
    before = _position(oauth_server)
    r = _get(authorize_url(oauth_server.url, docs.url + path, CALLBACK, Pkce.new()))
    assert r.status_code == 400 and "location" not in r.headers
    assert r.json()["error"] == "invalid_client" and words in r.json()["error_description"], r.json()
    assert requests_changed(oauth_server.container, before) == []


@pytest.mark.parametrize("client_id, words", [
    ("http://127.0.0.1:9/client.json", "must use https"),
    ("https://127.0.0.1:9", "must have a path"),
    ("https://10.1.2.3/client.json", "not a public address"),
    ("https://169.254.169.254/latest/meta-data.json", "metadata_address"),
])
def test_client_id_urls_that_are_refused_before_fetching(oauth_server: RunningServer, client_id: str, words: str) -> None:
    r = _get(authorize_url(oauth_server.url, client_id, CALLBACK, Pkce.new()))
    assert r.status_code == 400 and r.json()["error"] == "invalid_client" and words in r.json()["error_description"]


def test_a_metadata_document_client_must_use_one_of_its_redirect_uris(oauth_server: RunningServer,
                                                                     docs: DocumentServer) -> None:
    client_id = docs.document(f"/cimd/{uuid.uuid4().hex}.json", CALLBACK)
    r = _get(authorize_url(oauth_server.url, client_id, "http://127.0.0.1:9/elsewhere", Pkce.new()))
    assert r.status_code == 400 and "location" not in r.headers and r.json()["error"] == "invalid_request"
    ok = _get(authorize_url(oauth_server.url, client_id, CALLBACK, Pkce.new()))
    assert ok.status_code == 302 and ok.headers["location"].startswith(oauth_server.url + "/oauth/consent")
