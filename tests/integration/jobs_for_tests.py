"""Jobs for the Redis-backed queue tests, importable by dotted path like real job modules.

Their effects go into the installed :class:`RQTestContext`, which the
tests inspect; nothing here is mocked.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from workers.jobs import job


class RQTestContext:
    """A job context for tests: thread-safe counters, failure switches, hook records."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        self.hook_calls: list[tuple[str, tuple[str | int, ...]]] = []
        self.failures_remaining: Counter[str] = Counter()
        self.reenqueued: list[str] = []
        self.queue: Any = None

    def bump(self, key: str) -> int:
        """Count one call under `key` and return the new count."""
        with self.lock:
            self.calls[key] += 1
            return self.calls[key]

    def take_failure(self, key: str) -> bool:
        """True while `key` still has planned failures, consuming one."""
        with self.lock:
            if self.failures_remaining[key] > 0:
                self.failures_remaining[key] -= 1
                return True
            return False


def record_failure(ctx: RQTestContext, exc_text: str, *args: str | int) -> None:
    """on_failure hook: remember what failed and why."""
    with ctx.lock:
        ctx.hook_calls.append((exc_text, args))


@job("rqtest.count", retries=0)
def count(ctx: RQTestContext, key: str) -> None:
    ctx.bump(key)


@job("rqtest.flaky", retries=3, backoff=(0,))
def flaky(ctx: RQTestContext, key: str) -> None:
    if ctx.bump(key) <= 2:
        raise ConnectionError(f"transient trouble with {key}")


@job("rqtest.always_fails", retries=2, backoff=(0, 0), on_failure=record_failure)
def always_fails(ctx: RQTestContext, key: str, number: int) -> None:
    ctx.bump(key)
    raise ValueError(f"broken {key} {number}")


@job("rqtest.fails_as_planned", retries=1, backoff=(0,), on_failure=record_failure)
def fails_as_planned(ctx: RQTestContext, key: str) -> None:
    ctx.bump(key)
    if ctx.take_failure(key):
        raise RuntimeError(f"planned failure of {key}")


@job("rqtest.reenqueue_self", retries=0)
def reenqueue_self(ctx: RQTestContext, key: str, job_id: str) -> None:
    """While running, enqueue itself under its own job id: must not run twice."""
    ctx.bump(key)
    ctx.reenqueued.append(ctx.queue.enqueue("rqtest.reenqueue_self", key, job_id, job_id=job_id))


@job("rqtest.slow_retry", retries=1, backoff=(1,))
def slow_retry(ctx: RQTestContext, key: str) -> None:
    if ctx.bump(key) == 1:
        raise ConnectionError("first attempt fails")
