"""The evidence gate every drafter goes through: nothing reaches a draft unverified.

A drafter proposes a *candidate* (plain data, e.g. a model's tool input)::

    {"drafter": "anthropic:claude-...",
     "fields": {"name": {"value": "Acme", "evidence": [{"url": ..., "quote": ..., "source": "text"}]}, ...},
     "faqs": [{"question", "answer", "evidence"}], "founders": [{"name", "title", "bio", "evidence"}],
     "company_socials": {"x": "https://x.com/acme"}}

:func:`verify` keeps a value only when

1. at least one of its quotes occurs on the named page of the crawl: in its
   visible text (``source="text"``) or in one value of its metadata
   (``"metadata"``: structured data, ``<title>``, targets of visible links);
   a missing source means either.  Quotes are compared after normalising
   Unicode (NFKC), quotes and dashes, case and whitespace, on word
   boundaries, and must have at least four characters (a whole metadata value
   may be shorter, like an ``addressCountry`` of "DE").  Pages robots.txt
   forbade were never fetched, so quotes from them never verify;
2. the value is supported by its verified quotes: short facts appear in a
   quote (``country`` through a country-name table, ``stage`` and
   ``pricing_model`` through cue phrases), each list item appears in a
   quote, and each sentence of a text field is a sentence (or title clause)
   of a quote.

Anything else is dropped: the field becomes ``not_found``, is listed in
``not_found_on_website`` and the value is kept in ``dropped`` with the reason.
Values are then cut to the SPEC bounds at a word boundary; a cut value is a
prefix of a verified value, so it stays supported.

This module checks the fields; what makes a quote support a value is in
`support.py`, and the FAQ, founder and social checks in `verify_sections.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from workers.adapters.websites import CrawlResult

from .countries import country_code
from .evidence import Context, audit_value, check_evidence, link_key, origin_of, strings_in
from .model import (
    FIELD_NAMES,
    LIST_FIELDS,
    MAX_LIST_ITEMS,
    PROSE_FIELDS,
    SECTIONS,
    STATE_AI,
    Evidence,
    FieldDraft,
    ProfileDraft,
    completeness_of,
    field_limit,
)
from .support import URL_FIELDS, category_stems, category_support, prose_support, support_of
from .text import clean, contains_phrase, normalise, truncate_words
from .verify_sections import verify_faqs, verify_founders, verify_socials
from .vocab import canonical_pricing_model, canonical_stage, is_video_url

MAX_EVIDENCE_PER_VALUE = 8
EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+$")


def verify(
    candidate: Mapping[str, Any] | ProfileDraft,
    crawl: CrawlResult,
    *,
    categories: Iterable[Mapping[str, Any]] | None = None,
    fields: Iterable[str] | None = None,
) -> ProfileDraft:
    """Check a candidate draft against the crawl; return only what the site supports.

    ``categories`` (dicts with ``slug``, ``name``, ``description``) are the
    allowed category values; ``fields`` restricts the draft to those field
    names and sections (``faqs``, ``founders``, ``company_socials``).
    """
    data = candidate.to_dict() if isinstance(candidate, ProfileDraft) else candidate
    wanted = requested(fields)
    ctx = Context(crawl, list(categories or []))
    found = data.get("fields")
    raw_fields: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    dropped: list[dict[str, Any]] = []
    drafted: dict[str, FieldDraft] = {}
    for name in FIELD_NAMES:
        if name in wanted:
            drafted[name] = _verify_field(name, raw_fields.get(name), ctx, dropped)
    faqs = verify_faqs(data.get("faqs"), ctx, dropped) if "faqs" in wanted else []
    founders = verify_founders(data.get("founders"), ctx, dropped) if "founders" in wanted else []
    socials, social_evidence = (
        verify_socials(data.get("company_socials"), ctx, dropped) if "company_socials" in wanted else ({}, {})
    )
    completeness, missing = completeness_of(drafted)
    return ProfileDraft(
        fields=drafted,
        faqs=faqs,
        founders=founders,
        company_socials=socials,
        social_evidence=social_evidence,
        not_found_on_website=[name for name, fd in drafted.items() if not fd.has_value],
        completeness=completeness,
        missing=missing,
        drafter=str(data.get("drafter") or "unknown"),
        dropped=dropped,
    )


def requested(fields: Iterable[str] | None) -> frozenset[str]:
    """The field and section names to draft (all when ``fields`` is None)."""
    if fields is None:
        return frozenset(FIELD_NAMES + SECTIONS)
    names = frozenset(fields)
    unknown = names - set(FIELD_NAMES + SECTIONS)
    if unknown:
        raise ValueError(f"unknown draft fields: {', '.join(sorted(unknown))}")
    return names


# --- fields --------------------------------------------------------------------------------------


def _verify_field(name: str, raw: Any, ctx: Context, dropped: list[dict[str, Any]]) -> FieldDraft:
    if isinstance(raw, FieldDraft):
        raw = raw.to_dict()
    if raw is None:
        return FieldDraft.not_found(name)
    if not isinstance(raw, Mapping):
        dropped.append({"field": name, "kind": "value", "value": str(raw)[:300], "reason": "malformed field (needs value and evidence)"})
        return FieldDraft.not_found(name)
    value = raw.get("value")
    if value is None or value == "" or value == []:
        return FieldDraft.not_found(name)
    quotes, failed = check_evidence(raw.get("evidence"), ctx)
    if name in LIST_FIELDS:
        return _verify_list(name, value, quotes, failed, ctx, dropped)
    return _verify_string(name, value, quotes, failed, dropped)


def _drop(dropped: list[dict[str, Any]], name: str, value: Any, reason: str, failed: list[dict[str, Any]]) -> FieldDraft:
    entry: dict[str, Any] = {"field": name, "kind": "value", "value": audit_value(value), "reason": reason}
    if failed:
        entry["quotes"] = failed
    dropped.append(entry)
    return FieldDraft.not_found(name)


def _note_failed(dropped: list[dict[str, Any]], name: str, failed: list[dict[str, Any]]) -> None:
    for failure in failed:
        dropped.append({"field": name, "kind": "evidence", **failure})


def _verify_string(
    name: str, raw_value: Any, quotes: list[Evidence], failed: list[dict[str, Any]], dropped: list[dict[str, Any]]
) -> FieldDraft:
    if isinstance(raw_value, bool) or not isinstance(raw_value, (str, int)):
        return _drop(dropped, name, str(raw_value)[:300], "value is not a string", failed)
    original = str(raw_value)
    value = clean(original) if name not in PROSE_FIELDS else original.strip()
    if not quotes:
        return _drop(dropped, name, original, "no quote found on the site", failed)
    value, problem = _canonical(name, value)
    if problem:
        return _drop(dropped, name, original, problem, failed)
    support = support_of(name, value, quotes)
    if not support:
        return _drop(dropped, name, original, "value not supported by its quotes", failed)
    limit = field_limit(name)
    if len(value) > limit:
        if name in URL_FIELDS or name == "contact_email":
            return _drop(dropped, name, original, f"longer than {limit} characters", failed)
        value = truncate_words(value, limit)
    _note_failed(dropped, name, failed)
    return FieldDraft(name=name, value=value, state=STATE_AI, evidence=[quotes[i] for i in support][:MAX_EVIDENCE_PER_VALUE])


def _canonical(name: str, value: str) -> tuple[str, str]:
    """The stored form of a value, or a reason it cannot be one."""
    if name == "country":
        code = country_code(value)
        return (code, "") if code else (value, "not a known country name or ISO 3166 code")
    if name == "pricing_model":
        model = canonical_pricing_model(value)
        return (model, "") if model else (value, "not a pricing model of the vocabulary")
    if name == "stage":
        stage = canonical_stage(value)
        return (stage, "") if stage else (value, "not a stage of the vocabulary")
    if name == "founded_year":
        if not re.fullmatch(r"\d{4}", value) or not 1800 <= int(value) <= date.today().year + 1:
            return value, "not a plausible four-digit year"
    if name == "contact_email" and not EMAIL.match(value):
        return value, "not an email address"
    if name in URL_FIELDS:
        if not value.startswith(("http://", "https://")):
            return value, "not an absolute http(s) URL"
        if name == "demo_video_url" and not is_video_url(value):
            return value, "not a video link (YouTube, Vimeo, Loom, Wistia or a video file)"
    if not value:
        return value, "empty value"
    return value, ""


def _verify_list(
    name: str,
    raw_value: Any,
    quotes: list[Evidence],
    failed: list[dict[str, Any]],
    ctx: Context,
    dropped: list[dict[str, Any]],
) -> FieldDraft:
    if isinstance(raw_value, str):
        raw_value = [raw_value]
    if not isinstance(raw_value, list):
        return _drop(dropped, name, str(raw_value)[:300], "value is not a list of strings", failed)
    if not quotes:
        return _drop(dropped, name, raw_value, "no quote found on the site", failed)
    items: list[str] = []
    seen: set[str] = set()
    used: list[int] = []
    for raw_item in raw_value:
        if len(items) >= MAX_LIST_ITEMS:
            break  # items past the bound are not drafted (nor audited)
        if not isinstance(raw_item, str) or not clean(raw_item):
            continue
        item = clean(raw_item)
        if name == "categories":
            slug = ctx.category_slug(item)
            if slug is None:
                dropped.append({"field": name, "kind": "item", "value": audit_value(item), "reason": "not a category of the directory"})
                continue
            support = category_support(slug, ctx, quotes)
            item = slug
        else:
            needle = normalise(item)
            support = [i for i, q in enumerate(quotes) if contains_phrase(normalise(q.quote), needle)]
        if not support:
            dropped.append({"field": name, "kind": "item", "value": audit_value(item), "reason": "item not supported by its quotes"})
            continue
        item = truncate_words(item, field_limit(name))
        if normalise(item) in seen:
            continue
        seen.add(normalise(item))
        items.append(item)
        used.extend(i for i in support[:1] if i not in used)
    if not items:
        return _drop(dropped, name, raw_value, "no item supported by its quotes", failed)
    _note_failed(dropped, name, failed)
    return FieldDraft(name=name, value=items, state=STATE_AI, evidence=[quotes[i] for i in sorted(used)][:MAX_LIST_ITEMS])


__all__ = ["category_stems", "link_key", "origin_of", "prose_support", "requested", "strings_in", "verify"]
