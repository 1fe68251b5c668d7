"""Extractive finders for FAQs, founders and location (city, country).

Each returns candidates with the visible lines (or metadata values) they came
from as quotes; :func:`workers.drafting.verify.verify` checks them like any
other drafter's output.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .addresses import find_address
from .countries import country_code
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
from .text import clean, normalise, sentence_key, sentences

MAX_ANSWER_CHARS = 1_500
# Upper-case initials include accented ones ("Élodie", "Ángela"); "MacLeod", "DiNapoli" too.
_UPPER = "A-Z\u00c0-\u00d6\u00d8-\u00de"
_NAME_WORD = rf"[{_UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'\u2019-]+(?:[{_UPPER}][a-z\u00df-\u00f6\u00f8-\u024f]+)?"
# Particles between given name and surname, the Irish "Ó"/"Ní" among them ("Tomás Ó Súilleabháin").
NAME = (rf"{_NAME_WORD}(?:\s+(?:[A-Z]\.\s+|(?:de|van|von|der|den|da|di|del|la|le|du|dos|\u00d3|N\u00ed|Mac)\s+)?"
        rf"{_NAME_WORD}){{1,3}}")
FOUNDER_WORD = re.compile(
    r"\b(?:co-?founder|founder|founding (?:ceo|cto|partner)|(?:mit)?gr\u00fcnder(?:in)?|co-?fundador(?:a)?|fundador(?:a)?"
    r"|co-?fondat(?:eur|rice)|fondat(?:eur|rice)|(?:mede)?oprichter|(?:mede)?oprichtster|co-?fondator[ei]|fondator[ei])s?\b",
    re.IGNORECASE,
)
FOUNDER_LINE = re.compile(
    rf"^(?P<name>{NAME})\s*(?:,|\u2014|\u2013|-|\||\u00b7|:|\()\s*(?P<title>[^.!?]{{2,100}}?)\)?(?:\.?$|\.\s+(?P<bio>[A-Z].*)$)"
)
FOUNDED_BY = re.compile(rf"\b(?:founded|started|created)\s+(?:in\s+\d{{4}}\s+)?by\s+(?P<names>{NAME}(?:\s*(?:,|and|&)\s*{NAME})*)")
NAME_ONLY = re.compile(rf"^{NAME}$")
# A sentence naming its makers and then their role: "made in Pittsburgh by Dana Whitcomb and Luis Ortega,
# co-founders", "criada em Florianópolis por Rafael Tavares, fundador".
_AND = r"(?:,|and|&|und|y|e|et|en)"
MADE_BY_FOUNDERS = re.compile(
    rf"\b(?:by|von|por|par|door|da)\s+(?P<names>{NAME}(?:\s*{_AND}\s*{NAME})*),\s+(?:(?:the|its|our|ihre?|sus?|ses|seus?)\s+)?"
    r"(?P<title>(?:co-?founders?|founders?|(?:mit)?gr\u00fcnder(?:in|innen)?|co-?fundador(?:a|es|as)?|fundador(?:a|es|as)?"
    r"|co-?fondat(?:eur|rice)s?|fondat(?:eur|rice)s?|(?:mede)?oprichters?|co-?fondator[ei]|fondator[ei]))\b"
)
# A founder introducing themself: "Hi, I'm Wren Albright, founder of Inkpot", "Ich bin Ada Muster, Gründerin von ..."
FIRST_PERSON_FOUNDER = re.compile(
    rf"\b(?:I'm|I\u2019m|I am|my name is|ich bin|je suis|soy|sono|ik ben|eu sou)\s+(?P<name>{NAME}),\s+"
    r"(?P<title>(?:the\s+|der\s+|die\s+|le\s+|la\s+|el\s+)?[^,.;:!?]{0,40}?\b(?:co-?founder|founder|(?:mit)?gr\u00fcnder(?:in)?"
    r"|co-?fundador(?:a)?|fundador(?:a)?|co-?fondat(?:eur|rice)|fondat(?:eur|rice)|(?:mede)?oprichter|co-?fondator[ei])\b"
    r"(?:\s+(?:of|von|de|del|van|di|do|da)\s+[^,.;:!?]{1,40})?)",
    re.IGNORECASE,
)
FAQ_HEADING = re.compile(
    r"\bfaqs?\b|frequently asked|\bquestions\b|h\u00e4ufige fragen|\bfragen\b|preguntas|questions fr\u00e9quentes"
    r"|veelgestelde vragen|\bvragen\b|domande frequenti|\bdomande\b|perguntas frequentes|\bperguntas\b",
    re.IGNORECASE,
)
_QUOTE_OPENERS = ("\"", "\u201c", "\u201e", "\u00ab", "\u2014", "\u2013 ", "- ")  # a testimonial or its attribution
PLACE = r"[A-Z][\w'\u2019.-]*(?:[ -][A-Z][\w'\u2019.-]*){0,2}"
LOCATION = re.compile(
    r"\b(?i:based|headquartered|located|founded|started|made|built|studio|team|office|offices|company|startup|hq)\b"
    rf"[^.!?]{{0,60}}?\bin\s+(?P<first>{PLACE})(?:(?:,\s*|\s+in\s+(?:der\s+|den\s+|the\s+)?)(?P<second>{PLACE}))?"
)
# The same in German, Spanish and French: "wurde 2020 in Hamburg gegründet", "con sede en Valencia", "basée à Lyon".
LOCATION_ELSEWHERE = (
    # "in Winterthur in der Schweiz": the country may follow the town with a second "in"
    re.compile(rf"\b(?i:sitz|ans\u00e4ssig|wurde|gegr\u00fcndet|entwickelt|zuhause|zu hause)\b[^.!?]{{0,60}}?\bin\s+(?P<first>{PLACE})"
               rf"(?:(?:,\s*|\s+in\s+(?:der\s+|den\s+)?)(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:sede|ubicad[ao]s?|basad[ao]s?|fundad[ao]|hech[ao]|desarrollad[ao]|oficinas?|equipo)\b[^.!?]{{0,60}}?\ben\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:bas\u00e9e?s?|situ\u00e9e?s?|install\u00e9e?s?|fond\u00e9e?|n\u00e9e?|con\u00e7ue?|si\u00e8ge|\u00e9quipe|bureaux?)\b[^.!?]{{0,60}}?\b\u00e0\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    # Dutch "gevestigd in Utrecht", Italian "con sede a Milano", Portuguese "sediada em Lisboa"
    re.compile(rf"\b(?i:gevestigd|opgericht|gemaakt|kantoor|hoofdkantoor)\b[^.!?]{{0,60}}?\bin\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:sede|basata|fondata|nata|ufficio|uffici)\b[^.!?]{{0,60}}?\ba\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
    re.compile(rf"\b(?i:sediada|sede|fundada|criada|escrit\u00f3rio)\b[^.!?]{{0,60}}?\bem\s+(?P<first>{PLACE})(?:,\s*(?P<second>{PLACE}))?"),
)
NOT_PLACES = frozenset(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday europe asia africa america north south latin eu the a an our "
    "english german french spanish italian dutch portuguese english-speaking public beta private early "
    "production real one two three".split()
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
        if page.kind == "faq" or any(is_heading(l) and FAQ_HEADING.search(l) for l in page.lines):
            faqs.extend(_text_faqs(page))
    unique: list[Candidate] = []
    for faq in faqs:
        if not any(normalise(f["question"]) == normalise(faq["question"]) for f in unique):
            unique.append(faq)
    return unique[:10]


def _faq(page: SitePage, question: str, answer: str) -> Candidate:
    """A structured FAQ, quoted from the visible text when it is shown there, else from metadata."""
    evidence = []
    q_line = next((l for l in page.lines if normalise(question) in normalise(l)), None)
    evidence.append(page.text_evidence(q_line) if q_line else page.meta_evidence(question))
    answer_keys = {sentence_key(s) for s in sentences(answer)}
    a_lines = [l for l in page.lines if {sentence_key(s) for s in sentences(l)} & answer_keys]
    evidence += [page.text_evidence(l) for l in a_lines] or [page.meta_evidence(answer)]
    return {"question": question, "answer": answer, "evidence": evidence}


def _text_faqs(page: SitePage) -> list[Candidate]:
    faqs: list[Candidate] = []
    lines = page.lines
    for index, line in enumerate(lines):
        if not line.endswith("?") or len(line) > 300 or is_nav(line):
            continue
        answer: list[str] = []
        for following in lines[index + 1:]:
            if following.endswith("?") or is_nav(following) or (is_heading(following) and answer) \
                    or following.startswith(_QUOTE_OPENERS):
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


# --- founders ------------------------------------------------------------------------------------


_CLOSING_QUOTES = ("\"", "\u201d", "\u00bb", "\u201c", "\u2019")
_OTHER_ORG = re.compile(
    r"\b[Ff]ounder\s+(?:of|at|bei|chez|de|von)\s+(?P<org>[A-Z][\w&.' -]+)|\s(?:at|bei|chez)\s+(?P<at>[A-Z][\w&.' -]+)"
)


def _testimonial(lines: tuple[str, ...], index: int, title: str, product_name: str) -> bool:
    """An attribution under a quote, or a founder of another company ("Founder of Northbeam Studio")."""
    previous = lines[index - 1].strip() if index > 0 else ""
    if previous.endswith(_CLOSING_QUOTES) or previous.startswith(_CLOSING_QUOTES + ("\u201e", "\u00ab")):
        return True
    other = _OTHER_ORG.search(title)
    org = (other.group("org") or other.group("at")) if other else ""
    return bool(org) and bool(product_name) and product_name.casefold() not in org.casefold()


def find_founders(pages: list[SitePage], product_name: str = "") -> list[Candidate]:
    """People the site calls founders: structured ``founder`` values, "Name — Co-founder & CEO" lines,
    "founded by Name and Name" sentences."""
    founders: list[Candidate] = []
    ordered = of_kind(pages, "team") + of_kind(pages, "about") + of_kind(pages, "home") + [
        p for p in pages if p.kind not in ("team", "about", "home")
    ]
    for page in ordered:
        for index, line in enumerate(page.lines):
            row = _table_row_founder(line)
            if row and not _testimonial(page.lines, index, row[1], product_name):
                founders.append({"name": row[0], "title": row[1], "bio": None, "evidence": [page.text_evidence(line)]})
                continue
            match = FOUNDER_LINE.match(line)
            if match and FOUNDER_WORD.search(match.group("title")):
                if not _testimonial(page.lines, index, match.group("title"), product_name):
                    founder = _founder_line(page, index, match.group("name"), match.group("title").strip())
                    if match.group("bio") and not founder["bio"]:
                        founder["bio"] = match.group("bio")
                    founders.append(founder)
                continue
            following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
            if NAME_ONLY.match(line) and FOUNDER_WORD.search(following) and len(following) <= 100 \
                    and not _table_row_founder(following) \
                    and not _testimonial(page.lines, index, following, product_name):
                founders.append(_founder_card(page, index))
                continue
            me = FIRST_PERSON_FOUNDER.search(line)
            if me and not _testimonial(page.lines, index, me.group("title"), product_name):
                title = me.group("title").strip()
                founders.append({"name": me.group("name"), "title": title[0].upper() + title[1:], "bio": None,
                                 "evidence": [page.text_evidence(line)]})
                continue
            made = MADE_BY_FOUNDERS.search(line)
            if made and not _testimonial(page.lines, index, line, product_name):
                title = made.group("title")
                for name in re.split(r"\s*(?:,|&|\b(?:and|und|y|e|et|en)\b)\s*", made.group("names")):
                    if name.strip():
                        founders.append({"name": name.strip(), "title": title[0].upper() + title[1:], "bio": None,
                                         "evidence": [page.text_evidence(line)]})
                continue
            by = FOUNDED_BY.search(line)
            if by:
                for name in re.split(r"\s*(?:,|\band\b|&)\s*", by.group("names")):
                    if name.strip():
                        founders.append({"name": name.strip(), "title": None, "bio": None, "evidence": [page.text_evidence(line)]})
    for page in pages:
        for item in structured_items(page.page.structured):
            for person in _as_list(item.get("founder")) + _as_list(item.get("founders")):
                name = string_value(person)
                if name:
                    title = string_value(person.get("jobTitle")) if isinstance(person, Mapping) else None
                    evidence = [page.meta_evidence(name)] + ([page.meta_evidence(title)] if title else [])
                    founders.append({"name": clean(name), "title": title, "bio": None, "evidence": evidence})
    unique: list[Candidate] = []
    for founder in founders:
        existing = next((f for f in unique if normalise(f["name"]) == normalise(founder["name"])), None)
        if existing is None:
            unique.append(founder)
        else:
            existing["title"] = existing.get("title") or founder.get("title")
            existing["bio"] = existing.get("bio") or founder.get("bio")
            existing["evidence"] = existing["evidence"] + [e for e in founder["evidence"] if e not in existing["evidence"]]
    return unique[:6]


def _table_row_founder(line: str) -> tuple[str, str] | None:
    """A team table's row read as one line, name cell then role cell: "Priya Raman Co-founder, lead
    maintainer", "Nadine Roth Gründerin, Maintainerin" (the name is everything before the founder word)."""
    word = FOUNDER_WORD.search(line)
    if word is None or word.start() == 0 or len(line) > 160:
        return None
    name, title = line[:word.start()].strip(), line[word.start():].strip()
    if not NAME_ONLY.match(name) or re.search(r"[.!?]", title):
        return None
    return name, title


def _founder_line(page: SitePage, index: int, name: str, title: str) -> Candidate:
    evidence = [page.text_evidence(page.lines[index])]
    bio = None
    if index + 1 < len(page.lines):
        following = page.lines[index + 1]
        first_name = name.split()[0]
        if is_sentence(following) and re.match(rf"(?:{re.escape(first_name)}|He|She|They)\b", following):
            bio = following
            evidence.append(page.text_evidence(following))
    return {"name": name, "title": title, "bio": bio, "evidence": evidence}


def _founder_card(page: SitePage, index: int) -> Candidate:
    """A team card: the name on one line, "Founder & CEO" on the next (quoted together)."""
    name, following = page.lines[index], page.lines[index + 1]
    title = sentences(following)[0].rstrip(".") if sentences(following) else following.rstrip(".")
    return {"name": name, "title": title, "bio": None, "evidence": [page.text_evidence(f"{name} {title}")]}


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


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
    for key, value in find_address(pages, product_name).items():
        found.setdefault(key, value)
    ordered = of_kind(pages, "about", "contact") + of_kind(pages, "home") + [
        p for p in pages if p.kind not in ("about", "contact", "home")
    ]
    for page in ordered:
        for line in page.all_lines:  # "Made with care in Amsterdam." in a footer counts; a menu does not
            if is_nav(line):
                continue
            for pattern in (LOCATION, *LOCATION_ELSEWHERE):
                for match in pattern.finditer(line):
                    _place(found, page, line, match, product_name)
    return found


def _place(found: dict[str, Candidate], page: SitePage, line: str, match: re.Match[str], product_name: str) -> None:
    first = match.group("first").rstrip(".")
    second = (match.group("second") or "").rstrip(".")
    evidence = [page.text_evidence(line)]
    if country_code(first):
        found.setdefault("country", {"value": country_code(first), "evidence": evidence})
        return
    if normalise(first).split()[0] in NOT_PLACES or normalise(first) == normalise(product_name):
        return
    if "city" not in found:
        found["city"] = {"value": first, "evidence": evidence}
    if second and country_code(second):
        found.setdefault("country", {"value": country_code(second), "evidence": evidence})
