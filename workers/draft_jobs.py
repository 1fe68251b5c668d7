"""The background work of drafts: crawl the site, draft the profile, redraft fields, compare a competitor.

Every job takes ids only, loads the draft, and stops when its work is already
done (the draft moved on, failed, or the request is gone), so running it
twice is harmless. A job that gives up for good marks what it worked on as
failed with a reason (its `on_failure` hook), and :class:`DraftSweeper`
re-queues work that stalled (a queue lost on restart) and times out work that
made no progress for too long, so no draft waits forever.

The jobs find their wiring in the installed job context: either a
:class:`SubmissionContext` or any object whose `submission` attribute is one.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from aggregates import catalog
from aggregates import draft as d
from aggregates.base import Meta
from commands import draft as draft_cmd
from commands.store import EventStore
from events.errors import FieldProblem, InvalidInput, NotFound
from projections.periodic import Periodic
from projections.reads import ReadStore
from queries import drafts as drafts_q
from workers.crawl_store import CrawlStore
from workers.adapters.websites import (
    BlockedAddress,
    CrawlError,
    CrawlResult,
    CrawlSettings,
    NotHtml,
    RobotsForbidden,
    SiteUnreachable,
    TooLarge,
    check_url,
    crawl_site,
)
from workers.drafting import Drafter, ProfileDraft, compare_with_competitor, draft_with_fallback
from workers.jobs import JobQueue, job

log = logging.getLogger(__name__)

CRAWL_JOB = "draft_crawl"
PROFILE_JOB = "draft_profile"
REGENERATE_JOB = "draft_regenerate"
COMPETITOR_JOB = "draft_competitor"


# ---------------------------------------------------------------- wiring


@dataclass
class SubmissionContext:
    """What the draft jobs need, built by the composition root."""

    store: EventStore
    reads: ReadStore
    crawls: CrawlStore
    crawl_settings: CrawlSettings
    drafter: Drafter
    queue: JobQueue
    clock: Callable[[], datetime]
    fallback: Drafter | None = None  # used when `drafter` raises DraftingFailed (the model drafter)
    resume_after: timedelta = timedelta(seconds=60)
    timeout: timedelta = timedelta(minutes=10)
    crawl_retention: timedelta = timedelta(days=30)  # competitor crawls and failed drafts' crawls (crawl_store)

    def meta(self) -> Meta:
        return Meta(at=self.clock(), actor="system", channel="system")

    def categories(self) -> list[dict[str, Any]]:
        known = self.store.load(catalog.CATALOG_ID, catalog).categories
        return [{"slug": c.slug, "name": c.name, "description": c.description} for c in known.values()]

    def draft(self, crawl: CrawlResult, fields: list[str] | None = None) -> ProfileDraft:
        if self.fallback is not None:
            return draft_with_fallback(self.drafter, self.fallback, crawl, self.categories(), fields)
        return self.drafter.draft(crawl, self.categories(), fields)


def submission_of(ctx: Any) -> SubmissionContext:
    return ctx if isinstance(ctx, SubmissionContext) else ctx.submission


class QueueJobs:
    """`commands.draft.DraftJobs` over the job queue; job ids name the work, so asking twice queues once."""

    def __init__(self, queue: JobQueue) -> None:
        self.queue = queue

    def crawl(self, draft_id: UUID) -> None:
        self.queue.enqueue(CRAWL_JOB, str(draft_id), job_id=f"crawl-{draft_id}")

    def draft(self, draft_id: UUID) -> None:
        self.queue.enqueue(PROFILE_JOB, str(draft_id), job_id=f"draft-{draft_id}")

    def regenerate(self, draft_id: UUID, request_id: str) -> None:
        self.queue.enqueue(REGENERATE_JOB, str(draft_id), request_id, job_id=f"regen-{draft_id}-{request_id}")

    def compare(self, draft_id: UUID, request_id: str) -> None:
        self.queue.enqueue(COMPETITOR_JOB, str(draft_id), request_id, job_id=f"competitor-{draft_id}-{request_id}")


def url_guard(settings: CrawlSettings) -> draft_cmd.UrlGuard:
    """The submit-time URL check: syntax, then every resolved address must be public (400 naming the field)."""

    def check(url: str, field: str) -> None:
        try:
            check_url(url, allow_loopback=settings.allow_loopback)
        except CrawlError as exc:
            rule = "unresolvable_host" if isinstance(exc, SiteUnreachable) else exc.reason
            message = f"{exc.detail}. Submit the public http(s) address of the product's website."
            raise InvalidInput(f"{field} cannot be crawled: {exc.detail}", [FieldProblem(field, rule, message)]) from None

    return check


def failure_reason(exc: BaseException) -> str:
    """The draft failure reason of a crawl error."""
    if isinstance(exc, BlockedAddress):
        return "blocked_address"
    if isinstance(exc, RobotsForbidden):
        return "robots_forbidden"
    if isinstance(exc, NotHtml):
        return "not_html"
    if isinstance(exc, TooLarge):
        return "too_large"
    if isinstance(exc, SiteUnreachable):
        return "site_unreachable"
    return "crawl_failed"


def _detail(exc: CrawlError) -> str:
    return f"{exc.reason}: {exc.detail}" if exc.detail != exc.reason else exc.reason


def _load(sub: SubmissionContext, draft_id: UUID) -> d.DraftState | None:
    try:
        return draft_cmd.load(sub.store, draft_id)
    except NotFound:
        log.warning("draft %s does not exist here; job skipped", draft_id)
        return None


# ---------------------------------------------------------------- crawl


def _crawl_gave_up(ctx: Any, exc_text: str, draft_id: str) -> None:
    sub = submission_of(ctx)
    state = _load(sub, UUID(draft_id))
    if state is None:
        return
    last = state.last_crawl_error
    reason = "site_unreachable" if last else "crawl_failed"
    detail = f"{last['reason']}: {last['detail']}" if last else "the site could not be crawled"
    draft_cmd.fail(sub.store, state.id, reason, detail, "crawl", sub.meta())


@job(CRAWL_JOB, retries=2, backoff=(2, 5), on_failure=_crawl_gave_up)
def crawl_draft(ctx: Any, draft_id: str) -> None:
    """Crawl the submitted site, store the crawl, and queue the drafting."""
    sub = submission_of(ctx)
    state = _load(sub, UUID(draft_id))
    if state is None or state.status not in d.IN_PROGRESS:
        return
    if state.status == "drafting":  # crawled already; make sure drafting is queued
        QueueJobs(sub.queue).draft(state.id)
        return
    draft_cmd.start_crawl(sub.store, state.id, sub.meta())
    try:
        result = crawl_site(state.url, sub.crawl_settings)
    except SiteUnreachable as exc:  # may pass: record, then let the queue retry
        draft_cmd.crawl_attempt_failed(sub.store, state.id, exc.reason, exc.detail, sub.meta())
        raise
    except CrawlError as exc:  # the site refuses, or is not a website: no retry will help
        draft_cmd.fail(sub.store, state.id, failure_reason(exc), _detail(exc), "crawl", sub.meta())
        return
    crawl_id = uuid.uuid4().hex
    size, digest = sub.crawls.save(state.id, crawl_id, "site", state.url, result.to_dict())
    draft_cmd.record_crawl(
        sub.store, state.id, sub.meta(), crawl_id=crawl_id, final_url=result.final_url, site=result.site,
        pages=[p.url for p in result.pages], skipped=len(result.skipped), size=size, digest=digest,
    )
    QueueJobs(sub.queue).draft(state.id)


# ---------------------------------------------------------------- draft


def _drafting_gave_up(ctx: Any, exc_text: str, draft_id: str) -> None:
    sub = submission_of(ctx)
    last_line = (exc_text.strip().splitlines() or ["error"])[-1][:300]
    draft_cmd.fail(sub.store, UUID(draft_id), "drafting_failed", last_line, "draft", sub.meta())


@job(PROFILE_JOB, retries=2, backoff=(2, 5), on_failure=_drafting_gave_up)
def draft_profile(ctx: Any, draft_id: str) -> None:
    """Draft the profile from the stored crawl; only verified values are kept."""
    sub = submission_of(ctx)
    state = _load(sub, UUID(draft_id))
    if state is None or state.status != "drafting" or state.crawl_id is None:
        return
    crawl = CrawlResult.from_dict(sub.crawls.load(state.id, state.crawl_id))
    drafter = getattr(sub.drafter, "drafter", type(sub.drafter).__name__)
    draft_cmd.start_drafting(sub.store, state.id, str(drafter), sub.meta())
    profile = sub.draft(crawl)
    draft_cmd.record_draft(sub.store, state.id, state.crawl_id, profile.to_dict(), sub.meta())


# ---------------------------------------------------------------- regenerate


def _regeneration_gave_up(ctx: Any, exc_text: str, draft_id: str, request_id: str) -> None:
    sub = submission_of(ctx)
    last_line = (exc_text.strip().splitlines() or ["error"])[-1][:300]
    draft_cmd.regeneration_failed(sub.store, UUID(draft_id), request_id, "drafting_failed", last_line, sub.meta())


@job(REGENERATE_JOB, retries=2, backoff=(2, 5), on_failure=_regeneration_gave_up)
def regenerate_fields(ctx: Any, draft_id: str, request_id: str) -> None:
    """Redraft the requested fields from the stored crawl (not a new crawl); locked fields are skipped."""
    sub = submission_of(ctx)
    state = _load(sub, UUID(draft_id))
    if state is None or request_id not in state.regenerations or state.crawl_id is None:
        return
    crawl = CrawlResult.from_dict(sub.crawls.load(state.id, state.crawl_id))
    profile = sub.draft(crawl, list(state.regenerations[request_id].fields))
    draft_cmd.record_regeneration(sub.store, state.id, request_id, profile.to_dict(), sub.meta())


# ---------------------------------------------------------------- competitor


def _comparison_gave_up(ctx: Any, exc_text: str, draft_id: str, request_id: str) -> None:
    sub = submission_of(ctx)
    last_line = (exc_text.strip().splitlines() or ["error"])[-1][:300]
    draft_cmd.comparison_failed(sub.store, UUID(draft_id), request_id, "comparison_failed", last_line, sub.meta())


@job(COMPETITOR_JOB, retries=1, backoff=(5,), on_failure=_comparison_gave_up)
def compare_competitor(ctx: Any, draft_id: str, request_id: str) -> None:
    """Crawl the competitor's site and compare its stated facts with the draft's."""
    sub = submission_of(ctx)
    state = _load(sub, UUID(draft_id))
    c = state.competitor if state is not None else None
    if state is None or c is None or c.request_id != request_id or c.status != "pending":
        return
    try:
        result = crawl_site(c.url, sub.crawl_settings)
    except CrawlError as exc:
        draft_cmd.comparison_failed(sub.store, state.id, request_id, failure_reason(exc), _detail(exc), sub.meta())
        return
    crawl_id = uuid.uuid4().hex
    sub.crawls.save(state.id, crawl_id, "competitor", c.url, result.to_dict())
    comparison = compare_with_competitor(own_profile(state), result)
    draft_cmd.record_comparison(sub.store, state.id, request_id, crawl_id, comparison, sub.meta())


def own_profile(state: d.DraftState) -> ProfileDraft:
    """The draft's current values as a ProfileDraft (values the user typed count as stated)."""
    fields = {}
    for name in d.FIELD_NAMES:
        slot = state.slot(name)
        has = slot.has_value
        fields[name] = {"value": slot.value if has else None, "state": "ai" if has else "not_found",
                        "evidence": [dict(e) for e in slot.evidence]}
    return ProfileDraft.from_dict({"fields": fields, "drafter": state.drafter or "unknown"})


# ---------------------------------------------------------------- the sweeper


PRUNE_EVERY = timedelta(hours=1)


class DraftSweeper:
    """Re-queues stalled draft work and fails work with no progress for `timeout` (a thread, every `interval` s)."""

    def __init__(self, sub: SubmissionContext, interval: float = 30.0) -> None:
        self.sub = sub
        self.interval = interval
        self._loop = Periodic("draft-sweeper", interval, self.sweep_once)
        self._pruned_at: datetime | None = None

    def sweep_once(self) -> dict[str, int]:
        """One pass; returns how many drafts were re-queued and timed out, and how many stored crawls were pruned."""
        sub, counts = self.sub, {"requeued": 0, "timed_out": 0, "pruned": 0}
        now = sub.clock()
        if self._pruned_at is None or now - self._pruned_at >= PRUNE_EVERY:
            try:
                counts["pruned"] = sub.crawls.prune(now - sub.crawl_retention, sub.reads.tables("draft_view")["drafts"])
                self._pruned_at = now
            except Exception:
                log.exception("pruning stored crawls failed; the next sweep tries again")
        jobs = QueueJobs(sub.queue)
        for draft_id in drafts_q.pending_work(sub.reads, now - sub.resume_after):
            try:
                state = draft_cmd.load(sub.store, draft_id)
                meta = Meta(at=now, actor="system", channel="system")
                if d.decide_timeouts(state, sub.timeout, meta):
                    draft_cmd.expire_stale(sub.store, draft_id, sub.timeout, meta)
                    counts["timed_out"] += 1
                    continue
                if state.status == "crawling":
                    jobs.crawl(draft_id)
                elif state.status == "drafting":
                    jobs.draft(draft_id)
                for request_id in state.regenerations:
                    jobs.regenerate(draft_id, request_id)
                if state.competitor is not None and state.competitor.status == "pending":
                    jobs.compare(draft_id, state.competitor.request_id)
                counts["requeued"] += 1
            except Exception:
                log.exception("sweeping draft %s failed", draft_id)
        return counts

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        self._loop.stop()
