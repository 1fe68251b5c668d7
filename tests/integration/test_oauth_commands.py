"""OAuth commands, projection and verifier against PostgreSQL: codes, rotation, races, revocation, audiences."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any
from uuid import uuid4

import httpx
import pytest
from pydantic import SecretStr
from starlette.applications import Starlette

from aggregates.base import Meta
from aggregates.oauth import OAuthRefused
from api.auth import InvalidToken
from api.oauth import OAuthServer
from api.oauth.routes import OAuthEndpoints
from api.ratelimit import Limits, LocalRateLimiter
from commands import account as account_cmd
from commands import oauth as oauth_cmd
from queries import oauth as oauth_q

CALLBACK = "http://127.0.0.1:9/cb"


@pytest.fixture(scope="module")
def container(databases: Any) -> Iterator[Any]:
    """One container for the module (no catalogue: nothing here reads it); every test uses its own account."""
    from launchdir.bootstrap import bootstrap
    from tests.conftest import test_settings

    c = bootstrap(test_settings(databases.create()))
    yield c
    c.close()


def meta() -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor="test", channel="oauth")


def _account(c: Any) -> str:
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=f"o-{uuid4().hex[:8]}@example.com",
                                      password=SecretStr("a good long password"), verified=True)
    return str(account_cmd.register_account(c.store, cmd, meta(), None).account_id)


def _code(c: Any, account: str, client: str = "client-a", resource: str = "http://127.0.0.1:8000/mcp",
          scopes: tuple[str, ...] = ("account:read",)) -> str:
    return oauth_cmd.give_consent(c.store, oauth_cmd.GiveConsent(
        account_id=account, client_id=client, client_name="App", client_host="127.0.0.1", client_kind="registered",
        scopes=list(scopes), resource=resource, redirect_uri=CALLBACK, redirect_uri_explicit=True,
        code_challenge="A" * 43), meta()).code


def _redeem(c: Any, code: str, client: str = "client-a") -> oauth_cmd.Tokens:
    return oauth_cmd.redeem_code(c.store, oauth_cmd.RedeemCode(code=code, client_id=client), meta())


def _race(*fns: Any) -> list[Any]:
    results: list[Any] = [None] * len(fns)
    barrier = threading.Barrier(len(fns))

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = fns[i]()
        except Exception as exc:  # noqa: BLE001 - collected for the assertions
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(fns))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_a_redeemed_code_lands_in_the_read_tables(container: Any) -> None:
    account = _account(container)
    tokens = _redeem(container, _code(container, account, scopes=("orders:write", "account:read")))
    assert tokens.scopes == ["account:read", "orders:write"] and tokens.refresh_token
    container.runtime.catch_up("oauth_view")
    row = oauth_q.token_for_auth(container.services.reads, oauth_cmd.hash_secret(tokens.access_token))
    assert row is not None and row["account_id"] == account and row["revoked_at"] is None
    assert row["resource"] == "http://127.0.0.1:8000/mcp" and row["client_id"] == "client-a"
    [app] = oauth_q.connected_apps(container.services.reads, account, datetime.now(timezone.utc))
    assert app["client_name"] == "App" and app["scopes"] == ["account:read", "orders:write"] and app["sessions"] == 1


def test_two_redemptions_of_one_code_at_once_give_tokens_once_and_revoke_them(container: Any) -> None:
    account = _account(container)
    code = _code(container, account)
    results = _race(lambda: _redeem(container, code), lambda: _redeem(container, code))
    won = [r for r in results if isinstance(r, oauth_cmd.Tokens)]
    lost = [r for r in results if isinstance(r, OAuthRefused)]
    assert len(won) == 1 and len(lost) == 1 and "already used" in lost[0].detail
    family = oauth_cmd.load_family(container.store, won[0].family_id)
    assert family.revoked_reason == "code_replayed"  # the second use is a replay, whoever comes second


def test_two_refreshes_with_one_token_at_once_rotate_once_and_revoke_the_family(container: Any) -> None:
    account = _account(container)
    tokens = _redeem(container, _code(container, account))
    cmd = oauth_cmd.RefreshTokens(refresh_token=tokens.refresh_token, client_id="client-a")  # type: ignore[arg-type]
    results = _race(lambda: oauth_cmd.refresh_tokens(container.store, cmd, meta()),
                    lambda: oauth_cmd.refresh_tokens(container.store, cmd, meta()))
    assert sum(isinstance(r, oauth_cmd.Tokens) for r in results) == 1
    assert sum(isinstance(r, OAuthRefused) for r in results) == 1
    assert oauth_cmd.load_family(container.store, tokens.family_id).revoked_reason == "refresh_token_reused"


def test_revoking_the_grant_ends_every_family_and_the_page_forgets_it(container: Any) -> None:
    account = _account(container)
    first = _redeem(container, _code(container, account))
    second = _redeem(container, _code(container, account))
    unused = _code(container, account)
    oauth_cmd.revoke_grant(container.store, oauth_cmd.RevokeGrant(
        grant_id=oauth_cmd.code_grant(unused), account_id=account), meta())  # type: ignore[arg-type]
    container.runtime.catch_up("oauth_view")
    for tokens in (first, second):
        row = oauth_q.token_for_auth(container.services.reads, oauth_cmd.hash_secret(tokens.access_token))
        assert row is not None and row["revoked_at"] is not None
    assert oauth_q.connected_apps(container.services.reads, account, datetime.now(timezone.utc)) == []
    with pytest.raises(OAuthRefused) as refused:
        _redeem(container, unused)
    assert "revoked this app's access" in refused.value.detail
    with pytest.raises(OAuthRefused):
        oauth_cmd.refresh_tokens(container.store, oauth_cmd.RefreshTokens(
            refresh_token=first.refresh_token, client_id="client-a"), meta())  # type: ignore[arg-type]


async def test_the_verifier_checks_audience_and_sees_revocation_at_once(container: Any) -> None:
    oauth: OAuthServer = container.oauth
    base = container.settings.base_url
    account = _account(container)
    tokens = _redeem(container, _code(container, account, resource=base + "/api/v1"))
    container.runtime.catch_up("oauth_view")
    principal = await oauth.verifier.verify_for(tokens.access_token, "rest")
    assert principal.kind == "oauth" and principal.client_id == "client-a" and principal.scopes == {"account:read"}
    with pytest.raises(InvalidToken, match="not for .*/mcp"):
        await oauth.verifier.verify_for(tokens.access_token, "mcp")
    with pytest.raises(InvalidToken, match="not accepted on the web channel"):
        await oauth.verifier.verify_for(tokens.access_token, "web")
    chain = container.identity.authenticator
    assert (await chain.authenticate(f"Bearer {tokens.access_token}", channel="rest")).account_id == account
    oauth_cmd.revoke_family(container.store, tokens.family_id, "revoked_by_client", meta())
    container.runtime.catch_up("oauth_view")
    with pytest.raises(InvalidToken, match="was revoked"):
        await oauth.verifier.verify_for(tokens.access_token, "rest")


async def test_registrations_are_rate_limited_per_address(container: Any) -> None:
    oauth: OAuthServer = container.oauth
    endpoints = OAuthEndpoints(oauth.provider, LocalRateLimiter(Limits.of(anonymous=3, window=3600, burst=3,
                                                                          burst_window=60)))
    app = Starlette(routes=endpoints.routes())
    body = {"redirect_uris": [CALLBACK], "token_endpoint_auth_method": "none"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as http:
        codes = [(await http.post("/oauth/register", json=body)).status_code for _ in range(4)]
        last = await http.post("/oauth/register", json=body)
    assert codes == [201, 201, 201, 429] and last.status_code == 429
    assert last.json()["error"] == "rate_limited" and int(last.headers["retry-after"]) > 0
    container.runtime.catch_up("oauth_view")
    assert oauth_q.registered_clients(container.services.reads) >= 3


async def test_with_redis_every_process_counts_against_one_registration_limit(container: Any) -> None:
    """Two endpoint sets (as in two server processes) share the limit through Redis: 10 a minute per address."""
    import random

    from redis import asyncio as aioredis

    from api.oauth.routes import registration_limiter
    from tests.integration.redis_support import REAL_REDIS, real_redis_reachable

    if not real_redis_reachable():
        pytest.skip("no Redis at 127.0.0.1:6379")
    oauth: OAuthServer = container.oauth
    address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"  # a fresh bucket
    apps = [Starlette(routes=OAuthEndpoints(oauth.provider, registration_limiter(True, REAL_REDIS)).routes())
            for _ in range(2)]
    body = {"redirect_uris": [CALLBACK], "token_endpoint_auth_method": "none"}
    codes = []
    try:
        for n in range(11):
            transport = httpx.ASGITransport(app=apps[n % 2], client=(address, 40000 + n))
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                codes.append((await http.post("/oauth/register", json=body)).status_code)
    finally:
        redis = aioredis.Redis.from_url(REAL_REDIS)
        keys = [k async for k in redis.scan_iter(match=f"launchdir:rl:register:*{address}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
    assert codes == [201] * 10 + [429]  # each process alone saw at most 6: the count is shared
