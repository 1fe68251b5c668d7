"""OAuth over real HTTP: the official MCP client signs in through DCR and through a client ID metadata
document (served over https from 127.0.0.1), the person signs in and consents on the real pages, then it
calls get_account, in the legacy and 2026-07-28 protocol modes; step-up authorization; metadata."""

from __future__ import annotations

import uuid

import httpx
import httpx2
import pytest
from mcp.client.auth import OAuthClientProvider
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientMetadata

from tests.conftest import RunningServer
from tests.e2e.oauth_support import (  # noqa: F401 - fixtures: tls, docs, oauth_server
    CALLBACK, Browser, DocumentServer, MemoryStorage, Person, Redirects, docs, oauth_server, person, query_of, tls,
    tokens_for)

MODES = ["legacy", "2026-07-28"]


def _provider(server: RunningServer, storage: MemoryStorage, redirects: Redirects,
              client_metadata_url: str | None = None) -> OAuthClientProvider:
    metadata = OAuthClientMetadata(client_name="launchdir e2e", redirect_uris=[CALLBACK],  # type: ignore[list-item]
                                   token_endpoint_auth_method="none",
                                   grant_types=["authorization_code", "refresh_token"], response_types=["code"])
    return OAuthClientProvider(server.url + "/mcp", metadata, storage, redirect_handler=redirects.redirect,
                               callback_handler=redirects.callback, client_metadata_url=client_metadata_url)


def _mcp(server: RunningServer, provider: OAuthClientProvider, mode: str) -> Client:
    http = httpx2.AsyncClient(auth=provider, timeout=30)
    return Client(streamable_http_client(server.url + "/mcp", http_client=http), mode=mode)


# ---------------------------------------------------------------- metadata


def test_authorization_server_metadata(oauth_server: RunningServer) -> None:
    base = oauth_server.url
    r = httpx.get(base + "/.well-known/oauth-authorization-server")
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "*"
    doc = r.json()
    assert doc["issuer"] == base  # exactly: no trailing slash (RFC 8414 / 9207 compare strings)
    assert doc["authorization_endpoint"] == base + "/oauth/authorize"
    assert doc["token_endpoint"] == base + "/oauth/token"
    assert doc["registration_endpoint"] == base + "/oauth/register"
    assert doc["revocation_endpoint"] == base + "/oauth/revoke"
    assert doc["code_challenge_methods_supported"] == ["S256"]
    assert "none" in doc["token_endpoint_auth_methods_supported"]
    assert doc["client_id_metadata_document_supported"] is True
    assert doc["authorization_response_iss_parameter_supported"] is True
    assert doc["scopes_supported"] == ["account:read", "listings:write", "orders:write"]
    assert doc["grant_types_supported"] == ["authorization_code", "refresh_token"]
    for path in ("/mcp", "/api/v1"):
        prm = httpx.get(f"{base}/.well-known/oauth-protected-resource{path}").json()
        assert prm["authorization_servers"] == [doc["issuer"]]
        assert prm["scopes_supported"] == doc["scopes_supported"]


def test_a_protected_tool_call_without_credentials_is_an_http_401_naming_the_scope(oauth_server: RunningServer) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_account", "arguments": {}}}
    r = httpx.post(oauth_server.url + "/mcp", json=body, timeout=10,
                   headers={"accept": "application/json, text/event-stream"})
    assert r.status_code == 401
    challenge = r.headers["www-authenticate"]
    assert 'scope="account:read"' in challenge and "error=" not in challenge
    assert f'resource_metadata="{oauth_server.url}/.well-known/oauth-protected-resource/mcp"' in challenge
    public = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_site_info", "arguments": {}}}
    assert httpx.post(oauth_server.url + "/mcp", json=public, timeout=10,
                      headers={"accept": "application/json, text/event-stream"}).status_code == 200


# ---------------------------------------------------------------- the official MCP client


async def _signed_in_call(server: RunningServer, mode: str, who: Person, client_metadata_url: str | None = None):  # type: ignore[no-untyped-def]
    storage = MemoryStorage()
    browser = Browser(server.url, who)
    redirects = Redirects(browser)
    try:
        async with _mcp(server, _provider(server, storage, redirects, client_metadata_url), mode) as client:
            result = await client.call_tool("get_account", {})
            again = await client.call_tool("get_account", {})  # the stored token, no second sign-in
    finally:
        browser.close()
    return result, again, storage, redirects, browser


@pytest.mark.parametrize("mode", MODES)
async def test_official_client_with_dynamic_registration(oauth_server: RunningServer, mode: str) -> None:
    who = person(oauth_server.container)
    result, again, storage, redirects, browser = await _signed_in_call(oauth_server, mode, who)
    assert result.is_error is False, result.structured_content
    doc = result.structured_content
    assert doc["account_id"] == who.account_id and doc["email"] == who.email
    assert doc["credential_kind"] == "oauth" and doc["scopes"] == ["account:read"]
    assert doc["client_id"] == storage.client_info.client_id and doc["expires_at"]
    assert again.is_error is False and len(redirects.urls) == 1
    assert storage.client_info.client_secret is None  # a public client: DCR minted no secret
    url = redirects.urls[0]
    assert "code_challenge_method=S256" in url and "resource=" in url
    answer = redirects.answers[0]
    assert answer["iss"] == oauth_server.url and answer["state"]  # RFC 9207
    consent = next(p for p in browser.pages if p.status_code == 200 and "/oauth/consent" in str(p.url))
    assert "launchdir e2e" in consent.text and "127.0.0.1" in consent.text and "account:read" in consent.text
    assert any(str(p.url).startswith(oauth_server.url + "/signin") for p in browser.pages)  # signed in on the real page


@pytest.mark.parametrize("mode", MODES)
async def test_official_client_with_a_client_id_metadata_document(oauth_server: RunningServer, docs: DocumentServer,
                                                                  mode: str) -> None:
    who = person(oauth_server.container)
    client_id = docs.document(f"/clients/{uuid.uuid4().hex}.json", CALLBACK, name="Metadata Document App")
    result, _, storage, redirects, browser = await _signed_in_call(oauth_server, mode, who, client_id)
    assert result.is_error is False, result.structured_content
    assert result.structured_content["client_id"] == client_id  # the URL is the client_id; nothing was registered
    assert storage.client_info.client_id == client_id
    assert query_of(redirects.urls[0])["client_id"] == client_id
    consent = next(p for p in browser.pages if p.status_code == 200 and "/oauth/consent" in str(p.url))
    assert "Metadata Document App" in consent.text
    assert 'id="client-domain">127.0.0.1<' in consent.text  # the host of the client_id URL
    assert redirects.answers[0]["iss"] == oauth_server.url


@pytest.mark.parametrize("mode", MODES)
async def test_step_up_asks_for_the_missing_scope_and_retries(oauth_server: RunningServer, mode: str) -> None:
    who = person(oauth_server.container)
    storage = MemoryStorage()
    browser = Browser(oauth_server.url, who)
    redirects = Redirects(browser)
    try:
        async with _mcp(oauth_server, _provider(oauth_server, storage, redirects), mode) as client:
            first = await client.call_tool("get_account", {})
            assert first.structured_content["scopes"] == ["account:read"]
            # update_draft needs listings:write: HTTP 403 insufficient_scope, the client asks again, then retries
            result = await client.call_tool("update_draft", {"id": str(uuid.uuid4())})
            after = await client.call_tool("get_account", {})
    finally:
        browser.close()
    assert len(redirects.urls) == 2
    assert "listings%3Awrite" in redirects.urls[1] and "account%3Aread" in redirects.urls[1]
    assert result.is_error is True and result.structured_content["status"] == 404  # authorized now: not found
    assert after.structured_content["scopes"] == ["account:read", "listings:write"]


def test_an_oauth_token_without_the_scope_is_an_http_403_on_mcp(oauth_server: RunningServer) -> None:
    who = person(oauth_server.container)
    token = tokens_for(oauth_server.url, who, scope="account:read")["access_token"]
    for version, extra in (("2025-11-25", {}), ("2026-07-28", {"mcp-method": "tools/call", "mcp-name": "submit_listing"})):
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "submit_listing", "arguments": {"url": "https://example.com"}}}
        r = httpx.post(oauth_server.url + "/mcp", json=body, timeout=10, headers={
            "authorization": f"Bearer {token}", "accept": "application/json, text/event-stream",
            "mcp-protocol-version": version, **extra})
        assert r.status_code == 403, (version, r.text)
        challenge = r.headers["www-authenticate"]
        assert 'error="insufficient_scope"' in challenge and 'scope="listings:write"' in challenge
        assert f'resource_metadata="{oauth_server.url}/.well-known/oauth-protected-resource/mcp"' in challenge
