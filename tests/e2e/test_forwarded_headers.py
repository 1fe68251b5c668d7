"""X-Forwarded-For counts only from proxies named in LAUNCHDIR_TRUSTED_PROXIES (none by default).

Two real servers with a small anonymous quota, both reached from 127.0.0.1: the default one must
count every request against the socket's address whatever the header says; the one that trusts
127.0.0.1 as its proxy gives each forwarded address a quota of its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for

QUOTA = 5


def _server(databases: Databases, trusted: list[str]) -> Iterator[RunningServer]:
    from launchdir.bootstrap import bootstrap

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, rate_limit_anonymous=QUOTA,
                               trusted_proxies=trusted))
    with RunningServer(c, port) as running:
        yield running
    c.close()


@pytest.fixture(scope="module")
def default_server(databases: Databases) -> Iterator[RunningServer]:
    yield from _server(databases, [])


@pytest.fixture(scope="module")
def behind_proxy(databases: Databases) -> Iterator[RunningServer]:
    yield from _server(databases, ["127.0.0.1"])


def _statuses(server: RunningServer, addresses: list[str]) -> list[int]:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        return [http.get("/api/v1/site", headers={"X-Forwarded-For": a}).status_code for a in addresses]


def test_forwarded_for_counts_only_from_a_trusted_proxy(default_server: RunningServer,
                                                         behind_proxy: RunningServer) -> None:
    forwarded = [f"203.0.113.{n}" for n in range(1, 2 * QUOTA + 1)]  # a new address in every request
    # no trusted proxy (the default): loopback's header is ignored, all requests share its quota
    statuses = _statuses(default_server, forwarded)
    assert statuses[:QUOTA] == [200] * QUOTA
    assert set(statuses[QUOTA:]) == {429}
    # LAUNCHDIR_TRUSTED_PROXIES=127.0.0.1: each forwarded address has a quota of its own
    assert _statuses(behind_proxy, forwarded) == [200] * (2 * QUOTA)
    assert _statuses(behind_proxy, ["198.51.100.7"] * (QUOTA + 1))[-1] == 429
