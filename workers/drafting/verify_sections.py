"""The evidence gate for the profile's sections: FAQs, founders and the company's social links.

Each entry is checked like a field (`verify.py`): its quotes must be on the
crawled pages, and they must say what the entry says. A FAQ needs its
question in a quote and its answer made of quoted sentences; a founder needs
a quote naming them as a founder (or the site's structured data doing so),
and a title or bio only stays when quoted too; a social link must be linked
from the site and point at the platform it is filed under.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from events.draft_fields import SOCIAL_KEYS, SOCIAL_PLATFORMS

from .evidence import Context, audit_value, check_evidence, origin_of
from .model import (
    MAX_ANSWER,
    MAX_FAQS,
    MAX_FOUNDER_BIO,
    MAX_FOUNDER_NAME,
    MAX_FOUNDER_TITLE,
    MAX_FOUNDERS,
    MAX_QUESTION,
    MAX_SOCIAL_URL,
    Evidence,
)
from .socials import platform_for
from .support import prose_support
from .founder_words import FOUNDER_TITLE, FOUNDING, FOUNDING_NOW, FOUNDING_WE
from .text import clean, contains_phrase, normalise, truncate_words

_FOUNDER_CUE = re.compile(
    rf"\b(?:{FOUNDER_TITLE})\b|\b(?:{FOUNDING})\b|\b(?:{FOUNDING_WE})\b|\b(?:{FOUNDING_NOW})\b|\b(?:started|created)\b(?:\s+in\s+\d{{4}})?\s+by\b"
)


def _refuse(dropped: list[dict[str, Any]], section: str, kind: str, value: Any, reason: str,
            failed: list[dict[str, Any]]) -> None:
    """Record an entry the gate dropped, with the quotes that did not check out."""
    entry: dict[str, Any] = {"field": section, "kind": kind, "value": audit_value(value), "reason": reason}
    if failed:
        entry["quotes"] = failed
    dropped.append(entry)


def verify_faqs(raw: Any, ctx: Context, dropped: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
            _refuse(dropped, "faqs", "faq", {"question": question, "answer": answer}, reason, failed)
            continue
        if any(normalise(f["question"]) == normalise(question) for f in faqs):
            continue
        evidence = [quotes[i].to_dict() for i in sorted(set(asked[:1] + answered))]
        faqs.append({"question": question, "answer": truncate_words(clean(answer), MAX_ANSWER), "evidence": evidence})
    return faqs


def verify_founders(raw: Any, ctx: Context, dropped: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
            _refuse(dropped, "founders", "founder", name, reason, failed)
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


def _fediverse(url: str, ctx: Context) -> bool:
    """A page of the site marks ``url`` as its own Mastodon profile (``rel="me"`` or a Mastodon label)."""
    return any(url in (page.structured.get("fediverse") or []) for page in ctx.crawl.pages)


def verify_socials(
    raw: Any, ctx: Context, dropped: list[dict[str, Any]]
) -> tuple[dict[str, str], dict[str, list[dict[str, str]]]]:
    """The links that stand, and for each the evidence: the page showing it and the link target quoted there.

    The gate finds the evidence itself (the first crawled page linking the
    URL), so a drafter's claim about where it saw a link is never trusted;
    ``website`` is evidenced by the crawled page at that address.
    """
    socials: dict[str, str] = {}
    evidence: dict[str, list[dict[str, str]]] = {}
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
        elif ctx.link_evidence(url) is None:
            reason = "link not found on the site"
        elif key in SOCIAL_PLATFORMS and platform_for(url) != key and not (key == "mastodon" and _fediverse(url, ctx)):
            reason = f"link is not a {key} link"
        if reason:
            dropped.append({"field": "company_socials", "kind": "social", "key": str(key), "value": str(url)[:500], "reason": reason})
            continue
        socials[key] = url.strip()
        shown = ctx.link_evidence(url) if key != "website" else None
        if shown is not None:
            evidence[key] = [shown.to_dict()]
        else:
            home = ctx.crawl.page(url) or ctx.crawl.homepage
            evidence[key] = [Evidence(url=home.url, quote=home.url, source="metadata").to_dict()] if home else []
    return socials, evidence
