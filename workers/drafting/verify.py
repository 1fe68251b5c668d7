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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from workers.adapters.websites import CrawlResult

from events.draft_fields import SOCIAL_KEYS, SOCIAL_PLATFORMS

from .countries import COUNTRY_CODES, countries_named, country_code
from .evidence import Context, audit_value, check_evidence, link_key, origin_of, strings_in
from .model import (
    FIELD_NAMES,
    LIST_FIELDS,
    MAX_ANSWER,
    MAX_FAQS,
    MAX_FOUNDER_BIO,
    MAX_FOUNDER_NAME,
    MAX_FOUNDER_TITLE,
    MAX_FOUNDERS,
    MAX_LIST_ITEMS,
    MAX_QUESTION,
    MAX_SOCIAL_URL,
    PROSE_FIELDS,
    SECTIONS,
    STATE_AI,
    Evidence,
    FieldDraft,
    ProfileDraft,
    completeness_of,
    field_limit,
)
from .socials import platform_for
from .text import clean, contains_phrase, normalise, sentence_key, sentences, stem, truncate_words, words
from .vocab import canonical_pricing_model, canonical_stage, is_video_url, supports_pricing_model, supports_stage

MAX_EVIDENCE_PER_VALUE = 8
URL_FIELDS = ("logo_url", "demo_video_url")
EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+$")
_TOKEN_STRIP = "<>()[]{}\"'.,;:!?"
_FOUNDER_CUE = re.compile(
    r"\bco-?founders?\b|\bfound(?:er|ers|ed|ing)\b|\b(?:started|created)\b(?:\s+in\s+\d{4})?\s+by\b"
)
_CATEGORY_STOPWORDS = frozenset(
    "a an and are as at be build built by for from get help in into is it of on or that the their them to "
    "tools tool people teams team work done software products product apps app run your you with without "
    "more other others all any can our we us".split()
)


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
    faqs = _verify_faqs(data.get("faqs"), ctx, dropped) if "faqs" in wanted else []
    founders = _verify_founders(data.get("founders"), ctx, dropped) if "founders" in wanted else []
    socials = _verify_socials(data.get("company_socials"), ctx, dropped) if "company_socials" in wanted else {}
    completeness, missing = completeness_of(drafted)
    return ProfileDraft(
        fields=drafted,
        faqs=faqs,
        founders=founders,
        company_socials=socials,
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
    support = _support(name, value, quotes)
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


def _support(name: str, value: str, quotes: list[Evidence]) -> list[int]:
    """Indexes of the quotes that support ``value`` (empty when unsupported)."""
    texts = [q.quote for q in quotes]
    if name == "country":
        return _country_support(value, quotes)
    if name == "pricing_model":
        return supports_pricing_model(value, texts)
    if name == "stage":
        return supports_stage(value, texts)
    if name in URL_FIELDS or name == "contact_email":
        return [i for i, q in enumerate(texts) if _has_token(q, value)]
    if name in PROSE_FIELDS:
        return prose_support(value, texts, limit=field_limit(name))
    needle = normalise(value)
    return [i for i, q in enumerate(texts) if contains_phrase(normalise(q), needle)]


def _country_support(code: str, quotes: list[Evidence]) -> list[int]:
    found = []
    for i, quote in enumerate(quotes):
        named = any(c == code for _, c in countries_named(quote.quote))
        exact_code = quote.source == "metadata" and normalise(quote.quote) == code.lower() and code in COUNTRY_CODES
        if named or exact_code:
            found.append(i)
    return found


def _has_token(quote: str, value: str) -> bool:
    wanted = normalise(value).rstrip("/")
    return any(token.strip(_TOKEN_STRIP).rstrip("/") == wanted for token in normalise(quote).split())


def prose_support(value: str, quotes: list[str], *, limit: int) -> list[int]:
    """Quotes that hold every sentence of ``value`` as one of their sentences.

    The last sentence may be a word-boundary prefix of a quote's sentence when
    the value sits at its length bound (it was cut there).
    """
    keys = [k for k in (sentence_key(s) for s in sentences(value)) if k]
    if not keys:
        return []
    quote_keys = [[k for k in (sentence_key(s) for s in sentences(q)) if k] for q in quotes]
    used: list[int] = []
    for position, key in enumerate(keys):
        match = next((i for i, qk in enumerate(quote_keys) if key in qk), None)
        if match is None and position == len(keys) - 1 and len(value) >= limit - 250:
            match = next(
                (i for i, qk in enumerate(quote_keys) if any(k.startswith(key) and contains_phrase(k, key) for k in qk)),
                None,
            )
        if match is None:
            return []
        if match not in used:
            used.append(match)
    return sorted(used)


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
            support = _category_support(slug, ctx, quotes)
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


def category_stems(category: Mapping[str, Any]) -> set[str]:
    """Keyword stems of a category's name and description (generic words left out)."""
    text = f"{category.get('name') or ''} {category.get('description') or ''}"
    return {stem(w) for w in words(text.replace("-", " ")) if w not in _CATEGORY_STOPWORDS and len(w) > 1}


def _category_support(slug: str, ctx: Context, quotes: list[Evidence]) -> list[int]:
    keywords = category_stems(ctx.categories[slug])
    return [i for i, q in enumerate(quotes) if keywords & {stem(w) for w in words(q.quote.replace("-", " "))}]


# --- FAQs, founders, socials ----------------------------------------------------------------------


def _verify_faqs(raw: Any, ctx: Context, dropped: list[dict[str, Any]]) -> list[dict[str, Any]]:
    faqs: list[dict[str, Any]] = []
    for item in raw if isinstance(raw, list) else []:
        if len(faqs) >= MAX_FAQS:
            break
        if not isinstance(item, Mapping) or not isinstance(item.get("question"), str) or not isinstance(item.get("answer"), str):
            dropped.append({"field": "faqs", "kind": "faq", "value": str(item)[:300], "reason": "malformed FAQ"})
            continue
        question, answer = clean(item["question"]), item["answer"].strip()
        quotes, failed = check_evidence(item.get("evidence"), ctx)
        texts = [q.quote for q in quotes]
        asked = [i for i, q in enumerate(texts) if contains_phrase(normalise(q), normalise(question))]
        answered = prose_support(answer, texts, limit=MAX_ANSWER)
        reason = ""
        if not quotes:
            reason = "no quote found on the site"
        elif not question or len(question) > MAX_QUESTION:
            reason = f"question empty or longer than {MAX_QUESTION} characters"
        elif not asked:
            reason = "question not in its quotes"
        elif not answered:
            reason = "answer not made of quoted sentences"
        if reason:
            entry: dict[str, Any] = {"field": "faqs", "kind": "faq", "value": audit_value({"question": question, "answer": answer}), "reason": reason}
            if failed:
                entry["quotes"] = failed
            dropped.append(entry)
            continue
        if any(normalise(f["question"]) == normalise(question) for f in faqs):
            continue
        evidence = [quotes[i].to_dict() for i in sorted(set(asked[:1] + answered))]
        faqs.append({"question": question, "answer": truncate_words(clean(answer), MAX_ANSWER), "evidence": evidence})
    return faqs


def _verify_founders(raw: Any, ctx: Context, dropped: list[dict[str, Any]]) -> list[dict[str, Any]]:
    founders: list[dict[str, Any]] = []
    for item in raw if isinstance(raw, list) else []:
        if len(founders) >= MAX_FOUNDERS:
            break
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str) or not clean(item["name"]):
            dropped.append({"field": "founders", "kind": "founder", "value": str(item)[:300], "reason": "malformed founder"})
            continue
        name = clean(item["name"])
        quotes, failed = check_evidence(item.get("evidence"), ctx)
        named = [i for i, q in enumerate(quotes) if contains_phrase(normalise(q.quote), normalise(name))]
        as_founder = [i for i in named if _founder_cue(quotes[i], name, ctx)]
        reason = ""
        if not quotes:
            reason = "no quote found on the site"
        elif len(name) > MAX_FOUNDER_NAME:
            reason = f"name longer than {MAX_FOUNDER_NAME} characters"
        elif not named:
            reason = "name not in its quotes"
        elif not as_founder:
            reason = "no quote says this person founded the company"
        if reason:
            entry: dict[str, Any] = {"field": "founders", "kind": "founder", "value": audit_value(name), "reason": reason}
            if failed:
                entry["quotes"] = failed
            dropped.append(entry)
            continue
        if any(normalise(f["name"]) == normalise(name) for f in founders):
            continue
        used = list(as_founder[:1])
        title = _founder_part(item.get("title"), quotes, used, dropped, name, "title")
        bio = _founder_part(item.get("bio"), quotes, used, dropped, name, "bio")
        founders.append({
            "name": name,
            "title": truncate_words(title, MAX_FOUNDER_TITLE) if title else None,
            "bio": truncate_words(bio, MAX_FOUNDER_BIO) if bio else None,
            "evidence": [quotes[i].to_dict() for i in sorted(used)],
        })
    return founders


def _founder_cue(quote: Evidence, name: str, ctx: Context) -> bool:
    if _FOUNDER_CUE.search(normalise(quote.quote)):
        return True
    page = ctx.page(quote.url)
    return quote.source == "metadata" and page is not None and normalise(name) in page.founders


def _founder_part(
    raw: Any, quotes: list[Evidence], used: list[int], dropped: list[dict[str, Any]], name: str, part: str
) -> str | None:
    if not isinstance(raw, str) or not clean(raw):
        return None
    value = clean(raw)
    texts = [q.quote for q in quotes]
    if part == "bio":
        support = prose_support(value, texts, limit=MAX_FOUNDER_BIO)
    else:
        support = [i for i, q in enumerate(texts) if contains_phrase(normalise(q), normalise(value))]
    if not support:
        dropped.append({"field": "founders", "kind": f"founder_{part}", "value": audit_value(value), "founder": name,
                        "reason": f"{part} not supported by the founder's quotes"})
        return None
    used.extend(i for i in support if i not in used)
    return value


def _verify_socials(raw: Any, ctx: Context, dropped: list[dict[str, Any]]) -> dict[str, str]:
    socials: dict[str, str] = {}
    site_origin = origin_of(ctx.crawl.site)
    for key, url in raw.items() if isinstance(raw, Mapping) else []:
        if url is None or url == "":
            continue
        reason = ""
        if key not in SOCIAL_KEYS:
            reason = "not a social platform key"
        elif not isinstance(url, str) or not url.strip().startswith(("http://", "https://")):
            reason = "not an http(s) link"
        elif len(url.strip()) > MAX_SOCIAL_URL:
            reason = f"longer than {MAX_SOCIAL_URL} characters"
        elif key == "website":
            reason = "" if origin_of(url) == site_origin else "website is not the crawled site"
        elif not ctx.link_on_site(url):
            reason = "link not found on the site"
        elif key in SOCIAL_PLATFORMS and platform_for(url) != key:
            reason = f"link is not a {key} link"
        if reason:
            dropped.append({"field": "company_socials", "kind": "social", "key": str(key), "value": str(url)[:500], "reason": reason})
            continue
        socials[key] = url.strip()
    return socials


__all__ = ["category_stems", "link_key", "origin_of", "prose_support", "requested", "strings_in", "verify"]
