"""Which of the directory's categories a site belongs to, for the extractive drafter: shared keywords, scored.

The categories are the catalogue's (slug, name, description), passed in by
the caller; their keyword stems are the ones the evidence gate checks a
category against (`support.category_stems`), so a chosen category verifies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .reading import Candidate, candidate
from .support import category_stems
from .text import normalise, stem, words

MAX_CATEGORIES = 3


def categorise(found: Mapping[str, Candidate | None], categories: Sequence[Mapping[str, Any]]) -> Candidate | None:
    """Categories whose name or description shares keywords with what the site says.

    Name words count 3, description words 1; the best three with a score
    of at least 3 are kept, ties going to more distinct keywords, then to
    catalogue order.  Each quote is counted once.
    """
    quotes: dict[str, dict[str, str]] = {}
    for name in ("name", "tagline", "short_description", "description", "features", "keywords"):
        proposed = found.get(name)
        for evidence in proposed["evidence"] if proposed else []:
            quotes.setdefault(normalise(evidence["quote"]), evidence)
    stems = [(q, {stem(w) for w in words(q["quote"].replace("-", " "))}) for q in quotes.values()]
    scored: list[tuple[int, int, int, str, list[dict[str, str]]]] = []
    for position, category in enumerate(categories):
        slug = str(category.get("slug") or "")
        name_stems = {stem(w) for w in words(str(category.get("name") or "").replace("-", " "))}
        keywords = category_stems(category)
        score, distinct, support = 0, set(), []
        for quote, quote_stems in stems:
            hits = quote_stems & keywords
            if hits:
                score += sum(3 if h in name_stems else 1 for h in hits)
                distinct |= hits
                support.append(quote)
        if slug and score >= 3:
            scored.append((score, len(distinct), -position, slug, support))
    scored.sort(reverse=True)
    chosen = scored[:MAX_CATEGORIES]
    if not chosen:
        return None
    evidence = [e for *_, support in chosen for e in support]
    return candidate([slug for _, _, _, slug, _ in chosen], evidence)
