"""Whether a quote supports a value: the rules the evidence gate applies once a quote is found on the site.

A quote being on the page (`evidence.py`) is not enough; it must also say
what the value says. Short facts appear in a quote (`country` through a
country-name table, `stage` and `pricing_model` through cue phrases, links and
addresses as whole tokens), each sentence of a text field is a sentence of a
quote, and a category shares keywords with its quotes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .countries import COUNTRY_CODES, countries_indicated, countries_named
from .evidence import Context
from .model import PROSE_FIELDS, Evidence, field_limit
from .gazetteer import town_countries
from .category_terms import GENERAL_CATEGORY, names_work_software, terms_in
from .text import contains_phrase, normalise, sentence_key, sentences, stem, words
from .vocab import supports_pricing_model, supports_stage

URL_FIELDS = ("logo_url", "demo_video_url")
_TOKEN_STRIP = "<>()[]{}\"'.,;:!?"
_CATEGORY_STOPWORDS = frozenset(
    "a an and are as at be build built by for from get help in into is it of on or that the their them to "
    "tools tool people teams team work done software products product apps app run your you with without "
    "more other others all any can our we us".split()
)


def support_of(name: str, value: str, quotes: list[Evidence]) -> list[int]:
    """Indexes of the quotes that support ``value`` (empty when unsupported)."""
    texts = [q.quote for q in quotes]
    if name == "country":
        return country_support(value, quotes)
    if name == "pricing_model":
        return supports_pricing_model(value, texts)
    if name == "stage":
        return supports_stage(value, texts)
    if name in URL_FIELDS or name == "contact_email":
        return [i for i, q in enumerate(texts) if has_token(q, value)]
    if name in PROSE_FIELDS:
        return prose_support(value, texts, limit=field_limit(name))
    needle = normalise(value)
    return [i for i, q in enumerate(texts) if contains_phrase(normalise(q), needle)]


# a town's name as a quote writes it, one to three capitalised words ("Hereford", "Vilafranca del Penedès")
_TOWN_NAME = re.compile(r"(?<!\w)[A-Z\u00c0-\u00de][\w'-]*(?:[ -](?:(?:de|del|de la|am|an der|sur)\s)?[A-Z\u00c0-\u00de][\w'-]*){0,2}")


def country_support(code: str, quotes: list[Evidence]) -> list[int]:
    found = []
    for i, quote in enumerate(quotes):
        named = any(c == code for _, c in countries_named(quote.quote) + countries_indicated(quote.quote)) \
            or any(code in town_countries(part) for m in _TOWN_NAME.finditer(quote.quote)
                   for part in (m.group(0), *m.group(0).split()))  # "Made in Hereford": a town of that country
        exact_code = quote.source == "metadata" and normalise(quote.quote) == code.lower() and code in COUNTRY_CODES
        if named or exact_code:
            found.append(i)
    return found


def has_token(quote: str, value: str) -> bool:
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


def category_stems(category: Mapping[str, Any]) -> set[str]:
    """Keyword stems of a category's name and description (generic words left out)."""
    text = f"{category.get('name') or ''} {category.get('description') or ''}"
    return {stem(w) for w in words(text.replace("-", " ")) if w not in _CATEGORY_STOPWORDS and len(w) > 1}


def category_support(slug: str, ctx: Context, quotes: list[Evidence]) -> list[int]:
    """Quotes containing one of the category's terms (its name, or words a site in it uses: `category_terms.py`)."""
    category = ctx.categories[slug]
    general = slug == GENERAL_CATEGORY  # also the software a trade runs its work on (`names_work_software`)
    return [i for i, q in enumerate(quotes) if terms_in(q.quote, category) or (general and names_work_software(q.quote))]
