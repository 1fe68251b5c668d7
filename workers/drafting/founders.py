"""Extractive finder for founders: the people a site itself calls its founders.

Read from team cards and tables, "Name — Co-founder & CEO" lines, first-person
introductions, "founded by A and B" and "made … by A and B, co-founders" sentences
and structured ``founder`` values, each quoted with the line (or metadata value)
that says it; never a testimonial's attribution or a founder of another company.
:func:`workers.drafting.verify.verify` checks them like any other drafter's output.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .reading import Candidate, SitePage, is_sentence, of_kind, string_value, structured_items
from .founder_mentions import mentioned
from .founder_roles import FOUNDER_WORD, own_role_in, role_in
from .founder_words import EXECUTIVE_ROLE, FOUNDER_TITLE, FOUNDING, FOUNDING_WE
from .person_names import AND, HONORIFIC, NAME, NAME_ONLY, NAMED, NAMES, SIGNATURE_DASH, split_names
from .text import QUOTATION_MARK, clean, normalise, sentences

FOUNDER_LINE = re.compile(
    rf"^(?P<name>{NAME})\s*(?:,|\u2014|\u2013|-|\||\u00b7|:|\()\s*(?P<title>[^.!?]{{2,100}}?)\)?(?:\.?$|\.\s+(?P<bio>[A-Z].*)$)"
)
# "founded in 2019 by", "founded in Montréal in 2021 by"
# "founded in Hobart in 2020 by fourth-generation funeral director Ruth Kessell and software engineer Amit
# Deshpande": each name may follow its occupation in lower case
_OCCUPIED = r"(?:[a-z][\w-]*\s+){0,4}"
FOUNDED_BY = re.compile(
    rf"\b(?:founded|started|created)\s+(?:in\s+[^.;!?]{{1,40}}?\s+)?by\s+"
    rf"(?P<names>{NAMES}|{_OCCUPIED}{NAME}(?:\s+(?:and|&)\s+{_OCCUPIED}{NAME})*)"
)
# Roles in brackets after each name, several to a line: "Fernanda Ríos (cofundadora y directora general) y
# Diego Salcedo (cofundador y director de tecnología)".
BRACKETED_ROLE = re.compile(rf"(?P<name>{NAME})\s*\((?P<title>[^()]{{2,100}})\)")
# A sentence naming its makers and then their role: "made in Pittsburgh by Dana Whitcomb and Luis Ortega,
# co-founders", "criada em Florianópolis por Rafael Tavares, fundador".
MADE_BY_FOUNDERS = re.compile(
    rf"\b(?:by|von|por|par|door|da|av|de la mano de)\s+(?P<names>{NAME}(?:\s*{AND}\s*{NAME})*),\s+"
    rf"(?:(?:the|its|our|ihre?|sus?|ses|seus?)\s+)?(?P<title>(?i:{FOUNDER_TITLE}))\b"
)
# "Leitwerk wurde 2020 von Theresa Kaltenbach und Moritz Oberle gegründet", "fondata nel 2020 a Bologna da due
# insegnanti di matematica, Chiara Benedetti e Luca Ferraresi", "grundades 2023 av Elsa Lindgren och Johan Ek"
# What may stand between the names and "gegründet": where, when and how they founded it ("von Jana Petersen und
# Malte Rehberg in Bremen gegründet", "… im Jahr 2021 gemeinsam gegründet"), never a verb or a clause
_GERMAN_SETTING = r"(?:\s+(?:in|im|am|an|auf|bei|aus|Jahr|\d{4}|gemeinsam|zusammen|damals|bereits|schon|[A-Z\u00c4\u00d6\u00dc][\w-]+)){0,5}?"
FOUNDED_BY_ELSEWHERE = (
    re.compile(rf"\bvon\s+(?P<names>(?:(?:der|dem|den)\s+)?{NAMES}){_GERMAN_SETTING}\s+gegr\u00fcndet"),
    # "Vertreten durch die Geschäftsführer Jannik Oltmanns und Svenja Ruhnau, die Lesesaal 2022 gegründet haben"
    re.compile(rf"(?P<names>{NAMES}),\s+(?:die|der|who|qui|que|che)\s+[^.!?]{{0,40}}?\b(?:gegr\u00fcndet|founded|fond\u00e9|fundaron|fondato)\b"),
    # "Gegründet wurde das Unternehmen 2022 von Kfz-Meister Murat Yıldırım und der Softwareentwicklerin Lena …"
    re.compile(rf"\b(?i:gegr\u00fcndet)\b[^.!?]{{0,60}}?\bvon\s+(?P<names>{NAMES})"),
    # "Gintarą 2022 metais Vilniuje įkūrė buhalterė Eglė Vaitkutė ir programuotojas Mantas Jurgaitis"
    re.compile(rf"\b\u012fk\u016br\u0117\s+(?:[a-z\u0105-\u017e]+\s+)?(?P<names>{NAME}(?:\s+ir\s+(?:[a-z\u0105-\u017e]+\s+)?{NAME})*)"),
    # "L'hanno fondata Giulia Ferrero, enologa …, e Matteo Bruno", "ils l'ont fondée", "la fundaron"
    re.compile(rf"\b(?i:l['\u2019]hanno fondat[ao]|l['\u2019]ha fondat[ao]|l['\u2019]ont fond\u00e9e?|la fundaron|lo fundaron"
               rf"|a fundaram|o fundaram)\s+(?:(?:los|las|i|le|les|os|as)\s+[a-z\u00e0-\u00ff]+\s+)?(?P<names>{NAMES})"),
    # "I co-founded Mothlight with Hana Okafor, a route-optimisation engineer"
    re.compile(rf"\b(?i:co-founded|founded|started)\s+[A-Z][\w-]*\s+(?i:with|together with|alongside)\s+(?P<names>{NAMES})"),
    # "Tanzkarte haben 2022 Carla Reinhold, Tanzlehrerin und Mitgründerin, und Matthias Eberlein, … gegründet"
    re.compile(rf"\bhaben\s+(?:\d{{4}}\s+)?(?P<names>{NAMES})[^.!?]{{0,40}}?\bgegr\u00fcndet\b"),
    re.compile(rf"\b(?i:fondat[ao]|fond\u00e9e?|cr\u00e9\u00e9e?|fundad[ao]|opgericht|grundades|grundat|grunnlagt)\b[^.!?]{{0,60}}?"
               rf"\b(?:da|par|por|door|av)\s+(?:[^.!?,]{{0,50}},\s+)?(?P<names>{NAMES})"),
)
# Two people named in one sentence, the next saying the two founded it: "Hinter Kitafunk stehen Annika Brandt,
# Erzieherin …, und Jonas Weidenmüller, Softwareentwickler …. Die beiden haben Kitafunk 2020 gemeinsam gegründet",
# "Meet Ana Ruiz and Tom Berg. Together they founded …".
_PAIR = rf"(?P<first>{NAME})(?:,[^,]{{1,80}},)?\s+(?:and|und|y|e|et|en|och|og|i)\s+(?P<second>{NAME})"
_TOGETHER = (r"die beiden|beide|gemeinsam|zusammen|together|the two|both|they|ensemble|tous les deux|toutes les deux"
             r"|ils|elles|juntos|juntas|ambos|ambas|los dos|las dos|insieme|entrambi|samen|allebei|tillsammans|sammen"
             r"|razem|juntos")
PAIR_THEN_FOUNDED = re.compile(
    rf"{_PAIR}.{{0,200}}?[.!?]\s+(?P<next>[^.!?]*\b(?i:{_TOGETHER})\b[^.!?]*\b(?i:{FOUNDING})\b[^.!?]*"
    rf"|[^.!?]*\b(?i:{FOUNDING})\b[^.!?]*\b(?i:{_TOGETHER})\b[^.!?]*)"
)
# The founders introducing themselves, then saying they founded it: "We’re Maddie Fenwick and Joaquín Ibarra. We
# started Soapbox in 2021, …"
WE_ARE_THEN_FOUNDED = re.compile(
    rf"\b(?i:we're|we\u2019re|we are|wir sind|nous sommes|somos|siamo|wij zijn|vi \u00e4r)\s+(?P<first>{NAME})"
    rf"(?:,[^,]{{1,80}},)?\s+(?:and|und|y|e|et|en|och|og|i)\s+(?P<second>{NAME})[^.!?]{{0,120}}[.!?]\s+"
    rf"(?P<next>[^.!?]*\b(?i:{FOUNDING}|{FOUNDING_WE})\b[^.!?]*)"
)
# A founder writing of the other: "Tobias Renfro and I met on the board … In 2023 we left our jobs … and founded
# Lamplighter"
# A founder introducing themself: "Hi, I'm Wren Albright, founder of Inkpot", "Ich bin Ada Muster, Gründerin von ..."
FIRST_PERSON_FOUNDER = re.compile(
    rf"\b(?:I'm|I\u2019m|I am|my name is|ich bin|je suis|soy|sono|ik ben|eu sou)\s+(?P<name>{NAME}),\s+"
    r"(?P<title>(?:the\s+|der\s+|die\s+|le\s+|la\s+|el\s+)?[^,.;:!?]{0,40}?\b(?:co-?founder|founder|(?:mit)?gr\u00fcnder(?:in)?"
    r"|co-?fundador(?:a)?|fundador(?:a)?|co-?fondat(?:eur|rice)|fondat(?:eur|rice)|(?:mede)?oprichter|co-?fondator[ei])\b"
    # "founder of Pumice", "Gründerin von Lesesaal Software": the company's capitalised name, not what follows it
    r"(?:\s+(?:of|von|de|del|van|di|do|da)\s+(?-i:[A-Z\u00c0-\u00de][\w&'\u00c0-\u024f-]*(?:\s+[A-Z\u00c0-\u00de][\w&'\u00c0-\u024f-]*){0,3}))?)",
    re.IGNORECASE,
)



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
            side_by_side = _founders_side_by_side(line)  # "Ivana Marić, suosnivačica · Ante Jurić, suosnivač"
            if side_by_side and not _testimonial(page.lines, index, line, product_name):
                founders.extend({"name": name, "title": title, "bio": None, "evidence": [page.text_evidence(line)]}
                                for name, title in side_by_side)
                continue
            match = FOUNDER_LINE.match(SIGNATURE_DASH.sub("", line, count=1))  # "— Anna Berg, co-founder"
            if match and FIRST_PERSON_FOUNDER.match(line):
                match = None  # "Soy Valentina Restrepo, fundadora de Recado": the introduction is read below
            if match and ")" in match.group("title"):
                match = None  # "Rosalind MacNeil (left) and Dev Anand, …": a caption's bracket, read as a sentence
            bracketed = [m for m in BRACKETED_ROLE.finditer(line) if FOUNDER_WORD.search(m.group("title"))] \
                or _founded_then_named(line)
            if (len(bracketed) > 1 or (bracketed and not match)) \
                    and not _testimonial(page.lines, index, bracketed[0].group("title"), product_name):
                founders.extend({"name": m.group("name"), "title": _roles_only(m.group("title")), "bio": None,
                                 "evidence": [page.text_evidence(line)]} for m in bracketed)
                continue
            if match and FOUNDER_WORD.search(match.group("title")):
                if not _testimonial(page.lines, index, match.group("title"), product_name):
                    founder = _founder_line(page, index, match.group("name"), _roles_only(match.group("title").strip()))
                    if match.group("bio") and not founder["bio"]:
                        founder["bio"] = match.group("bio")
                    founders.append(founder)
                continue
            following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
            if NAME_ONLY.match(HONORIFIC.sub("", line)) and FOUNDER_WORD.search(following) and len(following) <= 100 \
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
            introduced = _founded_then_introduced(page, line)
            if introduced:
                founders.extend(introduced)
                continue
            by = FOUNDED_BY.search(line) or next((m for p in FOUNDED_BY_ELSEWHERE for m in [p.search(line)] if m), None)
            made = MADE_BY_FOUNDERS.search(line) if by is None or len(split_names(by.group("names"))) < 2 else None
            if made and not _testimonial(page.lines, index, line, product_name):
                founders.extend(_made_by(page, line, made))  # "made … by A and B, co-founders"
                continue
            pair = (PAIR_THEN_FOUNDED.search(line) or WE_ARE_THEN_FOUNDED.search(line)) if by is None else None
            if pair and not _names_another(pair.group("next"), product_name):
                by = pair
            if by:
                names = [by.group("first"), by.group("second")] if by is pair else split_names(by.group("names"))
                following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
                for name in (_as_said(n, page) for n in names):  # "der Softwareentwicklerin Lena Kowalczyk"
                    title, evidence = own_role_in(line, name), [page.text_evidence(line)]
                    if title is None and re.search(rf"\b{re.escape(name.split()[0])}\b", following):
                        # "Greta is still our founder and managing director", "Lena Kowalczyk, Mitgründerin und …"
                        title = own_role_in(following, name)
                        evidence += [page.text_evidence(following)] if title else []
                    founders.append({"name": name, "title": title or role_in(line, name), "bio": None,
                                     "evidence": evidence})
                continue
            founders.extend(mentioned(page, index, product_name))
    for page in ordered:  # a footer's sentence naming the maker: "Pinwheel is made by Ines Okafor, founder and ..."
        content = set(page.lines)
        for line in page.all_lines:
            made = MADE_BY_FOUNDERS.search(line) if line not in content else None
            if made and not _testimonial((line,), 0, line, product_name):
                founders.extend(_made_by(page, line, made))
            me = FIRST_PERSON_FOUNDER.search(line) if line not in content else None  # "Hi, I'm Lena Kovač, founder of …"
            if me and not _testimonial((line,), 0, me.group("title"), product_name):
                title = me.group("title").strip()
                founders.append({"name": me.group("name"), "title": title[0].upper() + title[1:], "bio": None,
                                 "evidence": [page.text_evidence(line)]})
    for page in pages:
        for item in structured_items(page.page.structured):
            for person in _as_list(item.get("founder")) + _as_list(item.get("founders")):
                stated = string_value(person)
                if stated:
                    role = string_value(person.get("jobTitle")) if isinstance(person, Mapping) else None
                    evidence = [page.meta_evidence(stated)] + ([page.meta_evidence(role)] if role else [])
                    founders.append({"name": clean(stated), "title": role, "bio": None, "evidence": evidence})
    unique: list[Candidate] = []
    for founder in founders:
        founder["name"] = HONORIFIC.sub("", founder["name"])  # "Dr Hannah Okafor" is Hannah Okafor
    known = {normalise(f["name"]) for f in founders} | {  # and the names the pages say alone ("sagt Murat Yıldırım")
        normalise(m.group(0)) for page in pages for line in page.lines for m in NAMED.finditer(line)
        if len(m.group(0).split()) == 2}
    for founder in founders:  # "Tierärztin Carola Bredemeier" is Carola Bredemeier, named so elsewhere
        words_of_name = founder["name"].split()
        shorter = next((" ".join(words_of_name[i:]) for i in range(1, len(words_of_name) - 1)
                        if normalise(" ".join(words_of_name[i:])) in known), None)
        if shorter:
            founder["name"] = shorter
    for founder in founders:
        existing = next((f for f in unique if normalise(f["name"]) == normalise(founder["name"])), None)
        if existing is None:
            unique.append(founder)
        else:
            # a card's "Co-founder, CEO" says more than the "CEO" a founding sentence gives
            better = founder.get("title") and FOUNDER_WORD.search(founder["title"]) and (
                not FOUNDER_WORD.search(existing.get("title") or "")  # or says it with more ("medgründer og daglig
                or (existing["title"].casefold() in founder["title"].casefold()  # leder" over "Medgründer")
                    and len(founder["title"]) > len(existing["title"])))
            existing["title"] = founder["title"] if better else existing.get("title") or founder.get("title")
            existing["bio"] = existing.get("bio") or founder.get("bio")
            existing["evidence"] = existing["evidence"] + [e for e in founder["evidence"] if e not in existing["evidence"]]
    for founder in unique:
        if not founder.get("title"):
            _title_said_later(founder, pages, unique)
    return unique[:6]


def _title_said_later(founder: Candidate, pages: list[SitePage], founders: list[Candidate]) -> None:
    """A founder named without a title takes the one a later line of the same page gives them by first name:
    "Lorena Baumgartner … und der Entwickler Reto Imhof gründen Stempelkarte" / "Lorena und Reto führen die Firma
    als Mitgründerin und Mitgründer" (the line is added to the founder's quotes); as many titles as founders
    named go to them in order."""
    urls = {e.get("url") for e in founder["evidence"]}
    first = founder["name"].split()[0]
    for page in pages:
        if page.page.url not in urls:
            continue
        for line in page.lines:
            if QUOTATION_MARK.search(line) or not re.search(rf"\b{re.escape(first)}\b", line):
                continue
            title = own_role_in(line, founder["name"]) if _ROLE.search(line) else None
            named = sorted((m.start(), f["name"]) for f in founders
                           for m in re.finditer(rf"\b{re.escape(f['name'].split()[0])}\b", line))
            titles = [m.group(0) for m in _ROLE.finditer(line)]
            if len(named) >= 2 and len(titles) == len(named) and [n for _, n in named].count(founder["name"]) == 1:
                title = titles[[n for _, n in named].index(founder["name"])]  # "Lorena und Reto … Mitgründerin und Mitgründer"
            if title and _ROLE.search(title):
                founder["title"] = title
                founder["evidence"] = founder["evidence"] + [page.text_evidence(line)]
                return


# "Gegründet haben wir Knotenblech 2019 in Duisburg: Sandra Kowalczyk (Geschäftsführerin, …) und Tobias Reuter
# (Geschäftsführer, …)": a founding clause, then the founders with their roles in brackets
_FOUNDED_COLON = re.compile(rf"\b(?i:{FOUNDING}|{FOUNDING_WE})\b[^.!?:]{{0,80}}:\s+(?={NAME}\s*\()")


_ROLE = re.compile(rf"\b(?:{FOUNDER_TITLE}|{EXECUTIVE_ROLE})\b", re.IGNORECASE)


def _roles_only(title: str) -> str:
    """A title's roles without the prose after them: "Geschäftsführerin, vorher Disponentin in einem
    Gerüstbaubetrieb" is "Geschäftsführerin"; "Co-founder, CEO" and "perustaja, toimitusjohtaja" stay whole."""
    parts = [p.strip() for p in title.split(",")]
    end = max((i for i, p in enumerate(parts) if _ROLE.search(p)), default=len(parts) - 1) + 1
    while end < len(parts) and len(parts[end].split()) <= 3:
        end += 1  # a short part is one more role ("perustaja, toimitusjohtaja"); prose after the roles is not
    return ", ".join(parts[:end])


def _founded_then_named(line: str) -> list[re.Match[str]]:
    """The bracketed names after a founding clause and a colon, whatever role each bracket gives."""
    colon = _FOUNDED_COLON.search(line)
    return list(BRACKETED_ROLE.finditer(line, colon.end())) if colon else []


# "… gegründet haben wir die Firma in Graz: Veronika Pichler ist Gärtnermeisterin …, Lukas Hofer ist
# Softwareentwickler": a founding clause and a colon, then each founder introduced by a clause of their own
_INTRODUCED = re.compile(rf"(?:^|[:,;]\s+|\s(?:und|and|et|y|e)\s+)(?P<name>{NAME})\s+(?:ist|is|est|es|\u00e8|er|\u00e4r)\b")


_SIDE_BY_SIDE = re.compile(r"\s+[\u00b7|\u2022]\s+")


def _founders_side_by_side(line: str) -> list[tuple[str, str]]:
    """Two or more "Name, title" cards on one line, set apart by middle dots or bars, each a founder."""
    cards = [FOUNDER_LINE.match(part) for part in _SIDE_BY_SIDE.split(line)]
    if len(cards) < 2 or not all(c and FOUNDER_WORD.search(c.group("title")) and not c.group("bio") for c in cards):
        return []
    return [(c.group("name"), c.group("title").strip()) for c in cards if c]


def _founded_then_introduced(page: SitePage, line: str) -> list[Candidate]:
    """Two or more people introduced one by one after a founding clause and a colon, with the role the line
    gives them ("Beide führen Gießkanne heute als Geschäftsführer")."""
    colon = re.search(rf"\b(?i:{FOUNDING}|{FOUNDING_WE})\b[^.!?:]{{0,80}}:\s+", line)
    if colon is None or BRACKETED_ROLE.search(line, colon.end()):
        return []
    names = [m.group("name") for m in _INTRODUCED.finditer(line, colon.end() - 2)]
    if len(names) < 2:
        return []
    return [{"name": name, "title": role_in(line, name), "bio": None, "evidence": [page.text_evidence(line)]}
            for name in names]


def _made_by(page: SitePage, line: str, made: re.Match[str]) -> list[Candidate]:
    """Each maker a "made by A and B, co-founders" sentence names, quoted with it."""
    title = made.group("title")
    return [{"name": name, "title": title[0].upper() + title[1:], "bio": None, "evidence": [page.text_evidence(line)]}
            for name in split_names(made.group("names"))]




def _as_said(name: str, page: SitePage) -> str:
    """The name without the words before it ("Softwareentwicklerin Lena Kowalczyk", "Kfz-Meister Murat Yıldırım")
    when the page also says it that way alone ("Lena Kowalczyk, Mitgründerin …", "sagt Murat Yıldırım")."""
    words_of_name = name.split()
    if len(words_of_name) < 3:
        return name
    said = {normalise(m.group(0)) for line in page.lines for m in NAMED.finditer(line) if len(m.group(0).split()) == 2}
    return next((" ".join(words_of_name[i:]) for i in range(1, len(words_of_name) - 1)
                 if normalise(" ".join(words_of_name[i:])) in said), name)


def _names_another(sentence: str, product_name: str) -> bool:
    """The founding sentence's subject names someone (or something) else: "Then Carl Moss founded …"."""
    founding = re.search(rf"\b(?i:{FOUNDING})\b", sentence)
    subject = sentence[:founding.start()] if founding else sentence
    return any(not (product_name and product_name.casefold() in m.group(0).casefold()) for m in NAMED.finditer(subject))


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
