"""The year a company began, as its site states it, with the lines that say so.

First the lines that date the founding, in page order: a sentence ("founded in
2019", "gegründet 2020", a timeline's year over the founders' present tense) or a
fact sheet's label over its value ("Founded" / "2020, Leeds"); then a since-year
that is not a customer's ("since 2012"), the structured data's `foundingDate`,
the year of the founders' own story of starting the product, and last a footer's
"since". A year the site does not tie to the company's beginning stays not found.
Kept apart from `extractive.py` as one finder with rules of its own, as
`site_pricing.py` and `founders.py` are.
"""

from __future__ import annotations

import re

from .reading import Candidate, SitePage, candidate, is_sentence, structured_items

YEAR_SENTENCE = re.compile(
    r"\b(?:founded|established|incorporated|started|since|est\.|gegr\u00fcndet|seit|fundad[ao]|fund\u00f3|desde"
    r"|naci\u00f3|nacimos|fond\u00e9e?|cr\u00e9\u00e9e?|n\u00e9e?|depuis|opgericht|sinds|fondata|nata|nato|fundada|nasceu|began"
    # the founders telling it: "Fundamos Cuadrilla en 2023", "gründeten wir 2019", "fundou em 2020"
    r"|fundamos|fund\u00e9|gr\u00fcndeten|fondammo|fondato|fundou|criad[ao]|fundaram"
    # Swiss German "entstanden", Swedish, Danish, Polish: "grundades 2023", "grundlagt i 2019", "założona w 2020"
    r"|vu le jour|entstanden|entstand|grundades|grundade|grundat|grundlagt|stiftet|za\u0142o\u017con[ay]"
    r"|za\u0142o\u017cyli\u015bmy|za\u0142o\u017cyli|za\u0142o\u017cy\u0142[ae]?m?|powsta\u0142[aoy]?"
    # Czech "založili jsme v roce 2021", Finnish "perustettiin 2021", "syntyi … 2021"
    r"|zalo\u017eili|zalo\u017eil[ay]?|zalo\u017een[aoý]?|perustettiin|perustettu|perustivat|perusti|syntyi"
    # Norwegian "ble grunnlagt i Bergen i 2023", Romanian "fondată în 2021"
    r"|grunnlagt|grunnla|fondat\u0103|fondat"
    # Estonian "sündis 2023. aastal", "asutati", Chilean "partió en Santiago en 2022"
    r"|s\u00fcndis|asutati|asutasime|parti\u00f3|partimos"
    # Catalan "va començar el 2021", "va néixer el 2020", "fundada el 2019"
    r"|va comen\u00e7ar|van comen\u00e7ar|va n\u00e9ixer|fundat"
    # "Empezamos en 2021 porque …", "nous avons commencé en 2020", "abbiamo iniziato nel 2019", "começamos em 2022"
    r"|empezamos|comenzamos|arrancamos|empezaron|comenzaron|arrancaron|nous avons commenc\u00e9|abbiamo iniziato|come\u00e7amos"
    # Croatian "osnovana 2021.", Greek "ιδρύθηκε το 2020"
    r"|osnovan[ao]?|\u03b9\u03b4\u03c1\u03cd\u03b8\u03b7\u03ba\u03b5|\u03af\u03b4\u03c1\u03c5\u03c3\u03b1\u03bd"
    # Galician "onde comezou todo en 2023"
    r"|comezou|comezamos|naceu"
    # "Montamos Molinillo en Valencia en 2019", "Fornello nasce a Bologna nel 2022", "Acme naît en 2020"
    r"|montamos|montaron|mont\u00f3|nasce|nace|na\u00eet|entsteht"
    # Indonesian "didirikan pada tahun 2021", Ukrainian "заснована у 2021 році"
    r"|didirikan|berdiri|\u0437\u0430\u0441\u043d\u043e\u0432\u0430\u043d[\u0430\u043e\u0438\u0439]|\u0437\u0430\u0441\u043d\u0443\u0432\u0430\u043b\u0438)"
    r"(?=[\s,])[^.!?]{0,40}?\b(1[89]\d{2}|20\d{2})\b"
    # "wurde 2020 in Hamburg gegründet"; "In 2019 we turned it into a company"
    # (a year may carry an ordinal dot: "Maslinu su 2023. u Splitu osnovali")
    r"|\b(1[89]\d{2}|20\d{2})\b(?:\.(?=\s+[a-z\u00e0-\u017e]))?(?:(?!\b(?:1[89]|20)\d{2}\b)[^.!?]){0,120}?\b(?:osnovali|osnovala|osnovao|dibin\u0101ja|gegr\u00fcndet|entstanden|opgericht|into a company|became a company"
    r"|alap\u00edtotta|alap\u00edtott\u00e1k|alap\u00edtottuk|kurdu|kuruldu|kurduk|\u012fk\u016br\u0117|ustanovil[aei]?"
    # "Kruiwagen is in 2022 begonnen", "wurde 2021 gestartet"
    r"|begonnen|gestart|gestartet)\b"
    # a timeline's year before the founders' present tense: "2020 Carola … und Jannik … gründen Hufschlag",
    # "2021 — Anaïs …, et son cousin Mathieu …, fondent Pétrin"; "In 2023 we left our jobs … and founded Lamplighter"
    r"|^(1[89]\d{2}|20\d{2})\b[^.!?]{0,160}?\b(?:gr\u00fcnden|gr\u00fcndet|fondent|fundan|fundam|found|founds|fonde|funda|fondano|fonda"
    r"|perustavat|zakl\u00e1daj\u00ed"
    r"|(?:starts?|cr\u00e9ent|crean|creano|criam)(?=\s+(?-i:[A-Z])))\b"
    r"|\b[Ii]n (1[89]\d{2}|20\d{2}),?\s+(?:we|I)\b[^.!?]{0,160}?\b(?:founded|started|co-founders?"
    # "In 2020 I quit my job at an agency and built the tool I wanted"
    r"|built the (?:tool|app|product|first version)|wrote the first version)\b"
    # Polish, Czech, Croatian "od 2021 roku": since a year
    r"|\bod\s+(?:roku\s+)?(1[89]\d{2}|20\d{2})\b"
    # "En 2022 fundamos Brasero en Guadalajara", "Nel 2020 abbiamo fondato …", "Im Jahr 2019 gründeten wir …"
    r"|\b(?:en|nel|em|im jahr|en el a\u00f1o)\s+(1[89]\d{2}|20\d{2}),?\s+(?:[^.!?]{0,40}?\s)?(?:fundamos|fund\u00e9|fundaron"
    r"|fund\u00f3|fondammo|abbiamo fondato|hanno fondato|gr\u00fcndeten|nous avons fond\u00e9|ont fond\u00e9|fundei|fundaram)\b",
    re.IGNORECASE,
)
YEAR = re.compile(r"\b(1[89]\d{2}|20\d{2})\b")
_SEASON = re.compile(r"/\d{2}\b")  # "2024/25": a season, not a year something began
_SINCE = re.compile(r"^(?:since|seit|desde|depuis|sinds)\b", re.IGNORECASE)
# a since-year of using the product, not of the company: "Been on the Author plan since 2021", "using it since"
_SINCE_USING = re.compile(r"\b(?:been on|using|used|customers? since|clients? since|plan since|kunde seit|nutzen)\b",
                          re.IGNORECASE)
_FOOTER_SINCE = re.compile(r"\b(?:since|seit|desde|depuis|sinds|dal|od|sedan)\s+(1[89]\d{2}|20\d{2})\b", re.IGNORECASE)


def find_founded_year(pages: list[SitePage], product: str) -> Candidate | None:
    """The year the company began, with the lines that say it; `product`: the drafted name (its founders' story)."""
    dates = _founding_dates(pages)
    since: Candidate | None = None  # "Seit 2025 Pflicht im B2B": a since-year waits for a founding sentence
    for page in pages:
        for index, line in enumerate(page.lines):
            match = YEAR_SENTENCE.search(line)
            if match and (_SEASON.match(line, match.end()) or (dates and _SINCE.search(match.group(0)))):
                match = None  # "seit der Saison 2024/25"; "since 2012" says less than a stated founding date
            if match:
                year = next(g for g in match.groups() if g)
                same = [e for e in dates if _year_of(e["quote"]) == year]
                if _SINCE.search(match.group(0)):
                    if not _SINCE_USING.search(line):  # "Been on the Author plan since 2021": a customer's
                        since = since or candidate(year, [page.text_evidence(line), *same])
                    continue
                return candidate(year, [page.text_evidence(line), *same])
            following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
            labelled = _labelled_year(line, following)
            if labelled:
                return candidate(labelled, [page.text_evidence(line), page.text_evidence(following)])
    if since is not None:
        return since
    for evidence in dates:
        return candidate(_year_of(evidence["quote"]), [evidence])
    return _year_started(pages, product) or _year_in_footer(pages)

def _year_in_footer(pages: list[SitePage]) -> Candidate | None:
    """Last of all, a footer's "since" ("Seit 2017 aus Wien für Betriebe mit Adresse", "Hecho en Guadalajara,
    Jalisco, desde 2021"): said on every page, it is the company's own statement of when it began."""
    for page in [p for p in pages if p.kind == "home"][:1]:
        for line in page.all_lines:
            match = _FOOTER_SINCE.search(line)
            if match and not _SEASON.match(line, match.end()) and not _SINCE_USING.search(line):
                return candidate(match.group(1), [page.text_evidence(line)])
    return None

def _year_started(pages: list[SitePage], product: str) -> Candidate | None:
    """Last, the year of the founders' own story of starting it ("In 2022 we were running an escape venue … We
    wrote the first version of Riddlewick", "en 2021 la vi anotar pedidos … Ahí empezó Recado", "nous avons
    écrit Godille en 2022"): the year in the same paragraph, else in the one before it, quoted together."""
    name = re.escape(product)
    if not name:
        return None
    started = re.compile(
        rf"\b(?:we|I)\s+(?:started|built|wrote|launched|created|began)\s+(?:the first version of\s+)?{name}\b"
        # "… to build the tool I wanted. That became Ovenmitt.", "… and called it Bellows"
        rf"|\b(?:that|this|it)\s+became\s+{name}\b|\b(?:called|named)\s+it\s+{name}\b"
        # "the first version of Bobbin went out", "In 2018 schreef ik de eerste versie van Fietspomp"
        rf"|\b(?:the first version of|die erste version von|de eerste versie van|la premi\u00e8re version de"
        rf"|la primera versi\u00f3n de|la prima versione di|a primeira vers\u00e3o d[eo])\s+{name}\b"
        rf"|\b(?:empez\u00f3|comenz\u00f3|naci\u00f3|arranc\u00f3)\s+{name}\b"
        rf"|\bnous avons (?:\u00e9crit|cr\u00e9\u00e9|lanc\u00e9|d\u00e9marr\u00e9)\s+{name}\b"
        rf"|\bwir haben\s+{name}\s+(?:\w+\s+){{0,4}}?(?:gebaut|geschrieben|gestartet)\b"
        # "En 2022, Renzo … Ese mismo año fundaron Chasqui": the year the paragraph names
        rf"|\b(?:ese mismo a\u00f1o|that same year|the same year|im selben jahr|im gleichen jahr|la m\u00eame ann\u00e9e"
        rf"|nello stesso anno|no mesmo ano)\b[^.!?]{{0,40}}?\b(?:fundaron|fundamos|founded|started|gr\u00fcndeten"
        rf"|fond\u00e8rent|ont fond\u00e9|fondarono|fundaram)\s+{name}\b", re.IGNORECASE)
    for page in pages:
        for index, line in enumerate(page.lines):
            if not started.search(line) or not is_sentence(line):
                continue  # a heading ("Cómo empezó Chasqui") under a post's date is no story
            here = YEAR.search(line)
            if here:
                return candidate(here.group(1), [page.text_evidence(line)])
            previous = page.lines[index - 1] if index > 0 else ""
            before = YEAR.search(previous) if is_sentence(previous) else None
            if before:
                return candidate(before.group(1), [page.text_evidence(f"{page.lines[index - 1]} {line}")])
    return None

def _founding_dates(pages: list[SitePage]) -> list[dict[str, str]]:
    found = []
    for page in pages:
        for item in structured_items(page.page.structured):
            value = item.get("foundingDate")
            if isinstance(value, (str, int)) and not isinstance(value, bool) and YEAR.search(str(value)):
                found.append(page.meta_evidence(str(value)))
    return found


# A fact sheet's label over its value ("Founded" / "2020, Leeds"), a timeline's year over its event ("2021" /
# "Marisol and Caleb Whitacre found Quarryline in Denver")
FOUNDED_LABEL = re.compile(r"^(?:founded|founded in|established|gegr\u00fcndet|gr\u00fcndung|gr\u00fcndungsjahr|fond\u00e9e?|"
                           r"cr\u00e9ation|fundad[ao]|fundaci\u00f3n|a\u00f1o de fundaci\u00f3n|opgericht|fondata|fundada em)\s*:?$",
                           re.IGNORECASE)
_YEAR_LINE = re.compile(r"^(1[89]\d{2}|20\d{2})\s*[:.\u2013\u2014-]?$")
_FOUNDS_NOW = re.compile(r"\b(?:found|founds|founded|starts? (?=(?-i:[A-Z]))|gr\u00fcnden|gr\u00fcndet|gegr\u00fcndet|fondent|fonde|fond\u00e9e?|fundan"
                         r"|funda|fundam|fundad[ao]|fondano|fonda|opgericht|richten .{1,40} op|perustavat|zakl\u00e1daj\u00ed"
                         r"|(?:crean|cr\u00e9ent|creano|criam)(?= (?-i:[A-Z])))\b",
                         re.IGNORECASE)


def _labelled_year(line: str, following: str) -> str | None:
    """The founding year a label or a timeline gives on two lines: "Founded" over "2020, Leeds", or "2021" over
    "Marisol and Caleb found Quarryline …"."""
    if FOUNDED_LABEL.match(line.strip()):
        match = re.match(r"^(1[89]\d{2}|20\d{2})\b", following.strip())
        return match.group(1) if match else None
    year = _YEAR_LINE.match(line.strip())
    if year and _FOUNDS_NOW.search(following) and len(following) <= 400:
        return year.group(1)
    return None


def _year_of(text: str) -> str | None:
    match = YEAR.search(text)
    return match.group(1) if match else None
