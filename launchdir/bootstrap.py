"""Wire the ports to adapters once, from settings (cosmicpython's bootstrap).

Every layer receives what it needs from here, so a test can build exactly the
pieces it uses against its own database. The operations' ports are typed
fields of `Services`; the website's and the OAuth server's are arguments of
`build_identity` and `build_oauth`; the parts with threads to start and stop
are typed fields of the `Container` (docs/architecture.md, "Wiring").
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import redis.asyncio as aioredis
from psycopg_pool import ConnectionPool

from aggregates.base import Meta
from api.app import WebConfig, create_app
from api.badge_routes import badge_routes
from api.executor import Executor, NoRateLimit, RateLimiter
from api.idempotency import PostgresIdempotency
from api.ops import build_registry
from api.ratelimit import Limits, LocalRateLimiter, RedisRateLimiter
from api.services import Services
from api.oauth import OAuthServer, build_oauth
from api.identity import Identity, build_identity
from api.in_flight import InFlight
from api.web_auth import identity_routes
from api.web_claims import claim_routes
from api.web_drafts import draft_routes
from api.web_founder import founder_routes
from api.web_invites import invite_routes
from api.web_site import public_site
from api.web_staff_listing import staff_listing_routes
from api.web_staff_review import staff_review_routes
from api.web_staff_votes import staff_vote_routes
from commands import catalog as catalog_cmd
from commands.ids import IdAllocator
from commands.store import EventStore, LaunchdirEvents
from launchdir import site_address
from launchdir.database import check_reachable, eventsourcing_env, resolve_database_url
from launchdir.directory import Directory, search_backend, wire_directory
from launchdir.ordering import order_settings, wire_orders
from launchdir.read_models import all_projections
from launchdir.settings import Settings
from launchdir.submission import DraftWorkers, draft_ports, job_queue, wire_submission
from launchdir.notices import wire_notices
from launchdir.updates import wire_updates
from launchdir.vote_review import VoteReview
from projections.leases import JOB_APP_NAME, JOB_LOCK, Leases
from projections.log import EventLog
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime
from workers.adapters.client_metadata import CimdFetcher
from workers.adapters.dns import TxtLookup
from workers.adapters.mailbox import MailboxMailer
from workers.adapters.smtp import SmtpMailer
from workers.claim_check import ClaimChecker, claim_crawl_settings
from workers.badge_check import BadgeChecker, badge_crawl_settings
from workers.badge_watch import LEASE as BADGE_LEASE
from workers.badge_watch import BadgeWatch
from workers.mail import DeferredMail, Mailer, OutboxSender
from workers.scheduler import Scheduler
from workers.views import ViewCounter

log = logging.getLogger(__name__)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Container:
    settings: Settings
    conninfo: str
    store: EventStore
    pool: ConnectionPool
    runtime: ProjectionRuntime
    services: Services
    executor: Executor
    directory: Directory  # the search backend, the view counter and its flusher, the Elasticsearch indexer
    identity: Identity  # accounts, sessions, API keys, mail
    oauth: OAuthServer  # the OAuth authorization server (docs/oauth.md)
    draft_workers: DraftWorkers  # the job queue, the draft sweeper, this process's job context

    def close(self) -> None:
        self.draft_workers.close()  # queue first: its jobs use the pools
        self.runtime.stop()
        self.services.reads.close()  # the replica's pool and its watcher, when there is one
        self.pool.close()
        self.store.app.close()

    def system_meta(self, actor: str = "system", channel: str = "system") -> Meta:
        return Meta(at=self.services.now(), actor=actor, channel=channel)


def links(base_url: str) -> dict[str, str]:
    return {
        "website": base_url + "/",
        "api": base_url + "/api/v1",
        "api_docs": base_url + "/api/v1/docs",
        "openapi": base_url + "/api/v1/openapi.json",
        "mcp": base_url + "/mcp",
    }


def rate_limiter(settings: Settings) -> RateLimiter:
    """In-process limits, or Redis-backed ones shared by every process when REDIS_URL is set."""
    if not settings.rate_limits:
        return NoRateLimit()
    limits = Limits.of(
        credential=settings.rate_limit_credential, anonymous=settings.rate_limit_anonymous,
        window=settings.rate_limit_window, burst=settings.rate_limit_burst,
        burst_window=settings.rate_limit_burst_window,
    )
    if settings.redis_url:
        client = aioredis.Redis.from_url(settings.redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
        return RedisRateLimiter(limits, client)
    return LocalRateLimiter(limits)


def mail_sender(services: Services, settings: Settings) -> OutboxSender | None:
    """The outbox sender (woken when the outbox projection moves): over SMTP when `SMTP_URL` is set, else into the
    local mailbox when `mail_dir` is (the offline default of `Settings.from_env`); None: messages stay queued."""
    host = urlsplit(settings.base_url).hostname or "localhost"
    default_sender = f"noreply@{host}"  # shown with the site's name as staff set it (`plain_message`)
    mailer: Mailer
    if settings.smtp_url:
        mailer = SmtpMailer.from_url(settings.smtp_url, default_sender=default_sender)
    elif settings.mail_dir is not None:
        mailer = MailboxMailer(settings.mail_dir, default_sender)
    else:
        return None
    sender = OutboxSender(services.store, services.reads, mailer, services.clock)
    services.runtime.on_move(sender.on_move)
    return sender


def claim_checker(settings: Settings) -> ClaimChecker:
    """The claim checks: DNS through the configured nameservers, pages through the crawler's guarded fetch."""
    return ClaimChecker(TxtLookup(settings.dns_nameservers), claim_crawl_settings(settings.crawl_allow_loopback))


def badge_watch(c: Container, leased: bool = False) -> BadgeWatch:
    """The free plan's badge checks: homepages through the crawler's guarded fetch, looking for links to this site.

    `leased`: the serving loop's watch, which runs due checks only while this
    process holds the `badge-watch` lease (one process at a time, however many serve).
    """
    checker = BadgeChecker(c.settings.base_url, badge_crawl_settings(c.settings.crawl_allow_loopback))
    lease = Leases(c.runtime.conninfo, [BADGE_LEASE], lock=JOB_LOCK, app_name=JOB_APP_NAME) if leased else None
    return BadgeWatch(c.store, c.services.reads, c.runtime, checker, c.services.now, lease=lease)


def launch_scheduler(c: Container, watch: BadgeWatch | None = None) -> Scheduler:
    """The launch scheduler; free listings go live only with the badge found at go-live (docs/free-plan.md)."""
    go_live = (watch or badge_watch(c)).go_live
    return Scheduler(c.store, c.services.reads, c.runtime, c.services.now, launch=go_live)


def replica_pool(replica: str | None, size: int) -> ConnectionPool | None:
    """The pool of the streaming replica queries read from (DATABASE_REPLICA_URL), or None without one.

    Opened without waiting: a replica that is down only sends reads to the
    primary (`projections/replica.py`), it never keeps the server from starting.
    """
    if not replica:
        return None
    pool = ConnectionPool(replica, min_size=2, max_size=size, open=False, name="replica", timeout=5.0,
                          kwargs={"application_name": "launchdir-replica-reads"})
    pool.open(wait=False)
    return pool


def bootstrap(settings: Settings, *, clock: Any = utc_now) -> Container:
    conninfo = resolve_database_url(settings.database_url, settings.data_dir)
    check_reachable(conninfo)
    settings = site_address.settle(settings, conninfo)  # a process told no address uses the server's
    app = LaunchdirEvents(env=eventsourcing_env(conninfo, settings.db_pool_size))
    pool = ConnectionPool(conninfo, min_size=2, max_size=settings.db_pool_size, open=True, name="reads")
    store = EventStore(app, ids=IdAllocator(pool))
    replica = settings.database_replica_url  # queries read there; everything else stays on the primary
    runtime = ProjectionRuntime(pool, conninfo, EventLog(app), all_projections(settings.timezone), replica=replica)
    runtime.setup()
    store.on_append(runtime.wake)
    reads = ReadStore(pool, runtime, replica_pool(replica, settings.db_pool_size))
    search, indexer = search_backend(settings, store, reads, runtime)  # PostgreSQL, or Elasticsearch and its indexer
    views = ViewCounter()
    queue = job_queue(settings)  # Redis (rq) or threads in this process
    check_url, draft_jobs = draft_ports(settings, queue)
    services = Services(
        store=store, reads=reads, runtime=runtime, links=links(settings.base_url),
        timezone=ZoneInfo(settings.timezone), clock=clock,
        search=search, views=views, check_url=check_url, draft_jobs=draft_jobs,
        orders=order_settings(settings),
        claim_checks=claim_checker(settings), crawl_retention_days=settings.crawl_retention_days,
    )
    directory = wire_directory(services, settings, views, indexer)  # the view flusher
    idempotency = PostgresIdempotency(pool, retention=timedelta(hours=settings.idempotency_retention_hours))
    idempotency.setup()
    identity = build_identity(services, settings.base_url, sender=mail_sender(services, settings), deferred=DeferredMail())
    documents = CimdFetcher(allow_loopback=settings.crawl_allow_loopback, ca_file=settings.oauth_cimd_ca_file)
    oauth = build_oauth(  # joins identity's bearer chain with its access-token verifier
        services, identity, settings.base_url, documents=documents,
        rate_limits=settings.rate_limits, redis_url=settings.redis_url)
    draft_workers = wire_submission(services, settings, pool, queue)  # drafter, crawl store, job context, sweeper
    executor = Executor(services, build_registry(), idempotency=idempotency, rate_limiter=rate_limiter(settings),
                        authenticator=identity.authenticator, challenge=identity.challenge)
    return Container(settings, conninfo, store, pool, runtime, services, executor,
                     directory=directory, identity=identity, oauth=oauth, draft_workers=draft_workers)


def default_catalog() -> dict[str, Any]:
    text = resources.files("launchdir").joinpath("data/catalog.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def ensure_catalog(c: Container, path: Path | None = None, update: bool = False) -> int:
    """Load the catalogue file through the command (adds only what is missing unless `update`)."""
    spec = json.loads(path.read_text(encoding="utf-8")) if path else default_catalog()
    return catalog_cmd.load_catalog(c.store, catalog_cmd.LoadCatalog(spec=spec, update=update), c.system_meta())


def _catch_up_all(c: Container) -> None:
    """Before serving, bring every projection to the head of the log, as far as each can go.

    Several at a time (`ProjectionRuntime.catch_up_all`). A projection stopped
    at an event it cannot apply is logged and left to the runner's retries; it
    never keeps the server from starting, and the other projections serve.
    """
    for name, error in c.runtime.catch_up_all().items():  # the database failing under one: start, the runner retries
        log.error("projection %s could not catch up before serving; the runner will retry", name, exc_info=error)
    for s in c.runtime.status():
        if s.status == "active" and s.failure is not None:
            log.error("serving while projection %s is %s", s.name, s.failure.describe())


def web_app(c: Container) -> Any:
    hosts, origins = c.settings.mcp_hosts()
    config = WebConfig(public_url=c.settings.base_url, allowed_hosts=hosts, allowed_origins=origins,
                       max_body_bytes=c.settings.max_body_bytes, in_flight=InFlight(c.settings.busy_requests),
                       opentelemetry=c.settings.opentelemetry)
    if c.settings.run_projectors:
        config.on_startup.append(lambda: _catch_up_all(c))
    config.on_startup.append(lambda: c.runtime.start(run_projectors=c.settings.run_projectors))
    config.on_shutdown.append(c.runtime.stop)
    directory, identity, oauth = c.directory, c.identity, c.oauth
    config.on_startup.append(lambda: directory.start(run_indexer=c.settings.run_projectors))  # view flusher, indexer
    config.on_shutdown.insert(0, directory.stop)  # last flush of counted views
    config.extra_routes.extend(identity_routes(identity))  # /signup../reset, /account, /staff, /staff/outbox
    config.extra_routes.extend(oauth.routes())  # /oauth/*, RFC 8414 metadata, consent, /account/apps
    config.mcp_wrappers.append(oauth.mcp_guard(c.executor.registry))  # inner: HTTP 401/403 for protected tool calls
    config.mcp_wrappers.append(identity.mcp_guard)
    config.on_startup.append(identity.start)
    config.on_shutdown.insert(0, identity.stop)
    watch = badge_watch(c, leased=True)  # free plan: due badge checks, at once when a listing chooses it
    c.runtime.on_move(watch.on_move)
    config.on_startup.append(watch.start)
    config.on_shutdown.insert(0, watch.stop)
    scheduler = launch_scheduler(c, watch)  # weeks open and close on time
    config.on_startup.append(scheduler.start)
    config.on_shutdown.insert(0, scheduler.stop)
    config.extra_routes.extend(badge_routes(c.services))  # /badges/{slug}/{kind}.svg
    config.on_startup.append(c.draft_workers.start)  # resumes stalled draft jobs, then sweeps every 30 s
    config.on_shutdown.insert(0, c.draft_workers.stop)
    config.extra_routes.extend(invite_routes(identity))  # /invites/accept: co-founder invites
    config.extra_routes.extend(draft_routes(identity))  # /submit, /drafts, /drafts/{id}: the founder's drafts
    wire_orders(c.services, c.settings, config, identity)  # /checkout/*, /webhooks/stripe, fulfilment (docs/orders.md)
    wire_updates(config, c.services, identity)  # followers emailed of listing updates; /unsubscribe/<token>
    wire_notices(config, c.services)  # founders emailed when a listing is scheduled or live, or an order paid
    config.extra_routes.extend(staff_review_routes(identity))  # /staff/review, /staff/listings/{slug}/history, /staff/audit
    config.extra_routes.extend(staff_listing_routes(identity))  # /staff/listings/{slug}/take-down and /put-back
    config.extra_routes.extend(claim_routes(identity))  # /claims/confirm (emailed claim links), /staff/claims
    config.extra_routes.extend(staff_vote_routes(identity, VoteReview(c.store, c.services.reads, c.runtime)))  # /staff/votes
    c.services.badge_checks = lambda i, by: watch.check(i, by=by).position  # check_my_badge, "Check my badge now"
    config.extra_routes.extend(founder_routes(identity, c.services.badge_checks))  # /my/*, /claim
    site = public_site(identity, c.executor, rate_limits=c.settings.rate_limits,  # the public website (docs/website.md)
                       vote_secret=c.settings.vote_signal_secret,
                       busy=config.in_flight.busy, stale_seconds=c.settings.busy_stale_seconds,
                       vote_threads=c.settings.vote_threads)
    config.extra_routes.extend(site.routes)
    config.not_found_html = site.not_found
    return create_app(c.executor, config)
