"""Extractive finders for FAQs and location (city, country); founders are in `founders.py`.

Each returns candidates with the visible lines (or metadata values) they came
from as quotes; :func:`workers.drafting.verify.verify` checks them like any
other drafter's output.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .addresses import find_address
from .countries import TOWN_COUNTRIES, countries_indicated, countries_named, country_code, phone_countries
from .reading import (
    ORGANIZATION_TYPES,
    PRODUCT_TYPES,
    Candidate,
    SitePage,
    is_heading,
    is_nav,
    is_sentence,
    of_kind,
    string_value,
    structured_items,
    types_of,
)
from .gazetteer import town_country
from .text import clean, normalise, sentence_key, sentences
from .vocab import OTHER_COMPANY_PRICE, has_price

MAX_ANSWER_CHARS = 1_500
FAQ_HEADING = re.compile(
    r"\bfaqs?\b|frequently asked|\bquestions\b|h\u00e4ufige fragen|\bfragen\b|preguntas|questions fr\u00e9quentes"
    r"|veelgestelde vragen|\bvragen\b|domande frequenti|\bdomande\b|perguntas frequentes|\bperguntas\b"
    r"|vanliga fr\u00e5gor|\bfr\u00e5gor\b|\bsp\u00f8rgsm\u00e5l\b|\bsp\u00f8rsm\u00e5l\b|\bpytania\b|\bpitanja\b"
    r"|\u03b5\u03c1\u03c9\u03c4\u03ae\u03c3\u03b5\u03b9[\u03c2\u03c3]",
    re.IGNORECASE,
)
_QUOTE_OPENERS = ("\"", "\u201c", "\u201e", "\u00ab", "\u2014", "\u2013 ", "- ")  # a testimonial or its attribution
# A place of up to three words; a full stop ends it ("... in Guadalajara, Jalisco. Fernanda ..."), except after
# "St." / "Mt." ("St. Louis"); a particle may join its
# words ("Vilafranca del Penedès", "Frankfurt am Main", "Alcalá de Henares")
PLACE = r"(?:(?:St|Ste|Mt|Ft)\.\s)?[A-Z][\w'\u2019-]*(?:[ -](?:(?:de|del|de la|am|an der|sur|do|da)\s)?[A-Z][\w'\u2019-]*){0,2}\.?"
LOCATION = re.compile(
    r"\b(?i:based|headquartered|located|founded|started|made|built|studio|team|office|offices|company|startup|hq"
    r"|co-operative|cooperative|collective|agency)\b"
    rf"[^.!?]{{0,60}}?\bin\s+(?P<first>{PLACE})(?:(?:,\s*|\s+in\s+(?:der\s+|den\s+|the\s+)?)(?P<second>{PLACE}))?"
)
# The same in German, Spanish and French: "wurde 2020 in Hamburg gegründet", "con sede en Valencia", "basée à Lyon".
LOCATION_ELSEWHERE = (
    # "in Winterthur in der Schweiz": the country may follow the town with a second "in"
    re.compile(rf"\b(?i:sitz|ans\u00e4ssig|wurde|gegr\u00fcndet|entwickelt|zuhause|zu hause)\b[^.!?]{{0,60}}?\bin\s+(?P<first>{PLACE})"
               rf"(?:(?:,\s*|\s+in\s+(?:der\s+|den\s+)?)(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:sede|ubicad[ao]s?|basad[ao]s?|fundad[ao]|fund\u00f3|fundamos|naci\u00f3|hech[ao]|desarrollad[ao]|oficinas?|equipo)\b[^.!?]{{0,60}}?\ben\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:bas\u00e9e?s?|situ\u00e9e?s?|install\u00e9e?s?|fond\u00e9e?|vu le jour|n\u00e9e?|con\u00e7ue?|si\u00e8ge|\u00e9quipe|bureaux?)\b[^.!?]{{0,60}}?\b\u00e0\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    # Dutch "gevestigd in Utrecht", Italian "con sede a Milano", Portuguese "sediada em Lisboa"
    re.compile(rf"\b(?i:gevestigd|opgericht|gemaakt|kantoor|hoofdkantoor)\b[^.!?]{{0,60}}?\bin\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:sede|basata|fondata|nata|ufficio|uffici)\b[^.!?]{{0,60}}?\ba\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    # Swedish, Danish, Norwegian "grundades 2023 i Göteborg", "kontor i Aarhus"
    re.compile(rf"\b(?i:grundades|grundade|grundat|grundlagt|baserade?|kontor|holder til|ligger)\b[^.!?]{{0,60}}?\bi\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:sediada|sede|fundada|criada|escrit\u00f3rio)\b[^.!?]{{0,60}}?\bem\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    # "We work from Edinburgh, Scotland", "They maintain it from Aberystwyth"
    re.compile(rf"\b(?i:we|I|they|team)\s+(?i:work|works|working|maintain|maintains|run|runs|build|builds|make|makes)"
               rf"\s+(?:(?i:it|them|everything)\s+)?from\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    # Catalan "va començar el 2021 a Vilafranca del Penedès", "amb seu a Girona"
    re.compile(rf"\b(?i:va comen\u00e7ar|van comen\u00e7ar|va n\u00e9ixer|fundada|fundat|seu|oficines?)\b[^.!?]{{0,60}}?\ba\s+"
               rf"(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    # a timeline's founding in the present tense: "2021 — Marisol and Jonah Feld start Cresset in Tucson, Arizona"
    re.compile(rf"^(?:1[89]\d{{2}}|20\d{{2}})\b[^.!?]{{0,160}}?\b(?i:start|starts|found|founds)\s+[A-Z][\w'-]*\s+in\s+"
               rf"(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    # "from our kitchen table in Mudgee, NSW": a town and an Australian state's short name
    re.compile(rf"\bin\s+(?P<first>{PLACE}),\s*(?P<second>NSW|QLD|VIC|TAS)\b"),
)
_REGISTERED_OFFICE = re.compile(r"\bregistered (?:office|address)\b|\bsitz der gesellschaft\b|\bsi\u00e8ge social\b"
                                r"|\bdomicilio social\b", re.IGNORECASE)
CITY_STATES = frozenset({"singapore", "monaco", "hong kong", "luxembourg"})
NOT_PLACES = frozenset(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday europe asia africa america north south latin eu the a an our "
    "english german french spanish italian dutch portuguese english-speaking public beta private early "
    "production real one two three"
    # site builders a badge names ("Made in Framer", "Made in Webflow")
    " framer webflow wix squarespace carrd notion figma bubble jimdo hubspot wordpress".split()
)


# --- FAQs ----------------------------------------------------------------------------------------


def find_faqs(pages: list[SitePage]) -> list[Candidate]:
    """Question/answer pairs from FAQPage structured data, then from FAQ pages' text."""
    faqs: list[Candidate] = []
    for page in pages:
        for item in structured_items(page.page.structured):
            if "question" not in types_of(item):
                continue
            question = string_value(item.get("name"))
            answer_item = item.get("acceptedAnswer")
            answer = string_value(answer_item.get("text") if isinstance(answer_item, Mapping) else answer_item)
            if question and answer and "<" not in answer:
                faqs.append(_faq(page, clean(question), clean(answer)))
    for page in pages:
        if page.kind == "faq" or any(is_heading(l) and FAQ_HEADING.search(l) for l in page.lines) \
                or _question_run(page):
            faqs.extend(_text_faqs(page))
    unique: list[Candidate] = []
    for faq in faqs:
        if _ABOUT_PEOPLE.search(faq["question"]):
            continue  # the people behind it belong to the founders section, which tells founders from helpers
        if has_price(faq["answer"]) and OTHER_COMPANY_PRICE.search(normalise(faq["answer"])):
            continue  # a partner's offer and its price ("Our partner Tidewater Vector offers … from US$25/month")
        if not any(normalise(f["question"]) == normalise(faq["question"]) for f in unique):
            unique.append(faq)
    return unique[:10]


# "Who maintains Coppice?", "Wer steckt hinter Schraubstock?", "Qui est derrière Acme ?": questions about people
_ABOUT_PEOPLE = re.compile(
    r"^(?:who|wer|qui|qui\u00e9n|quien|chi|quem)\b.{0,30}?\b(?:maintains?|maintained|behind|runs|built|made|founded|created"
    r"|develops|steckt|steht|entwickelt|gegr\u00fcndet|derri\u00e8re|a cr\u00e9\u00e9|a fond\u00e9|detr\u00e1s|fund\u00f3|mantiene"
    r"|dietro|ha fondato|por tr\u00e1s|fundou)\b", re.IGNORECASE)


MIN_QUESTION_RUN = 3
_GREEK = re.compile(r"[\u0370-\u03ff]")


def is_question(line: str) -> bool:
    """A line asking: "?", or Greek's question mark (";", also as U+037E) after Greek words."""
    return line.endswith(("?", "\u037e")) or (line.endswith(";") and _GREEK.search(line) is not None)


def _question_run(page: SitePage) -> bool:
    """A page that is a list of questions each answered right below, whatever its address or heading calls it
    ("Dúvidas frequentes", "Good to know"): at least three short questions, each followed by a sentence."""
    lines = page.lines
    answered = sum(
        1 for line, following in zip(lines, lines[1:])
        if is_question(line) and len(line) <= 150 and not is_nav(line)
        and not is_question(following) and is_sentence(following, min_words=2)
    )
    return answered >= MIN_QUESTION_RUN


def _faq(page: SitePage, question: str, answer: str) -> Candidate:
    """A structured FAQ, quoted from the visible text when it is shown there, else from metadata."""
    evidence = []
    q_line = next((l for l in page.lines if normalise(question) in normalise(l)), None)
    evidence.append(page.text_evidence(q_line) if q_line else page.meta_evidence(question))
    answer_keys = {sentence_key(s) for s in sentences(answer)}
    a_lines = [l for l in page.lines if {sentence_key(s) for s in sentences(l)} & answer_keys]
    evidence += [page.text_evidence(l) for l in a_lines] or [page.meta_evidence(answer)]
    return {"question": question, "answer": answer, "evidence": evidence}


def _after_boilerplate(page: SitePage) -> list[bool]:
    """For each content line, whether boilerplate (a footer, a banner) stands between it and the line before:
    an answer never runs on across it ("… both ways." / footer / "We only use one cookie …")."""
    apart: list[bool] = []
    position = 0
    for line in page.lines:
        skipped = False
        while position < len(page.all_lines) and page.all_lines[position] != line:
            skipped, position = True, position + 1
        apart.append(skipped and bool(apart))
        position += 1
    return apart


def _text_faqs(page: SitePage) -> list[Candidate]:
    faqs: list[Candidate] = []
    lines = page.lines
    apart = _after_boilerplate(page)
    for index, line in enumerate(lines):
        if not is_question(line) or len(line) > 300 or is_nav(line):
            continue
        answer: list[str] = []
        for position in range(index + 1, len(lines)):
            following = lines[position]
            if is_question(following) or is_nav(following) or (is_heading(following) and answer) \
                    or following.startswith(_QUOTE_OPENERS) or apart[position]:
                break
            if sum(len(a) for a in answer) + len(following) > MAX_ANSWER_CHARS:
                break
            if not any(c.isalnum() for c in following):
                continue  # an accordion's toggle icon ("+", "▾") between the question and its answer
            if is_heading(following) and not answer:
                break
            answer.append(following)
        question, answer = _unmarked(line, _QUESTION_MARK), [_unmarked(a, _ANSWER_MARK) for a in answer]
        if answer and any(is_sentence(a, min_words=2) for a in answer):
            evidence = [page.text_evidence(question)] + [page.text_evidence(a) for a in answer]
            text = " ".join(a if a.endswith((".", "!", "?")) else a + "." for a in answer)
            faqs.append({"question": question, "answer": text, "evidence": evidence})
    return faqs


# "Q: Is it open source?" / "A: The runner is." and the same in German, Spanish, French, Dutch, Italian, Portuguese
_QUESTION_MARK = re.compile(r"^(?:q|question|frage|f|pregunta|p|vraag|v|domanda|d|pergunta)\s*[:.)]\s+(?=\S)", re.I)
_ANSWER_MARK = re.compile(r"^(?:a|answer|antwort|respuesta|r|r\u00e9ponse|antwoord|risposta|resposta)\s*[:.)]\s+(?=\S)", re.I)


def _unmarked(line: str, mark: re.Pattern[str]) -> str:
    """The line without its "Q:" / "A:" marker (the rest is still a quote of the page)."""
    match = mark.match(line)
    return line[match.end():] if match and len(line) > match.end() + 3 else line


# --- location ------------------------------------------------------------------------------------


def find_location(pages: list[SitePage], product_name: str = "") -> dict[str, Candidate]:
    """``city`` and ``country`` candidates from a structured address or "based in Berlin, Germany"."""
    found: dict[str, Candidate] = {}
    for page in pages:
        for item in structured_items(page.page.structured):
            kinds = types_of(item)
            address = item if "postaladdress" in kinds else item.get("address") if kinds & (ORGANIZATION_TYPES | PRODUCT_TYPES) else None
            if not isinstance(address, Mapping):
                continue
            city = string_value(address.get("addressLocality"))
            country = string_value(address.get("addressCountry"))
            if city and "city" not in found:
                found["city"] = {"value": clean(city), "evidence": [page.meta_evidence(city)]}
            if country and country_code(country) and "country" not in found:
                found["country"] = {"value": country_code(country), "evidence": [page.meta_evidence(country)]}
    address = find_address(pages, product_name)
    for key, value in address.items():
        found.setdefault(key, value)
    ordered = of_kind(pages, "about", "contact") + of_kind(pages, "home") + [
        p for p in pages if p.kind not in ("about", "contact", "home")
    ]
    stated: dict[str, Candidate] = {}
    for page in ordered:
        for line in page.all_lines:  # "Made with care in Amsterdam." in a footer counts; a menu does not
            if is_nav(line):
                continue
            for pattern in (LOCATION, *LOCATION_ELSEWHERE):
                for match in pattern.finditer(line):
                    _place(stated, page, line, match, product_name)
    # "made in Copenhagen, Denmark" beside the imprint's "1620 København V / Denmark": the town in the
    # site's own words, where the sentence names the same country as the address
    if "city" in stated and "country" in stated and stated["country"]["value"] == (found.get("country") or {}).get("value") \
            and stated["city"]["evidence"] == stated["country"]["evidence"]:
        found["city"] = stated["city"]
    # a registered office is a legal address (often a formation agent's): where the site says the team started
    # or works, in the same country, is the town ("started Teakettle in Leeds" beside "Registered office: …, London")
    registered = any(_REGISTERED_OFFICE.search(e["quote"]) for e in (found.get("city") or {}).get("evidence", []))
    if registered and "city" in stated and "country" not in stated \
            and town_country(str(stated["city"]["value"])) == (found.get("country") or {}).get("value"):
        found["city"] = stated["city"]
    for key, value in stated.items():
        found.setdefault(key, value)
    if "city" not in found:
        found.update(_contact_block_town(pages, product_name))
    if "city" in found and "country" not in found:
        indicated = _country_indicated(pages, found["city"]) or _town_country(pages, found["city"])
        if indicated:
            found["country"] = indicated
    return found


def _town_country(pages: list[SitePage], city: Candidate) -> Candidate | None:
    """The country the town's name alone says (`gazetteer.py`), the homepage's language region breaking a tie,
    quoted with the town's own quote."""
    lang = str(pages[0].page.structured.get("lang") or "") if pages else ""
    region = lang.split("-")[1] if "-" in lang else ""
    code = town_country(str(city["value"]), region)
    return {"value": code, "evidence": city["evidence"][:1]} if code else None


_LONE_PLACE = re.compile(rf"^{PLACE}$")


def _contact_block_town(pages: list[SitePage], product_name: str) -> dict[str, Candidate]:
    """A contact block's town alone on its line under the phone number ("hello@acme.example / +353 21 496 0731 /
    Cork"): the town, quoted, and the country the number's code names (the gate reads the same number)."""
    for page in of_kind(pages, "contact", "about", "home") + [p for p in pages if p.kind not in ("contact", "about", "home")]:
        lines = page.all_lines
        for phone_line, line in zip(lines, lines[1:]):
            codes = {code for _, code in phone_countries(phone_line)}
            if len(codes) != 1 or not _LONE_PLACE.match(line) or is_nav(line) or len(line) > 40:
                continue
            key = normalise(line)
            if key.split()[0] in NOT_PLACES or key == normalise(product_name) or country_code(line):
                continue
            return {"city": {"value": line, "evidence": [page.text_evidence(line)]},
                    "country": {"value": codes.pop(), "evidence": [page.text_evidence(phone_line)]}}
    return {}


def _country_indicated(pages: list[SitePage], city: Candidate) -> Candidate | None:
    """The country a town's quote shows without naming it: the town of one country only ("München"), a Dutch
    postcode or a phone number in the town's own quote, else an international phone number on the page that
    gives the address ("Telefon +49 89 …")."""
    town = normalise(str(city["value"])).strip()
    by_name = town_country(str(city["value"]))  # "Santiago de Compostela" is Spain's, whatever "Santiago" alone says
    for evidence in city["evidence"]:
        indicated = countries_indicated(evidence["quote"])
        own = [code for shown, code in indicated if normalise(shown) == town]  # the town itself first
        if own or indicated:
            code = own[0] if own else by_name or indicated[0][1]
            return {"value": code, "evidence": [evidence]}
    for evidence in city["evidence"]:
        page = next((p for p in pages if p.page.url == evidence["url"]), None)
        phones = [(line, phone_countries(line)) for line in page.all_lines] if page else []
        phones = [(line, found) for line, found in phones if found]
        codes = {code for _, found in phones for _, code in found}
        if page and len(codes) == 1:  # one country's numbers only
            return {"value": codes.pop(), "evidence": [page.text_evidence(phones[0][0])]}
        # else a line of the same page naming the town and one country ("… · M5500 Ciudad de Mendoza · Argentina")
        named = [(line, {code for _, code in countries_named(line)}) for line in page.all_lines
                 if re.search(rf"(?<![\w-]){re.escape(str(city['value']))}(?![\w-])", line)] if page else []
        named = [(line, codes) for line, codes in named if len(codes) == 1 and len(line) <= 300]
        if page and named:
            return {"value": next(iter(named[0][1])), "evidence": [page.text_evidence(named[0][0])]}
        # else a register, a VAT number, a postcode's form or a company form of one country on the same page
        # ("Amtsgericht Bochum HRB 21457"), towns aside (a customer's town says nothing of the company's)
        shown = [(line, [code for what, code in countries_indicated(line) if what.casefold() not in TOWN_COUNTRIES])
                 for line in page.all_lines] if page else []
        shown = [(line, found) for line, found in shown if found]
        codes = {code for _, found in shown for code in found}
        if page and len(codes) == 1:
            return {"value": codes.pop(), "evidence": [page.text_evidence(shown[0][0])]}
    return None




def _place(found: dict[str, Candidate], page: SitePage, line: str, match: re.Match[str], product_name: str) -> None:
    first = match.group("first").rstrip(".")
    second = (match.group("second") or "").rstrip(".")
    evidence = [page.text_evidence(line)]
    if country_code(first):
        found.setdefault("country", {"value": country_code(first), "evidence": evidence})
        if normalise(first) in CITY_STATES:  # "founded in Singapore": the town and the country
            found.setdefault("city", {"value": first, "evidence": evidence})
        return
    if normalise(first).split()[0] in NOT_PLACES or normalise(first) == normalise(product_name) \
            or re.fullmatch(r"[A-Z]{1,4}", first):  # "review diffs in CI logs": an acronym, not a town
        return
    if "city" not in found:
        found["city"] = {"value": first, "evidence": evidence}
    if second and country_code(second):
        found.setdefault("country", {"value": country_code(second), "evidence": evidence})
