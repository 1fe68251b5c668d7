"""How each draft event changes a draft state (and the site-index state)."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch
from typing import Any

from events.base import Event
from events.draft import (
    DraftCofounderInvited,
    DraftCompetitorCleared,
    DraftCompetitorCompared,
    DraftCompetitorFailed,
    DraftCompetitorSet,
    DraftCompletenessChanged,
    DraftCrawlAttemptFailed,
    DraftCrawled,
    DraftCrawlStarted,
    DraftDiscarded,
    DraftDraftingStarted,
    DraftFailed,
    DraftFieldDeleted,
    DraftFieldEdited,
    DraftFieldsLocked,
    DraftFieldsRegenerated,
    DraftFieldsRestored,
    DraftFounderSocialsSet,
    DraftInviteAccepted,
    DraftListingCreationStarted,
    DraftListingSynced,
    DraftMilestonesSet,
    DraftReady,
    DraftRegenerationFailed,
    DraftRegenerationRequested,
    DraftResubmitted,
    DraftSeoSet,
    DraftSiteClaimed,
    DraftStorySet,
    DraftSubmitted,
    DraftSubmittedAsListing,
)
from aggregates.draft.state import Competitor, DraftState, Invite, Regeneration, SiteIndexState, Slot


@singledispatch
def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: DraftSiteClaimed, s: SiteIndexState) -> SiteIndexState:
    return replace(s, version=e.originator_version, draft_id=e.draft_id)


@evolve.register
def _(e: DraftSubmitted, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, account_id=e.account_id, url=e.url, site=e.site,
                   status="crawling", created_at=e.timestamp, progress_at=e.timestamp)


@evolve.register
def _(e: DraftCrawlStarted, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, crawl_attempts=e.attempt, progress_at=e.timestamp)


@evolve.register
def _(e: DraftCrawlAttemptFailed, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, last_crawl_error={"reason": e.reason, "detail": e.detail},
                   progress_at=e.timestamp)


@evolve.register
def _(e: DraftCrawled, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, status="drafting", crawl_id=e.crawl_id, final_url=e.final_url,
                   progress_at=e.timestamp)


@evolve.register
def _(e: DraftDraftingStarted, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, drafter=e.drafter, progress_at=e.timestamp)


@evolve.register
def _(e: DraftReady, s: DraftState) -> DraftState:
    slots: dict[str, Slot] = {}
    for name, d in e.fields.items():
        ev = tuple(d.get("evidence") or ())
        slots[name] = Slot(value=d["value"], state=d["state"], evidence=ev, ai_value=d["value"], ai_evidence=ev,
                           changed=e.originator_version)
    for name, value in (("faqs", e.faqs), ("founders", e.founders), ("company_socials", e.company_socials)):
        v = value or None
        slots[name] = Slot(value=v, state="ai" if v else "not_found", ai_value=v, changed=e.originator_version)
    social_evidence = {str(k): tuple(v) for k, v in (getattr(e, "social_evidence", None) or {}).items()}
    return replace(s, version=e.originator_version, status="ready", drafter=e.drafter, slots=slots,
                   social_evidence=social_evidence, completeness=e.completeness, missing=tuple(e.missing),
                   not_found_on_website=tuple(e.not_found_on_website), progress_at=e.timestamp)


@evolve.register
def _(e: DraftFailed, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, status="failed",
                   failure={"reason": e.reason, "detail": e.detail, "stage": e.stage})


def _with_slot(s: DraftState, version: int, name: str, **changes: Any) -> DraftState:
    slot = replace(s.slot(name), changed=version, **changes)
    return replace(s, version=version, slots={**s.slots, name: slot})


@evolve.register
def _(e: DraftFieldEdited, s: DraftState) -> DraftState:
    return _with_slot(s, e.originator_version, e.field, value=e.value, state=e.state, evidence=())


@evolve.register
def _(e: DraftFieldDeleted, s: DraftState) -> DraftState:
    return _with_slot(s, e.originator_version, e.field, value=None, state="deleted", evidence=())


@evolve.register
def _(e: DraftFieldsLocked, s: DraftState) -> DraftState:
    for name in e.fields:
        s = _with_slot(s, e.originator_version, name, state="override")
    return s


@evolve.register
def _(e: DraftFieldsRestored, s: DraftState) -> DraftState:
    for name, d in e.fields.items():
        s = _with_slot(s, e.originator_version, name, value=d["value"], state=d["state"],
                       evidence=tuple(d.get("evidence") or ()))
    return s


@evolve.register
def _(e: DraftRegenerationRequested, s: DraftState) -> DraftState:
    regs = dict(s.regenerations)
    if e.fields:
        regs[e.request_id] = Regeneration(tuple(e.fields), e.originator_version, e.timestamp)
    return replace(s, version=e.originator_version, regenerations=regs)


@evolve.register
def _(e: DraftFieldsRegenerated, s: DraftState) -> DraftState:
    for name, d in e.fields.items():
        ev = tuple(d.get("evidence") or ())
        s = _with_slot(s, e.originator_version, name, value=d["value"], state=d["state"], evidence=ev,
                       ai_value=d["value"], ai_evidence=ev)
    regs = {k: v for k, v in s.regenerations.items() if k != e.request_id}
    return replace(s, version=e.originator_version, regenerations=regs, drafter=e.drafter)


@evolve.register
def _(e: DraftRegenerationFailed, s: DraftState) -> DraftState:
    regs = {k: v for k, v in s.regenerations.items() if k != e.request_id}
    return replace(s, version=e.originator_version, regenerations=regs)


@evolve.register
def _(e: DraftFounderSocialsSet, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, founder_socials=dict(e.founder_socials))


@evolve.register
def _(e: DraftStorySet, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, story=dict(e.story))


@evolve.register
def _(e: DraftMilestonesSet, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, milestones=tuple(dict(m) for m in e.milestones))


@evolve.register
def _(e: DraftSeoSet, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, seo=dict(e.seo))


@evolve.register
def _(e: DraftCompletenessChanged, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, completeness=e.completeness, missing=tuple(e.missing),
                   not_found_on_website=tuple(e.not_found_on_website))


@evolve.register
def _(e: DraftCompetitorSet, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version,
                   competitor=Competitor(url=e.url, request_id=e.request_id, status="pending", at=e.timestamp))


@evolve.register
def _(e: DraftCompetitorCompared, s: DraftState) -> DraftState:
    c = s.competitor
    return replace(s, version=e.originator_version, competitor=replace(c, status="compared") if c else None)


@evolve.register
def _(e: DraftCompetitorFailed, s: DraftState) -> DraftState:
    c = s.competitor
    return replace(s, version=e.originator_version, competitor=replace(c, status="failed") if c else None)


@evolve.register
def _(e: DraftCompetitorCleared, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, competitor=None)


@evolve.register
def _(e: DraftCofounderInvited, s: DraftState) -> DraftState:
    invite = Invite(e.invite_id, e.email, e.token_hash, e.timestamp, e.expires_at)
    return replace(s, version=e.originator_version, invites={**s.invites, e.invite_id: invite})


@evolve.register
def _(e: DraftInviteAccepted, s: DraftState) -> DraftState:
    invite = replace(s.invites[e.invite_id], accepted_by=e.account_id)
    owners = s.co_owners if e.account_id in s.owners else (*s.co_owners, e.account_id)
    return replace(s, version=e.originator_version, invites={**s.invites, e.invite_id: invite}, co_owners=owners)


@evolve.register
def _(e: DraftListingCreationStarted, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, listing_attempt=(e.attempt_id, e.timestamp))


@evolve.register
def _(e: DraftSubmittedAsListing, s: DraftState) -> DraftState:
    sent = getattr(e, "sent", None)  # absent in events stored before drafts kept what they sent
    return replace(s, version=e.originator_version, listing_id=e.listing_id, listing_slug=e.slug, listing_attempt=None,
                   listing_sent=dict(sent) if sent is not None else None)


@evolve.register
def _(e: DraftListingSynced, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, listing_sent={**(s.listing_sent or {}), **e.sent})


@evolve.register
def _(e: DraftResubmitted, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version)


@evolve.register
def _(e: DraftDiscarded, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version, status="discarded")
