"""Which of the directory's categories a site belongs to, for the extractive drafter: the site's own words, counted.

The categories are the catalogue's (slug, name, description), passed in by
the caller.  A category is proposed only when the site's quotes (name,
tagline, descriptions, features, keywords) contain two different terms of it
(`category_terms.py`; a term inside another found term is the same mention), its full
name, or a phrase that alone says what a product is ("an email newsletter tool", "for
designers": `STRONG_TERMS`), counting as one more when a name, tagline, short description
or keyword quote says it; the quotes that
contain them are its evidence, and the gate checks them the same way.
Precision over recall: no category is better than a guessed one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .category_terms import GENERAL_CATEGORY, names_work_software, strong_terms_of, terms_in
from .reading import Candidate, candidate
from .text import contains_phrase, normalise

MAX_CATEGORIES = 3
MIN_SCORE = 2
# The category's full name counts one more only where the site says what the product is: a "no-code
# checklist builder" in passing, deep in a description, is one word, not a category.
_DEFINING = frozenset({"name", "tagline", "short_description", "keywords"})


def categorise(found: Mapping[str, Candidate | None], categories: Sequence[Mapping[str, Any]]) -> Candidate | None:
    """Categories the site's own words support, best first (at most three)."""
    quotes: dict[str, dict[str, str]] = {}
    defining: set[str] = set()  # quotes of the fields that say what the product is
    headline: set[str] = set()
    for name in ("name", "tagline", "short_description", "description", "features", "keywords"):
        proposed = found.get(name)
        for evidence in proposed["evidence"] if proposed else []:
            key = normalise(evidence["quote"])
            quotes.setdefault(key, evidence)
            if name in _DEFINING:
                defining.add(key)
            if name == "tagline":
                headline.add(key)
    scored: list[tuple[int, int, int, str, list[dict[str, str]]]] = []
    defined: list[str] = []  # categories with a term in the name, tagline, short description or keywords
    found_terms = {(key, str(c.get("slug") or "")): terms_in(q["quote"], c) for key, q in quotes.items() for c in categories}
    for position, category in enumerate(categories):
        slug = str(category.get("slug") or "")
        full_name = normalise(str(category.get("name") or ""))
        strong = strong_terms_of(slug)
        hits: set[str] = set()
        named = False
        support: list[dict[str, str]] = []
        in_tagline: set[str] = set()
        elsewhere: set[str] = set()
        for key, quote in quotes.items():
            terms = _own_terms(found_terms, key, slug)
            if terms:
                hits |= terms
                named = named or ((full_name in terms or bool(terms & strong)) and key in defining)
                repeats_headline = any(h in key for h in headline)  # a <title> "Acme – <tagline>" says it once more
                (in_tagline if repeats_headline else elsewhere).update(terms)
                support.append(quote)
        # the headline's own word, said again elsewhere ("Les newsletters des associations" and "l'outil de
        # newsletters"), counts one more: the site says twice what it is
        named = named or bool({_singular(t) for t in in_tagline} & {_singular(t) for t in elsewhere})
        score = len(distinct_terms(hits)) + (1 if named else 0)
        if slug and score >= MIN_SCORE:
            scored.append((score, 1 if category.get("parent") else 0, -position, slug, support))
            if any(normalise(q["quote"]) in defining for q in support):
                defined.append(slug)
    scored.sort(reverse=True)
    # a category the defining quotes say ("Hedgerow is an online store …") outranks one only the feature labels
    # and the description suggest ("Pickup slot scheduling", "SMS order reminders"): those are dropped
    chosen = [c for c in scored if c[3] in defined or not defined][:MAX_CATEGORIES]
    if not chosen:
        return _general(found, categories)
    evidence = [e for *_, support in chosen for e in support]
    return candidate([slug for _, _, _, slug, _ in chosen], evidence)


def _general(found: Mapping[str, Candidate | None], categories: Sequence[Mapping[str, Any]]) -> Candidate | None:
    """The general category for a site no narrower one fits, when its short description says the product is the
    software, app or system its users run their work on (`names_work_software`), quoted with that sentence."""
    if not any(c.get("slug") == GENERAL_CATEGORY for c in categories):
        return None
    proposed = found.get("short_description")
    said = [e for e in (proposed["evidence"] if proposed else []) if names_work_software(e["quote"])]
    return candidate([GENERAL_CATEGORY], said[:1]) if said else None


def _own_terms(found_terms: Mapping[tuple[str, str], set[str]], key: str, slug: str) -> set[str]:
    """The terms of category ``slug`` in the quote ``key``, less those that are words of a longer term another
    category found there: "Meeting notes that write their own follow-ups" says "meeting notes" (Productivity),
    and its "notes" is that mention, not a second one for Notes & Docs."""
    terms = found_terms.get((key, slug), set())
    others = {t for (k, s), found in found_terms.items() if k == key and s != slug for t in found} - terms
    return {t for t in terms if not any(len(o) > len(t) and contains_phrase(o, t) for o in others)}


def distinct_terms(hits: set[str]) -> set[str]:
    """The terms found, one per mention and word: "AI-powered" holds both "ai" and "ai-powered", "task" and
    "tasks" are one word; each is one word of support, not two."""
    outer = {term for term in hits if not any(other != term and contains_phrase(other, term) for other in hits)}
    return {_singular(term) for term in outer}


def _singular(term: str) -> str:
    return term[:-1] if len(term) > 3 and term.endswith("s") and not term.endswith("ss") else term
