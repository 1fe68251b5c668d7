"""Fixtures the integration tests share (the session's databases and `container` are in `tests/conftest.py`).

- `c`: the drafting tests' container, one per test module: a database of its
  own, the catalogue, the crawler allowed on 127.0.0.1 (the fixture sites),
  projections running. `draft_context` installs its job context for a test.
- `redis_under_test`: a Redis connection per test, once on fakeredis and once
  on a real Redis when one answers (skipped otherwise), with a unique token;
  every key carrying the token is deleted afterwards, so a shared Redis is
  left as it was found.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest
import redis

from tests.conftest import Databases
from tests.conftest import test_settings as settings_for
from tests.integration.redis_support import REAL_REDIS_HOST, REAL_REDIS_PORT, RedisUnderTest, real_redis_reachable
from workers.jobs import install_context


@pytest.fixture(scope="module")
def c(databases: Databases) -> Iterator[Any]:
    """The drafting tests' container (short name: they use it on every line)."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    container = bootstrap(settings_for(databases.create(), crawl_allow_loopback=True))
    ensure_catalog(container)
    container.runtime.start()
    yield container
    container.close()


@pytest.fixture
def draft_context(c: Any) -> None:
    """The container's own job context, so jobs the test enqueues run against its database."""
    install_context(c.draft_workers.context)


@pytest.fixture(params=["fakeredis", "redis"])
def redis_under_test(request: pytest.FixtureRequest) -> Iterator[RedisUnderTest]:
    if request.param == "fakeredis":
        connection: redis.Redis = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    else:
        if not real_redis_reachable():
            pytest.skip(f"no Redis reachable at {REAL_REDIS_HOST}:{REAL_REDIS_PORT}")
        connection = redis.Redis(host=REAL_REDIS_HOST, port=REAL_REDIS_PORT)
    under_test = RedisUnderTest(connection, f"ldtest{uuid.uuid4().hex[:12]}")
    try:
        yield under_test
    finally:
        keys = list(connection.scan_iter(match=f"*{under_test.token}*", count=1000))
        if keys:
            connection.delete(*keys)
        connection.srem("rq:queues", f"rq:queue:{under_test.queue_name}")
        connection.close()
