"""Rate limits and Idempotency-Key over real HTTP: a server of its own with a small burst limit.

Every request comes from 127.0.0.1, which this server trusts as a proxy
(`LAUNCHDIR_TRUSTED_PROXIES`), so each test names its own client address in `X-Forwarded-For`
and has an anonymous quota of its own (this is also how the limits see clients behind a local
reverse proxy). (Idempotency-Key replay over HTTP
needs a mutating operation in the registry; until one exists the executor-level tests in
tests/integration/test_idempotency.py cover it.)
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for

BURST = 5


@pytest.fixture(scope="module")
def limited(databases: Databases) -> Iterator[RunningServer]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, rate_limit_burst=BURST, rate_limit_burst_window=60,
                                trusted_proxies=["127.0.0.1"]))
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        yield running
    c.close()


def client_at(server: RunningServer, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=10, headers={"X-Forwarded-For": address})


def spend(http: httpx.Client) -> httpx.Response:
    """Call until refused; the refusal."""
    for _ in range(BURST + 1):
        r = http.get("/api/v1/site")
        if r.status_code == 429:
            return r
    raise AssertionError("never refused")


def test_rest_answers_carry_the_headers_and_refuse_with_429(limited: RunningServer) -> None:
    with client_at(limited, "198.51.100.1") as http:
        first = http.get("/api/v1/categories/no-such-category")
        assert first.status_code == 404
        assert first.headers["RateLimit-Policy"] == '"default";q=3000;w=900, "burst";q=5;w=60'
        assert first.headers["RateLimit"].startswith('"default";r=')
        refused = spend(http)
    assert refused.headers["content-type"] == "application/problem+json"
    assert 1 <= int(refused.headers["Retry-After"]) <= 12  # one interval: 60 s / 5
    assert refused.headers["RateLimit"].endswith('"burst";r=0;t=60')
    body = refused.json()
    assert body["type"] == "/problems/rate-limited" and body["status"] == 429
    assert "retry in" in body["detail"]


async def test_mcp_tool_calls_share_the_quota_and_get_the_same_problem(limited: RunningServer) -> None:
    address = "198.51.100.2"
    with client_at(limited, address) as http:
        spend(http)
    http2 = httpx2.AsyncClient(timeout=10, headers={"X-Forwarded-For": address})
    async with Client(streamable_http_client(limited.url + "/mcp", http_client=http2), mode="legacy") as c:
        result = await c.call_tool("get_site_info", {})
    assert result.is_error is True
    assert result.structured_content["type"] == "/problems/rate-limited"
    assert result.structured_content["status"] == 429


def test_each_address_has_its_own_quota(limited: RunningServer) -> None:
    with client_at(limited, "198.51.100.3") as http:
        spend(http)
    with client_at(limited, "198.51.100.4") as http:
        r = http.get("/api/v1/site")
    assert r.status_code == 200
    assert r.headers["RateLimit"].endswith(f'"burst";r={BURST - 1};t=12')


def test_the_key_header_is_ignored_on_reads(limited: RunningServer) -> None:
    with client_at(limited, "198.51.100.5") as http:
        r = http.get("/api/v1/site", headers={"Idempotency-Key": "x"})  # malformed, and irrelevant here
    assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers


def test_bad_credentials_spend_the_address_quota(limited: RunningServer) -> None:
    """Guessing API keys is rate limited like any anonymous caller."""
    with client_at(limited, "198.51.100.6") as http:
        statuses = [
            http.get("/api/v1/site", headers={"Authorization": f"Bearer ldk_{n:016x}_{'0' * 64}"}).status_code
            for n in range(BURST + 1)
        ]
    assert statuses[:BURST] == [401] * BURST
    assert statuses[BURST] == 429

