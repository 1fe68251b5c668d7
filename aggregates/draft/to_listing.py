"""The draft's side of becoming a listing, and what the listing gets from it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aggregates.base import Emitter, Meta
from events.base import Event
from events.draft import (
    DraftResubmitted,
    DraftSubmittedAsListing,
)
from events.draft_fields import (
    LIST_FIELDS, STRING_FIELDS,
)
from events.errors import Conflict, FieldProblem, InvalidInput
from aggregates.draft.state import REQUIRED_FOR_LISTING, DraftState, has_value, require_ready


def decide_link_listing(state: DraftState, listing_id: int, slug: str, meta: Meta,
                        sent: dict[str, Any] | None = None) -> list[Event]:
    """The draft is this listing's from now on; `sent` is what the listing took from it (None: not known)."""
    if state.listing_id == listing_id:
        return []
    if state.listing_id is not None:
        raise Conflict("this draft already has a listing")
    emit = Emitter(state, meta)
    emit(DraftSubmittedAsListing, listing_id=listing_id, slug=slug, sent=sent)
    return emit.events


def decide_resubmitted(state: DraftState, meta: Meta) -> list[Event]:
    require_ready(state)
    check_listable(state)
    if state.listing_id is None:
        raise Conflict("this draft has no listing yet")
    emit = Emitter(state, meta)
    emit(DraftResubmitted, listing_id=state.listing_id)
    return emit.events


_MISSING = {
    "name": "a listing needs a name: set one",
    "categories": "a listing needs a primary category: choose one",
}
"""The refusal of each field a listing needs, in words (a field's name is not always a noun to put "a" before)."""


def check_listable(state: DraftState) -> None:
    """A listing needs a name and a primary category (400 naming the missing fields): to be made, and to keep them
    once made (an edit of a listed draft that clears one is refused in the same words)."""
    problems = [
        FieldProblem(f"fields.{name}", "required", _MISSING.get(name, f"a listing needs {name}: set it"))
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
        if not has_value(value):
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
        "evidence": drafted_evidence(state, profile),
    }


def drafted_evidence(state: DraftState, profile: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Field or item -> the site quotes behind it, for what still holds the value drafted from the site.

    Profile fields by name; FAQs and founders by position (`faqs.0`, the
    listing keeps the draft's order); company links by platform
    (`socials.github`). A value a person set (`edited`, `manual`,
    `override`) has no evidence: it did not come from the site.
    """
    out: dict[str, list[dict[str, str]]] = {}
    for name in profile:
        slot = state.slot(name) if name in STRING_FIELDS + LIST_FIELDS else None
        if slot is not None and slot.state == "ai":
            out[name] = _quotes(slot.evidence)
    for section in ("faqs", "founders"):
        slot = state.slot(section)
        if slot.state == "ai":
            for i, item in enumerate(slot.value or []):
                out[f"{section}.{i}"] = _quotes(item.get("evidence") or ())
    socials = state.slot("company_socials")
    if socials.state == "ai":
        for platform in socials.value or {}:
            out[f"socials.{platform}"] = _quotes(state.social_evidence.get(platform) or ())
    return {k: v for k, v in out.items() if v}


def _quotes(evidence: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    return [{"url": str(e.get("url") or ""), "quote": str(e.get("quote") or "")} for e in evidence if e.get("quote")]
