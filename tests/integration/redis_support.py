"""Where the integration tests find a real Redis, and whether one answers (asked once per run).

A module (not the conftest) so that `skipif` marks and other test packages can
import it; the fixture that hands a test its `RedisUnderTest` is in `conftest.py`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

REAL_REDIS_HOST = "127.0.0.1"
REAL_REDIS_PORT = 6379
REAL_REDIS = f"redis://{REAL_REDIS_HOST}:{REAL_REDIS_PORT}/0"


@functools.cache
def real_redis_reachable() -> bool:
    """Whether a Redis answers locally; asked once, without retries, so skipping is quick."""
    probe = redis.Redis(host=REAL_REDIS_HOST, port=REAL_REDIS_PORT, socket_connect_timeout=0.5, socket_timeout=0.5,
                        retry=Retry(NoBackoff(), 0))
    try:
        return bool(probe.ping())
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
        return False
    finally:
        probe.close()


@dataclass(frozen=True)
class RedisUnderTest:
    """One test's Redis connection and the token its keys and queue names carry."""

    connection: redis.Redis
    token: str

    @property
    def queue_name(self) -> str:
        return f"q-{self.token}"
