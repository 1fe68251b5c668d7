"""An in-process job queue on a thread pool, for running without Redis.

Jobs run on a few worker threads of the current process. Retries wait on
timers rather than in sleeping worker threads, so a backing-off job never
blocks others. Everything lives in memory: queued jobs and the failed-job
list are lost when the process exits, which is why jobs must be idempotent
and why production deployments with Redis use the Redis-backed queue.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from workers.jobs import (
    FailedJob,
    JobArg,
    check_call,
    get_job,
    run_failure_hook,
    run_job,
    validate_job_id,
)

logger = logging.getLogger(__name__)

_State = Literal["queued", "running", "waiting"]


@dataclass
class _Entry:
    """One live job: what to run, how often it has run, and where it stands."""

    name: str
    args: tuple[JobArg, ...]
    job_id: str
    attempts: int = 0
    state: _State = "queued"


class InlineJobQueue:
    """A :class:`workers.jobs.JobQueue` running jobs on `workers` threads of this process."""

    def __init__(self, workers: int = 2, *, max_failed: int = 1000) -> None:
        """Start the pool; `max_failed` bounds the remembered failed jobs (oldest dropped)."""
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="launchdir-job")
        self._max_failed = max_failed
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._active: dict[str, _Entry] = {}
        self._failed: OrderedDict[str, FailedJob] = OrderedDict()
        self._timers: dict[str, threading.Timer] = {}
        self._closed = False

    # --- the JobQueue interface ---------------------------------------------

    def enqueue(self, name: str, *args: JobArg, job_id: str | None = None) -> str:
        """Queue a job; a `job_id` already queued, waiting or running is not queued again."""
        check_call(name, args)
        if job_id is None:
            job_id = uuid.uuid4().hex
        else:
            validate_job_id(job_id)
        with self._lock:
            self._ensure_open()
            if job_id in self._active:
                logger.debug("job %s (%s) is already pending; not queued again", job_id, name)
                return job_id
            self._failed.pop(job_id, None)
            self._active[job_id] = _Entry(name=name, args=tuple(args), job_id=job_id)
            self._submit_locked(job_id)
        logger.info("queued job %s %s%r", job_id, name, tuple(args))
        return job_id

    def failed_jobs(self) -> list[FailedJob]:
        """Failed jobs still remembered, oldest first."""
        with self._lock:
            return list(self._failed.values())

    def requeue_failed(self, job_id: str) -> bool:
        """Run a remembered failed job again, with its full retry budget."""
        with self._lock:
            self._ensure_open()
            failed = self._failed.pop(job_id, None)
            if failed is None:
                return False
            self._active[job_id] = _Entry(name=failed.name, args=failed.args, job_id=job_id)
            self._submit_locked(job_id)
        logger.info("requeued failed job %s %s%r", job_id, failed.name, failed.args)
        return True

    def wait_idle(self, timeout: float) -> bool:
        """Block until no job is queued, waiting for a retry or running."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._active:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(remaining)
            return True

    def close(self, timeout: float = 30.0) -> None:
        """Stop accepting jobs, drop queued and waiting ones, and wait up to `timeout` for running ones.

        Dropped jobs are logged; being idempotent, they can simply be queued
        again after a restart.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
        self._executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + timeout
        with self._changed:
            for entry in [e for e in self._active.values() if e.state != "running"]:
                logger.warning("dropping %s job %s %s%r on close", entry.state, entry.job_id, entry.name, entry.args)
                del self._active[entry.job_id]
            while self._active:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    logger.warning("closing with %d job(s) still running", len(self._active))
                    break
                self._changed.wait(remaining)
            self._changed.notify_all()

    # --- internals ------------------------------------------------------------

    def _ensure_open(self) -> None:
        """Refuse work after close(), loudly rather than losing it silently."""
        if self._closed:
            raise RuntimeError("job queue is closed")

    def _submit_locked(self, job_id: str) -> None:
        """Hand a job to the pool; the caller holds the lock."""
        self._active[job_id].state = "queued"
        self._executor.submit(self._attempt, job_id)

    def _attempt(self, job_id: str) -> None:
        """Run one attempt on a worker thread, then finish, retry or fail the job."""
        with self._lock:
            entry = self._active.get(job_id)
            if entry is None or entry.state != "queued":
                return
            entry.state = "running"
            entry.attempts += 1
        try:
            run_job(entry.name, entry.args)
        except BaseException:  # a job must never leave its entry stuck as running
            self._after_failure(entry, traceback.format_exc())
        else:
            logger.info("job %s %s%r succeeded (attempt %d)", job_id, entry.name, entry.args, entry.attempts)
            self._finish(entry)

    def _after_failure(self, entry: _Entry, exc_text: str) -> None:
        """Schedule the next attempt while retries remain; otherwise record the failure."""
        spec = get_job(entry.name)
        retry_number = entry.attempts
        if retry_number <= spec.retries:
            delay = spec.delay_before_retry(retry_number)
            with self._lock:
                if not self._closed:
                    logger.warning(
                        "job %s %s%r failed (attempt %d), retrying in %ds:\n%s",
                        entry.job_id, entry.name, entry.args, entry.attempts, delay, exc_text,
                    )
                    self._schedule_retry_locked(entry, delay)
                    return
            logger.warning("job %s %s%r failed while closing; not retried", entry.job_id, entry.name, entry.args)
            self._finish(entry)
            return
        logger.error(
            "job %s %s%r failed for good after %d attempt(s):\n%s",
            entry.job_id, entry.name, entry.args, entry.attempts, exc_text,
        )
        failed = FailedJob(
            name=entry.name, args=entry.args, job_id=entry.job_id, error=exc_text, failed_at=datetime.now(UTC)
        )
        run_failure_hook(entry.name, exc_text, entry.args)
        self._finish(entry, failed)

    def _schedule_retry_locked(self, entry: _Entry, delay: int) -> None:
        """Re-submit now, or after `delay` seconds on a timer; the caller holds the lock."""
        if delay <= 0:
            self._submit_locked(entry.job_id)
            return
        entry.state = "waiting"
        timer = threading.Timer(delay, self._retry_due, args=(entry.job_id,))
        timer.daemon = True
        self._timers[entry.job_id] = timer
        timer.start()

    def _retry_due(self, job_id: str) -> None:
        """Timer callback: put a waiting job back on the pool."""
        with self._lock:
            self._timers.pop(job_id, None)
            entry = self._active.get(job_id)
            if self._closed or entry is None or entry.state != "waiting":
                return
            self._submit_locked(job_id)

    def _finish(self, entry: _Entry, failed: FailedJob | None = None) -> None:
        """Forget a job that is done, remember it if it failed, and wake wait_idle/close.

        Both happen under one lock so a job is never seen as neither pending
        nor failed, and only this entry is removed (a requeue may have
        replaced it meanwhile).
        """
        with self._changed:
            if failed is not None:
                self._failed.pop(entry.job_id, None)
                self._failed[entry.job_id] = failed
                while len(self._failed) > self._max_failed:
                    self._failed.popitem(last=False)
            if self._active.get(entry.job_id) is entry:
                del self._active[entry.job_id]
            self._changed.notify_all()
