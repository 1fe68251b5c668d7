"""The job registry and the in-process queue: retries, failures, dedupe, concurrency."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from workers.job_queue_inline import InlineJobQueue
from workers.jobs import (
    JobQueue,
    current_context,
    get_job,
    install_context,
    job,
    registered_jobs,
)


class Ctx:
    """A test job context: thread-safe counters, a gate, and hook records."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        self.hook_calls: list[tuple[str, tuple[str | int, ...]]] = []
        self.gate = threading.Event()
        self.started = threading.Event()
        self.broken = True
        self.attempt_times: list[float] = []

    def bump(self, key: str) -> int:
        """Count one call under `key` and return the new count."""
        with self.lock:
            self.calls[key] += 1
            return self.calls[key]


def record_failure(ctx: Ctx, exc_text: str, *args: str | int) -> None:
    """on_failure hook used by the failing jobs below."""
    with ctx.lock:
        ctx.hook_calls.append((exc_text, args))


@job("inline_test.count", retries=0)
def count(ctx: Ctx, key: str) -> None:
    ctx.bump(key)


@job("inline_test.flaky", retries=3, backoff=(0,))
def flaky(ctx: Ctx, key: str) -> None:
    if ctx.bump(key) <= 2:
        raise ConnectionError(f"transient trouble with {key}")


@job("inline_test.always_fails", retries=2, backoff=(0, 0), on_failure=record_failure)
def always_fails(ctx: Ctx, key: str, number: int) -> None:
    ctx.bump(key)
    raise ValueError(f"broken {key} {number}")


@job("inline_test.fails_until_fixed", retries=0, on_failure=record_failure)
def fails_until_fixed(ctx: Ctx, key: str) -> None:
    ctx.bump(key)
    if ctx.broken:
        raise RuntimeError("still broken")


@job("inline_test.blocking", retries=0)
def blocking(ctx: Ctx, key: str) -> None:
    ctx.started.set()
    assert ctx.gate.wait(10), "test never opened the gate"
    ctx.bump(key)


@job("inline_test.slow_retry", retries=1, backoff=(1,))
def slow_retry(ctx: Ctx, key: str) -> None:
    with ctx.lock:
        ctx.attempt_times.append(time.monotonic())
    if ctx.bump(key) == 1:
        raise ConnectionError("first attempt fails")


@pytest.fixture
def ctx() -> Iterator[Ctx]:
    context = Ctx()
    install_context(context)
    yield context
    context.gate.set()
    install_context(None)


@pytest.fixture
def queue(ctx: Ctx) -> Iterator[InlineJobQueue]:
    q = InlineJobQueue(workers=2)
    yield q
    q.close(timeout=5)


def test_registry_knows_the_jobs_and_their_policy() -> None:
    assert "inline_test.flaky" in registered_jobs()
    spec = get_job("inline_test.always_fails")
    assert spec.fn is always_fails
    assert spec.retries == 2
    assert spec.on_failure is record_failure
    with pytest.raises(KeyError, match="no job registered"):
        get_job("inline_test.nope")


def test_retry_intervals_repeat_the_last_backoff() -> None:
    @job("inline_test.policy", retries=5, backoff=(1, 5, 15))
    def policy(ctx: Ctx) -> None: ...

    assert get_job("inline_test.policy").retry_intervals() == [1, 5, 15, 15, 15]


def test_a_name_cannot_be_taken_by_another_function() -> None:
    with pytest.raises(ValueError, match="already registered"):

        @job("inline_test.count")
        def impostor(ctx: Ctx, key: str) -> None: ...


def test_bad_retry_policy_is_refused() -> None:
    with pytest.raises(ValueError):
        job("inline_test.bad", retries=-1)
    with pytest.raises(ValueError):
        job("inline_test.bad", backoff=(1, -2))


def test_current_context_fails_clearly_when_none_installed() -> None:
    install_context(None)
    with pytest.raises(RuntimeError, match="No job context installed"):
        current_context()


def test_inline_queue_satisfies_the_protocol(queue: InlineJobQueue) -> None:
    assert isinstance(queue, JobQueue)


def test_job_failing_twice_then_succeeding_ends_succeeded_after_three_attempts(
    ctx: Ctx, queue: InlineJobQueue
) -> None:
    queue.enqueue("inline_test.flaky", "site-1")

    assert queue.wait_idle(5)
    assert ctx.calls["site-1"] == 3
    assert queue.failed_jobs() == []


def test_job_always_failing_is_recorded_and_its_hook_runs_once(ctx: Ctx, queue: InlineJobQueue) -> None:
    before = datetime.now(UTC)
    job_id = queue.enqueue("inline_test.always_fails", "draft-7", 42)

    assert queue.wait_idle(5)
    assert ctx.calls["draft-7"] == 3  # first attempt + 2 retries
    [failed] = queue.failed_jobs()
    assert failed.job_id == job_id
    assert failed.name == "inline_test.always_fails"
    assert failed.args == ("draft-7", 42)
    assert "ValueError: broken draft-7 42" in failed.error
    assert before <= failed.failed_at <= datetime.now(UTC) + timedelta(seconds=1)
    assert len(ctx.hook_calls) == 1
    exc_text, hook_args = ctx.hook_calls[0]
    assert hook_args == ("draft-7", 42)
    assert "ValueError: broken draft-7 42" in exc_text


def test_same_job_id_queued_or_running_runs_once(ctx: Ctx, queue: InlineJobQueue) -> None:
    first = queue.enqueue("inline_test.blocking", "badge-1", job_id="check-badge-1")
    assert ctx.started.wait(5)
    again = queue.enqueue("inline_test.blocking", "badge-1", job_id="check-badge-1")
    queue.enqueue("inline_test.blocking", "badge-1", job_id="check-badge-1")
    ctx.gate.set()

    assert queue.wait_idle(5)
    assert first == again == "check-badge-1"
    assert ctx.calls["badge-1"] == 1

    queue.enqueue("inline_test.blocking", "badge-1", job_id="check-badge-1")
    assert queue.wait_idle(5)
    assert ctx.calls["badge-1"] == 2  # once finished, the id may run again


def test_queued_duplicate_behind_a_busy_pool_runs_once(ctx: Ctx) -> None:
    q = InlineJobQueue(workers=1)
    try:
        q.enqueue("inline_test.blocking", "busy")
        assert ctx.started.wait(5)
        for _ in range(3):
            q.enqueue("inline_test.count", "queued-dup", job_id="queued-dup")
        ctx.gate.set()
        assert q.wait_idle(5)
        assert ctx.calls["queued-dup"] == 1
    finally:
        q.close(timeout=5)


@pytest.mark.parametrize(
    "bad_args",
    [(1.5,), (None,), (True,), (object(),), (["a"],), ({"id": 1},)],
    ids=["float", "none", "bool", "object", "list", "dict"],
)
def test_arguments_that_are_not_ids_are_refused(ctx: Ctx, queue: InlineJobQueue, bad_args: tuple[object]) -> None:
    with pytest.raises(TypeError, match="jobs take ids"):
        queue.enqueue("inline_test.count", *bad_args)  # type: ignore[arg-type]
    assert queue.wait_idle(1)
    assert sum(ctx.calls.values()) == 0


def test_unknown_job_wrong_arity_and_bad_job_id_are_refused(ctx: Ctx, queue: InlineJobQueue) -> None:
    with pytest.raises(KeyError):
        queue.enqueue("inline_test.nope", "x")
    with pytest.raises(TypeError, match="cannot take arguments"):
        queue.enqueue("inline_test.count", "a", "b")
    with pytest.raises(ValueError, match="job_id"):
        queue.enqueue("inline_test.count", "a", job_id="has spaces:and colons")
    assert queue.wait_idle(1)
    assert sum(ctx.calls.values()) == 0


def test_requeue_failed_runs_the_job_again(ctx: Ctx, queue: InlineJobQueue) -> None:
    job_id = queue.enqueue("inline_test.fails_until_fixed", "crawl-3")
    assert queue.wait_idle(5)
    assert [f.job_id for f in queue.failed_jobs()] == [job_id]

    ctx.broken = False
    assert queue.requeue_failed(job_id) is True
    assert queue.wait_idle(5)

    assert ctx.calls["crawl-3"] == 2
    assert queue.failed_jobs() == []
    assert len(ctx.hook_calls) == 1  # only the first, failed, run
    assert queue.requeue_failed(job_id) is False
    assert queue.requeue_failed("never-existed") is False


def test_wait_idle_times_out_while_busy_and_returns_when_done(ctx: Ctx, queue: InlineJobQueue) -> None:
    queue.enqueue("inline_test.blocking", "slow")
    assert ctx.started.wait(5)

    started = time.monotonic()
    assert queue.wait_idle(0.2) is False
    assert time.monotonic() - started >= 0.19

    ctx.gate.set()
    assert queue.wait_idle(5) is True
    assert ctx.calls["slow"] == 1


def test_fifty_jobs_enqueued_from_ten_threads_each_run_exactly_once(ctx: Ctx) -> None:
    q = InlineJobQueue(workers=4)
    barrier = threading.Barrier(10)
    errors: list[BaseException] = []

    def producer(thread_no: int) -> None:
        try:
            barrier.wait(5)
            for n in range(5):
                key = f"t{thread_no}-j{n}"
                q.enqueue("inline_test.count", key, job_id=key)
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=producer, args=(i,)) for i in range(10)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert errors == []
        assert q.wait_idle(10)
    finally:
        q.close(timeout=5)

    assert len(ctx.calls) == 50
    assert set(ctx.calls.values()) == {1}


def test_backoff_waits_on_a_timer_without_holding_a_worker(ctx: Ctx) -> None:
    q = InlineJobQueue(workers=1)
    try:
        q.enqueue("inline_test.slow_retry", "retry-me")
        deadline = time.monotonic() + 5
        while ctx.calls["retry-me"] < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        q.enqueue("inline_test.count", "meanwhile")
        deadline = time.monotonic() + 0.8
        while ctx.calls["meanwhile"] < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ctx.calls["meanwhile"] == 1, "the only worker was blocked by a backing-off job"
        assert ctx.calls["retry-me"] == 1

        assert q.wait_idle(5)
    finally:
        q.close(timeout=5)
    assert ctx.calls["retry-me"] == 2
    first, second = ctx.attempt_times
    assert second - first >= 0.95
    assert q.failed_jobs() == []


def test_close_waits_for_running_jobs_and_refuses_new_ones(ctx: Ctx) -> None:
    q = InlineJobQueue(workers=1)
    q.enqueue("inline_test.blocking", "running")
    assert ctx.started.wait(5)
    threading.Timer(0.2, ctx.gate.set).start()

    q.close(timeout=5)

    assert ctx.calls["running"] == 1
    with pytest.raises(RuntimeError, match="closed"):
        q.enqueue("inline_test.count", "late")
