"""API keys over real HTTP: get_account on REST and MCP (official client), 401 and 403 challenges,
bad, revoked and expired keys, and the protected resource metadata."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from uuid import uuid4

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from aggregates.base import Meta
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd

MODES = ["legacy", "auto", "2026-07-28"]
OPS = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")


@dataclass
class Keyring:
    account_id: str
    email: str
    reader: str  # account:read + orders:write
    writer: str  # listings:write only
    revoked: str
    expired: str


def _key(c, account_id: str, scopes: list[str], expires_on: date | None = None, at: datetime | None = None):  # type: ignore[no-untyped-def]
    cmd = apikeys_cmd.CreateApiKey(account_id=account_id, name="e2e", scopes=scopes, expires_on=expires_on)  # type: ignore[arg-type]
    meta = Meta(at=at or datetime.now(timezone.utc), actor=f"account:{account_id}", channel="web")
    return apikeys_cmd.create_api_key(c.store, cmd, meta, c.services.timezone)


@pytest.fixture(scope="module")
def keys(server) -> Keyring:  # type: ignore[no-untyped-def]
    c = server.container
    address = f"api-{uuid4().hex[:8]}@example.com"
    reg = account_cmd.register_account(
        c.store, account_cmd.RegisterAccount(account_id=uuid4(), email=address, password=None, verified=True), OPS, None)
    account_id = reg.account_id
    reader = _key(c, account_id, ["account:read", "orders:write"])
    writer = _key(c, account_id, ["listings:write"])
    revoked = _key(c, account_id, ["account:read"])
    apikeys_cmd.revoke_api_key(c.store, apikeys_cmd.RevokeApiKey(account_id=account_id, key_id=revoked.key_id), OPS)
    expired = _key(c, account_id, ["account:read"], date(2025, 1, 31), datetime(2025, 1, 1, tzinfo=timezone.utc))
    assert c.runtime.wait_for(["accounts_view"], c.store.position(), timeout=5)
    return Keyring(account_id, address, reader.key, writer.key, revoked.key, expired.key)


def _me(server, key: str | None = None, scheme: str = "Bearer") -> httpx.Response:  # type: ignore[no-untyped-def]
    headers = {"Authorization": f"{scheme} {key}"} if key is not None else {}
    return httpx.get(server.url + "/api/v1/me", headers=headers, timeout=10)


def _mcp(server, mode: str, key: str | None = None) -> Client:  # type: ignore[no-untyped-def]
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return Client(streamable_http_client(server.url + "/mcp", http_client=httpx2.AsyncClient(headers=headers, timeout=10)),
                  mode=mode)


# ---------------------------------------------------------------- who am I


def test_get_account_over_rest_says_who_and_what_the_key_allows(server, keys: Keyring) -> None:  # type: ignore[no-untyped-def]
    r = _me(server, keys.reader)
    assert r.status_code == 200, r.text
    assert r.json() == {
        "account_id": keys.account_id, "email": keys.email, "email_verified": True, "is_staff": False,
        "credential_kind": "api_key", "scopes": ["account:read", "orders:write"], "expires_at": None, "client_id": None,
    }
    assert r.headers["cache-control"] == "private, no-cache"


@pytest.mark.parametrize("mode", MODES)
async def test_get_account_over_mcp_is_the_same_document(server, keys: Keyring, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with _mcp(server, mode, keys.reader) as client:
        result = await client.call_tool("get_account", {})
    assert result.is_error is False
    assert result.structured_content == _me(server, keys.reader).json()


# ---------------------------------------------------------------- 401


def test_no_credentials_is_a_401_pointing_at_the_resource_metadata(server) -> None:  # type: ignore[no-untyped-def]
    r = _me(server)
    assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json"
    challenge = r.headers["www-authenticate"]
    assert challenge.startswith("Bearer ")
    assert f'resource_metadata="{server.url}/.well-known/oauth-protected-resource/api/v1"' in challenge
    assert "error=" not in challenge  # no credentials: no error code (RFC 6750 section 3.1)
    assert r.json()["status"] == 401


@pytest.mark.parametrize("which, scheme, detail", [
    ("garbage", "Bearer", "unknown kind of token"),
    ("malformed", "Bearer", "malformed API key"),
    ("unknown", "Bearer", "unknown API key"),
    ("wrong_secret", "Bearer", "unknown API key"),
    ("revoked", "Bearer", "this API key was revoked"),
    ("expired", "Bearer", "this API key expired at 2025-02-01"),
    ("reader", "Basic", "must be 'Bearer"),
])
def test_bad_keys_are_401_with_a_specific_detail(server, keys: Keyring, which: str, scheme: str, detail: str) -> None:  # type: ignore[no-untyped-def]
    key = {
        "garbage": "not-a-key", "malformed": "ldk_123", "unknown": f"ldk_{'a' * 16}_{'b' * 64}",
        "wrong_secret": keys.reader[:21] + "0" * 64, "revoked": keys.revoked, "expired": keys.expired,
        "reader": keys.reader,
    }[which]
    before = server.container.store.position()
    r = _me(server, key, scheme)
    assert r.status_code == 401
    assert detail in r.json()["detail"]
    challenge = r.headers["www-authenticate"]
    assert "error=" in challenge and "resource_metadata=" in challenge
    assert server.container.store.position() == before  # changing nothing


def test_public_operations_take_valid_keys_and_refuse_bad_ones(server, keys: Keyring) -> None:  # type: ignore[no-untyped-def]
    assert httpx.get(server.url + "/api/v1/site", headers={"Authorization": f"Bearer {keys.reader}"}).status_code == 200
    assert httpx.get(server.url + "/api/v1/site", headers={"Authorization": f"Bearer {keys.writer}"}).status_code == 200
    bad = httpx.get(server.url + "/api/v1/site", headers={"Authorization": f"Bearer {keys.revoked}"})
    assert bad.status_code == 401 and "revoked" in bad.json()["detail"]


@pytest.mark.parametrize("mode", MODES)
async def test_mcp_without_credentials_is_an_http_401_on_protected_tools_only(server, mode: str) -> None:  # type: ignore[no-untyped-def]
    # A protected tool called without credentials is refused with HTTP 401 and the challenge (docs/oauth.md, "MCP"),
    # so that MCP clients start signing in; public tools need no credentials.
    async with _mcp(server, mode) as client:
        public = await client.call_tool("get_site_info", {})
    assert public.is_error is False
    with pytest.raises(BaseException) as err:  # noqa: PT011 - the SDK wraps the HTTP 401 in task-group errors
        async with _mcp(server, mode) as client:
            await client.call_tool("get_account", {})
    assert not isinstance(err.value, (KeyboardInterrupt, SystemExit))


@pytest.mark.parametrize("which", ["revoked", "expired", "unknown"])
def test_mcp_with_a_bad_key_is_an_http_401_with_the_mcp_challenge(server, keys: Keyring, which: str) -> None:  # type: ignore[no-untyped-def]
    key = {"revoked": keys.revoked, "expired": keys.expired, "unknown": f"ldk_{'c' * 16}_{'d' * 64}"}[which]
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    r = httpx.post(server.url + "/mcp", json=body, timeout=10, headers={
        "Authorization": f"Bearer {key}", "accept": "application/json, text/event-stream"})
    assert r.status_code == 401
    challenge = r.headers["www-authenticate"]
    assert f'resource_metadata="{server.url}/.well-known/oauth-protected-resource/mcp"' in challenge
    assert 'error="invalid_token"' in challenge
    assert r.json()["status"] == 401


async def test_the_official_mcp_client_fails_with_a_revoked_key(server, keys: Keyring) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BaseException) as err:  # noqa: PT011 - the SDK wraps the HTTP 401 in task-group errors
        async with _mcp(server, "legacy", keys.revoked) as client:
            await client.call_tool("get_account", {})
    assert not isinstance(err.value, (KeyboardInterrupt, SystemExit))


# ---------------------------------------------------------------- 403


def test_a_key_without_the_scope_is_a_403_naming_it(server, keys: Keyring) -> None:  # type: ignore[no-untyped-def]
    r = _me(server, keys.writer)
    assert r.status_code == 403
    challenge = r.headers["www-authenticate"]
    assert 'error="insufficient_scope"' in challenge and 'scope="account:read"' in challenge
    assert f'resource_metadata="{server.url}/.well-known/oauth-protected-resource/api/v1"' in challenge
    assert r.json()["status"] == 403 and "account:read" in r.json()["detail"]


@pytest.mark.parametrize("mode", MODES)
async def test_mcp_without_the_scope_is_a_403_tool_error(server, keys: Keyring, mode: str) -> None:  # type: ignore[no-untyped-def]
    async with _mcp(server, mode, keys.writer) as client:
        result = await client.call_tool("get_account", {})
    assert result.is_error is True
    assert result.structured_content["status"] == 403 and "account:read" in result.structured_content["detail"]


# ---------------------------------------------------------------- RFC 9728


@pytest.mark.parametrize("path", ["/mcp", "/api/v1"])
def test_protected_resource_metadata(server, path: str) -> None:  # type: ignore[no-untyped-def]
    r = httpx.get(f"{server.url}/.well-known/oauth-protected-resource{path}")
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "*"
    doc = r.json()
    assert doc["resource"] == server.url + path
    assert doc["authorization_servers"] == [server.url]
    assert doc["scopes_supported"] == ["account:read", "listings:write", "orders:write"]
    assert doc["bearer_methods_supported"] == ["header"]
    assert doc["resource_name"]


def test_last_use_of_a_key_is_recorded(server, keys: Keyring) -> None:  # type: ignore[no-untyped-def]
    identity = server.container.identity
    assert _me(server, keys.reader).status_code == 200
    key_id = keys.reader[4:20]
    identity.usage.flush()
    used = identity.usage.last_used([key_id])
    assert (datetime.now(timezone.utc) - used[key_id]).total_seconds() < 60
