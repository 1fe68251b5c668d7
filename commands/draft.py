"""Draft commands: submit a site, record the pipeline's progress, edit, and turn a draft into a listing.

Handlers take their outside-world needs as ports (the layer rule of docs/architecture.md: commands never
import workers): `UrlGuard` checks a URL before anything is stored, `DraftJobs`
queues the background work. Jobs are queued after the events are stored; if
queueing fails the draft is still saved and the sweeper queues the work again.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID


from aggregates import catalog, draft_listing
from aggregates import draft as d
from aggregates import listing as listing_agg
from aggregates.base import Meta
from aggregates.draft import DraftState, Patch
from aggregates.draft_listing import fold
from commands import listing as listing_cmd
from commands.draft_inputs import (
    DraftFieldsInput,
    FaqInput,
    FounderInput,
    InviteCofounder,
    MilestoneInput,
    SeoInput,
    SocialsInput,
    StoryInput,
    SubmitDraft,
    SubmitListing,
    UpdateDraft,
)
from commands.draft_listing import check_fits_listing
from commands.store import EventStore, Loader
from events.base import Event
from events.draft import DraftCompetitorSet, DraftRegenerationRequested
from events.draft_fields import LIST_FIELDS, SOCIAL_KEYS, STORY_SECTIONS
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound

log = logging.getLogger(__name__)

__all__ = [  # the inputs live in commands/draft_inputs.py; callers name them through this module
    "DraftFieldsInput", "FaqInput", "FounderInput", "InviteCofounder", "MilestoneInput", "SeoInput", "SocialsInput",
    "StoryInput", "SubmitDraft", "SubmitListing", "UpdateDraft",
]


# ---------------------------------------------------------------- ports


class UrlGuard(Protocol):
    def __call__(self, url: str, field: str) -> None:
        """Raise InvalidInput naming `field` unless `url` is an http(s) URL of a public host."""


class DraftJobs(Protocol):
    """Queues the background work of drafts (implemented over the job queue by workers/draft_jobs.py)."""

    def crawl(self, draft_id: UUID) -> None: ...

    def regenerate(self, draft_id: UUID, request_id: str) -> None: ...

    def compare(self, draft_id: UUID, request_id: str) -> None: ...


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
    return _existing(store.load(d.draft_stream(draft_id), d), draft_id)


def load_owned(store: EventStore, draft_id: UUID, account_id: str) -> DraftState:
    """The draft, if `account_id` owns it; otherwise NotFound (never reveal that it exists)."""
    return _owned(store.load(d.draft_stream(draft_id), d), draft_id, account_id)


def _existing(state: DraftState, draft_id: UUID) -> DraftState:
    if not state.exists:
        raise NotFound(f"no draft {draft_id}")
    return state


def _owned(state: DraftState, draft_id: UUID, account_id: str) -> DraftState:
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
    existing: list[UUID] = []

    def decision(load: Loader) -> list[Event]:
        index = load(site_id, d.SITE_INDEX)
        current = load(d.draft_stream(UUID(index.draft_id)), d) if index.draft_id else None
        fresh = load(d.draft_stream(draft_id), d)
        events, found = d.decide_submit(index, current, fresh, account_id=account_id, url=url, site=site, meta=meta)
        existing[:] = [found] if found is not None else []
        return events

    appended = store.decide_across(decision)
    if existing:
        return Submitted(existing[0], appended.position, True)
    queue_job(lambda: jobs.crawl(draft_id) if jobs else None)
    return Submitted(draft_id, appended.position, False)


# ---------------------------------------------------------------- the pipeline (called by jobs)


def _decide(store: EventStore, draft_id: UUID, decision: Callable[[DraftState], list[Event]]) -> int:
    """Load-decide-append on an existing draft (NotFound otherwise)."""
    return store.decide(d.draft_stream(draft_id), d, lambda s: decision(_existing(s, draft_id))).position


def start_crawl(store: EventStore, draft_id: UUID, meta: Meta) -> int:
    return _decide(store, draft_id, lambda s: d.decide_start_crawl(s, meta))


def crawl_attempt_failed(store: EventStore, draft_id: UUID, reason: str, detail: str, meta: Meta) -> int:
    return _decide(store, draft_id, lambda s: d.decide_crawl_attempt_failed(s, reason, detail, meta))


def record_crawl(
    store: EventStore, draft_id: UUID, meta: Meta, *, crawl_id: str, final_url: str, site: str, pages: list[str],
    skipped: int, size: int, digest: str,
) -> int:
    return _decide(store, draft_id, lambda s: d.decide_crawled(
        s, crawl_id=crawl_id, final_url=final_url, site=site, pages=pages, skipped=skipped, size=size, digest=digest,
        meta=meta))


def start_drafting(store: EventStore, draft_id: UUID, drafter: str, meta: Meta) -> int:
    return _decide(store, draft_id, lambda s: d.decide_start_drafting(s, drafter, meta))


def record_draft(store: EventStore, draft_id: UUID, crawl_id: str, drafted: dict[str, Any], meta: Meta) -> int:
    return _decide(store, draft_id, lambda s: d.decide_ready(s, crawl_id, drafted, meta))


def fail(store: EventStore, draft_id: UUID, reason: str, detail: str, stage: str, meta: Meta) -> int:
    return _decide(store, draft_id, lambda s: d.decide_fail(s, reason, detail, stage, meta))


def record_regeneration(store: EventStore, draft_id: UUID, request_id: str, drafted: dict[str, Any], meta: Meta) -> int:
    """Apply a redraft; a listed draft's listing follows in the same append (when the draft stays listable)."""
    return _with_listing(store, draft_id, lambda s: d.decide_regenerated(s, request_id, drafted, meta), meta,
                         strict=False)


def regeneration_failed(store: EventStore, draft_id: UUID, request_id: str, reason: str, detail: str, meta: Meta) -> int:
    return _decide(store, draft_id, lambda s: d.decide_regeneration_failed(s, request_id, reason, detail, meta))


def record_comparison(
    store: EventStore, draft_id: UUID, request_id: str, crawl_id: str, comparison: dict[str, Any], meta: Meta
) -> int:
    return _decide(store, draft_id, lambda s: d.decide_competitor_compared(s, request_id, crawl_id, comparison, meta))


def comparison_failed(store: EventStore, draft_id: UUID, request_id: str, reason: str, detail: str, meta: Meta) -> int:
    return _decide(store, draft_id, lambda s: d.decide_competitor_failed(s, request_id, reason, detail, meta))


def expire_stale(store: EventStore, draft_id: UUID, timeout: Any, meta: Meta) -> int:
    """Fail what made no progress for `timeout` (status, regenerations, competitor reads)."""
    return _decide(store, draft_id, lambda s: d.decide_timeouts(s, timeout, meta))


# ---------------------------------------------------------------- update_draft


def update_draft(
    store: EventStore, cmd: UpdateDraft, account_id: str, meta: Meta, *,
    check_url: UrlGuard, jobs: DraftJobs | None, new_request_id: Callable[[], str] = lambda: uuid.uuid4().hex,
) -> int:
    """Apply the edits and, if the draft is a listing, the listing's update, in one append; then queue jobs.

    Every problem of the input is in one 400: the categories and competitor URL refused by `checked_patch`, the draft's
    own rules on the rest of the edit and, for a listed draft, the listing's bounds.
    """
    request_id = new_request_id()
    stored: list[Event] = []
    patches: list[tuple[Patch, list[FieldProblem]]] = []  # checked once, after ownership (someone else's: 404)

    def decision(s: DraftState) -> list[Event]:
        owned = _owned(s, cmd.id, account_id)
        if not patches:
            patches.append(checked_patch(store, cmd, check_url))
        try:
            events = d.decide_update(owned, patches[0][0], meta, request_id=request_id)
        except InvalidInput as exc:
            raise joined(patches[0][1], exc) from None
        stored[:] = events
        return events

    position = _with_listing(store, cmd.id, decision, meta, pending=lambda: patches[0][1] if patches else [])
    for event in stored:
        if isinstance(event, DraftRegenerationRequested) and event.fields:
            queue_job(lambda: jobs.regenerate(cmd.id, request_id) if jobs else None)
        if isinstance(event, DraftCompetitorSet):
            queue_job(lambda: jobs.compare(cmd.id, request_id) if jobs else None)
    return position


def joined(first: list[FieldProblem], exc: InvalidInput | None = None) -> InvalidInput:
    """One 400 with `first` and the problems of `exc`, each field named once (its first problem kept)."""
    if not first and exc is not None:
        return exc
    found = list({p.field: p for p in reversed(first + (exc.problems if exc else []))}.values())[::-1]
    names = ", ".join(p.field for p in found)
    return InvalidInput(f"{found[0].field}: {found[0].message}" if len(found) == 1 else f"invalid value for: {names}",
                        found)


def _with_listing(store: EventStore, draft_id: UUID, decision: Callable[[DraftState], list[Event]], meta: Meta,
                  strict: bool = True, pending: Callable[[], list[FieldProblem]] = lambda: []) -> int:
    """The draft's events and, when it is a listing, the events that bring the listing along: one append.

    The listing gets only what changed in the draft since it last reached it,
    and each value must fit the listing's own bounds (else a 400 and nothing is
    stored). With `strict=False` (a background redraft) a listing the draft can
    no longer describe (no name or category, or a value too long for a listing)
    is left as it is rather than failing the redraft. `pending` are problems of the input found before the
    decision (refused parts left out of it): nothing is stored while there are any, and they are reported with
    whatever the decision and the listing's bounds find in the rest.
    """

    def across(load: Loader) -> list[Event]:
        before = _existing(load(d.draft_stream(draft_id), d), draft_id)
        events = decision(before)
        if not events or before.listing_id is None:
            if pending():
                raise joined(pending())
            return events
        after = fold(before, events, d.evolve)
        current = load(listing_agg.listing_stream(before.listing_id), listing_agg)
        try:
            check_fits_listing(draft_listing.parts_to_send(current, after))
            synced = events + draft_listing.decide_sync(current, after, meta)
        except InvalidInput as exc:
            if strict:
                raise joined(pending(), exc) from None
            log.warning("draft %s: listing %s not updated after a redraft (draft incomplete, or a value a listing "
                        "cannot take)", draft_id, before.listing_id)
            return events
        if pending():
            raise joined(pending())
        return synced

    return store.decide_across(across).position


def checked_patch(store: EventStore, cmd: UpdateDraft, check_url: UrlGuard) -> tuple[Patch, list[FieldProblem]]:
    """Normalise the input: trim strings, "" and [] mean remove, categories become slugs, URLs are vetted.

    Answers the patch without what was refused (unknown categories, a competitor URL the guard refuses) and the
    problems of what was refused, so the rest of the edit is still checked and every problem said at once.
    """
    given = cmd.model_fields_set
    fields: dict[str, Any] = {}
    found: list[FieldProblem] = []
    if cmd.fields is not None:
        for name in cmd.fields.model_fields_set:
            value = getattr(cmd.fields, name)
            fields[name] = _norm_list(value) if name in LIST_FIELDS else _norm_text(value)
        if fields.get("categories"):
            try:
                fields["categories"] = resolve_categories(store, fields["categories"])
            except InvalidInput as exc:
                found += exc.problems
                del fields["categories"]
        if fields.get("country"):
            fields["country"] = fields["country"].upper()
        if fields.get("contact_email"):
            fields["contact_email"] = fields["contact_email"].lower()
    competitor = None
    if "competitor_url" in given:
        competitor = (cmd.competitor_url or "").strip()
        if competitor:
            try:
                check_url(competitor, "competitor_url")
            except InvalidInput as exc:
                found += exc.problems
                competitor, given = None, given - {"competitor_url"}
    return _patch(cmd, given, fields, competitor), found


def input_problems(store: EventStore, raw: Mapping[str, Any], check_url: UrlGuard,
                   schema_fields: Collection[str]) -> list[FieldProblem]:
    """The categories and competitor URL of an update_draft input its schema refused, checked as `checked_patch`
    checks them (`schema_fields`: what the schema named), so one 400 names every mistake."""
    found: list[FieldProblem] = []
    fields = raw.get("fields")
    categories = fields.get("categories") if isinstance(fields, Mapping) else None
    if (isinstance(categories, list) and len(categories) <= 20 and not _named("fields.categories", schema_fields)
            and all(isinstance(c, str) and len(c) <= 200 for c in categories)):
        try:
            resolve_categories(store, _norm_list(categories) or [])
        except InvalidInput as exc:
            found += exc.problems
    url = raw.get("competitor_url")
    if isinstance(url, str) and url.strip() and len(url) <= 2048 and not _named("competitor_url", schema_fields):
        try:
            check_url(url.strip(), "competitor_url")
        except InvalidInput as exc:
            found += exc.problems
    return found


def _named(field: str, schema_fields: Collection[str]) -> bool:
    return any(f == field or f.startswith(field + ".") for f in schema_fields)


def _patch(cmd: UpdateDraft, given: set[str], fields: dict[str, Any], competitor: str | None) -> Patch:
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
    known = store.load(catalog.CATALOG_ID, catalog).categories
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


def submit_draft(store: EventStore, cmd: SubmitDraft, account_id: str, meta: Meta,
                 site_taken: listing_cmd.SiteTaken | None = None) -> Listed:
    """First time: create a saved, unpublished listing from the draft. Again: update that same listing.

    A first time for a site that already has a public listing (`site_taken`,
    `queries/site_listings.py`) is refused with a 409 saying how to claim it.

    Again carries only what changed in the draft since it last reached the
    listing (`draft_listing.decide_sync`). Either way every value carried must
    fit the listing's own bounds (`check_fits_listing`, else a 400), and one
    append holds the draft's and the listing's events (and the slug's), so a
    crash never leaves a listing half made or unlinked.
    """
    new_id: list[int] = []  # allocated once, reused by every attempt
    outcome: list[tuple[int, str, bool]] = []

    def decision(load: Loader) -> list[Event]:
        state = _owned(load(d.draft_stream(cmd.id), d), cmd.id, account_id)
        if state.listing_id is not None:
            current = load(listing_agg.listing_stream(state.listing_id), listing_agg)
            outcome[:] = [(state.listing_id, state.listing_slug or current.slug, False)]
            events = draft_listing.decide_resubmit(current, state, meta)
            check_fits_listing(draft_listing.parts_to_send(current, state))
            return events
        d.require_ready(state)
        d.check_listable(state)
        found = _listing_made_from(store, state) if state.listing_attempt is not None else None
        if found is not None:  # an interrupted submit_draft of an earlier version made it: link it
            outcome[:] = [(found[0], found[1], True)]
            return d.decide_link_listing(state, found[0], found[1], meta)
        check_fits_listing(draft_listing.sync_parts(d.listing_content(state)))
        if site_taken is not None and not new_id:  # once, before the first attempt allocates an id
            listing_cmd.refuse_taken_website(str(state.value("website_url") or state.url or ""), account_id, site_taken)
        if not new_id:
            new_id.append(store.ids.next("listing"))
        listing_id = new_id[0]
        slug, slug_state = _free_slug(load, listing_agg.slugify(str(state.value("name") or "")))
        outcome[:] = [(listing_id, slug, True)]
        fresh = load(listing_agg.listing_stream(listing_id), listing_agg)
        return draft_listing.decide_create_from_draft(state, fresh, slug_state, listing_id=listing_id, slug=slug,
                                                      meta=meta)

    appended = store.decide_across(decision)
    listing_id, slug, created = outcome[0]
    return Listed(cmd.id, listing_id, slug, appended.position, created=created)


def _free_slug(load: Loader, base: str) -> tuple[str, listing_agg.SlugState]:
    """The name's slug, or the first of -2, -3... that no listing holds (a racing claim retries the move)."""
    for n in range(1, listing_cmd.MAX_SLUG_TRIES + 1):
        slug = base if n == 1 else f"{base[:210]}-{n}"
        state = load(listing_agg.slug_stream(slug), listing_agg.SLUG)
        if state.listing_id is None:
            return slug, state
    raise Conflict("no free slug found for this name")


def _listing_made_from(store: EventStore, state: DraftState) -> tuple[int, str] | None:
    """After a submit_draft interrupted before moves were atomic: the listing it created, found by the name's slugs."""
    base = listing_agg.slugify(str(state.value("name") or ""))
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
