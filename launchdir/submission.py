"""Wiring of the submission pipeline: the job queue, the crawler's settings, the drafter, the job context.

- Job queue: `RQJobQueue` on Redis when `REDIS_URL` is set (jobs run in
  `launchdir worker` processes), else `InlineJobQueue` threads in this process.
  The operations reach it through the `DraftJobs` port (`QueueJobs` over the queue).
- Drafter: `AnthropicDrafter` when `ANTHROPIC_API_KEY` is set, falling back to
  the `ExtractiveDrafter` when the model fails; else the extractive drafter.
- Crawler: `CrawlSettings(allow_loopback=settings.crawl_allow_loopback)`; the
  operations check URLs through the `UrlGuard` port (`url_guard` over these settings).
- The job context (`workers.jobs.install_context`) is a `JobContext` whose
  `submission` the draft jobs use.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from psycopg_pool import ConnectionPool

from api.services import Services
from commands.draft import DraftJobs, UrlGuard
from commands.ids import IdAllocator
from commands.store import EventStore, LaunchdirEvents
from launchdir.database import eventsourcing_env, resolve_database_url
from launchdir.read_models import all_projections
from launchdir.settings import Settings
from projections.log import EventLog
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime
from workers import draft_jobs  # noqa: F401  (registers the draft jobs in this process)
from workers.adapters.anthropic_api import AnthropicDrafter
from workers.adapters.websites import CrawlSettings
from workers.crawl_store import CrawlStore
from workers.draft_jobs import DraftSweeper, QueueJobs, SubmissionContext, url_guard
from workers.drafting import Drafter, ExtractiveDrafter
from workers.job_queue_inline import InlineJobQueue
from workers.jobs import JobQueue, current_context, install_context

log = logging.getLogger(__name__)


@dataclass
class JobContext:
    """What every background job of this process receives (`workers.jobs.current_context()`)."""

    submission: SubmissionContext
    services: Services | None  # None in `launchdir worker` processes


def job_queue(settings: Settings) -> JobQueue:
    if settings.redis_url:
        from redis import Redis

        from workers.adapters.redis_queue import RQJobQueue

        return RQJobQueue(Redis.from_url(settings.redis_url), queue_name=settings.job_queue)
    return InlineJobQueue(workers=settings.job_workers)


def drafters(settings: Settings) -> tuple[Drafter, Drafter | None]:
    """(drafter, fallback): the model with the extractive drafter behind it, or the extractive drafter alone."""
    if settings.anthropic_api_key:
        return AnthropicDrafter(settings.anthropic_api_key, settings.anthropic_model), ExtractiveDrafter()
    return ExtractiveDrafter(), None


def crawl_settings(settings: Settings) -> CrawlSettings:
    return CrawlSettings(allow_loopback=settings.crawl_allow_loopback)


def draft_ports(settings: Settings, queue: JobQueue) -> tuple[UrlGuard, DraftJobs]:
    """The ports of the draft operations: the submit-time URL check and the background work over `queue`."""
    return url_guard(crawl_settings(settings)), QueueJobs(queue)


class DraftWorkers:
    """The queue, the sweeper and the installed job context of one process."""

    def __init__(self, context: JobContext, queue: JobQueue, sweeper: DraftSweeper, previous: Any = None) -> None:
        self.context = context
        self.queue = queue
        self.sweeper = sweeper
        self.previous = previous  # the context installed before this one (tests build several containers)

    @property
    def submission(self) -> SubmissionContext:
        """What the draft jobs of this process use (store, crawls, drafter, queue, clock)."""
        return self.context.submission

    def start(self) -> None:
        """Resume work a previous process left behind, then sweep periodically."""
        try:
            self.sweeper.sweep_once()
        except Exception:
            log.exception("first draft sweep failed")
        self.sweeper.start()

    def stop(self) -> None:
        self.sweeper.stop()

    def close(self) -> None:
        """Stop the sweeper and the queue; put back the job context that was installed before ours."""
        self.sweeper.stop()
        self.queue.close()
        try:
            if current_context() is self.context:
                install_context(self.previous)
        except RuntimeError:
            pass


def wire_submission(services: Services, settings: Settings, pool: ConnectionPool, queue: JobQueue) -> DraftWorkers:
    """The draft jobs' context over `queue` (the one behind the services' `draft_jobs` port), installed for this process."""
    crawls = CrawlStore(pool)
    crawls.setup()
    drafter, fallback = drafters(settings)
    sub = SubmissionContext(
        store=services.store, reads=services.reads, crawls=crawls, crawl_settings=crawl_settings(settings),
        drafter=drafter, fallback=fallback, queue=queue, clock=services.now,
        timeout=timedelta(seconds=settings.draft_timeout_seconds),
        crawl_retention=timedelta(days=settings.crawl_retention_days),
    )
    context = JobContext(submission=sub, services=services)
    try:
        previous = current_context()
    except RuntimeError:
        previous = None
    install_context(context)
    return DraftWorkers(context, queue, DraftSweeper(sub), previous)


def worker_context(settings: Settings) -> JobContext:
    """The job context of a `launchdir worker` work horse: only what jobs use (no web, no projections)."""
    conninfo = resolve_database_url(settings.database_url, settings.data_dir)
    app = LaunchdirEvents(env={**eventsourcing_env(conninfo, 2), "CREATE_TABLE": "n"})  # the servers made it
    pool = ConnectionPool(conninfo, min_size=1, max_size=4, open=True, name="jobs")
    store = EventStore(app, ids=IdAllocator(pool))
    reads = ReadStore(pool, ProjectionRuntime(pool, conninfo, EventLog(app), all_projections(settings.timezone)))
    zone = ZoneInfo(settings.timezone)
    drafter, fallback = drafters(settings)
    sub = SubmissionContext(
        store=store, reads=reads, crawls=CrawlStore(pool), crawl_settings=crawl_settings(settings),
        drafter=drafter, fallback=fallback, queue=job_queue(settings),
        clock=lambda: datetime.now(timezone.utc).astimezone(zone),
        timeout=timedelta(seconds=settings.draft_timeout_seconds),
        crawl_retention=timedelta(days=settings.crawl_retention_days),
    )
    return JobContext(submission=sub, services=None)


class LazyJobContext:
    """For `launchdir worker`: each (forked) work horse connects on first use, so no database
    connection is ever shared across a fork."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._pid: int | None = None
        self._context: JobContext | None = None

    def _get(self) -> JobContext:
        if self._context is None or self._pid != os.getpid():
            self._context = worker_context(self._settings)
            self._pid = os.getpid()
        return self._context

    @property
    def submission(self) -> SubmissionContext:
        return self._get().submission


def run_worker(settings: Settings, burst: bool = False) -> bool:
    """`launchdir worker`: process the Redis queue with the job context installed.

    Everything the jobs and `worker_context` use is imported with this module,
    once, so forked work horses only connect.
    """
    from redis import Redis

    from workers.adapters.redis_queue import run_worker as rq_worker

    if not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set; without Redis, jobs run inside `launchdir serve`")
    install_context(LazyJobContext(settings))
    return rq_worker(Redis.from_url(settings.redis_url), settings.job_queue, burst=burst)
