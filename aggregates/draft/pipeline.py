"""Submission and the pipeline's progress: crawl, draft, fail, time out.

The jobs report here; a result for a draft that moved on is ignored, never an error.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from aggregates.base import Emitter, Meta
from events.base import Event
from events.draft import (
    DraftCompetitorFailed,
    DraftCrawlAttemptFailed,
    DraftCrawled,
    DraftCrawlStarted,
    DraftDraftingStarted,
    DraftFailed,
    DraftReady,
    DraftRegenerationFailed,
    DraftSiteClaimed,
    DraftSubmitted,
)
from events.draft_fields import (
    FIELD_NAMES, IN_PROGRESS,
)
from events.errors import Conflict
from aggregates.draft.slots import drafted_slot, section_value, social_evidence_value, summary_of
from aggregates.draft.state import DraftState, SiteIndexState, Slot, has_value


def decide_submit(
    site_state: SiteIndexState,
    current: DraftState | None,
    draft_state: DraftState,
    *,
    account_id: str,
    url: str,
    site: str,
    meta: Meta,
) -> tuple[list[Event], UUID | None]:
    """A new draft of `site`, unless the account already has one that did not fail.

    Returns (events, id of the existing draft or None). The site-index event
    and the new draft's first event are appended together, so two racing
    submissions of one site by one account make one draft.
    """
    if current is not None and current.exists and current.status != "failed":
        return [], current.id
    if draft_state.exists:
        raise Conflict("this draft id is taken")
    claim = Emitter(site_state, meta)
    claim(DraftSiteClaimed, account_id=account_id, site=site, draft_id=str(draft_state.id))
    emit = Emitter(draft_state, meta)
    emit(DraftSubmitted, draft_id=draft_state.id, account_id=account_id, url=url, site=site)
    return claim.events + emit.events, None



# ---------------------------------------------------------------- the pipeline (jobs)


def decide_start_crawl(state: DraftState, meta: Meta) -> list[Event]:
    if state.status != "crawling":
        return []
    emit = Emitter(state, meta)
    emit(DraftCrawlStarted, attempt=state.crawl_attempts + 1)
    return emit.events


def decide_crawl_attempt_failed(state: DraftState, reason: str, detail: str, meta: Meta) -> list[Event]:
    if state.status != "crawling":
        return []
    emit = Emitter(state, meta)
    emit(DraftCrawlAttemptFailed, attempt=state.crawl_attempts, reason=reason, detail=detail[:500])
    return emit.events


def decide_crawled(
    state: DraftState, *, crawl_id: str, final_url: str, site: str, pages: list[str], skipped: int, size: int,
    digest: str, meta: Meta,
) -> list[Event]:
    """The crawl is stored: move on to drafting (ignored once the draft moved on or failed)."""
    if state.status != "crawling":
        return []
    emit = Emitter(state, meta)
    emit(DraftCrawled, crawl_id=crawl_id, final_url=final_url, site=site, pages=list(pages)[:20], skipped=skipped,
         bytes=size, digest=digest)
    return emit.events


def decide_start_drafting(state: DraftState, drafter: str, meta: Meta) -> list[Event]:
    if state.status != "drafting":
        return []
    emit = Emitter(state, meta)
    emit(DraftDraftingStarted, drafter=drafter)
    return emit.events


def decide_ready(state: DraftState, crawl_id: str, drafted: dict[str, Any], meta: Meta) -> list[Event]:
    """Record a verified profile draft (`ProfileDraft.to_dict()` form): every slot `ai` or `not_found`."""
    if state.status != "drafting" or state.crawl_id != crawl_id:
        return []
    raw_fields = drafted.get("fields") or {}
    fields = {name: drafted_slot(name, raw_fields.get(name)) for name in FIELD_NAMES}
    faqs = section_value("faqs", drafted.get("faqs"))
    founders = section_value("founders", drafted.get("founders"))
    socials = section_value("company_socials", drafted.get("company_socials"))
    slots = {n: Slot(value=d["value"], state=d["state"]) for n, d in fields.items()}
    for name, value in (("faqs", faqs), ("founders", founders), ("company_socials", socials)):
        slots[name] = Slot(value=value, state="ai" if has_value(value) else "not_found")
    completeness, missing, not_found = summary_of(slots)
    emit = Emitter(state, meta)
    emit(
        DraftReady, crawl_id=crawl_id, drafter=str(drafted.get("drafter") or "unknown"), fields=fields,
        faqs=faqs or [], founders=founders or [], company_socials=socials or {}, not_found_on_website=not_found,
        completeness=completeness, missing=missing, dropped=len(drafted.get("dropped") or []),
        social_evidence=social_evidence_value(drafted.get("social_evidence"), socials),
    )
    return emit.events


def decide_fail(state: DraftState, reason: str, detail: str, stage: str, meta: Meta) -> list[Event]:
    """Crawling or drafting gave up: the draft ends `failed` with the reason (later results are ignored)."""
    if state.status not in IN_PROGRESS:
        return []
    emit = Emitter(state, meta)
    emit(DraftFailed, reason=reason, detail=detail[:1000], stage=stage)
    return emit.events


def decide_timeouts(state: DraftState, timeout: timedelta, meta: Meta) -> list[Event]:
    """Work that has made no progress for `timeout` is failed, so nothing waits forever."""
    emit = Emitter(state, meta)
    deadline = meta.at - timeout
    if state.status in IN_PROGRESS and state.progress_at is not None and state.progress_at < deadline:
        emit(DraftFailed, reason="timeout", detail=f"no progress while {state.status} for {int(timeout.total_seconds())} s",
             stage="timeout")
    for request_id, regen in state.regenerations.items():
        if regen.at < deadline:
            emit(DraftRegenerationFailed, request_id=request_id, reason="timeout", detail="the redraft did not finish")
    if state.competitor is not None and state.competitor.status == "pending" and state.competitor.at < deadline:
        emit(DraftCompetitorFailed, request_id=state.competitor.request_id, reason="timeout",
             detail="the competitor site could not be read in time")
    return emit.events
