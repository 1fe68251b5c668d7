"""A Redis-backed job queue on rq, for deployments with worker processes (the adapter to Redis).

Jobs are stored in Redis as calls of :func:`workers.jobs.run_job` with the
job name and its id arguments, so any process that imported the job modules
and installed a context can run them (``launchdir worker``). rq provides
retries (re-enqueued at once, or scheduled when the backoff is non-zero,
which needs a worker running the scheduler), a failed-job registry kept for
seven days and requeueing from it.

rq calls a job's failure callback after *every* failed attempt, before it
decides whether to retry; :func:`on_rq_failure` therefore runs the job's
``on_failure`` hook only when no retry is left.
"""

from __future__ import annotations

import logging
import time
import traceback
import uuid
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from redis import Redis
from rq import Callback, Queue, Retry, SimpleWorker, Worker
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry

from workers.jobs import (
    FailedJob,
    JobArg,
    check_call,
    run_failure_hook,
    validate_job_id,
)

logger = logging.getLogger(__name__)

DEFAULT_QUEUE_NAME = "launchdir"
FAILURE_TTL_SECONDS = 7 * 24 * 3600
"""How long a failed job stays in the failed-job registry for inspection and requeue."""

_RUN_JOB = "workers.jobs.run_job"
_ON_FAILURE = "workers.adapters.redis_queue.on_rq_failure"  # stored in Redis; the old name: workers/job_queue_rq.py
_PENDING = {JobStatus.QUEUED, JobStatus.STARTED, JobStatus.SCHEDULED, JobStatus.DEFERRED}
_LOCK_PREFIX = "launchdir:job-enqueue-lock:"


class RQJobQueue:
    """A :class:`workers.jobs.JobQueue` storing jobs in Redis for rq workers."""

    def __init__(self, redis_connection: Redis, queue_name: str = DEFAULT_QUEUE_NAME) -> None:
        """Use `queue_name` on `redis_connection`; the connection stays the caller's to close."""
        self._redis = redis_connection
        self._queue = Queue(queue_name, connection=redis_connection)
        self._closed = False

    @property
    def queue_name(self) -> str:
        """The rq queue this instance feeds; workers must listen on the same name."""
        return self._queue.name

    def enqueue(self, name: str, *args: JobArg, job_id: str | None = None) -> str:
        """Store the job for a worker; a `job_id` still pending is not stored again.

        rq itself would overwrite a job with the same id, so the pending check
        and the enqueue happen under a short Redis lock per job id, which
        makes them atomic across processes.
        """
        if self._closed:
            raise RuntimeError("job queue is closed")
        spec = check_call(name, args)
        if job_id is None:
            job_id = uuid.uuid4().hex
        else:
            validate_job_id(job_id)
        with self._redis.lock(_LOCK_PREFIX + job_id, timeout=30, blocking_timeout=10):
            previous = _fetch(self._redis, job_id)
            if previous is not None:
                if previous.get_status(refresh=False) in _PENDING:
                    logger.debug("job %s (%s) is already pending; not queued again", job_id, name)
                    return job_id
                previous.delete(remove_from_queue=True)
            self._queue.enqueue_call(
                func=_RUN_JOB,
                args=(name, list(args)),
                job_id=job_id,
                description=f"{name}{tuple(args)!r}",
                retry=Retry(max=spec.retries, interval=spec.retry_intervals()) if spec.retries else None,
                failure_ttl=FAILURE_TTL_SECONDS,
                on_failure=Callback(_ON_FAILURE),
            )
        logger.info("queued job %s %s%r on %s", job_id, name, tuple(args), self._queue.name)
        return job_id

    def failed_jobs(self) -> list[FailedJob]:
        """Jobs in rq's failed-job registry of this queue, oldest first."""
        registry = FailedJobRegistry(queue=self._queue)
        ids = registry.get_job_ids()
        result: list[FailedJob] = []
        for job_id, found in zip(ids, Job.fetch_many(ids, connection=self._redis), strict=True):
            if found is not None:
                result.append(_as_failed_job(job_id, found))
        return result

    def requeue_failed(self, job_id: str) -> bool:
        """Move a failed job back onto the queue with its full retry budget."""
        if self._closed:
            raise RuntimeError("job queue is closed")
        registry = FailedJobRegistry(queue=self._queue)
        with self._redis.lock(_LOCK_PREFIX + job_id, timeout=30, blocking_timeout=10):
            found = _fetch(self._redis, job_id)
            if found is None:
                registry.remove(job_id)
                return False
            # The retry intervals were stored one per retry, so their count is the budget.
            found.retries_left = len(found.retry_intervals) if found.retry_intervals else None
            try:
                registry.requeue(found)
            except InvalidJobOperation:
                return False
        logger.info("requeued failed job %s on %s", job_id, self._queue.name)
        return True

    def wait_idle(self, timeout: float, poll_interval: float = 0.1) -> bool:
        """Poll until this queue has nothing queued, scheduled for a retry or running.

        Only useful while some worker is processing the queue.
        """
        deadline = time.monotonic() + timeout
        while True:
            if self._pending_count() == 0:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll_interval)

    def close(self) -> None:
        """Refuse further enqueues; the Redis connection belongs to the caller."""
        self._closed = True

    def _pending_count(self) -> int:
        """Jobs queued, being handed to a worker, running or waiting for a retry."""
        queue = self._queue
        return int(
            queue.count
            + int(self._redis.llen(queue.intermediate_queue_key))
            + queue.started_job_registry.count
            + queue.scheduled_job_registry.count
            + queue.deferred_job_registry.count
        )


def on_rq_failure(
    job: Job,
    connection: Redis,
    exc_type: type[BaseException] | None,
    exc_value: BaseException | None,
    tb: Any,
) -> None:
    """rq failure callback: run the job's on_failure hook once retries are exhausted.

    rq calls this after every failed attempt (and for jobs abandoned by a
    dead worker) *before* it consumes a retry, so ``retries_left > 0`` means
    another attempt is coming. It never raises: rq would otherwise record
    the callback's error instead of the job's.
    """
    try:
        if job.retries_left is not None and job.retries_left > 0:
            logger.info("job %s failed; %d retr(y/ies) left, hook deferred", job.id, job.retries_left)
            return
        name, args = job.args[0], tuple(job.args[1])
        run_failure_hook(name, _format_exception(exc_type, exc_value, tb), args)
    except Exception:
        logger.exception("failure callback of job %s raised", job.id)


def run_worker(
    redis_connection: Redis,
    queue_name: str = DEFAULT_QUEUE_NAME,
    burst: bool = False,
    with_scheduler: bool = True,
    worker_name: str | None = None,
) -> bool:
    """Process `queue_name` until stopped (or, with `burst`, until it is empty).

    The caller must have imported the job modules and installed the job
    context first. Long-running workers fork a work horse per job (a crashed
    or timed-out job cannot take the worker down); burst mode runs jobs in
    this process, which is what tests want. The scheduler is needed for
    retries with a non-zero backoff. Returns whether any job was processed.
    """
    worker_class = SimpleWorker if burst else Worker
    worker = worker_class(
        [Queue(queue_name, connection=redis_connection)],
        connection=redis_connection,
        name=worker_name,
    )
    return worker.work(burst=burst, with_scheduler=with_scheduler)


def _fetch(connection: Redis, job_id: str) -> Job | None:
    """The stored job with this id, or None when it does not exist (any more)."""
    try:
        return Job.fetch(job_id, connection=connection)
    except NoSuchJobError:
        return None


def _as_failed_job(job_id: str, found: Job) -> FailedJob:
    """Translate an rq job from the failed registry into our FailedJob."""
    result = found.latest_result()
    error = (result.exc_string if result is not None else None) or ""
    failed_at = found.ended_at or (result.created_at if result is not None else None) or datetime.now(UTC)
    if failed_at.tzinfo is None:
        failed_at = failed_at.replace(tzinfo=UTC)
    name, args = found.args[0], tuple(found.args[1])
    return FailedJob(name=name, args=args, job_id=job_id, error=error, failed_at=failed_at)


def _format_exception(
    exc_type: type[BaseException] | None, exc_value: BaseException | None, tb: Any
) -> str:
    """Traceback text when rq hands a real traceback, else just the exception line."""
    if exc_value is None:
        return exc_type.__name__ if exc_type is not None else "unknown error"
    if isinstance(tb, TracebackType):
        return "".join(traceback.format_exception(type(exc_value), exc_value, tb))
    return "".join(traceback.format_exception_only(type(exc_value), exc_value))
