"""Wiring of the submission pipeline: the job queue, the crawler's settings, the drafter, the job context.

- Job queue: `RQJobQueue` on Redis when `REDIS_URL` is set (jobs run in
  `launchdir worker` processes), else `InlineJobQueue` threads in this process.
- Drafter: `AnthropicDrafter` when `ANTHROPIC_API_KEY` is set, falling back to
  the `ExtractiveDrafter` when the model fails; else the extractive drafter.
- Crawler: `CrawlSettings(allow_loopback=settings.crawl_allow_loopback)`.
- The job context (`workers.jobs.install_context`) is a `JobContext` whose
  `submission` the draft jobs use.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from psycopg_pool import ConnectionPool

from api.services import Services
from launchdir.settings import Settings
from workers import draft_jobs  # noqa: F401  (registers the draft jobs in this process)
from workers.crawl_store import CrawlStore
from workers.crawling import CrawlSettings
from workers.draft_jobs import DraftSweeper, SubmissionContext
from workers.drafting import AnthropicDrafter, Drafter, ExtractiveDrafter
from workers.job_queue_inline import InlineJobQueue
from workers.jobs import JobQueue, current_context, install_context

log = logging.getLogger(__name__)


@dataclass
class JobContext:
    """What every background job of this process receives (`workers.jobs.current_context()`)."""

    submission: SubmissionContext
    services: Services | None  # None in `launchdir worker` processes
    extras: dict[str, Any] = field(default_factory=dict)


def job_queue(settings: Settings) -> JobQueue:
    if settings.redis_url:
        from redis import Redis

        from workers.job_queue_rq import RQJobQueue

        return RQJobQueue(Redis.from_url(settings.redis_url), queue_name=settings.job_queue)
    return InlineJobQueue(workers=settings.job_workers)


def drafters(settings: Settings) -> tuple[Drafter, Drafter | None]:
    """(drafter, fallback): the model with the extractive drafter behind it, or the extractive drafter alone."""
    if settings.anthropic_api_key:
        return AnthropicDrafter(settings.anthropic_api_key, settings.anthropic_model), ExtractiveDrafter()
    return ExtractiveDrafter(), None


def crawl_settings(settings: Settings) -> CrawlSettings:
    return CrawlSettings(allow_loopback=settings.crawl_allow_loopback)


class DraftWorkers:
    """The queue, the sweeper and the installed job context of one process."""

    def __init__(self, context: JobContext, queue: JobQueue, sweeper: DraftSweeper, previous: Any = None) -> None:
        self.context = context
        self.queue = queue
        self.sweeper = sweeper
        self.previous = previous  # the context installed before this one (tests build several containers)

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


def wire_submission(services: Services, settings: Settings, pool: ConnectionPool) -> DraftWorkers:
    crawls = CrawlStore(pool)
    crawls.setup()
    queue = job_queue(settings)
    drafter, fallback = drafters(settings)
    sub = SubmissionContext(
        store=services.store, reads=services.reads, crawls=crawls, crawl_settings=crawl_settings(settings),
        drafter=drafter, fallback=fallback, queue=queue, clock=services.now,
        timeout=timedelta(seconds=settings.draft_timeout_seconds),
        crawl_retention=timedelta(days=settings.crawl_retention_days),
    )
    services.extras["submission"] = sub
    context = JobContext(submission=sub, services=services)
    try:
        previous = current_context()
    except RuntimeError:
        previous = None
    install_context(context)
    return DraftWorkers(context, queue, DraftSweeper(sub), previous)


def worker_context(settings: Settings) -> JobContext:
    """The job context of a `launchdir worker` work horse: only what jobs use (no web, no projections)."""
    from datetime import datetime, timezone
    from zoneinfo import ZoneInfo

    from commands.ids import IdAllocator
    from commands.store import EventStore, LaunchdirEvents
    from launchdir.bootstrap import all_projections
    from launchdir.database import eventsourcing_env, resolve_database_url
    from projections.log import EventLog
    from projections.reads import ReadStore
    from projections.runtime import ProjectionRuntime

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
    """`launchdir worker`: process the Redis queue with the job context installed."""
    from redis import Redis

    from workers.job_queue_rq import run_worker as rq_worker

    if not settings.redis_url:
        raise RuntimeError("REDIS_URL is not set; without Redis, jobs run inside `launchdir serve`")
    import launchdir.bootstrap  # noqa: F401  (imported once here, so forked work horses only connect)

    install_context(LazyJobContext(settings))
    return rq_worker(Redis.from_url(settings.redis_url), settings.job_queue, burst=burst)
