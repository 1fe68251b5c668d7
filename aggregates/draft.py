"""The Draft decider: a product profile drafted from its website, then edited by its owners.

Status: ``crawling`` -> ``drafting`` -> ``ready``, or ``failed`` (with a
reason) from either of the first two. ``ready`` is where people edit; a draft
stays editable after it became a listing (edits then flow to the listing).

Profile parts are *slots*: the eighteen fields of SPEC §4.4 and the sections
``faqs``, ``founders`` and ``company_socials``. Each slot has a value, a
state (SPEC §3.2) and evidence quotes, and remembers the AI's latest value so
``restore`` can put it back:

=========================  ===========================================
move                       resulting state
=========================  ===========================================
drafted with evidence      ``ai``
drafted without evidence   ``not_found`` (listed in not_found_on_website)
user sets a value          ``edited`` if the AI had a value, else ``manual``;
                           a locked slot keeps ``override``
user sets null / "" / []   ``deleted``
lock_fields                ``override`` (regenerate never touches it)
restore                    the AI's value: ``ai``, or ``not_found``
regenerate (a job)         the AI's new value: ``ai`` or ``not_found``
=========================  ===========================================

Deciders are pure: ids, hashes and times come in from the handler.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import singledispatch
from typing import Any
from urllib.parse import urlsplit
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Emitter, Meta
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
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

# ---------------------------------------------------------------- vocabulary

FIELD_NAMES: tuple[str, ...] = (
    "name", "tagline", "short_description", "description", "stage", "pricing_model", "pricing_summary",
    "country", "city", "founded_year", "contact_email", "demo_video_url", "logo_url",
    "categories", "tags", "features", "usps", "keywords",
)
STRING_FIELDS: tuple[str, ...] = FIELD_NAMES[:13]
LIST_FIELDS: tuple[str, ...] = FIELD_NAMES[13:]
SECTIONS: tuple[str, ...] = ("faqs", "founders", "company_socials")
SLOTS: tuple[str, ...] = FIELD_NAMES + SECTIONS
STATES: tuple[str, ...] = ("ai", "not_found", "edited", "manual", "override", "deleted")
STATUSES: tuple[str, ...] = ("crawling", "drafting", "ready", "failed")
IN_PROGRESS: tuple[str, ...] = ("crawling", "drafting")

COMPLETENESS_WEIGHTS: dict[str, int] = {
    "name": 10, "tagline": 8, "short_description": 8, "description": 12, "categories": 10, "features": 8,
    "pricing_model": 6, "pricing_summary": 5, "logo_url": 6, "contact_email": 4, "founded_year": 3,
    "country": 3, "city": 2, "demo_video_url": 3, "stage": 3, "tags": 3, "usps": 3, "keywords": 3,
}
"""How much each field counts towards `completeness` (sums to 100; the drafter uses the same table)."""

REQUIRED_FOR_LISTING: tuple[str, ...] = ("name", "categories")
MAX_INVITES = 10
INVITE_TTL = timedelta(days=14)
LISTING_ATTEMPT_GRACE = timedelta(seconds=60)
MAX_EVIDENCE = 8


def draft_stream(draft_id: UUID) -> UUID:
    return draft_id


def site_stream(account_id: str, site: str) -> UUID:
    """The stream that says which draft is an account's draft of a site (duplicate submissions)."""
    return uuid5(NAMESPACE_URL, f"launchdir:draft-site:{account_id}:{site}")


def site_key(url: str) -> str:
    """The normalised site of a URL: lower-case ASCII host without ``www.``, plus a non-default port.

    ``https://www.Acme.com/pricing`` and ``http://acme.com`` are the same site;
    ``acme.com:8443`` is another one.
    """
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").rstrip(".").lower()
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        pass
    if host.startswith("www."):
        host = host[4:]
    port = parts.port
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    if port is not None and port != default:
        host = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return host


# ---------------------------------------------------------------- states


@dataclass(frozen=True)
class Slot:
    """One profile part: what is shown, its state and quotes, and the AI's latest value."""

    value: Any = None
    state: str = "not_found"
    evidence: tuple[dict[str, Any], ...] = ()
    ai_value: Any = None
    ai_evidence: tuple[dict[str, Any], ...] = ()
    changed: int = 0  # stream version of the last change (regenerate skips slots changed after its request)

    @property
    def has_value(self) -> bool:
        return _has(self.value)

    def doc(self) -> dict[str, Any]:
        return {"value": self.value, "state": self.state, "evidence": [dict(e) for e in self.evidence]}

    def ai_doc(self) -> dict[str, Any]:
        """The AI's value as a slot dict (what restore puts back)."""
        if _has(self.ai_value):
            return {"value": self.ai_value, "state": "ai", "evidence": [dict(e) for e in self.ai_evidence]}
        return {"value": None, "state": "not_found", "evidence": []}


@dataclass(frozen=True)
class Regeneration:
    fields: tuple[str, ...]
    version: int  # the draft version when it was asked for
    at: datetime


@dataclass(frozen=True)
class Competitor:
    url: str
    request_id: str
    status: str  # "pending" | "compared" | "failed"
    at: datetime


@dataclass(frozen=True)
class Invite:
    invite_id: str
    email: str
    token_hash: str
    invited_at: datetime
    expires_at: datetime
    accepted_by: str | None = None


@dataclass(frozen=True)
class DraftState:
    id: UUID
    version: int = 0
    account_id: str = ""
    url: str = ""
    site: str = ""
    status: str = ""
    failure: dict[str, str] | None = None
    created_at: datetime | None = None
    progress_at: datetime | None = None
    crawl_attempts: int = 0
    last_crawl_error: dict[str, str] | None = None
    crawl_id: str | None = None
    final_url: str | None = None
    drafter: str | None = None
    slots: dict[str, Slot] = field(default_factory=dict)
    founder_socials: dict[str, str] = field(default_factory=dict)
    story: dict[str, str] = field(default_factory=dict)
    milestones: tuple[dict[str, str], ...] = ()
    seo: dict[str, str] = field(default_factory=dict)
    completeness: int = 0
    missing: tuple[str, ...] = FIELD_NAMES
    not_found_on_website: tuple[str, ...] = ()
    regenerations: dict[str, Regeneration] = field(default_factory=dict)
    competitor: Competitor | None = None
    invites: dict[str, Invite] = field(default_factory=dict)
    co_owners: tuple[str, ...] = ()
    listing_id: int | None = None
    listing_slug: str | None = None
    listing_attempt: tuple[str, datetime] | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0

    @property
    def owners(self) -> tuple[str, ...]:
        return (self.account_id, *self.co_owners)

    def slot(self, name: str) -> Slot:
        return self.slots.get(name) or Slot()

    def value(self, name: str) -> Any:
        return self.slot(name).value


@dataclass(frozen=True)
class SiteIndexState:
    id: UUID
    version: int = 0
    draft_id: str | None = None


def initial(stream_id: UUID) -> DraftState:
    return DraftState(id=stream_id)


def initial_site(stream_id: UUID) -> SiteIndexState:
    return SiteIndexState(id=stream_id)


@dataclass(frozen=True)
class Patch:
    """update_draft after validation and normalisation ("" and [] already turned into None)."""

    fields: dict[str, Any] = field(default_factory=dict)  # field name -> value, None removes
    faqs: list[dict[str, str]] | None = None
    founders: list[dict[str, str]] | None = None
    company_socials: dict[str, str | None] | None = None  # merged; None removes a key
    founder_socials: dict[str, str | None] | None = None  # merged
    story: dict[str, str | None] | None = None  # merged
    seo: dict[str, str | None] | None = None  # merged
    milestones: list[dict[str, str]] | None = None  # replaces
    lock_fields: tuple[str, ...] = ()
    restore: tuple[str, ...] = ()
    regenerate: tuple[str, ...] = ()
    competitor_url: str | None = None  # "" clears

    def set_slots(self) -> list[str]:
        """Slots this patch gives values to (fields and sections)."""
        names = list(self.fields)
        names += [s for s in ("faqs", "founders", "company_socials") if getattr(self, s) is not None]
        return names


# ---------------------------------------------------------------- submission


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
    faqs = _section_value("faqs", drafted.get("faqs"))
    founders = _section_value("founders", drafted.get("founders"))
    socials = _section_value("company_socials", drafted.get("company_socials"))
    slots = {n: Slot(value=d["value"], state=d["state"]) for n, d in fields.items()}
    for name, value in (("faqs", faqs), ("founders", founders), ("company_socials", socials)):
        slots[name] = Slot(value=value, state="ai" if _has(value) else "not_found")
    completeness, missing, not_found = summary_of(slots)
    emit = Emitter(state, meta)
    emit(
        DraftReady, crawl_id=crawl_id, drafter=str(drafted.get("drafter") or "unknown"), fields=fields,
        faqs=faqs or [], founders=founders or [], company_socials=socials or {}, not_found_on_website=not_found,
        completeness=completeness, missing=missing, dropped=len(drafted.get("dropped") or []),
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


# ---------------------------------------------------------------- update_draft


def decide_update(state: DraftState, patch: Patch, meta: Meta, *, request_id: str) -> list[Event]:
    """Apply one update_draft: values, restore, locks, other parts, competitor, then regeneration.

    `request_id` names the regeneration or competitor job this update may start.
    """
    _require_ready(state)
    _check_combination(patch)
    out = _Folding(state, meta)
    for name in FIELD_NAMES:
        if name in patch.fields:
            _set_slot(out, name, patch.fields[name])
    for name, value in (("faqs", patch.faqs), ("founders", patch.founders)):
        if value is not None:
            _set_slot(out, name, value or None)
    if patch.company_socials is not None:
        merged = _merge(out.state.slot("company_socials").value or {}, patch.company_socials)
        _set_slot(out, "company_socials", merged or None)
    restored = {}
    for name in _unique(patch.restore):
        slot = out.state.slot(name)
        back = slot.ai_doc()
        if (slot.value, slot.state) != (back["value"], back["state"]):
            restored[name] = back
    if restored:
        out.emit(DraftFieldsRestored, fields=restored)
    to_lock = [n for n in _unique(patch.lock_fields) if out.state.slot(n).state != "override"]
    if to_lock:
        out.emit(DraftFieldsLocked, fields=to_lock)
    if patch.founder_socials is not None:
        merged = _merge(out.state.founder_socials, patch.founder_socials)
        if merged != out.state.founder_socials:
            out.emit(DraftFounderSocialsSet, founder_socials=merged)
    if patch.story is not None:
        merged = _merge(out.state.story, patch.story)
        if merged != out.state.story:
            out.emit(DraftStorySet, story=merged)
    if patch.seo is not None:
        merged = _merge(out.state.seo, patch.seo)
        if merged != out.state.seo:
            out.emit(DraftSeoSet, seo=merged)
    if patch.milestones is not None and list(out.state.milestones) != patch.milestones:
        out.emit(DraftMilestonesSet, milestones=[dict(m) for m in patch.milestones])
    if patch.competitor_url is not None:
        _competitor(out, patch.competitor_url, request_id)
    if patch.regenerate:
        wanted = _unique(patch.regenerate)
        skipped = [n for n in wanted if out.state.slot(n).state == "override"]
        out.emit(DraftRegenerationRequested, request_id=request_id,
                 fields=[n for n in wanted if n not in skipped], skipped=skipped)
    if out.state.listing_id is not None:
        check_listable(out.state)  # its listing keeps a name and a primary category
    _summarise(out)
    return out.events


def decide_regenerated(
    state: DraftState, request_id: str, drafted: dict[str, Any], meta: Meta
) -> list[Event]:
    """Apply a redraft: every requested slot that is not locked and was not changed since the request."""
    regen = state.regenerations.get(request_id)
    if regen is None:
        return []
    raw_fields = drafted.get("fields") or {}
    applied: dict[str, dict[str, Any]] = {}
    skipped: list[str] = []
    for name in regen.fields:
        slot = state.slot(name)
        if slot.state == "override" or slot.changed > regen.version:
            skipped.append(name)
            continue
        if name in FIELD_NAMES:
            applied[name] = drafted_slot(name, raw_fields.get(name))
        else:
            value = _section_value(name, drafted.get(name))
            applied[name] = {"value": value, "state": "ai" if _has(value) else "not_found", "evidence": []}
    out = _Folding(state, meta)
    out.emit(DraftFieldsRegenerated, request_id=request_id, drafter=str(drafted.get("drafter") or "unknown"),
             fields=applied, skipped=skipped)
    _summarise(out)
    return out.events


def decide_regeneration_failed(state: DraftState, request_id: str, reason: str, detail: str, meta: Meta) -> list[Event]:
    if request_id not in state.regenerations:
        return []
    emit = Emitter(state, meta)
    emit(DraftRegenerationFailed, request_id=request_id, reason=reason, detail=detail[:500])
    return emit.events


def decide_competitor_compared(
    state: DraftState, request_id: str, crawl_id: str, comparison: dict[str, Any], meta: Meta
) -> list[Event]:
    c = state.competitor
    if c is None or c.request_id != request_id or c.status != "pending":
        return []
    emit = Emitter(state, meta)
    emit(DraftCompetitorCompared, request_id=request_id, crawl_id=crawl_id, comparison=comparison)
    return emit.events


def decide_competitor_failed(state: DraftState, request_id: str, reason: str, detail: str, meta: Meta) -> list[Event]:
    c = state.competitor
    if c is None or c.request_id != request_id or c.status != "pending":
        return []
    emit = Emitter(state, meta)
    emit(DraftCompetitorFailed, request_id=request_id, reason=reason, detail=detail[:500])
    return emit.events


# ---------------------------------------------------------------- co-founders


def decide_invite(
    state: DraftState, *, invite_id: str, email: str, token_hash: str, expires_at: datetime, meta: Meta
) -> list[Event]:
    """Invite a co-founder by email; at most MAX_INVITES per draft (and so per listing)."""
    _require(state)
    if state.status == "failed":
        raise Conflict("this draft failed; submit the site again before inviting co-founders")
    if len(state.invites) >= MAX_INVITES:
        raise InvalidInput(
            f"at most {MAX_INVITES} co-founder invites per listing",
            [FieldProblem("email", "max_items", f"This draft already has {MAX_INVITES} invites.")],
        )
    emit = Emitter(state, meta)
    emit(DraftCofounderInvited, invite_id=invite_id, email=email, token_hash=token_hash, expires_at=expires_at)
    return emit.events


def decide_accept_invite(
    state: DraftState, *, invite_id: str, token_hash: str, account_id: str, meta: Meta
) -> list[Event]:
    """The invited person (signed in) accepts: they become a co-owner. Each link works once."""
    invite = state.invites.get(invite_id)
    if invite is None or not hmac.compare_digest(invite.token_hash, token_hash):
        raise NotFound("no such invite")
    if invite.accepted_by == account_id:
        return []
    if invite.accepted_by is not None:
        raise Conflict("this invite was already accepted")
    if meta.at >= invite.expires_at:
        raise InvalidInput("this invite has expired", [FieldProblem("token", "expired", "Ask for a new invite.")])
    emit = Emitter(state, meta)
    emit(DraftInviteAccepted, invite_id=invite_id, account_id=account_id)
    return emit.events


# ---------------------------------------------------------------- the listing


def decide_start_listing(state: DraftState, attempt_id: str, meta: Meta) -> list[Event]:
    """First submit_draft: mark that a listing is being created (refuses a second concurrent one)."""
    _require_ready(state)
    check_listable(state)
    if state.listing_id is not None:
        return []
    if state.listing_attempt is not None and meta.at - state.listing_attempt[1] < LISTING_ATTEMPT_GRACE:
        raise Conflict("this draft is being submitted right now; retry in a minute")
    emit = Emitter(state, meta)
    emit(DraftListingCreationStarted, attempt_id=attempt_id)
    return emit.events


def decide_link_listing(state: DraftState, listing_id: int, slug: str, meta: Meta) -> list[Event]:
    if state.listing_id == listing_id:
        return []
    if state.listing_id is not None:
        raise Conflict("this draft already has a listing")
    emit = Emitter(state, meta)
    emit(DraftSubmittedAsListing, listing_id=listing_id, slug=slug)
    return emit.events


def decide_resubmitted(state: DraftState, meta: Meta) -> list[Event]:
    _require_ready(state)
    check_listable(state)
    if state.listing_id is None:
        raise Conflict("this draft has no listing yet")
    emit = Emitter(state, meta)
    emit(DraftResubmitted, listing_id=state.listing_id)
    return emit.events


def check_listable(state: DraftState) -> None:
    """A listing needs a name and a primary category (400 naming the missing fields)."""
    problems = [
        FieldProblem(f"fields.{name}", "required", f"set {name} before submitting the draft")
        for name in REQUIRED_FOR_LISTING
        if not state.slot(name).has_value
    ]
    if problems:
        raise InvalidInput("the draft is missing what a listing needs", problems)


def listing_content(state: DraftState, extra_categories: int = 0) -> dict[str, Any]:
    """What the listing gets from the draft: profile facts, categories (primary first), sections."""
    profile: dict[str, Any] = {}
    for name in STRING_FIELDS + LIST_FIELDS:
        if name == "categories":
            continue
        value = state.slot(name).value
        if not _has(value):
            continue
        if name == "founded_year":
            value = int(value) if str(value).isdigit() and 1800 <= int(value) <= 2100 else None
            if value is None:
                continue
        profile[name] = list(value) if isinstance(value, list) else value
    profile["website_url"] = state.final_url or state.url
    if state.seo.get("title"):
        profile["seo_title"] = state.seo["title"]
    if state.seo.get("meta"):
        profile["seo_description"] = state.seo["meta"]
    categories = list(state.slot("categories").value or [])[: 1 + extra_categories]
    founders = [
        {k: v for k, v in f.items() if k in ("name", "title", "bio") and v}
        for f in (state.slot("founders").value or [])
    ]
    if founders and state.founder_socials:
        founders[0]["socials"] = dict(state.founder_socials)
    return {
        "profile": profile,
        "categories": categories,
        "socials": dict(state.slot("company_socials").value or {}),
        "faqs": [{"question": f["question"], "answer": f["answer"]} for f in (state.slot("faqs").value or [])],
        "founders": founders,
        "story": dict(state.story),
        "milestones": [dict(m) for m in state.milestones],
        "not_found_on_website": list(state.not_found_on_website),
        "owner_ids": list(state.owners),
    }


# ---------------------------------------------------------------- shared helpers


def drafted_slot(name: str, raw: Any) -> dict[str, Any]:
    """A drafter's field (`FieldDraft.to_dict()` form) as a slot dict: `ai` with evidence, or `not_found`."""
    raw = raw if isinstance(raw, dict) else {}
    value = raw.get("value")
    if name in LIST_FIELDS:
        value = [str(v) for v in value] if isinstance(value, list) else None
    elif value is not None:
        value = str(value)
    evidence = [_evidence(e) for e in (raw.get("evidence") or [])][:MAX_EVIDENCE]
    if raw.get("state") != "ai" or not _has(value) or not evidence:
        return {"value": None, "state": "not_found", "evidence": []}
    return {"value": value, "state": "ai", "evidence": evidence}


def summary_of(slots: dict[str, Slot]) -> tuple[int, list[str], list[str]]:
    """(completeness 0..100, fields without a value, slots the site had no evidence for)."""
    have = sum(w for name, w in COMPLETENESS_WEIGHTS.items() if (slots.get(name) or Slot()).has_value)
    completeness = round(100 * have / sum(COMPLETENESS_WEIGHTS.values()))
    missing = [n for n in FIELD_NAMES if not (slots.get(n) or Slot()).has_value]
    not_found = [n for n in SLOTS if (slots.get(n) or Slot()).state == "not_found"]
    return completeness, missing, not_found


def _has(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    return bool(value)


def _evidence(raw: Any) -> dict[str, Any]:
    raw = raw if isinstance(raw, dict) else {}
    return {"url": str(raw.get("url") or ""), "quote": str(raw.get("quote") or ""), "source": str(raw.get("source") or "text")}


def _section_value(name: str, raw: Any) -> Any:
    if name == "company_socials":
        return {str(k): str(v) for k, v in (raw or {}).items() if v} if isinstance(raw, dict) else None
    if not isinstance(raw, list):
        return None
    items = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        clean = {k: v for k, v in item.items() if k != "evidence" and v is not None}
        clean["evidence"] = [_evidence(e) for e in (item.get("evidence") or [])][:MAX_EVIDENCE]
        items.append(clean)
    return items or None


def _merge(current: dict[str, str], changes: dict[str, str | None]) -> dict[str, str]:
    merged = dict(current)
    for key, value in changes.items():
        if value is None or not str(value).strip():
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def _unique(names: tuple[str, ...] | list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _require(state: DraftState) -> None:
    if not state.exists:
        raise NotFound("no such draft")


def _require_ready(state: DraftState) -> None:
    _require(state)
    if state.status in IN_PROGRESS:
        raise Conflict(f"the draft is still {state.status}; poll get_draft until its status is ready")
    if state.status == "failed":
        reason = (state.failure or {}).get("reason", "failed")
        raise Conflict(f"drafting failed ({reason}); submit the site again to start a new draft")


def _check_combination(patch: Patch) -> None:
    """A slot cannot be set and restored, or set/restored/locked and regenerated, in one call."""
    set_names = set(patch.set_slots())
    problems = []
    for name in _unique(patch.restore):
        if name in set_names:
            problems.append(FieldProblem("restore", "conflict", f"{name} is both set and restored"))
    for name in _unique(patch.regenerate):
        if name in set_names or name in patch.restore or name in patch.lock_fields:
            problems.append(FieldProblem("regenerate", "conflict", f"{name} is also set, restored or locked"))
    if problems:
        raise InvalidInput("contradictory update", problems)


class _Folding:
    """Emits events and folds each into a working state, so later steps see earlier ones."""

    def __init__(self, state: DraftState, meta: Meta) -> None:
        self.start = state
        self.state = state
        self._emit = Emitter(state, meta)

    def emit(self, cls: type[Event], **fields: Any) -> None:
        event = self._emit(cls, **fields)
        self.state = evolve(event, self.state)

    @property
    def events(self) -> list[Event]:
        return self._emit.events


def _set_slot(out: _Folding, name: str, value: Any) -> None:
    slot = out.state.slot(name)
    if value is None:
        if slot.state != "deleted" or slot.value is not None:
            out.emit(DraftFieldDeleted, field=name)
        return
    if value == slot.value and slot.state != "deleted":
        return
    state = "override" if slot.state == "override" else ("edited" if _has(slot.ai_value) else "manual")
    out.emit(DraftFieldEdited, field=name, value=value, state=state)


def _competitor(out: _Folding, url: str, request_id: str) -> None:
    current = out.state.competitor
    if not url:
        if current is not None:
            out.emit(DraftCompetitorCleared)
        return
    if current is not None and current.url == url and current.status in ("pending", "compared"):
        return
    out.emit(DraftCompetitorSet, url=url, request_id=request_id)


def _summarise(out: _Folding) -> None:
    completeness, missing, not_found = summary_of(out.state.slots)
    s = out.state
    if (completeness, tuple(missing), tuple(not_found)) != (s.completeness, s.missing, s.not_found_on_website):
        out.emit(DraftCompletenessChanged, completeness=completeness, missing=missing, not_found_on_website=not_found)


# ---------------------------------------------------------------- evolution


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
    return replace(s, version=e.originator_version, status="ready", drafter=e.drafter, slots=slots,
                   completeness=e.completeness, missing=tuple(e.missing),
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
    return replace(s, version=e.originator_version, listing_id=e.listing_id, listing_slug=e.slug, listing_attempt=None)


@evolve.register
def _(e: DraftResubmitted, s: DraftState) -> DraftState:
    return replace(s, version=e.originator_version)
