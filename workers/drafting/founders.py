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
from .founder_words import EXECUTIVE_ROLE, FOUNDER_TITLE, FOUNDING, FOUNDING_WE
from .text import clean, normalise, sentences

# Upper-case initials include accented ones ("Élodie", "Ángela"); "MacLeod", "DiNapoli" too.
_UPPER = "A-Z\u00c0-\u00d6\u00d8-\u00de"
_NAME_WORD = rf"[{_UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'\u2019-]+(?:[{_UPPER}][a-z\u00df-\u00f6\u00f8-\u024f]+)?"
# Particles between given name and surname, the Irish "Ó"/"Ní" among them ("Tomás Ó Súilleabháin").
NAME = (rf"{_NAME_WORD}(?:\s+(?:[A-Z]\.\s+|(?:de|van|von|der|den|da|di|del|la|le|du|dos|\u00d3|N\u00ed|Mac)\s+)?"
        rf"{_NAME_WORD}){{1,3}}")
FOUNDER_WORD = re.compile(rf"\b(?:{FOUNDER_TITLE})\b", re.IGNORECASE)
FOUNDER_LINE = re.compile(
    rf"^(?P<name>{NAME})\s*(?:,|\u2014|\u2013|-|\||\u00b7|:|\()\s*(?P<title>[^.!?]{{2,100}}?)\)?(?:\.?$|\.\s+(?P<bio>[A-Z].*)$)"
)
# Names in a list, each perhaps with a description between commas: "Tiago Valadares, instrutor de surf há quinze
# anos, e Marta Seixas" (`_split_names` keeps the names)
_AND = r"(?:,|and|&|und|y|e|et|en|och|og|i)"
_NAMES = rf"{NAME}(?:(?:,\s*[^,.!?]{{1,80}}?,)?\s*{_AND}\s*{NAME})*"
# "founded in 2019 by", "founded in Montréal in 2021 by"
FOUNDED_BY = re.compile(rf"\b(?:founded|started|created)\s+(?:in\s+[^,.;!?]{{1,40}}?\s+)?by\s+(?P<names>{_NAMES})")
NAME_ONLY = re.compile(rf"^{NAME}$")
NAMED = re.compile(NAME)
# Roles in brackets after each name, several to a line: "Fernanda Ríos (cofundadora y directora general) y
# Diego Salcedo (cofundador y director de tecnología)".
BRACKETED_ROLE = re.compile(rf"(?P<name>{NAME})\s*\((?P<title>[^()]{{2,100}})\)")
# A sentence naming its makers and then their role: "made in Pittsburgh by Dana Whitcomb and Luis Ortega,
# co-founders", "criada em Florianópolis por Rafael Tavares, fundador".
MADE_BY_FOUNDERS = re.compile(
    rf"\b(?:by|von|por|par|door|da|av|de la mano de)\s+(?P<names>{NAME}(?:\s*{_AND}\s*{NAME})*),\s+"
    rf"(?:(?:the|its|our|ihre?|sus?|ses|seus?)\s+)?(?P<title>(?i:{FOUNDER_TITLE}))\b"
)
# "Leitwerk wurde 2020 von Theresa Kaltenbach und Moritz Oberle gegründet", "fondata nel 2020 a Bologna da due
# insegnanti di matematica, Chiara Benedetti e Luca Ferraresi", "grundades 2023 av Elsa Lindgren och Johan Ek"
FOUNDED_BY_ELSEWHERE = (
    re.compile(rf"\bvon\s+(?P<names>{NAME}(?:\s*{_AND}\s*{NAME})*)\s+gegr\u00fcndet"),
    re.compile(rf"\b(?i:fondat[ao]|fond\u00e9e?|fundad[ao]|opgericht|grundades|grundat)\b[^.!?]{{0,60}}?"
               rf"\b(?:da|par|por|door|av)\s+(?:[^.!?,]{{0,50}},\s+)?(?P<names>{_NAMES})"),
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
PARTNER_AND_I = re.compile(
    rf"(?P<name>{NAME})\s+(?:and|und|et|y|e|en|och)\s+(?:I|ich|moi|yo|io|ik|jag)\b.{{0,400}}?"
    rf"\b(?i:we|wir|nous|nosotros|noi|wij|vi)\b[^.!?]{{0,160}}?\b(?i:{FOUNDING}|started|co-founded)\b"
)
PARTNER_AND_I_START = re.compile(rf"{NAME}\s+(?:and|und|et|y|e|en|och)\s+(?:I|ich|moi|yo|io|ik|jag)\b")
# A first name and its founder role, the full name said just before: "cuenta Daniela, cofundadora y CTO"
FIRST_NAME_ROLE = re.compile(
    rf"(?<![\w\u00c0-\u024f])(?P<first>[{_UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'-]+),\s+"
    rf"(?P<title>(?i:{FOUNDER_TITLE})(?:\s+(?:y|and|und|et|e|&)\s+(?:[A-Z]{{2,4}}\b))?)"
)
# A founder introducing themself: "Hi, I'm Wren Albright, founder of Inkpot", "Ich bin Ada Muster, Gründerin von ..."
FIRST_PERSON_FOUNDER = re.compile(
    rf"\b(?:I'm|I\u2019m|I am|my name is|ich bin|je suis|soy|sono|ik ben|eu sou)\s+(?P<name>{NAME}),\s+"
    r"(?P<title>(?:the\s+|der\s+|die\s+|le\s+|la\s+|el\s+)?[^,.;:!?]{0,40}?\b(?:co-?founder|founder|(?:mit)?gr\u00fcnder(?:in)?"
    r"|co-?fundador(?:a)?|fundador(?:a)?|co-?fondat(?:eur|rice)|fondat(?:eur|rice)|(?:mede)?oprichter|co-?fondator[ei])\b"
    r"(?:\s+(?:of|von|de|del|van|di|do|da)\s+[^,.;:!?]{1,40})?)",
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
            match = FOUNDER_LINE.match(_SIGNATURE_DASH.sub("", line, count=1))  # "— Anna Berg, co-founder"
            if match and FIRST_PERSON_FOUNDER.match(line):
                match = None  # "Soy Valentina Restrepo, fundadora de Recado": the introduction is read below
            bracketed = [m for m in BRACKETED_ROLE.finditer(line) if FOUNDER_WORD.search(m.group("title"))]
            if (len(bracketed) > 1 or (bracketed and not match)) \
                    and not _testimonial(page.lines, index, bracketed[0].group("title"), product_name):
                founders.extend({"name": m.group("name"), "title": m.group("title").strip(), "bio": None,
                                 "evidence": [page.text_evidence(line)]} for m in bracketed)
                continue
            if match and FOUNDER_WORD.search(match.group("title")):
                if not _testimonial(page.lines, index, match.group("title"), product_name):
                    founder = _founder_line(page, index, match.group("name"), match.group("title").strip())
                    if match.group("bio") and not founder["bio"]:
                        founder["bio"] = match.group("bio")
                    founders.append(founder)
                continue
            following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
            if NAME_ONLY.match(_HONORIFIC.sub("", line)) and FOUNDER_WORD.search(following) and len(following) <= 100 \
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
                founders.extend(_made_by(page, line, made))
                continue
            by = FOUNDED_BY.search(line) or next((m for p in FOUNDED_BY_ELSEWHERE for m in [p.search(line)] if m), None)
            pair = (PAIR_THEN_FOUNDED.search(line) or WE_ARE_THEN_FOUNDED.search(line)) if by is None else None
            if pair and not _names_another(pair.group("next"), product_name):
                by = pair
            if by:
                names = [by.group("first"), by.group("second")] if by is pair else _split_names(by.group("names"))
                following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
                for name in names:
                    title, evidence = _role_in(line, name), [page.text_evidence(line)]
                    if title is None and re.search(rf"\b{re.escape(name.split()[0])}\b", following):
                        title = _own_role_in(following, name)  # "Greta is still our founder and managing director"
                        evidence += [page.text_evidence(following)] if title else []
                    founders.append({"name": name, "title": title, "bio": None, "evidence": evidence})
                continue
            founders.extend(_mentioned(page, index, product_name))
    for page in ordered:  # a footer's sentence naming the maker: "Pinwheel is made by Ines Okafor, founder and ..."
        content = set(page.lines)
        for line in page.all_lines:
            made = MADE_BY_FOUNDERS.search(line) if line not in content else None
            if made and not _testimonial((line,), 0, line, product_name):
                founders.extend(_made_by(page, line, made))
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
        founder["name"] = _HONORIFIC.sub("", founder["name"])  # "Dr Hannah Okafor" is Hannah Okafor
    known = {normalise(f["name"]) for f in founders}
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
            better = founder.get("title") and not FOUNDER_WORD.search(existing.get("title") or "") \
                and FOUNDER_WORD.search(founder["title"])
            existing["title"] = founder["title"] if better else existing.get("title") or founder.get("title")
            existing["bio"] = existing.get("bio") or founder.get("bio")
            existing["evidence"] = existing["evidence"] + [e for e in founder["evidence"] if e not in existing["evidence"]]
    return unique[:6]


# "— Anna Berg, co-founder": a signature under a letter or a press quote
_SIGNATURE_DASH = re.compile(r"^[\u2014\u2013-]\s*(?=[A-Z\u00c0-\u00de])")
_TITLE_AND = r"(?:\s+(?:and|&|und|et|y|e)\s+(?:[A-Z]{2,4}\b|chief [a-z]+ officer|[\w\u00c0-\u024f-]+))?"
# A letter signed by its founders: "— Jess Carmody & Tom Haverfield, founders, from our kitchen table in Mudgee"
SIGNED_BY_FOUNDERS = re.compile(
    rf"^[\u2014\u2013-]\s*(?P<names>{NAME}(?:\s*(?:&|and|und|et|y|e|en|och)\s*{NAME})+),\s+"
    rf"(?P<title>[^,.;!?]{{0,40}}?\b(?i:{FOUNDER_TITLE})\b[^,.;!?]{{0,40}})"
)
# The same names alone, the founder title on the line below: "— Maya Okonkwo & Theo Lindqvist" / "Co-founders, Riddlewick"
SIGNED_NAMES = re.compile(rf"^[\u2014\u2013-]\s*(?P<names>{NAME}(?:\s*(?:&|and|und|et|y|e|en|och)\s*{NAME})+)$")
# A founder named in passing: "said Anna Berg, co-founder and CEO of Acme", "Anna Berg, Mitgründerin von Acme, sagt"
APPOSITIVE_FOUNDER = re.compile(
    rf"(?P<name>{NAME}),\s+(?P<title>(?:(?i:the|our|its|der|die|le|la|el|il)\s+)?(?i:{FOUNDER_TITLE}){_TITLE_AND})"
    rf"(?:\s+(?:of|at|von|bei|de|du|di|chez|van)\s+(?P<org>[A-Z\u00c0-\u00de][\w&.'\u00c0-\u024f-]*"
    rf"(?:\s+[A-Z\u00c0-\u00de][\w&.'\u00c0-\u024f-]*){{0,3}}))?"
)
# "my co-founder Li Wei", "mein Mitgründer Jonas Weber", "mon cofondateur Malik Benali", "mi cofundadora Ana Ruiz"
MY_COFOUNDER = re.compile(
    rf"\b(?i:my|our|mein|meine|meinem|meiner|unser|unsere|mon|ma|notre|mi|nuestro|nuestra|il mio|la mia|mijn|onze|min)"
    rf"\s+(?P<title>(?i:co-?founder|mitgr(?:\u00fc|ue)nder(?:in)?|co-?fondat(?:eur|rice)|co-?fundador(?:a)?"
    rf"|co-?fondatore|co-?fondatrice|mede-?oprichter|medgrundare|wsp\u00f3\u0142za\u0142o\u017cyciel(?:ka)?))"
    rf",?\s+(?P<name>{NAME})"
)
# "2019 — Anna Berg and Li Wei found Acme in a spare room", "Anna Berg gründet Acme": the product named right after
NAMES_FOUND = re.compile(
    rf"(?P<names>(?:{NAME}|[{_UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'-]+)(?:\s+(?:and|&|und|et|y|e|en|och|i)\s+{NAME})?)"
    rf"(?:,[^,.;!?]{{1,120}},)?\s+"
    rf"(?i:found|co-found|founds|gr(?:\u00fc|ue)nden|gr(?:\u00fc|ue)ndet|fondent|fonde|fundan|funda|fondano|fonda|grundar)\s+"
    rf"(?P<what>[^.!?]{{1,40}})"
)
_QUOTATION = re.compile("[\u201c\u201d\u201e\u00ab\u00bb\"]")


def _mentioned(page: SitePage, index: int, product_name: str) -> list[Candidate]:
    """Founders a sentence names in passing: an apposition ("said Anna Berg, co-founder and CEO of Acme") naming
    no other company, a timeline's "Anna Berg and Li Wei found Acme", or a founder speaking of "my co-founder
    Li Wei". A quoted customer ("“Love it,” says Jane
    Doe, founder") is not one unless the company named is the product. Two forms span a paragraph and the next,
    quoted together: "Tobias Renfro and I met …" / "In 2023 we … founded Lamplighter", and full names followed
    by first names with their roles ("… Renzo Quispe … Daniela Paredes …" / "cuenta Daniela, cofundadora y CTO")."""
    line = page.lines[index]
    following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
    previous = page.lines[index - 1] if index > 0 else ""
    found: list[Candidate] = []
    product = normalise(product_name)
    for match in APPOSITIVE_FOUNDER.finditer(line):
        org = normalise(match.group("org") or "")
        if org and not (product and product in org):
            continue  # a founder of another company
        if not org and _QUOTATION.search(line):
            continue  # an attribution of a quotation, naming no company
        title = match.group("title").strip()
        found.append({"name": match.group("name"), "title": title[0].upper() + title[1:], "bio": None,
                      "evidence": [page.text_evidence(line)]})
    signed = SIGNED_BY_FOUNDERS.match(line)
    if signed:
        title = signed.group("title")
        found.extend({"name": name, "title": title[0].upper() + title[1:], "bio": None,
                      "evidence": [page.text_evidence(line)]} for name in _split_names(signed.group("names")))
    for match in NAMES_FOUND.finditer(line):
        if product and product in normalise(match.group("what")) and not _QUOTATION.search(line):
            for name in _names_said(match.group("names"), page, index):
                quote = line if name in line else f"{_line_naming(page, index, name)} {line}".strip()
                found.append({"name": name, "title": _role_in(line, name), "bio": None,
                              "evidence": [page.text_evidence(quote)]})
    signed_alone = SIGNED_NAMES.match(line)
    if signed_alone and FOUNDER_WORD.search(following) and len(following) <= 100:
        title = following.split(",")[0].strip()
        found.extend({"name": name, "title": title if FOUNDER_WORD.search(title) else None, "bio": None,
                      "evidence": [page.text_evidence(f"{line} {following}")]}
                     for name in _split_names(signed_alone.group("names")))
    for text in (line, f"{line} {following}"):
        partner = PARTNER_AND_I.search(text) if PARTNER_AND_I_START.search(line) else None
        if partner and not _QUOTATION.search(text):
            name = partner.group("name")
            found.append({"name": name, "title": _role_in(text, name), "bio": None, "evidence": [page.text_evidence(text)]})
            break
    for match in FIRST_NAME_ROLE.finditer(line):
        full = [m.group(0) for m in NAMED.finditer(previous) if m.group(0).split()[0] == match.group("first")]
        if len(full) == 1 and not _QUOTATION.search(line[match.start():match.end()]):
            title = match.group("title")
            found.append({"name": full[0], "title": title[0].upper() + title[1:], "bio": None,
                          "evidence": [page.text_evidence(f"{previous} {line}")]})
    for match in MY_COFOUNDER.finditer(line):
        if _QUOTATION.search(line[:match.start()]):
            continue
        title = match.group("title")
        found.append({"name": match.group("name"), "title": title[0].upper() + title[1:], "bio": None,
                      "evidence": [page.text_evidence(line)]})
    return found


def _names_said(names: str, page: SitePage, index: int) -> list[str]:
    """The full names a list gives, a first name alone ("Ruth and Sanjay Patel …") completed from the full name
    the page's lines before it say ("Ruth Ellery runs the quoting desk …")."""
    full: list[str] = []
    for part in re.split(r"\s+(?:and|&|und|et|y|e|en|och|i)\s+", names):
        part = part.strip()
        if NAME_ONLY.match(part):
            full.append(part)
            continue
        named = _line_naming(page, index, part)
        match = re.search(rf"\b{re.escape(part)}\s+{_NAME_WORD}(?:\s+{_NAME_WORD})?", named) if named else None
        if match and NAME_ONLY.match(match.group(0)):
            full.append(match.group(0))
    return full


def _line_naming(page: SitePage, index: int, name: str) -> str:
    """The lines from the nearest one before ``index`` (up to five back) that holds ``name`` with a surname after
    it, up to the line before ``index`` (empty when none does)."""
    first = name.split()[0]
    for at in range(index, max(0, index - 5) - 1, -1):
        if re.search(rf"\b{re.escape(first)}\s+{_NAME_WORD}", page.lines[at]):
            return " ".join(page.lines[at:index])  # the lines from there up to this one, quoted as one passage
    return ""


def _made_by(page: SitePage, line: str, made: re.Match[str]) -> list[Candidate]:
    """Each maker a "made by A and B, co-founders" sentence names, quoted with it."""
    title = made.group("title")
    return [{"name": name, "title": title[0].upper() + title[1:], "bio": None, "evidence": [page.text_evidence(line)]}
            for name in _split_names(made.group("names"))]


_HONORIFIC = re.compile(r"^(?:(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sir|Dame|Ing|Mag|Dott|Dra|Sr|Sra)\.?\s+)+(?=\S+\s+\S)")


def _names_another(sentence: str, product_name: str) -> bool:
    """The founding sentence's subject names someone (or something) else: "Then Carl Moss founded …"."""
    founding = re.search(rf"\b(?i:{FOUNDING})\b", sentence)
    subject = sentence[:founding.start()] if founding else sentence
    return any(not (product_name and product_name.casefold() in m.group(0).casefold()) for m in NAMED.finditer(subject))


def _split_names(names: str) -> list[str]:
    pieces = (n.strip() for n in re.split(r"\s*(?:,|&|\b(?:and|und|y|e|et|en|och|og|i)\b)\s*", names))
    return [n for n in pieces if NAME_ONLY.match(n)]  # a description between commas is no name


def _role_in(line: str, name: str) -> str | None:
    """The founder word a founding sentence gives this person ("Theresa verantwortet als Mitgründerin …"), else
    the leader's role it gives them ("Priyanka leads the company as CEO; Tomasz, our CTO, …"), else the founder
    word it gives them all ("As co-founders they still split the work"), as written; None when it says none."""
    first = re.escape(name.split()[0])
    own = re.search(rf"\b{first}\b[^.!?]{{0,40}}?\b(?P<title>(?i:{FOUNDER_TITLE}))\b", line)
    if own is None:  # "Léa Tremblay, a former subtitle editor who is now CEO"
        own = re.search(rf"\b{first}\b[^.!?;]{{0,60}}?\b(?P<title>(?i:{EXECUTIVE_ROLE}))\b", line)
    shared = own or FOUNDER_WORD.search(line)
    if shared is None:
        return None
    word = shared.group("title") if own else shared.group(0)
    return word[0].upper() + word[1:]  # as written ("Co-founders"): the gate finds a title in its quote


def _own_role_in(line: str, name: str) -> str | None:
    """The founder word or leader's role a line gives this person by first name, as written; None otherwise."""
    first = re.escape(name.split()[0])
    own = re.search(rf"\b{first}\b[^.!?;]{{0,40}}?\b(?P<title>(?i:{FOUNDER_TITLE}|{EXECUTIVE_ROLE}))\b", line)
    if own is None:
        return None
    return own.group("title")[0].upper() + own.group("title")[1:]


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
