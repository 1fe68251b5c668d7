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

from stdnum.eu import vat as eu_vat

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
    # Latin America and more countries whose calling code is read (`CALLING_CODES`)
    "uruguay": "UY", "paraguay": "PY", "bolivia": "BO", "ecuador": "EC", "venezuela": "VE", "costa rica": "CR",
    "panama": "PA", "panamá": "PA", "guatemala": "GT", "el salvador": "SV", "perú": "PE", "albania": "AL",
    "slovensko": "SK", "slovenská republika": "SK", "česko": "CZ", "česká republika": "CZ", "eesti": "EE",
    "magyarország": "HU", "românia": "RO", "lietuva": "LT", "slovenija": "SI", "hrvatska": "HR", "latvija": "LV",
    "\u03b5\u03bb\u03bb\u03ac\u03b4\u03b1": "GR", "\u03b5\u03bb\u03bb\u03ac\u03c2": "GR",
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
    **{state: "AU" for state in ("new south wales", "queensland", "tasmania", "western australia", "south australia",
                                 "nsw", "qld")},
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


# International calling codes that belong to one country each (+1 is shared by the US and Canada: left out)
CALLING_CODES: dict[str, str] = {
    "31": "NL", "32": "BE", "33": "FR", "34": "ES", "36": "HU", "39": "IT", "40": "RO", "41": "CH", "43": "AT",
    "44": "GB", "45": "DK", "46": "SE", "47": "NO", "48": "PL", "49": "DE", "52": "MX", "54": "AR", "55": "BR",
    "56": "CL", "57": "CO", "61": "AU", "64": "NZ", "65": "SG", "81": "JP", "82": "KR", "91": "IN",
    "351": "PT", "352": "LU", "353": "IE", "354": "IS", "356": "MT", "358": "FI", "370": "LT", "371": "LV",
    "372": "EE", "420": "CZ", "421": "SK", "385": "HR", "386": "SI",
    "30": "GR", "51": "PE", "58": "VE", "60": "MY", "62": "ID", "63": "PH", "66": "TH", "84": "VN", "90": "TR",
    "20": "EG", "27": "ZA", "212": "MA", "234": "NG", "254": "KE", "972": "IL", "971": "AE", "852": "HK",
    "886": "TW", "380": "UA", "381": "RS", "359": "BG", "357": "CY", "355": "AL", "506": "CR", "507": "PA",
    "502": "GT", "503": "SV", "591": "BO", "593": "EC", "595": "PY", "598": "UY",
}
_PHONE = re.compile(r"(?<![\w+])(?:\+|00)(\d{2,3})[\s(./-]*\d")
# Towns software companies give as their address whose name belongs to one country only (no Cambridge,
# Portland, Victoria, Córdoba, Guadalajara or London, Ontario doubt): naming one names its country.
TOWN_COUNTRIES: dict[str, str] = {
    **{t: "DE" for t in ("berlin", "hamburg", "m\u00fcnchen", "muenchen", "munich", "k\u00f6ln", "cologne",
                          "frankfurt am main", "stuttgart", "d\u00fcsseldorf", "leipzig", "dresden", "n\u00fcrnberg",
                          "bremen", "hannover", "karlsruhe", "freiburg im breisgau", "bonn", "mannheim", "heidelberg")},
    **{t: "AT" for t in ("wien", "vienna", "graz", "linz", "salzburg", "innsbruck")},
    **{t: "CH" for t in ("z\u00fcrich", "zurich", "basel", "bern", "gen\u00e8ve", "geneva", "lausanne", "winterthur",
                          "luzern", "lucerne", "st. gallen")},
    **{t: "FR" for t in ("paris", "lyon", "marseille", "toulouse", "bordeaux", "nantes", "lille", "rennes",
                          "strasbourg", "montpellier", "grenoble")},
    **{t: "ES" for t in ("madrid", "barcelona", "sevilla", "seville", "bilbao", "m\u00e1laga", "malaga", "zaragoza")},
    **{t: "NL" for t in ("amsterdam", "rotterdam", "utrecht", "den haag", "eindhoven", "groningen")},
    **{t: "BE" for t in ("bruxelles", "brussel", "brussels", "antwerpen", "gent", "ghent", "leuven")},
    **{t: "IT" for t in ("milano", "roma", "torino", "turin", "bologna", "firenze", "napoli")},
    **{t: "PT" for t in ("lisboa", "lisbon", "porto")},
    **{t: "IE" for t in ("dublin", "galway")},
    **{t: "GB" for t in ("manchester", "edinburgh", "glasgow", "leeds", "bristol", "liverpool", "brighton")},
    **{t: "DK" for t in ("copenhagen", "k\u00f8benhavn", "aarhus")},
    **{t: "SE" for t in ("stockholm", "g\u00f6teborg", "gothenburg", "malm\u00f6", "uppsala")},
    **{t: "NO" for t in ("oslo", "bergen", "trondheim")},
    **{t: "FI" for t in ("helsinki", "tampere")},
    **{t: "PL" for t in ("warszawa", "warsaw", "krak\u00f3w", "krakow", "wroc\u0142aw", "gda\u0144sk", "pozna\u0144")},
    **{t: "CZ" for t in ("praha", "prague", "brno")},
    **{t: "MX" for t in ("ciudad de m\u00e9xico", "monterrey")},
    **{t: "AR" for t in ("buenos aires",)},
    **{t: "PE" for t in ("lima", "arequipa")},
    **{t: "HU" for t in ("budapest", "debrecen", "szeged")},
    **{t: "TR" for t in ("istanbul", "i\u0307stanbul", "ankara", "izmir", "i\u0307zmir")},
    **{t: "UY" for t in ("montevideo",)},
    **{t: "EC" for t in ("quito", "guayaquil")},
    **{t: "CL" for t in ("santiago", "valpara\u00edso", "concepci\u00f3n de chile")},
    **{t: "EE" for t in ("tallinn", "tartu")},
    **{t: "SK" for t in ("bratislava", "ko\u0161ice")},
    **{t: "LT" for t in ("vilnius", "kaunas", "klaip\u0117da")},
    **{t: "SI" for t in ("ljubljana", "maribor")},
    **{t: "CO" for t in ("bogot\u00e1", "bogota", "medell\u00edn", "medellin")},
    **{t: "BR" for t in ("s\u00e3o paulo", "sao paulo", "rio de janeiro", "florian\u00f3polis", "belo horizonte")},
    **{t: "CA" for t in ("toronto", "montreal", "montr\u00e9al", "vancouver", "ottawa", "calgary")},
    **{t: "AU" for t in ("sydney", "melbourne", "brisbane")},
    **{t: "US" for t in ("san francisco", "new york city", "seattle", "chicago", "boston", "los angeles",
                          "denver", "pittsburgh", "philadelphia")},
}
_TOWN_PATTERN = re.compile(
    r"(?<![\w-])(?:" + "|".join(re.escape(t) for t in sorted(TOWN_COUNTRIES, key=len, reverse=True)) + r")(?![\w-])",
    re.IGNORECASE,
)
# "3511 NR Utrecht": four digits and two letters is the Dutch postcode, used nowhere else
# (not a US street's number and compass point: "1005 SE Hawthorne Blvd")
DUTCH_POSTCODE = re.compile(r"(?<!\d)[1-9]\d{3}\s?(?!SA|SD|SS)(?!(?:NE|NW|SE|SW)\s+\S+\s+(?:St|Ave|Blvd|Rd|Dr|Way|Ln|Pl|Street"
                            r"|Avenue|Boulevard|Road|Drive|Lane|Place)\b)[A-Z]{2}\s+[A-Z]")
# "30-701 Kraków" (two digits, a hyphen, three) is Polish, "1200-195 Lisboa" (four, a hyphen, three) Portuguese
POLISH_POSTCODE = re.compile(r"(?<![\d-])\d{2}-\d{3}\s+[A-Z\u00c0-\u017b]")
# "Halifax, NS B3J 3N4" (letter digit letter, digit letter digit) is Canada's form, "Leeds LS11 5QP" Britain's,
# "Mudgee NSW 2850" (a state and four digits) Australia's
# a state or province's code said after a street and a town, without a postal code ("1550 Wynkoop St, Denver, CO")
US_STATES = frozenset(
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR "
    "PA RI SC SD TN TX UT VT VA WA WV WI WY DC".split()
)
CANADIAN_PROVINCES = frozenset("AB BC MB NB NL NS NT NU ON PE QC SK YT".split())
US_STATE_ZIP = re.compile(
    r"\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR"
    r"|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC)\s+\d{5}(?:-\d{4})?\b"
)
CANADIAN_POSTCODE = re.compile(r"\b(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b")
BRITISH_POSTCODE = re.compile(r"(?<![\w-])[A-Z]{1,2}\d[A-Z\d]?\s\d[ABD-HJLNP-UW-Z]{2}(?![\w-])")
AUSTRALIAN_STATE = re.compile(r"\b(?:NSW|VIC|QLD|TAS|ACT|NT|WA|SA)\s+\d{4}\b|\b(?:NSW|QLD)\b")
# a company register of one country: "Amtsgericht Bochum, HRB 21457", "FN 541278 d", "CHE-123.456.789", "KvK",
# "RCS Lyon", "SIRET", "CVR", "P.IVA"
REGISTERS = (
    (re.compile(r"\bAmtsgericht\b[^\u00b7|]{0,40}\bHR[AB]\b"), "DE"), (re.compile(r"\bFN\s?\d{5,6}\s?[a-z]\b"), "AT"),
    (re.compile(r"\bCHE-\d{3}\.\d{3}\.\d{3}\b"), "CH"), (re.compile(r"\bKvK\b"), "NL"),
    (re.compile(r"\b(?:SIRET|SIREN|RCS [A-Z])"), "FR"), (re.compile(r"\bCVR\b"), "DK"),
    (re.compile(r"\bOIB\s?\d{11}\b"), "HR"), (re.compile(r"\u0391\u03a6\u039c\s?\d{9}\b"), "GR"),
    (re.compile(r"\bP\.\s?IVA\b|\bPartita IVA\b"), "IT"),
)
# an EU VAT number whose check digits hold ("USt-IdNr.: DE331904562"): its prefix is the country
_VAT_ID = re.compile(r"\b(?:AT\s?U|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK)\s?[0-9A-Z]{8,12}\b")
_VAT_COUNTRY = {"EL": "GR"}
# a company form used in one country only: "Kinos Oy", "Nordlys ApS", "Nowinka sp. z o.o.", "Shelfie Pty Ltd"
COMPANY_FORMS = (
    (re.compile(r"\b(?:Oy|Oyj)\b"), "FI"), (re.compile(r"\bApS\b"), "DK"), (re.compile(r"\bsp\. z o\.o\."), "PL"),
    (re.compile(r"\b(?:Kft|Zrt)\.?(?!\w)"), "HU"), (re.compile(r"\bPty\.? Ltd\b"), "AU"), (re.compile(r"\bO\u00dc\b"), "EE"),
    (re.compile(r"\bUAB\b"), "LT"), (re.compile(r"\bSCCL\b"), "ES"),  # a Catalan cooperative
    (re.compile(r"\u0399\.\u039a\.\u0395\."), "GR"),  # Greek "Ι.Κ.Ε."
    (re.compile(r"\bS\.L\.(?:U\.|L\.|P\.)?(?!\w)"), "ES"),  # a Spanish sociedad limitada ("Cazuela Tech S.L.")
)
PORTUGUESE_POSTCODE = re.compile(r"(?<![\d-])[1-9]\d{3}-\d{3}\s+[A-Z\u00c0-\u00de]")
# Brazil's CEP, five digits, a hyphen and three ("Recife – PE, 50030-170", "CEP 01310-100")
BRAZILIAN_POSTCODE = re.compile(r"(?<![\d-])\d{5}-\d{3}(?![\d-])")
# Italy's CAP before the town and its province's code in brackets ("12051 Alba (CN)", "20121 Milano (MI)")
_ITALIAN_PROVINCES = (
    "AG AL AN AO AP AQ AR AT AV BA BG BI BL BN BO BR BS BT BZ CA CB CE CH CL CN CO CR CS CT CZ EN FC FE FG FI FM FR GE "
    "GO GR IM IS KR LC LE LI LO LT LU MB MC ME MI MN MO MS MT NA NO NU OR PA PC PD PE PG PI PN PO PR PT PU PV PZ RA RC "
    "RE RG RI RM RN RO SA SI SO SP SR SS SU SV TA TE TN TO TP TR TS TV UD VA VB VC VE VI VR VT VV"
).split()
ITALIAN_POSTCODE = re.compile(
    rf"(?<!\d)\d{{5}}\s+[A-Z][\w'\u2019-]*(?:\s+[\w'\u2019-]+){{0,3}}\s+\((?:{'|'.join(_ITALIAN_PROVINCES)})\)"
)


def phone_countries(text: str) -> list[tuple[str, str]]:
    """(number's start, code) for each international phone number in ``text`` ("+49 89 …", "+353 1 …")."""
    found = []
    for match in _PHONE.finditer(text):
        digits = match.group(1)
        code = CALLING_CODES.get(digits) or (CALLING_CODES.get(digits[:2]) if len(digits) == 3 else None)
        if code:
            found.append((match.group(0), code))
    return found


def countries_indicated(text: str) -> list[tuple[str, str]]:
    """(what indicated it, code) for what names a country without its name: an international phone number
    ("+49 89 …"), a town of one country only ("München", "made with care in Amsterdam"), a postcode of a form
    one country uses ("3511 NR Utrecht", "30-701 Kraków", "1200-195 Lisboa", "NS B3J 3N4", "LS11 5QP",
    "NSW 2850", "OH 43201"), a company form or register of one country ("Kinos Oy", "Pty Ltd", "Amtsgericht
    Bochum, HRB 21457"), an EU VAT number whose check digits hold."""
    found = phone_countries(text)
    found += [(match.group(0), TOWN_COUNTRIES[match.group(0).casefold()]) for match in _TOWN_PATTERN.finditer(text)
              if match.group(0)[:1].isupper()]  # written as a name, not a word ("Nice", not "nice")
    found += [(m.group(0), "NL") for m in DUTCH_POSTCODE.finditer(text)]
    found += [(m.group(0), "PL") for m in POLISH_POSTCODE.finditer(text)]
    found += [(m.group(0), "PT") for m in PORTUGUESE_POSTCODE.finditer(text)]
    found += [(m.group(0), "BR") for m in BRAZILIAN_POSTCODE.finditer(text)]
    found += [(m.group(0), "IT") for m in ITALIAN_POSTCODE.finditer(text)]
    found += [(m.group(0), "CA") for m in CANADIAN_POSTCODE.finditer(text)]
    found += [(m.group(0), "US") for m in US_STATE_ZIP.finditer(text)]
    found += [(m.group(0), "GB") for m in BRITISH_POSTCODE.finditer(text)]
    found += [(m.group(0), "AU") for m in AUSTRALIAN_STATE.finditer(text)]
    found += [(m.group(0), code) for pattern, code in COMPANY_FORMS for m in pattern.finditer(text)]
    found += [(m.group(0), code) for pattern, code in REGISTERS for m in pattern.finditer(text)]
    found += [(m.group(0), _VAT_COUNTRY.get(m.group(0)[:2], m.group(0)[:2])) for m in _VAT_ID.finditer(text)
              if eu_vat.is_valid(m.group(0).replace(" ", ""))]
    return found


def countries_named(text: str) -> list[tuple[str, str]]:
    """(name as matched, code) for each country name in ``text``, in order."""
    found: list[tuple[str, str]] = []
    normalised = normalise(text)
    for match in _NAME_PATTERN.finditer(normalised):
        if match.group(1) == "england" and normalised[: match.start()].endswith("new "):
            continue  # New England is in the United States
        found.append((match.group(1), _NAMED[match.group(1)]))
    return found
