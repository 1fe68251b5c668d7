"""Which of the directory's categories a site belongs to, for the extractive drafter: the site's own words, counted.

The categories are the catalogue's (slug, name, description), passed in by
the caller.  A category is proposed only when the site's quotes (name,
tagline, descriptions, features, keywords) contain two different terms of it
(`category_terms.py`), its full name counting as one more; the quotes that
contain them are its evidence, and the gate checks them the same way.
Precision over recall: no category is better than a guessed one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .category_terms import terms_in
from .reading import Candidate, candidate
from .text import normalise

MAX_CATEGORIES = 3
MIN_SCORE = 2


def categorise(found: Mapping[str, Candidate | None], categories: Sequence[Mapping[str, Any]]) -> Candidate | None:
    """Categories the site's own words support, best first (at most three)."""
    quotes: dict[str, dict[str, str]] = {}
    for name in ("name", "tagline", "short_description", "description", "features", "keywords"):
        proposed = found.get(name)
        for evidence in proposed["evidence"] if proposed else []:
            quotes.setdefault(normalise(evidence["quote"]), evidence)
    scored: list[tuple[int, int, int, str, list[dict[str, str]]]] = []
    for position, category in enumerate(categories):
        slug = str(category.get("slug") or "")
        full_name = normalise(str(category.get("name") or ""))
        hits: set[str] = set()
        support: list[dict[str, str]] = []
        for quote in quotes.values():
            terms = terms_in(quote["quote"], category)
            if terms:
                hits |= terms
                support.append(quote)
        score = len(hits) + (1 if full_name in hits else 0)
        if slug and score >= MIN_SCORE:
            scored.append((score, 1 if category.get("parent") else 0, -position, slug, support))
    scored.sort(reverse=True)
    chosen = scored[:MAX_CATEGORIES]
    if not chosen:
        return None
    evidence = [e for *_, support in chosen for e in support]
    return candidate([slug for _, _, _, slug, _ in chosen], evidence)
