"""City and country from a postal address as sites print it: imprint pages, contact pages, footers.

An address is rarely a sentence ("based in Berlin"): an imprint has
"Stresemannstraße 29 / 22769 Hamburg / Deutschland" on three lines, a footer
"Acme Ltd · Dublin, Ireland" or "548 Market St · San Francisco, CA 94104 ·
United States".  The forms read here:

- a postal code and a town ("22769 Hamburg", "46004 Valencia (España)", the Polish "30-701 Kraków", the
  Portuguese "1200-195 Lisboa" and the Slovak or Czech "031 01 Liptovský Mikuláš");
- "Town, ST 94104" (a US state code and ZIP code);
- "Town, ST V6E 2E9" / "Town VIC 3065" (a state or province code and the postal
  codes of the US, Canada and Australia), and a region between town and
  country ("44160 Guadalajara, Jalisco, México");
- "Town, Country" where the country is a known name (`countries.py`), also as
  the last two parts of a longer address ("..., Fitzroy VIC 3065, Melbourne, Australia");
- a known country name alone on the line, or the segment, after one of these.

Imprint, contact and about pages and the footer lines of any page are read,
and elsewhere only lines with a full street address ("Keizersgracht 241,
1016 EA Amsterdam"), so a customer's or a testimonial's town is not taken for
the company's.
"""

from __future__ import annotations

import re

from .countries import CANADIAN_PROVINCES, TOWN_COUNTRIES, US_STATES, countries_indicated, country_code
from .reading import Candidate, SitePage
from .text import normalise

# a town's words start with a capital, Latin Extended-A's among them ("İstanbul", "Łódź")
_TOWN = (r"[A-Z\u00c0-\u00de\u0100-\u017f\u0386-\u03ab][\w\u00c0-\u024f'\u2019.-]*(?:\s+(?:am|an der|im|upon|sur|de|del|la)?\s*"
         r"[A-Z\u00c0-\u00de\u0100-\u017f\u0386-\u03ab][\w\u00c0-\u024f'\u2019.-]*){0,2}")  # Greek towns too ("Θεσσαλονίκη")
_REGION = rf"(?:,\s*{_TOWN}(?=\s*,))?"  # a state or province between the town and the country
POSTAL_TOWN = re.compile(
    rf"(?:^|,\s*|\s)(?:\d{{4}}\s?(?!(?:NE|NW|SE|SW)\s)[A-Z]{{2}}(?=\s)|\d{{4,5}}|\d{{2}}-\d{{3}}|\d{{4}}-\d{{3}}|\d{{3}}\s\d{{2}})\s+(?P<city>{_TOWN}){_REGION}"
    rf"(?:\s*[,(]\s*(?P<country>[^(),]+?)\)?)?\.?$"
)
# "Boston, MA 02215", "Vancouver, BC V6E 2E9", "Sydney NSW 2000": a state code and the postal code after it
_STATE_POSTCODE = r"[A-Z]{2,3}\s+(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d|\d{4})"
US_TOWN = re.compile(rf"^(?P<city>{_TOWN}),?\s+{_STATE_POSTCODE}(?:,\s*(?P<country>[^(),\d]+))?\.?$")
_STREET = re.compile(r"\b(?:street|st|road|rd|avenue|ave|suite|floor|stra(?:\u00df|ss)e|weg|platz|allee|gasse|calle|avenida"
                     r"|plaza|rue|boulevard|bd|chemin|via|piazza)\b|(?:stra(?:\u00df|ss)e|weg|platz|gasse)$", re.IGNORECASE)
# "Leeds LS11 5QP", "Edinburgh EH1 1YZ": a British town before its postcode
UK_TOWN = re.compile(rf"^(?P<city>{_TOWN})\s+[A-Z]{{1,2}}\d[A-Z\d]?\s\d[A-Z]{{2}}(?:,\s*(?P<country>[^(),\d]+))?\.?$")
TOWN_COUNTRY = re.compile(rf"^(?P<city>{_TOWN}),\s*(?P<country>{_TOWN})\.?$")
# "Montréal (Québec) H2T 1X3", "Toronto, ON M5V 2T6": a Canadian town before its postal code, which is Canada's alone
CA_TOWN = re.compile(rf"^(?P<city>{_TOWN})\s*(?:\([^)]*\))?,?\s+(?:[A-Z]{{2}}\s+)?[A-Z]\d[A-Z]\s?\d[A-Z]\d\.?$")
# "Dublin 8, D08 TCV4": an Irish Eircode, Ireland's alone
_EIRCODE = re.compile(r"[AC-FHKNPRTV-Y]\d{2}\s?[AC-FHKNPRTV-Y0-9]{4}")
# "Maintained from Leeds, United Kingdom", "Made in Lyon, France": where the company works, said before the town
_WORKS_FROM = re.compile(r"^(?:maintained|made|built|run|operated|based|designed|developed|crafted|hosted)\s+(?:from|in)\s+",
                         re.IGNORECASE)
_SEPARATORS = re.compile(r"\s+[\u00b7\u2022|\u2013\u2014]\s+|\s*;\s*")
_COMPANY_WORDS = re.compile(r"\b(?:ltd|llc|inc|gmbh|ag|s\.?l\.?|s\.?a\.?|sas|sarl|b\.?v|oy|ab|plc|ug)\b\.?", re.IGNORECASE)
_NOT_ADDRESS = re.compile(r"\u00a9|\bcopyright\b|\(c\)", re.IGNORECASE)
_ADDRESS_PAGES = ("imprint", "contact", "about")
# "Florianópolis – SC, Brasil", "Florianópolis/SC": a state code after a dash or slash is one more address part
_STATE_AFTER_DASH = re.compile(r"(?:\s+[\u2013\u2014-]\s+|/)(?=[A-Z]{2}\b)")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u00c0-\u00de\d])")  # "© 2025. 83 Salamanca Place, …" too
# "Keizersgracht 241, 1016 EA Amsterdam", "Papirfabrikken 24 · 8600 Silkeborg"
# "Büyükdere Cad. No: 185, Levent, 34394 Şişli/İstanbul": a district between the number and the postcode
_FULL_ADDRESS = re.compile(r"\d+\w?\s*[,\u00b7|]\s*(?:[^,\u00b7|\d]{1,30},\s*)?(?:\d{4,5}|\d{4}\s?[A-Z]{2}|\d{3}\s\d{2})\s+"
                           r"[A-Z\u00c0-\u00de\u0100-\u017f\u0386-\u03ab]")  # "546 23 Θεσσαλονίκη" too


def _full_address(line: str) -> bool:
    """A line that is a postal address by its form wherever it stands: a street and a postcode, a town with its
    state and ZIP or postal code ("Halifax, NS B3J 3N4"), a British town and postcode, or a contact line with a
    postcode and town among its parts."""
    if _FULL_ADDRESS.search(line) or US_TOWN.match(line) or UK_TOWN.search(line):
        return True
    # "Halifax, NS, Canada": a town, its state or province code, its country
    town_code_country = re.fullmatch(rf"{_TOWN},\s*[A-Z]{{2,3}},\s*(?P<country>[^,\d]+)", line.strip())
    if town_code_country and country_code(town_code_country.group("country")):
        return True
    # a contact line of three or more parts, one of them a postcode and town: "Godille · 73700 Bourg-Saint-Maurice,
    # Savoie · piste@godille.example"
    parts = [p.strip() for p in re.split(r"\s+[\u00b7|\u2022]\s+", line)]
    return len(parts) >= 3 and any(re.fullmatch(r"\d{4,5}\s+" + _TOWN + r"(?:,\s*" + _TOWN + r")?", p) for p in parts)


def address_lines(pages: list[SitePage]) -> list[tuple[SitePage, tuple[str, ...]]]:
    """Lines that may hold the company's address: imprint/contact/about pages whole, footers of every page."""
    found = [(p, p.all_lines) for kind in _ADDRESS_PAGES for p in pages if p.kind == kind]
    for page in pages:
        boiler = page.page.structured.get("boilerplate")
        if isinstance(boiler, list):
            found.append((page, tuple(line for line in boiler if isinstance(line, str))))
    # last, any other line holding a full postal address (a "Contact" widget in a sidebar)
    found += [(p, tuple(l for l in p.all_lines if _full_address(l))) for p in pages if p.kind not in _ADDRESS_PAGES]
    return found


def find_address(pages: list[SitePage], product_name: str = "") -> dict[str, Candidate]:
    """``city`` and/or ``country`` from the first address found, each quoted with the line(s) stating it.

    When that address names no country (a footer's "35000 Rennes"), a later address of the same town
    that does (the imprint's "…, 35000 Rennes, France.") supplies it."""
    first: dict[str, Candidate] = {}
    for page, lines in address_lines(pages):
        for index, line in enumerate(lines):
            following = lines[index + 1] if index + 1 < len(lines) else ""
            # an imprint writes its address inside a sentence: read the sentences of a long line too
            parts = _SENTENCE_BREAK.split(line)
            for part in [line] + (parts if len(parts) > 1 else []):
                found = _read(part, following if part == line else "", page, product_name)
                if not found:
                    continue
                if not first:
                    first = found
                elif "country" in found and normalise(found["city"]["value"]) == normalise(first["city"]["value"]):
                    first["country"] = found["country"]
                if "country" in first:
                    return first
    return first


# "34394 Şişli/İstanbul": a district, a slash, then the town (when it is a town of one country)
_DISTRICT_SLASH = re.compile(r"(?<=\d\s)[\w\u00c0-\u024f.-]+/(?P<town>[A-Z\u00c0-\u0130][\w\u00c0-\u024f-]+)")


def _read(line: str, following: str, page: SitePage, product_name: str) -> dict[str, Candidate]:
    read = _DISTRICT_SLASH.sub(lambda m: m.group("town") if m.group("town").casefold() in TOWN_COUNTRIES else m.group(0), line)
    segments = [s.strip() for s in _SEPARATORS.split(_STATE_AFTER_DASH.sub(", ", read)) if s.strip()]
    for position, segment in enumerate(segments):
        city, country = _town_of(segment)
        if not city or _COMPANY_WORDS.search(city) or _STREET.search(city) or _NOT_ADDRESS.search(segment) \
                or city.casefold() == product_name.casefold():
            continue
        quote = line
        if country is None:  # the country may follow: the next segment, or the next line alone
            rest = segments[position + 1:]
            country = next((c for c in (country_code(s) for s in rest) if c), None)
            if country is None and following and country_code(following) and len(following) > 2:
                country, quote = country_code(following), f"{line} {following}"
        evidence = [page.text_evidence(quote)]
        found: dict[str, Candidate] = {"city": {"value": city, "evidence": evidence}}
        if country:
            found["country"] = {"value": country, "evidence": evidence}
        return found
    return {}


# "8000 Aarhus C", "1620 København V": a Danish postal district letter is not part of the town
_DISTRICT_LETTER = re.compile(r"\s+[A-Z\u00c6\u00d8\u00c5]{1,2}$")


def _town_of(segment: str) -> tuple[str | None, str | None]:
    """(town, country code or None) of one address segment, (None, None) when it is not a town."""
    parts = [p.strip() for p in _WORKS_FROM.sub("", segment.strip()).rstrip(".").split(",")]
    # "1550 Wynkoop St, Denver, CO": a street, the town, and a state's or province's code with no postal code
    if len(parts) > 2 and any(c.isdigit() for c in parts[0]) and parts[-1] in US_STATES | CANADIAN_PROVINCES \
            and re.fullmatch(_TOWN, parts[-2]) and not _STREET.search(parts[-2]):
        both = parts[-1] in US_STATES and parts[-1] in CANADIAN_PROVINCES
        return parts[-2], None if both else "US" if parts[-1] in US_STATES else "CA"
    canadian = CA_TOWN.match(parts[-1])
    if canadian and not _STREET.search(canadian.group("city")) and not re.fullmatch(r"[A-Z]{2,3}", canadian.group("city")):
        return canadian.group("city"), "CA"
    # "2035 NW Front Ave, Portland, OR 97209": a street, the town, then its state and postal code
    if len(parts) > 2 and re.fullmatch(_STATE_POSTCODE, parts[-1]) and re.fullmatch(_TOWN, parts[-2]) \
            and not _STREET.search(parts[-2]):
        codes = {code for _, code in countries_indicated(parts[-1])}
        return parts[-2], (codes.pop() if len(codes) == 1 else None)
    for pattern in (US_TOWN, POSTAL_TOWN, UK_TOWN):
        match = pattern.search(segment)
        if match:
            raw_country = match.groupdict().get("country")
            if raw_country and re.fullmatch(r"[A-Z]{2}", raw_country.strip()) \
                    and "(" in segment[match.start("country") - 3:match.start("country")]:
                # "12051 Alba (CN)": a province's code in brackets, not a country's; the address's form may say it
                shown = {c for _, c in countries_indicated(segment)}
                return match.group("city").rstrip("."), (shown.pop() if len(shown) == 1 else None)
            code = country_code(raw_country) if raw_country else None
            if raw_country and code is None:
                if "(" in segment[match.start("country") - 3:match.start("country")]:
                    return match.group("city").rstrip("."), None  # "27283 Verden (Aller)": the river, not a country
                if pattern is POSTAL_TOWN and not _STREET.search(match.group("city")):
                    # "1075 Budapest, Kazinczy utca 14.", "73700 Bourg-Saint-Maurice, Savoie": a street or a region
                    # after the town, no country ("1200 Boylston Street, Suite 400" is a street, refused by the caller)
                    return _DISTRICT_LETTER.sub("", match.group("city").rstrip(".")), None
                continue
            if pattern is UK_TOWN and code is None:
                code = "GB"  # the postcode's form is Britain's alone
            return _DISTRICT_LETTER.sub("", match.group("city").rstrip(".")), code
    # "83 Salamanca Place, Hobart TAS 7004": a street, then the town with its state code and postal code
    state_town = US_TOWN.match(parts[-1]) if len(parts) > 1 and any(c.isdigit() for c in parts[0]) else None
    if state_town and not _STREET.search(state_town.group("city")):
        codes = {code for _, code in countries_indicated(parts[-1])}
        return state_town.group("city"), (codes.pop() if len(codes) == 1 else None)
    british = UK_TOWN.match(parts[-1]) if len(parts) > 1 else None  # "Round Foundry, Foundry Street, Leeds LS11 5QP"
    if british and not _STREET.search(british.group("city")):
        return british.group("city"), "GB"
    code = country_code(parts[-1]) if len(parts) > 1 and TOWN_COUNTRY.match(f"X, {parts[-1]}") else None
    if code is None and len(parts) > 1 and _EIRCODE.fullmatch(parts[-1]):
        code = "IE"
    if code is None and len(parts) > 2 and re.fullmatch(r"[\d\s-]{5,10}", parts[-1]):
        # "Rua do Bom Jesus, 180 – Recife Antigo, Recife – PE, 50030-170": a postal code of one country's form last
        shown = {c for _, c in countries_indicated(parts[-1])}
        code = shown.pop() if len(shown) == 1 else None
    if code is None:
        # "Av. José Larco 1150, of. 604, Miraflores, Lima": a street address ending in a town of one country
        last = parts[-1]
        if len(parts) >= 2 and any(c.isdigit() for c in parts[0]) and last.casefold() in TOWN_COUNTRIES:
            return last, TOWN_COUNTRIES[last.casefold()]
        return None, None
    # "..., Melbourne, Australia", "12 Camden Row, Dublin 8, D08 XY12, Ireland", "Wellington 6011, New Zealand",
    # "Florianópolis, SC, Brasil": the town is the nearest part before the country once postal codes and
    # state codes are set aside
    for part in reversed(parts[:-1]):
        words = re.sub(r"\s*\([^)]*\)", "", part).split()  # "Montréal (Québec) H2T 1X3": the province aside
        while words and any(c.isdigit() for c in words[-1]):
            words.pop()
        while words and any(c.isdigit() for c in words[0]):
            words.pop(0)
        town = " ".join(words)
        if not town or re.fullmatch(r"[A-Z]{2,3}", town):
            continue
        if country_code(town):
            continue  # a state or province ("Halifax, Nova Scotia, Canada"), or the country said twice
        if re.fullmatch(_TOWN, town) and not any(c.isdigit() for c in town):
            return town, code
        return None, None
    return None, None
