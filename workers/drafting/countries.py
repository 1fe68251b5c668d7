"""Country names and the ISO 3166-1 alpha-2 codes a drafted ``country`` may hold.

A drafted country is a code; it is supported by evidence only when a quote
names the country (``COUNTRY_NAMES``, matched on word boundaries, case
insensitive) or, in structured data, when a value is exactly the code (a
JSON-LD ``addressCountry`` of "DE").  The table is deliberately small: the
countries software companies most often state, with common aliases.  US states, Canadian provinces and Australian
states name their country too (`REGION_COUNTRIES`).  A name
missing here means the country is left ``not_found``, never guessed.  Names
that are also regions elsewhere (Georgia, Wales, Jordan) are left out, and
"New England" is not England.
"""

from __future__ import annotations

import re

from .text import normalise

COUNTRY_NAMES: dict[str, str] = {
    "argentina": "AR", "australia": "AU", "austria": "AT", "bangladesh": "BD", "belgium": "BE",
    "brazil": "BR", "bulgaria": "BG", "canada": "CA", "chile": "CL", "china": "CN", "colombia": "CO",
    "croatia": "HR", "cyprus": "CY", "czech republic": "CZ", "czechia": "CZ", "denmark": "DK",
    "egypt": "EG", "estonia": "EE", "finland": "FI", "france": "FR", "germany": "DE", "deutschland": "DE",
    "greece": "GR", "hong kong": "HK", "hungary": "HU", "iceland": "IS", "india": "IN",
    "indonesia": "ID", "ireland": "IE", "israel": "IL", "italy": "IT", "japan": "JP", "kenya": "KE",
    "latvia": "LV", "lithuania": "LT", "luxembourg": "LU", "malaysia": "MY", "malta": "MT",
    "mexico": "MX", "morocco": "MA", "netherlands": "NL", "the netherlands": "NL", "holland": "NL",
    "new zealand": "NZ", "nigeria": "NG", "norway": "NO", "pakistan": "PK", "peru": "PE",
    "philippines": "PH", "poland": "PL", "portugal": "PT", "romania": "RO", "serbia": "RS",
    "singapore": "SG", "slovakia": "SK", "slovenia": "SI", "south africa": "ZA", "south korea": "KR",
    "korea": "KR", "spain": "ES", "sweden": "SE", "switzerland": "CH", "taiwan": "TW", "thailand": "TH",
    "turkey": "TR", "turkiye": "TR", "t\u00fcrkiye": "TR", "ukraine": "UA", "united arab emirates": "AE",
    "uae": "AE", "united kingdom": "GB", "uk": "GB", "great britain": "GB", "england": "GB",
    "scotland": "GB", "northern ireland": "GB", "united states": "US",
    "united states of america": "US", "usa": "US", "u.s.a.": "US", "u.s.": "US", "vietnam": "VN",
    "viet nam": "VN",
    # names in the languages sites are written in (German, French, Spanish, and a few own-language names)
    "españa": "ES", "espana": "ES", "espagne": "ES", "spanien": "ES", "allemagne": "DE", "alemania": "DE",
    "frankreich": "FR", "francia": "FR", "österreich": "AT", "oesterreich": "AT", "autriche": "AT",
    "schweiz": "CH", "suisse": "CH", "svizzera": "CH", "suiza": "CH", "irland": "IE", "irlanda": "IE",
    "irlande": "IE", "italia": "IT", "italien": "IT", "italie": "IT", "nederland": "NL", "niederlande": "NL",
    "pays-bas": "NL", "países bajos": "NL", "belgique": "BE", "belgië": "BE", "belgien": "BE",
    "bélgica": "BE", "polska": "PL", "polen": "PL", "pologne": "PL", "polonia": "PL", "sverige": "SE",
    "schweden": "SE", "suède": "SE", "suecia": "SE", "danmark": "DK", "dänemark": "DK",
    "danemark": "DK", "dinamarca": "DK", "norge": "NO", "norwegen": "NO", "norvège": "NO", "noruega": "NO",
    "suomi": "FI", "finnland": "FI", "finlande": "FI", "finlandia": "FI", "estados unidos": "US",
    "états-unis": "US", "etats-unis": "US", "vereinigte staaten": "US", "royaume-uni": "GB",
    "reino unido": "GB", "vereinigtes königreich": "GB", "méxico": "MX", "mexique": "MX",
    "brasil": "BR", "brésil": "BR", "brasilien": "BR", "kanada": "CA", "canadá": "CA",
    "luxemburg": "LU", "tschechien": "CZ", "griechenland": "GR", "grèce": "GR", "grecia": "GR",
}
"""Lower-case country name or alias -> ISO 3166-1 alpha-2 code."""

# States and provinces that exist in one country only, so naming one names the country ("Portland,
# Oregon"; "Toronto, Ontario").  Georgia (also a country) and Victoria (also a town in Canada) are out.
REGION_COUNTRIES: dict[str, str] = {
    **{state: "US" for state in (
        "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware",
        "florida", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky", "louisiana", "maine",
        "maryland", "massachusetts", "michigan", "minnesota", "mississippi", "missouri", "montana", "nebraska",
        "nevada", "new hampshire", "new jersey", "new mexico", "new york state", "north carolina", "north dakota",
        "ohio", "oklahoma", "oregon", "pennsylvania", "rhode island", "south carolina", "south dakota",
        "tennessee", "texas", "utah", "vermont", "virginia", "west virginia", "wisconsin", "wyoming",
    )},
    **{province: "CA" for province in (
        "ontario", "quebec", "qu\u00e9bec", "british columbia", "alberta", "manitoba", "saskatchewan",
        "nova scotia", "new brunswick", "newfoundland and labrador", "prince edward island",
    )},
    **{state: "AU" for state in ("new south wales", "queensland", "tasmania", "western australia", "south australia")},
    # Mexican states and German Länder whose names are not also a country's or a common word elsewhere
    **{state: "MX" for state in (
        "jalisco", "nuevo le\u00f3n", "nuevo leon", "yucat\u00e1n", "yucatan", "oaxaca", "sonora", "quer\u00e9taro",
        "queretaro", "veracruz", "guanajuato", "sinaloa", "baja california", "quintana roo", "tamaulipas", "coahuila",
        "michoac\u00e1n", "michoacan", "chiapas", "aguascalientes",
    )},
    **{land: "DE" for land in (
        "bayern", "baden-w\u00fcrttemberg", "nordrhein-westfalen", "niedersachsen", "schleswig-holstein",
        "mecklenburg-vorpommern", "rheinland-pfalz", "sachsen-anhalt", "th\u00fcringen", "brandenburg", "hessen",
    )},
}

COUNTRY_CODES: frozenset[str] = frozenset(COUNTRY_NAMES.values())
_NAMED = {**REGION_COUNTRIES, **COUNTRY_NAMES}

_NAME_PATTERN = re.compile(
    r"(?<![\w.])(" + "|".join(re.escape(n) for n in sorted(_NAMED, key=len, reverse=True)) + r")(?![\w])"
)


def country_code(value: str) -> str | None:
    """The code for a code or a known name ("de", "Germany" -> "DE"), else None."""
    key = normalise(value).strip(" .")
    if len(key) == 2 and key.isalpha() and key.upper() in COUNTRY_CODES:
        return key.upper()
    return _NAMED.get(key) or _NAMED.get(normalise(value))


def countries_named(text: str) -> list[tuple[str, str]]:
    """(name as matched, code) for each country name in ``text``, in order."""
    found: list[tuple[str, str]] = []
    normalised = normalise(text)
    for match in _NAME_PATTERN.finditer(normalised):
        if match.group(1) == "england" and normalised[: match.start()].endswith("new "):
            continue  # New England is in the United States
        found.append((match.group(1), _NAMED[match.group(1)]))
    return found
