"""Founders a page names in passing rather than in a team card or a founding sentence.

Signatures under a letter ("— Jess Carmody & Tom Haverfield, founders"), appositions in a press release ("said
Anna Berg, co-founder and CEO of Acme"), timelines in the present tense ("Anna Berg and Li Wei found Acme"), a
founder writing of "my co-founder Li Wei"; first names with their roles after the full names
(`founder_first_names.py`) and the founders introducing themselves (`founder_introductions.py`). Each is quoted with the line (or the passage of lines) that says it; a quotation's
attribution or a founder of another company is not one.
"""

from __future__ import annotations

import re

from .founder_first_names import by_first_name
from .founder_introductions import introduced
from .founder_roles import FOUNDER_WORD, role_in
from .founder_words import FOUNDER_TITLE
from .person_names import NAME, NAME_ONLY, NAME_WORD, NAMES, NOT_GIVEN_NAMES, UPPER, split_names, without_article
from .reading import Candidate, SitePage
from .text import QUOTATION_MARK, normalise

# "Rosalind MacNeil (left) and Dev Anand, Inkhorn's co-founders": a caption's bracket may follow the first name
_PARTNER_BEFORE = re.compile(rf"(?P<name>{NAME})(?:\s*\([^()]{{1,20}}\))?\s*(?:&|and|und|et|y|e)\s*$")
_TITLE_AND = r"(?:\s+(?:and|&|und|et|y|e)\s+(?:[A-Z]{2,4}\b|chief [a-z]+ officer|[\w\u00c0-\u024f-]+))?"
# A letter signed by its founders: "— Jess Carmody & Tom Haverfield, founders, from our kitchen table in Mudgee"
SIGNED_BY_FOUNDERS = re.compile(
    rf"(?:^|\s)[\u2014\u2013-]\s*(?P<names>{NAME}(?:\s*(?:&|and|und|et|y|e|en|och)\s*{NAME})+),\s+"
    rf"(?P<title>[^,.;!?]{{0,40}}?\b(?i:{FOUNDER_TITLE})\b[^,.;!?]{{0,40}})"
)
# "My partner in this, Simon Feltham, is the other co-founder", "Lena ist unsere Mitgründerin"
NAME_IS_FOUNDER = re.compile(
    rf"(?P<name>{NAME}),?\s+(?i:is|was|ist|war|est|es|\u00e8|er|\u00e4r)\s+(?:(?i:the|our|my|unsere?|der|die|le|la|el|il|notre|nuestr[ao])\s+)?"
    rf"(?:(?i:other|second|andere|zweite|autre|otro|otra)\s+)?(?P<title>(?i:{FOUNDER_TITLE}))\b"
)
# The same names alone, the founder title on the line below: "— Maya Okonkwo & Theo Lindqvist" / "Co-founders, Riddlewick"
SIGNED_NAMES = re.compile(rf"^[\u2014\u2013-]\s*(?P<names>{NAME}(?:\s*(?:&|and|und|et|y|e|en|och)\s*{NAME})+)$")
# A founder named in passing: "said Anna Berg, co-founder and CEO of Acme", "Anna Berg, Mitgründerin von Acme, sagt"
APPOSITIVE_FOUNDER = re.compile(
    # "Mei Lin Tran and Callum Rhodes, Wainscot's co-founders": a possessive names the company as "of" does
    rf"(?P<name>{NAME}),\s+(?:(?P<owner>[A-Z\u00c0-\u00de][\w\u00c0-\u024f-]*)['\u2019]s\s+)?"
    rf"(?P<title>(?:(?i:the|our|its|der|die|le|la|el|il)\s+)?(?i:{FOUNDER_TITLE}){_TITLE_AND})"
    rf"(?:\s+(?:of|at|von|bei|de|du|di|chez|van)\s+(?P<org>[A-Z\u00c0-\u00de][\w&.'\u00c0-\u024f-]*"
    rf"(?:\s+[A-Z\u00c0-\u00de][\w&.'\u00c0-\u024f-]*){{0,3}}))?"
)
# "my co-founder Li Wei", "mein Mitgründer Jonas Weber", "mon cofondateur Malik Benali", "mi cofundadora Ana Ruiz"
# "made in Melbourne by its founder, Nina Castellano": the company's founder, named after the title
MY_COFOUNDER = re.compile(
    rf"\b(?i:my|our|its|their|mein|meine|meinem|meiner|unser|unsere|mon|ma|notre|mi|nuestro|nuestra|il mio|la mia|mijn|onze|min"
    rf"|sein|seine|son|sa|su|il suo|la sua)"
    rf"\s+(?P<title>(?i:(?:co-?)?founder|(?:mit)?gr(?:\u00fc|ue)nder(?:in)?|(?:co-?)?fondat(?:eur|rice)|(?:co-?)?fundador(?:a)?"
    rf"|co-?fondatore|co-?fondatrice|mede-?oprichter|medgrundare|wsp\u00f3\u0142za\u0142o\u017cyciel(?:ka)?))"
    rf",?\s+(?P<name>{NAME})"
)
# "2019 — Anna Berg and Li Wei found Acme in a spare room", "Anna Berg gründet Acme": the product named right after
NAMES_FOUND = re.compile(
    # "Tahnee and Callum found Gunwale": first names alone too, completed from the lines before
    rf"(?P<names>{NAMES}|(?:{NAME}|[{UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'-]+)"
    rf"(?:\s+(?:and|&|und|et|y|e|en|och|i)\s+(?:{NAME}|[{UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'-]+))?)"
    rf"(?:,[^,.;!?]{{1,120}},)?\s+"
    rf"(?i:found|co-found|founds|start|started|founded|co-founded|gr(?:\u00fc|ue)nden|gr(?:\u00fc|ue)ndet|fondent|fonde|fundan|funda|fondano|fonda|grundar"
    rf"|crean|cr\u00e9ent|creano|criam)\s+"
    rf"(?P<what>[^.!?]{{1,40}})"
)


# "Co-founders Ruth Adeyemi and Callum Burke, who started Larder in Leeds": the title before the names
FOUNDERS_NAMED_AFTER = re.compile(
    rf"(?:^|\b(?i:our|the|unsere|die|nos|les|nuestros|los|i nostri|os nossos)\s+)"
    rf"(?P<title>(?i:co-?founders|founders|mitgr(?:\u00fc|ue)nder|gr(?:\u00fc|ue)nder|co-?fondateurs|fondateurs"
    rf"|co-?fundadores|fundadores|co-?fondatori|fondatori|oprichters))\s+(?P<names>{NAME}(?:\s+(?:and|und|et|y|e|en)\s+{NAME})+)"
)


def mentioned(page: SitePage, index: int, product_name: str) -> list[Candidate]:
    """Founders a sentence names in passing: an apposition ("said Anna Berg, co-founder and CEO of Acme") naming
    no other company, a timeline's "Anna Berg and Li Wei found Acme", or a founder speaking of "my co-founder
    Li Wei". A quoted customer ("“Love it,” says Jane
    Doe, founder") is not one unless the company named is the product. Two forms span a paragraph and the next,
    quoted together: "Tobias Renfro and I met …" / "In 2023 we … founded Lamplighter", and full names followed
    by first names with their roles ("… Renzo Quispe … Daniela Paredes …" / "cuenta Daniela, cofundadora y CTO")."""
    line = page.lines[index]
    following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
    found: list[Candidate] = []
    product = normalise(product_name)
    for match in APPOSITIVE_FOUNDER.finditer(line):
        org = normalise(match.group("org") or match.group("owner") or "")
        if org and not (product and product in org):
            continue  # a founder of another company
        if not org and QUOTATION_MARK.search(line):
            continue  # an attribution of a quotation, naming no company
        title = match.group("title").strip()
        partner = _PARTNER_BEFORE.search(line[:match.start()])  # "Seraina Caduff & Jonas Wyrsch, Gründer von Kulisse"
        names = ([partner.group("name")] if partner else []) + [match.group("name")]
        found.extend({"name": name, "title": title[0].upper() + title[1:], "bio": None,
                      "evidence": [page.text_evidence(line)]} for name in names)
    for match in NAME_IS_FOUNDER.finditer(line):
        if match.group("name").split()[0] in NOT_GIVEN_NAMES:
            continue  # "Today Anna is our co-founder": a first name alone, read with the full names nearby below
        if not QUOTATION_MARK.search(line[:match.start()]):
            title = match.group("title")
            found.append({"name": match.group("name"), "title": title[0].upper() + title[1:], "bio": None,
                          "evidence": [page.text_evidence(line)]})
    signed = SIGNED_BY_FOUNDERS.search(line)
    if signed:
        title = signed.group("title")
        found.extend({"name": name, "title": title[0].upper() + title[1:], "bio": None,
                      "evidence": [page.text_evidence(line)]} for name in split_names(signed.group("names")))
    for match in NAMES_FOUND.finditer(line):
        # a quotation later in the paragraph ("… in 2022. Ruth had … “Every company I worked at …”") is not this
        if product and product in normalise(match.group("what")) and not QUOTATION_MARK.search(line[:match.end()]):
            for name in names_said(match.group("names"), page, index):
                quote = line if name in line else f"{line_naming(page, index, name)} {line}".strip()
                found.append({"name": name, "title": role_in(line, name), "bio": None,
                              "evidence": [page.text_evidence(quote)]})
    signed_alone = SIGNED_NAMES.match(line)
    if signed_alone and FOUNDER_WORD.search(following) and len(following) <= 100:
        title = following.split(",")[0].strip()
        found.extend({"name": name, "title": title if FOUNDER_WORD.search(title) else None, "bio": None,
                      "evidence": [page.text_evidence(f"{line} {following}")]}
                     for name in split_names(signed_alone.group("names")))
    named_after = FOUNDERS_NAMED_AFTER.search(line)
    if named_after and not QUOTATION_MARK.search(line):
        title = named_after.group("title")
        found.extend({"name": name, "title": title[0].upper() + title[1:], "bio": None,
                      "evidence": [page.text_evidence(line)]} for name in split_names(named_after.group("names")))
    found.extend(by_first_name(page, index))
    found.extend(introduced(page, index))
    for match in MY_COFOUNDER.finditer(line):
        if QUOTATION_MARK.search(line[:match.start()]):
            continue
        title = match.group("title")
        found.append({"name": match.group("name"), "title": title[0].upper() + title[1:], "bio": None,
                      "evidence": [page.text_evidence(line)]})
    return found


def names_said(names: str, page: SitePage, index: int) -> list[str]:
    """The full names a list gives, a first name alone ("Ruth and Sanjay Patel …") completed from the full name
    the page's lines before it say ("Ruth Ellery runs the quoting desk …")."""
    full: list[str] = []
    for part in re.split(r"\s*,\s*(?:(?:and|&|und|et|y|e|en|och|i)\s+)?|\s+(?:and|&|und|et|y|e|en|och|i)\s+", names):
        part = without_article(part.strip())  # "der Entwickler Reto Imhof"; a description between commas is dropped
        if NAME_ONLY.match(part):
            full.append(part)
            continue
        if not re.fullmatch(rf"[{UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'-]+", part):
            continue
        named = line_naming(page, index, part)
        match = re.search(rf"\b{re.escape(part)}\s+{NAME_WORD}(?:\s+{NAME_WORD})?", named) if named else None
        if match and NAME_ONLY.match(match.group(0)):
            full.append(match.group(0))
    return full


def line_naming(page: SitePage, index: int, name: str) -> str:
    """The lines from the nearest one before ``index`` (up to five back) that holds ``name`` with a surname after
    it, up to the line before ``index`` (empty when none does)."""
    first = name.split()[0]
    for at in range(index, max(0, index - 5) - 1, -1):
        if re.search(rf"\b{re.escape(first)}\s+{NAME_WORD}", page.lines[at]):
            return " ".join(page.lines[at:index])  # the lines from there up to this one, quoted as one passage
    return ""
