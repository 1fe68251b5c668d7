"""Draft commands: submit a site, record the pipeline's progress, edit, and turn a draft into a listing.

Handlers take their outside-world needs as ports (the layer rule of docs/architecture.md: commands never
import workers): `UrlGuard` checks a URL before anything is stored, `DraftJobs`
queues the background work. Jobs are queued after the events are stored; if
queueing fails the draft is still saved and the sweeper queues the work again.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Literal, Protocol
from uuid import UUID

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model
from pydantic_core import PydanticCustomError

from aggregates import catalog
from aggregates import listing as listing_agg
from aggregates import draft as d
from aggregates.base import Meta
from aggregates.draft import DraftState, Patch
from commands import listing as listing_cmd
from commands.store import EventStore, retrying
from events.draft import DraftCompetitorSet, DraftRegenerationRequested
from events.errors import FieldProblem, InvalidInput, NotFound

log = logging.getLogger(__name__)


SOCIAL_PLATFORMS: tuple[str, ...] = (
    "x", "linkedin", "github", "facebook", "instagram", "youtube",
    "tiktok", "mastodon", "bluesky", "discord", "reddit", "producthunt",
)
"""The twelve platform keys of `company_socials` and `founder_socials` (the drafter's SOCIAL_PLATFORMS)."""
SOCIAL_KEYS: tuple[str, ...] = ("website", "custom", *SOCIAL_PLATFORMS)
STORY_SECTIONS: tuple[str, ...] = (
    "title", "story", "why_started", "problem", "journey", "challenges", "achievements", "lessons", "whats_next",
)


# ---------------------------------------------------------------- ports


class UrlGuard(Protocol):
    def __call__(self, url: str, field: str) -> None:
        """Raise InvalidInput naming `field` unless `url` is an http(s) URL of a public host."""


class DraftJobs(Protocol):
    """Queues the background work of drafts (implemented over the job queue by workers/draft_jobs.py)."""

    def crawl(self, draft_id: UUID) -> None: ...

    def regenerate(self, draft_id: UUID, request_id: str) -> None: ...

    def compare(self, draft_id: UUID, request_id: str) -> None: ...


# ---------------------------------------------------------------- input validation helpers


# What the URL and email fields accept, as patterns the declared schemas carry too (`json_schema_extra`),
# so a client (or a fuzzer) can tell from the schema alone what the server takes. The host of a link is
# ASCII (punycode for international names); surrounding spaces are allowed and trimmed, "" removes a value.
_HOST = "[A-Za-z0-9._~%!$&'()*+,;=:-]+"
HTTP_URL_PATTERN = rf"^ *(?:https?://{_HOST}(?:[/?#][^\r\n]*)?)? *$"
HTTPS_URL_PATTERN = rf"^ *(?:https://{_HOST}(?:[/?#][^\r\n]*)?)? *$"
# Python's whitespace (str.isspace) spelled out, since `\s` means other things in other regex engines.
_WS = r"\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_ADDRESS = rf"[^@{_WS}]{{1,64}}@[^@{_WS}.][^@{_WS}]*\.[^@{_WS}]+"
EMAIL_PATTERN = rf"^ *{_ADDRESS} *$"
OPTIONAL_EMAIL_PATTERN = rf"^ *(?:{_ADDRESS})? *$"
_HTTP_URL = re.compile(HTTP_URL_PATTERN)
_HTTPS_URL = re.compile(HTTPS_URL_PATTERN)
_EMAIL = re.compile(EMAIL_PATTERN)
_OPTIONAL_EMAIL = re.compile(OPTIONAL_EMAIL_PATTERN)


def _http_url(value: str | None) -> str | None:
    if value is None:
        return value
    if not _HTTP_URL.fullmatch(value):
        raise ValueError("must be an http or https URL")
    return value


def _https_url(value: str | None) -> str | None:
    if value is None:
        return value
    if not _HTTPS_URL.fullmatch(value):
        raise ValueError("must be an https URL")
    return value


def _email(value: str) -> str:
    if not _EMAIL.fullmatch(value):
        raise ValueError("must be an email address like name@example.com")
    return value


def _optional_email(value: str | None) -> str | None:
    if value is None:
        return value
    if not _OPTIONAL_EMAIL.fullmatch(value):
        raise ValueError("must be an email address like name@example.com")
    return value


def _iso_date(value: str) -> str:
    try:
        date.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError("date_parsing", "Input should be a valid date in the format YYYY-MM-DD") from None
    return value


HttpUrl500 = Annotated[str, Field(max_length=500, json_schema_extra={"pattern": HTTP_URL_PATTERN}), AfterValidator(_http_url)]
Item200 = Annotated[str, Field(max_length=200)]
SlotName = Literal[
    "name", "tagline", "short_description", "description", "stage", "pricing_model", "pricing_summary",
    "country", "city", "founded_year", "contact_email", "demo_video_url", "logo_url",
    "categories", "tags", "features", "usps", "keywords", "faqs", "founders", "company_socials",
]


class DraftFieldsInput(BaseModel):
    """Profile fields to change; a value of null (or "" / []) removes the field."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = Field(None, max_length=500)
    tagline: str | None = Field(None, max_length=500)
    short_description: str | None = Field(None, max_length=500)
    description: str | None = Field(None, max_length=20000)
    stage: str | None = Field(None, max_length=500)
    pricing_model: str | None = Field(None, max_length=500)
    pricing_summary: str | None = Field(None, max_length=500)
    country: str | None = Field(None, max_length=500, pattern=r"^(|[A-Za-z]{2})$", description="ISO 3166 code, e.g. DE.")
    city: str | None = Field(None, max_length=500)
    founded_year: str | None = Field(None, max_length=500, pattern=r"^(|[0-9]{4})$", description="A year as a string.")
    contact_email: Annotated[str | None, AfterValidator(_optional_email)] = Field(
        None, max_length=500, json_schema_extra={"pattern": OPTIONAL_EMAIL_PATTERN})
    demo_video_url: HttpUrl500 | None = None
    logo_url: HttpUrl500 | None = None
    categories: list[Item200] | None = Field(
        None, max_length=20, description="Category slugs or names from list_categories; the first is primary.")
    tags: list[Item200] | None = Field(None, max_length=20)
    features: list[Item200] | None = Field(None, max_length=20)
    usps: list[Item200] | None = Field(None, max_length=20)
    keywords: list[Item200] | None = Field(None, max_length=20)


class FaqInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    question: str = Field(min_length=1, max_length=300)
    answer: str = Field(min_length=1, max_length=1500)


class FounderInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=160)
    title: str | None = Field(None, max_length=160, description="Role, e.g. CEO.")
    bio: str | None = Field(None, max_length=3000)


class MilestoneInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    date: Annotated[str, AfterValidator(_iso_date)] = Field(
        max_length=10, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", json_schema_extra={"format": "date"})
    title: str = Field(min_length=1, max_length=200)
    description: str | None = Field(None, max_length=2000)
    url: Annotated[str | None, AfterValidator(_https_url)] = Field(
        None, max_length=500, json_schema_extra={"pattern": HTTPS_URL_PATTERN},
        description="An https link (`https://` and an ASCII host; punycode for international names).")


class SeoInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    title: str | None = Field(None, max_length=70)
    meta: str | None = Field(None, max_length=170)


StoryInput = create_model(  # type: ignore[call-overload]
    "StoryInput",
    __config__=ConfigDict(frozen=True, extra="forbid"),
    __doc__="Founder story sections; each at most 8000 characters, null removes one.",
    **{name: (str | None, Field(None, max_length=8000)) for name in STORY_SECTIONS},
)

SocialsInput = create_model(  # type: ignore[call-overload]
    "SocialsInput",
    __config__=ConfigDict(frozen=True, extra="forbid"),
    __doc__="Links by platform (`website`, `custom` and twelve platforms); null or \"\" removes one.",
    **{name: (HttpUrl500 | None, None) for name in SOCIAL_KEYS},
)


# ---------------------------------------------------------------- command models


class SubmitListing(BaseModel):
    """Submit a product by its website URL; the site is read (respecting robots.txt) and a profile drafted.

    Answers 201 with the draft in status `crawling`; poll get_draft every few
    seconds until `ready`. Submitting a site you already have a draft of (that
    did not fail) returns that draft with `existing: true`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    url: str = Field(min_length=1, max_length=2048, description="The product's website, http(s) on a public host.")


class UpdateDraft(BaseModel):
    """Edit a draft: fields, FAQs, founders, socials, story, milestones, SEO; lock, restore or regenerate fields.

    Send only what changes. Setting a field marks it `edited` (or `manual` when
    the AI found nothing); null removes it (`deleted`); `lock_fields` marks
    fields `override` so AI redrafts never touch them; `restore` puts the AI's
    value back; `regenerate` redrafts up to 5 fields from the stored crawl in
    the background. If the draft is already a listing, the listing is updated too.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: UUID = Field(description="Draft id.")
    fields: DraftFieldsInput | None = None
    lock_fields: list[SlotName] | None = Field(None, max_length=20)
    regenerate: list[SlotName] | None = Field(None, max_length=5)
    restore: list[SlotName] | None = Field(None, max_length=20)
    faqs: list[FaqInput] | None = Field(None, max_length=10, description="Replaces all FAQs.")
    company_socials: SocialsInput | None = None  # type: ignore[valid-type]
    founder_socials: SocialsInput | None = None  # type: ignore[valid-type]
    founders: list[FounderInput] | None = Field(None, max_length=6, description="Replaces the list; first is primary.")
    story: StoryInput | None = None  # type: ignore[valid-type]
    milestones: list[MilestoneInput] | None = Field(None, max_length=50, description="Replaces the list.")
    competitor_url: str | None = Field(None, max_length=2048, description="A competitor's site to compare; \"\" clears.")
    seo: SeoInput | None = None


class InviteCofounder(BaseModel):
    """Invite a co-founder by email to co-own this draft and its listing (at most 10 invites)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: UUID = Field(description="Draft id.")
    email: Annotated[str, AfterValidator(_email)] = Field(
        min_length=3, max_length=254, json_schema_extra={"pattern": EMAIL_PATTERN},
        description="An address like name@example.com.")


class SubmitDraft(BaseModel):
    """Save the draft as a listing (not published); answers with `listing_id`. Running it again updates that listing."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: UUID = Field(description="Draft id.")


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Submitted:
    draft_id: UUID
    position: int
    existing: bool


@dataclass(frozen=True)
class Listed:
    draft_id: UUID
    listing_id: int
    slug: str
    position: int
    created: bool


# ---------------------------------------------------------------- loading


def load(store: EventStore, draft_id: UUID) -> DraftState:
    state: DraftState = store.load(d.draft_stream(draft_id), d.initial, d.evolve)
    if not state.exists:
        raise NotFound(f"no draft {draft_id}")
    return state


def load_owned(store: EventStore, draft_id: UUID, account_id: str) -> DraftState:
    """The draft, if `account_id` owns it; otherwise NotFound (never reveal that it exists)."""
    state: DraftState = store.load(d.draft_stream(draft_id), d.initial, d.evolve)
    if not state.exists or account_id not in state.owners:
        raise NotFound(f"no draft {draft_id}")
    return state


# ---------------------------------------------------------------- submit_listing


def submit_listing(
    store: EventStore, cmd: SubmitListing, account_id: str, meta: Meta, *,
    check_url: UrlGuard, jobs: DraftJobs | None, new_id: Callable[[], UUID] = uuid.uuid4,
) -> Submitted:
    """Check the URL (syntax and resolved address), then start a draft unless one of this site exists."""
    url = cmd.url.strip()
    check_url(url, "url")
    site = d.site_key(url)
    draft_id = new_id()
    site_id = d.site_stream(account_id, site)

    def attempt() -> Submitted:
        index = store.load(site_id, d.initial_site, d.evolve)
        current = store.load(d.draft_stream(UUID(index.draft_id)), d.initial, d.evolve) if index.draft_id else None
        fresh = store.load(d.draft_stream(draft_id), d.initial, d.evolve)
        events, existing = d.decide_submit(index, current, fresh, account_id=account_id, url=url, site=site, meta=meta)
        if existing is not None:
            return Submitted(existing, store.position(), True)
        return Submitted(draft_id, store.append(events), False)

    result = retrying(attempt)
    if not result.existing:
        queue_job(lambda: jobs.crawl(result.draft_id) if jobs else None)
    return result


# ---------------------------------------------------------------- the pipeline (called by jobs)


def _run(store: EventStore, draft_id: UUID, decide: Callable[[DraftState], list[Any]]) -> int:
    return retrying(lambda: store.append(decide(load(store, draft_id))))


def start_crawl(store: EventStore, draft_id: UUID, meta: Meta) -> int:
    return _run(store, draft_id, lambda s: d.decide_start_crawl(s, meta))


def crawl_attempt_failed(store: EventStore, draft_id: UUID, reason: str, detail: str, meta: Meta) -> int:
    return _run(store, draft_id, lambda s: d.decide_crawl_attempt_failed(s, reason, detail, meta))


def record_crawl(
    store: EventStore, draft_id: UUID, meta: Meta, *, crawl_id: str, final_url: str, site: str, pages: list[str],
    skipped: int, size: int, digest: str,
) -> int:
    return _run(store, draft_id, lambda s: d.decide_crawled(
        s, crawl_id=crawl_id, final_url=final_url, site=site, pages=pages, skipped=skipped, size=size, digest=digest,
        meta=meta))


def start_drafting(store: EventStore, draft_id: UUID, drafter: str, meta: Meta) -> int:
    return _run(store, draft_id, lambda s: d.decide_start_drafting(s, drafter, meta))


def record_draft(store: EventStore, draft_id: UUID, crawl_id: str, drafted: dict[str, Any], meta: Meta) -> int:
    return _run(store, draft_id, lambda s: d.decide_ready(s, crawl_id, drafted, meta))


def fail(store: EventStore, draft_id: UUID, reason: str, detail: str, stage: str, meta: Meta) -> int:
    return _run(store, draft_id, lambda s: d.decide_fail(s, reason, detail, stage, meta))


def record_regeneration(store: EventStore, draft_id: UUID, request_id: str, drafted: dict[str, Any], meta: Meta) -> int:
    position = _run(store, draft_id, lambda s: d.decide_regenerated(s, request_id, drafted, meta))
    _sync_if_listed(store, draft_id, meta)
    return position


def regeneration_failed(store: EventStore, draft_id: UUID, request_id: str, reason: str, detail: str, meta: Meta) -> int:
    return _run(store, draft_id, lambda s: d.decide_regeneration_failed(s, request_id, reason, detail, meta))


def record_comparison(
    store: EventStore, draft_id: UUID, request_id: str, crawl_id: str, comparison: dict[str, Any], meta: Meta
) -> int:
    return _run(store, draft_id, lambda s: d.decide_competitor_compared(s, request_id, crawl_id, comparison, meta))


def comparison_failed(store: EventStore, draft_id: UUID, request_id: str, reason: str, detail: str, meta: Meta) -> int:
    return _run(store, draft_id, lambda s: d.decide_competitor_failed(s, request_id, reason, detail, meta))


def expire_stale(store: EventStore, draft_id: UUID, timeout: Any, meta: Meta) -> int:
    """Fail what made no progress for `timeout` (status, regenerations, competitor reads)."""
    return _run(store, draft_id, lambda s: d.decide_timeouts(s, timeout, meta))


# ---------------------------------------------------------------- update_draft


def update_draft(
    store: EventStore, cmd: UpdateDraft, account_id: str, meta: Meta, *,
    check_url: UrlGuard, jobs: DraftJobs | None, new_request_id: Callable[[], str] = lambda: uuid.uuid4().hex,
) -> int:
    """Apply the edits; queue a redraft or a competitor read if asked; update the listing if there is one."""
    load_owned(store, cmd.id, account_id)
    patch = to_patch(store, cmd, check_url)
    request_id = new_request_id()

    def attempt() -> tuple[int, list[Any], DraftState]:
        state = load_owned(store, cmd.id, account_id)
        events = d.decide_update(state, patch, meta, request_id=request_id)
        return store.append(events), events, state

    position, events, before = retrying(attempt)
    for event in events:
        if isinstance(event, DraftRegenerationRequested) and event.fields:
            queue_job(lambda: jobs.regenerate(cmd.id, request_id) if jobs else None)
        if isinstance(event, DraftCompetitorSet):
            queue_job(lambda: jobs.compare(cmd.id, request_id) if jobs else None)
    if events and before.listing_id is not None:
        position = max(position, sync_listing(store, load(store, cmd.id), meta))
    return position


def to_patch(store: EventStore, cmd: UpdateDraft, check_url: UrlGuard) -> Patch:
    """Normalise the input: trim strings, "" and [] mean remove, categories become slugs, URLs are vetted."""
    given = cmd.model_fields_set
    fields: dict[str, Any] = {}
    if cmd.fields is not None:
        for name in cmd.fields.model_fields_set:
            value = getattr(cmd.fields, name)
            fields[name] = _norm_list(value) if name in d.LIST_FIELDS else _norm_text(value)
        if fields.get("categories"):
            fields["categories"] = resolve_categories(store, fields["categories"])
        if fields.get("country"):
            fields["country"] = fields["country"].upper()
        if fields.get("contact_email"):
            fields["contact_email"] = fields["contact_email"].lower()
    competitor = None
    if "competitor_url" in given:
        competitor = (cmd.competitor_url or "").strip()
        if competitor:
            check_url(competitor, "competitor_url")
    return Patch(
        fields=fields,
        faqs=_items(cmd.faqs, ("question", "answer")) if "faqs" in given else None,
        founders=_items(cmd.founders, ("name", "title", "bio")) if "founders" in given else None,
        company_socials=_mapping(cmd.company_socials, SOCIAL_KEYS) if "company_socials" in given else None,
        founder_socials=_mapping(cmd.founder_socials, SOCIAL_KEYS) if "founder_socials" in given else None,
        story=_mapping(cmd.story, STORY_SECTIONS) if "story" in given else None,
        seo=_mapping(cmd.seo, ("title", "meta")) if "seo" in given else None,
        milestones=_items(cmd.milestones, ("date", "title", "description", "url")) if "milestones" in given else None,
        lock_fields=tuple(cmd.lock_fields or ()),
        restore=tuple(cmd.restore or ()),
        regenerate=tuple(cmd.regenerate or ()),
        competitor_url=competitor,
    )


def resolve_categories(store: EventStore, items: list[str]) -> list[str]:
    """Category slugs or names (any case) -> slugs, in order, without repeats; unknown ones are a 400."""
    known = store.load(catalog.CATALOG_ID, catalog.initial, catalog.evolve).categories
    by_name = {c.name.casefold(): c.slug for c in known.values()} | {s.casefold(): s for s in known}
    slugs: list[str] = []
    problems = []
    for i, item in enumerate(items):
        slug = by_name.get(item.strip().casefold())
        if slug is None:
            problems.append(FieldProblem(f"fields.categories.{i}", "enum", f"{item!r} is not a category of list_categories"))
        elif slug not in slugs:
            slugs.append(slug)
    if problems:
        raise InvalidInput("unknown categories", problems)
    return slugs


def _norm_text(value: str | None) -> str | None:
    if value is None:
        return None
    return value.strip() or None


def _norm_list(value: list[str] | None) -> list[str] | None:
    if value is None:
        return None
    items = list(dict.fromkeys(v.strip() for v in value if v.strip()))
    return items or None


def _items(models: list[Any] | None, keys: tuple[str, ...]) -> list[dict[str, str]]:
    out = []
    for m in models or []:
        item = {k: (getattr(m, k) or "").strip() for k in keys}
        out.append({k: v for k, v in item.items() if v or k in keys[:1]})
    return out


def _mapping(model: Any, keys: tuple[str, ...]) -> dict[str, str | None]:
    """A merge patch: the keys sent (null or "" removes a key); null for the whole object clears all."""
    if model is None:
        return {k: None for k in keys}
    return {k: ((getattr(model, k) or "").strip() or None) for k in model.model_fields_set}


# ---------------------------------------------------------------- listings


def submit_draft(
    store: EventStore, cmd: SubmitDraft, account_id: str, meta: Meta, *,
    new_attempt: Callable[[], str] = lambda: uuid.uuid4().hex,
) -> Listed:
    """First time: create a saved, unpublished listing from the draft. Again: update that same listing."""
    state = load_owned(store, cmd.id, account_id)
    if state.listing_id is not None:
        return _resubmit(store, state, meta)
    attempt_id = new_attempt()
    stale = state.listing_attempt is not None
    _run(store, cmd.id, lambda s: d.decide_start_listing(s, attempt_id, meta))
    state = load(store, cmd.id)
    if state.listing_id is not None:
        return _resubmit(store, state, meta)
    found = _listing_made_from(store, state) if stale else None
    if found is None:
        content = d.listing_content(state)
        created = listing_cmd.create_listing(store, listing_cmd.CreateListing(
            profile=content["profile"], categories=content["categories"], owner_ids=content["owner_ids"],
            source="draft", draft_id=str(state.id), socials=content["socials"], faqs=content["faqs"],
            founders=content["founders"], story=content["story"], milestones=content["milestones"],
            not_found_on_website=content["not_found_on_website"],
        ), meta)
        found = (created.listing_id, created.slug)
    listing_id, slug = found
    position = _run(store, cmd.id, lambda s: d.decide_link_listing(s, listing_id, slug, meta))
    return Listed(cmd.id, listing_id, slug, position, created=True)


def _resubmit(store: EventStore, state: DraftState, meta: Meta) -> Listed:
    d.decide_resubmitted(state, meta)  # checks ready and listable before touching the listing
    assert state.listing_id is not None
    position = sync_listing(store, state, meta)
    position = max(position, _run(store, state.id, lambda s: d.decide_resubmitted(s, meta)))
    return Listed(state.id, state.listing_id, state.listing_slug or "", position, created=False)


SYNCED_PROFILE_KEYS = tuple(n for n in d.STRING_FIELDS + d.LIST_FIELDS if n != "categories") + (
    "website_url", "seo_title", "seo_description",
)


def sync_listing(store: EventStore, state: DraftState, meta: Meta) -> int:
    """Bring the draft's listing up to date through the listing commands (so version history shows it)."""
    assert state.listing_id is not None
    listing = listing_cmd.load(store, state.listing_id)
    extra = listing_agg.MAX_EXTRA_CATEGORIES if (listing.is_paid or "extra_categories" in listing.unlocked) else 0
    content = d.listing_content(state, extra)
    changes: dict[str, Any] = {k: content["profile"].get(k) for k in SYNCED_PROFILE_KEYS}
    for key in ("socials", "faqs", "founders", "not_found_on_website"):
        changes[key] = content[key]
    if content["categories"]:
        changes["categories"] = content["categories"]
    if not content["profile"].get("name"):
        changes.pop("name")
    position = listing_cmd.edit_listing(store, state.listing_id, changes, meta)
    position = max(position, listing_cmd.set_story(store, state.listing_id, content["story"], meta))
    return max(position, _sync_milestones(store, state.listing_id, content["milestones"], meta))


def _sync_milestones(store: EventStore, listing_id: int, wanted: list[dict[str, str]], meta: Meta) -> int:
    def key(m: dict[str, Any]) -> tuple[str, str, str, str]:
        return (str(m.get("date") or ""), str(m.get("title") or ""), str(m.get("description") or ""), str(m.get("url") or ""))

    current = listing_cmd.load(store, listing_id).milestones
    position = store.position()
    have = {key(m): mid for mid, m in current.items()}
    want = [key(m) for m in wanted]
    for k, mid in have.items():
        if k not in want:
            position = listing_cmd.delete_milestone(store, listing_id, mid, meta)
    for m, k in zip(wanted, want, strict=True):
        if k not in have:
            _, position = listing_cmd.add_milestone(store, listing_id, m, meta)
    return position


def _sync_if_listed(store: EventStore, draft_id: UUID, meta: Meta) -> None:
    state = load(store, draft_id)
    if state.listing_id is not None:
        try:
            sync_listing(store, state, meta)
        except InvalidInput:
            log.warning("draft %s: listing %s not updated after a redraft (draft incomplete)", draft_id, state.listing_id)


def _listing_made_from(store: EventStore, state: DraftState) -> tuple[int, str] | None:
    """After an interrupted submit_draft: the listing it created, found through the name's slugs."""
    name = str(state.value("name") or "")
    base = listing_agg.slugify(name)
    for n in range(1, listing_cmd.MAX_SLUG_TRIES + 1):
        slug = base if n == 1 else f"{base[:210]}-{n}"
        listing_id = listing_cmd.listing_id_for_slug(store, slug)
        if listing_id is None:
            return None
        first = store.stream(listing_agg.listing_stream(listing_id))[:1]
        if first and getattr(first[0], "draft_id", None) == str(state.id):
            return listing_id, slug
    return None


def queue_job(enqueue: Callable[[], Any]) -> None:
    """Queue a job; a failure is logged, not raised: the change is stored and the sweeper queues it again."""
    try:
        enqueue()
    except Exception:
        log.exception("could not queue a draft job; the sweeper will queue it again")
