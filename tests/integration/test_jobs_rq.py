"""The Redis-backed queue with real rq workers, against fakeredis and, when reachable, a real Redis.

Each test uses its own queue name and job ids carrying a unique token, and
deletes every key holding that token afterwards, so a shared Redis is left
as it was found.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
import redis
from rq.job import Job, JobStatus

from tests.integration.jobs_for_tests import RQTestContext
from tests.integration.redis_support import RedisUnderTest
from workers.adapters.redis_queue import RQJobQueue, run_worker
from workers.jobs import JobQueue, install_context


@dataclass
class Setup:
    """One test's queue, its connection, its context and its unique token."""

    queue: RQJobQueue
    connection: redis.Redis
    ctx: RQTestContext
    token: str

    def id(self, suffix: str) -> str:
        """A job id unique to this test (and therefore cleaned up with it)."""
        return f"{self.token}-{suffix}"

    def work(self) -> bool:
        """Run a burst worker with the scheduler, as the tests' stand-in for `launchdir worker`."""
        return run_worker(
            self.connection,
            self.queue.queue_name,
            burst=True,
            with_scheduler=True,
            worker_name=f"w-{self.token}-{uuid.uuid4().hex[:6]}",
        )

    def status(self, job_id: str) -> JobStatus | None:
        """The rq status of a stored job."""
        return Job.fetch(job_id, connection=self.connection).get_status()


@pytest.fixture
def setup(redis_under_test: RedisUnderTest) -> Iterator[Setup]:
    """A queue of this test's own on `redis_under_test` (conftest.py: fakeredis, then a real Redis)."""
    connection, token = redis_under_test.connection, redis_under_test.token
    queue = RQJobQueue(connection, queue_name=redis_under_test.queue_name)
    ctx = RQTestContext()
    ctx.queue = queue
    install_context(ctx)
    try:
        yield Setup(queue=queue, connection=connection, ctx=ctx, token=token)
    finally:
        install_context(None)
        queue.close()


def test_rq_queue_satisfies_the_protocol(setup: Setup) -> None:
    assert isinstance(setup.queue, JobQueue)


def test_job_failing_twice_then_succeeding_ends_succeeded_after_three_attempts(setup: Setup) -> None:
    job_id = setup.queue.enqueue("rqtest.flaky", "site-1", job_id=setup.id("flaky"))

    setup.work()

    assert setup.ctx.calls["site-1"] == 3
    assert setup.status(job_id) == JobStatus.FINISHED
    assert setup.queue.failed_jobs() == []
    assert setup.queue.wait_idle(1)


def test_job_always_failing_is_recorded_and_its_hook_runs_once(setup: Setup) -> None:
    before = datetime.now(UTC) - timedelta(seconds=1)
    job_id = setup.queue.enqueue("rqtest.always_fails", "draft-7", 42, job_id=setup.id("fails"))

    setup.work()

    assert setup.ctx.calls["draft-7"] == 3  # first attempt + 2 retries
    assert setup.status(job_id) == JobStatus.FAILED
    [failed] = setup.queue.failed_jobs()
    assert failed.job_id == job_id
    assert failed.name == "rqtest.always_fails"
    assert failed.args == ("draft-7", 42)
    assert "ValueError: broken draft-7 42" in failed.error
    assert before <= failed.failed_at <= datetime.now(UTC) + timedelta(seconds=1)
    assert len(setup.ctx.hook_calls) == 1
    exc_text, hook_args = setup.ctx.hook_calls[0]
    assert hook_args == ("draft-7", 42)
    assert "ValueError: broken draft-7 42" in exc_text


def test_same_job_id_queued_twice_runs_once(setup: Setup) -> None:
    job_id = setup.id("dup")
    ids = {setup.queue.enqueue("rqtest.count", "badge-1", job_id=job_id) for _ in range(3)}

    setup.work()

    assert ids == {job_id}
    assert setup.ctx.calls["badge-1"] == 1

    setup.queue.enqueue("rqtest.count", "badge-1", job_id=job_id)
    setup.work()
    assert setup.ctx.calls["badge-1"] == 2  # once finished, the id may run again


def test_same_job_id_enqueued_while_running_runs_once(setup: Setup) -> None:
    job_id = setup.id("self")
    setup.queue.enqueue("rqtest.reenqueue_self", "self", job_id, job_id=job_id)

    setup.work()

    assert setup.ctx.calls["self"] == 1
    assert setup.ctx.reenqueued == [job_id]
    assert setup.status(job_id) == JobStatus.FINISHED


@pytest.mark.parametrize(
    "bad_args",
    [(1.5,), (None,), (True,), (object(),), (["a"],)],
    ids=["float", "none", "bool", "object", "list"],
)
def test_arguments_that_are_not_ids_are_refused(setup: Setup, bad_args: tuple[object]) -> None:
    with pytest.raises(TypeError, match="jobs take ids"):
        setup.queue.enqueue("rqtest.count", *bad_args, job_id=setup.id("bad"))  # type: ignore[arg-type]

    assert setup.queue.wait_idle(0.5)
    assert setup.work() is False
    assert sum(setup.ctx.calls.values()) == 0


def test_requeue_failed_runs_it_again_with_a_fresh_retry_budget(setup: Setup) -> None:
    setup.ctx.failures_remaining["crawl-3"] = 2  # first attempt and its one retry
    job_id = setup.queue.enqueue("rqtest.fails_as_planned", "crawl-3", job_id=setup.id("crawl"))
    setup.work()
    assert [f.job_id for f in setup.queue.failed_jobs()] == [job_id]
    assert len(setup.ctx.hook_calls) == 1

    setup.ctx.failures_remaining["crawl-3"] = 1  # needs the retry again
    assert setup.queue.requeue_failed(job_id) is True
    setup.work()

    assert setup.ctx.calls["crawl-3"] == 4
    assert setup.status(job_id) == JobStatus.FINISHED
    assert setup.queue.failed_jobs() == []
    assert len(setup.ctx.hook_calls) == 1
    assert setup.queue.requeue_failed(job_id) is False
    assert setup.queue.requeue_failed(setup.id("never-existed")) is False


def test_enqueueing_a_failed_id_again_replaces_the_failure(setup: Setup) -> None:
    setup.ctx.failures_remaining["k"] = 2
    job_id = setup.queue.enqueue("rqtest.fails_as_planned", "k", job_id=setup.id("again"))
    setup.work()
    assert len(setup.queue.failed_jobs()) == 1

    setup.queue.enqueue("rqtest.fails_as_planned", "k", job_id=job_id)
    assert setup.queue.failed_jobs() == []
    setup.work()
    assert setup.status(job_id) == JobStatus.FINISHED


def test_wait_idle_reports_queued_work_until_a_worker_ran_it(setup: Setup) -> None:
    setup.queue.enqueue("rqtest.count", "idle", job_id=setup.id("idle"))

    started = time.monotonic()
    assert setup.queue.wait_idle(0.3) is False
    assert time.monotonic() - started >= 0.29

    setup.work()
    assert setup.queue.wait_idle(1) is True
    assert setup.ctx.calls["idle"] == 1


def test_fifty_jobs_enqueued_from_ten_threads_each_run_exactly_once(setup: Setup) -> None:
    barrier = threading.Barrier(10)
    errors: list[BaseException] = []

    def producer(thread_no: int) -> None:
        try:
            barrier.wait(5)
            for n in range(5):
                key = f"t{thread_no}-j{n}"
                setup.queue.enqueue("rqtest.count", key, job_id=setup.id(key))
            setup.queue.enqueue("rqtest.count", "shared", job_id=setup.id("shared"))
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=producer, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert errors == []

    setup.work()

    assert setup.queue.wait_idle(1)
    assert len(setup.ctx.calls) == 51
    assert set(setup.ctx.calls.values()) == {1}


def test_non_zero_backoff_is_scheduled_and_run_by_the_scheduler(setup: Setup) -> None:
    job_id = setup.queue.enqueue("rqtest.slow_retry", "later", job_id=setup.id("later"))

    setup.work()
    assert setup.ctx.calls["later"] == 1
    assert setup.status(job_id) == JobStatus.SCHEDULED
    assert setup.queue.wait_idle(0.1) is False  # a scheduled retry is pending work

    time.sleep(1.2)
    setup.work()

    assert setup.ctx.calls["later"] == 2
    assert setup.status(job_id) == JobStatus.FINISHED
    assert setup.queue.failed_jobs() == []
