"""Rate limits through the executor (real PostgreSQL behind it) and the Redis limiter.

The Redis cases run against fakeredis (with Lua) and, when one answers at 127.0.0.1:6379, a
real Redis; each test uses its own key prefix and deletes its keys afterwards.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import fakeredis
import orjson
import pytest
import redis.asyncio as aioredis

from api.executor import Executor
from api.ratelimit import Limits, LocalRateLimiter, OverLimit, RedisRateLimiter
from api.services import Principal
from tests.conftest import Databases, free_port
from tests.conftest import test_settings as settings_for
from tests.integration.redis_support import REAL_REDIS, real_redis_reachable

KEY = Principal(account_id="acct-1", scopes=frozenset(), kind="api_key")
SMALL = Limits.of(credential=20, anonymous=10, window=100, burst=4, burst_window=8)


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["fakeredis", "redis"])
async def client(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    if request.param == "redis":
        if not real_redis_reachable():
            pytest.skip("no Redis at 127.0.0.1:6379")
        c = aioredis.Redis.from_url(REAL_REDIS)
    else:
        c = fakeredis.FakeAsyncRedis()
    yield c
    await c.aclose()


@pytest.fixture
async def prefix(client: Any) -> AsyncIterator[str]:
    p = f"launchdir:test:rl:{uuid.uuid4().hex}:"
    yield p
    keys = [k async for k in client.scan_iter(match=p + "*")]
    if keys:
        await client.delete(*keys)


async def hits(limiter: Any, n: int, principal: Principal | None = None, ip: str = "192.0.2.1") -> int:
    ok = 0
    for _ in range(n):
        try:
            await limiter.check(None, principal, ip)
            ok += 1
        except OverLimit:
            pass
    return ok


# ---------------------------------------------------------------- Redis


async def test_redis_gives_the_same_answers_as_in_process(client: Any, prefix: str) -> None:
    clock = Clock()
    shared = RedisRateLimiter(SMALL, client, prefix=prefix, clock=clock)
    local = LocalRateLimiter(SMALL, clock=clock)
    for step in [0, 0, 0, 0, 0, 0.5, 1.5, 0.1, 2, 8, 0, 0, 0, 0, 0, 30]:
        clock.now += step
        answers = []
        for limiter in (shared, local):
            try:
                answers.append(("ok", await limiter.check(None, KEY, "192.0.2.1")))
            except OverLimit as exc:
                answers.append(("429", exc.retry_after, exc.headers))
        assert answers[0] == answers[1], step


async def test_redis_refuses_over_the_limit_with_retry_after(client: Any, prefix: str) -> None:
    clock = Clock()
    limiter = RedisRateLimiter(SMALL, client, prefix=prefix, clock=clock)
    assert await hits(limiter, 4) == 4
    with pytest.raises(OverLimit) as refused:
        await limiter.check(None, None, "192.0.2.1")
    assert refused.value.retry_after == 2
    assert refused.value.headers["ratelimit"] == '"default";r=6;t=40, "burst";r=0;t=8'
    clock.now += 2
    assert await hits(limiter, 2) == 1


async def test_redis_uses_its_own_clock_by_default(client: Any, prefix: str) -> None:
    limits = Limits.of(anonymous=100, window=900, burst=3, burst_window=600)
    limiter = RedisRateLimiter(limits, client, prefix=prefix)
    assert await hits(limiter, 5) == 3
    with pytest.raises(OverLimit) as refused:
        await limiter.check(None, None, "192.0.2.1")
    assert 190 <= refused.value.retry_after <= 200  # 600 s / 3


async def test_redis_keys_expire_when_the_quota_is_full_again(client: Any, prefix: str) -> None:
    limiter = RedisRateLimiter(SMALL, client, prefix=prefix)
    await hits(limiter, 3)
    keys = sorted([k.decode() async for k in client.scan_iter(match=prefix + "*")])
    assert keys == [prefix + "{ip:192.0.2.1}:burst", prefix + "{ip:192.0.2.1}:default"]
    ttls = {k: await client.pttl(k) for k in keys}
    assert 0 < ttls[prefix + "{ip:192.0.2.1}:burst"] <= 6_001  # three intervals of 2 s
    assert 0 < ttls[prefix + "{ip:192.0.2.1}:default"] <= 30_001  # three intervals of 10 s


async def test_processes_sharing_redis_share_the_quota(client: Any, prefix: str) -> None:
    clock = Clock()
    one = RedisRateLimiter(SMALL, client, prefix=prefix, clock=clock)
    two = RedisRateLimiter(SMALL, client, prefix=prefix, clock=clock)
    assert await hits(one, 3) == 3
    assert await hits(two, 3) == 1


async def test_redis_keeps_credentials_and_addresses_apart(client: Any, prefix: str) -> None:
    limiter = RedisRateLimiter(SMALL, client, prefix=prefix, clock=Clock())
    assert await hits(limiter, 6, None, "192.0.2.1") == 4
    assert await hits(limiter, 6, None, "192.0.2.2") == 4
    assert await hits(limiter, 6, KEY, "192.0.2.1") == 4
    assert await hits(limiter, 6, KEY, "192.0.2.3") == 0


async def test_an_unreachable_redis_falls_back_to_in_process_limits(caplog: pytest.LogCaptureFixture) -> None:
    down = aioredis.Redis(host="127.0.0.1", port=free_port(), socket_connect_timeout=0.2, socket_timeout=0.2)
    limiter = RedisRateLimiter(SMALL, down, clock=Clock())
    with caplog.at_level(logging.WARNING, logger="api.ratelimit"):
        assert await hits(limiter, 6) == 4
    assert "counting in-process" in caplog.text
    await down.aclose()


# ---------------------------------------------------------------- through the executor


class Tokens:
    async def authenticate(self, authorization: str | None) -> Principal | None:
        if not authorization:
            return None
        return Principal(account_id=authorization.removeprefix("Bearer "), scopes=frozenset(), kind="api_key")


@pytest.fixture(scope="module")
def container(databases: Databases) -> Iterator[Any]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    c = bootstrap(settings_for(databases.create()))
    ensure_catalog(c)
    c.runtime.catch_up("catalog_view")
    yield c
    c.close()


def executor(container: Any, limiter: Any) -> Executor:
    return Executor(container.services, container.executor.registry, authenticator=Tokens(), rate_limiter=limiter)


@pytest.fixture(params=["in-process", "fakeredis"])
def limiter(request: pytest.FixtureRequest) -> Any:
    limits = Limits.of(credential=20, anonymous=10, window=900, burst=3, burst_window=60)
    if request.param == "in-process":
        return LocalRateLimiter(limits)
    return RedisRateLimiter(limits, fakeredis.FakeAsyncRedis(), prefix=f"t:{uuid.uuid4().hex}:")


async def test_every_answer_carries_the_headers_and_the_fourth_is_a_429(container, limiter) -> None:  # type: ignore[no-untyped-def]
    ex = executor(container, limiter)
    op = ex.registry.get("get_site_info")
    answers = [await ex.execute(op, {}, channel="rest", ip="203.0.113.5") for _ in range(3)]
    assert [a.status for a in answers] == [200, 200, 200]  # the second and third come from the response cache
    assert [a.headers["ratelimit"].split(", ")[1] for a in answers] == [
        '"burst";r=2;t=20', '"burst";r=1;t=40', '"burst";r=0;t=60']
    assert all(a.headers["ratelimit-policy"] == '"default";q=10;w=900, "burst";q=3;w=60' for a in answers)
    refused = await ex.execute(op, {}, channel="rest", ip="203.0.113.5")
    assert refused.status == 429
    assert refused.headers["content-type"] == "application/problem+json"
    assert 19 <= int(refused.headers["retry-after"]) <= 20
    assert refused.headers["ratelimit"].endswith('"burst";r=0;t=60')
    assert refused.headers["ratelimit-policy"] == '"default";q=10;w=900, "burst";q=3;w=60'
    body = orjson.loads(refused.body)
    assert body["type"] == "/problems/rate-limited" and body["status"] == 429
    assert body["detail"].startswith("rate limit exceeded for this IP address (3 requests per 60 s)")
    # another address, and a credential from the same address, still have their quotas
    assert (await ex.execute(op, {}, channel="rest", ip="203.0.113.6")).status == 200
    mcp = await ex.execute(op, {}, channel="mcp", ip="203.0.113.5", authorization="Bearer acct-9")
    assert mcp.status == 200 and mcp.headers["ratelimit-policy"].startswith('"default";q=20;w=900')


async def test_invalid_input_and_not_found_count_and_carry_the_headers(container, limiter) -> None:  # type: ignore[no-untyped-def]
    ex = executor(container, limiter)
    bad = await ex.execute(ex.registry.get("list_categories"), {"include_empty": "maybe"}, channel="rest", ip="203.0.113.7")
    missing = await ex.execute(ex.registry.get("get_category"), {"slug": "no-such"}, channel="rest", ip="203.0.113.7")
    assert (bad.status, missing.status) == (400, 404)
    assert bad.headers["ratelimit"].endswith('"burst";r=2;t=20')
    assert missing.headers["ratelimit"].endswith('"burst";r=1;t=40')


async def test_the_container_is_limited_by_default(container) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(container.executor.rate_limiter, LocalRateLimiter)
    answer = await container.executor.execute(container.executor.registry.get("get_site_info"), {}, channel="rest",
                                              ip="203.0.113.99")
    assert answer.headers["ratelimit-policy"] == '"default";q=3000;w=900, "burst";q=300;w=10'
