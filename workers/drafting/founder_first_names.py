"""Founders named by first name with their role, the full name said nearby on the same page.

"cuenta Daniela, cofundadora y CTO" under "… Daniela Paredes …", "Today — Marisol (co-founder and CEO) and Jonah
(co-founder and CTO) run Cresset" under a timeline naming Marisol Quintero and Jonah Feld, "Avui la Montse és
cofundadora", "Inès est cofondatrice et présidente, Mathis cofondateur et directeur technique". A first name is
drafted only when the page names exactly one person of that first name within five lines, and the passage from
that line to the role is the quote.
"""

from __future__ import annotations

import re

from .founder_roles import FOUNDER_WORD
from .founder_words import EXECUTIVE_ROLE, FOUNDER_TITLE
from .person_names import NAME_ONLY, NAME_WORD, NAMED, UPPER
from .reading import Candidate, SitePage
from .text import QUOTATION_MARK

# A first name standing alone, not the end of a word
_FIRST = rf"(?<![\w\u00c0-\u024f])(?P<first>[{UPPER}][a-z\u00df-\u00f6\u00f8-\u024f'-]+)"
# A first name and its founder role, the full name said just before: "cuenta Daniela, cofundadora y CTO"
FIRST_NAME_ROLE = re.compile(
    rf"{_FIRST},\s+"
    rf"(?:(?i:our|my|the|unsere?|mein[e]?|notre|mon|ma|nuestr[ao]|mi|il nostro|la nostra)\s+)?"  # "Tamsin, our co-founder"
    rf"(?P<title>(?i:{FOUNDER_TITLE})(?:\s+(?:y|and|und|et|e|&)\s+(?:[A-Z]{{2,4}}\b))?)"
)
# A first name and its founder role in brackets, the full name said elsewhere on the page: "Today — Marisol
# (co-founder and CEO) and Jonah (co-founder and CTO) run Cresset"
FIRST_NAME_BRACKETED = re.compile(
    rf"{_FIRST}\s*"
    rf"\((?P<title>[^()]{{2,60}})\)"
)
_AND_ROLE = rf"(?:\s+(?:et|and|und|y|i|e)\s+(?i:{EXECUTIVE_ROLE}|president))?"  # "cofondatrice et présidente"
# A first name said to be a founder, the full name said nearby: "Avui la Montse és cofundadora", "Today Marisol is
# our co-founder"
FIRST_NAME_IS_FOUNDER = re.compile(
    rf"{_FIRST},?\s+"
    rf"(?i:is|ist|est|es|\u00e9s|\u00e8|er|\u00e4r|becomes|became|wird|devient|diventa)\s+"
    rf"(?:(?i:the|our|my|unsere?|der|die|le|la|el|il|notre|nuestr[ao]|la nostra|el nostre)\s+)?"
    rf"(?P<title>(?i:{FOUNDER_TITLE})\b{_AND_ROLE})"
)
# The same with the verb left out after a comma: "Inès est cofondatrice et présidente, Mathis cofondateur et
# directeur technique"
FIRST_NAME_THEN_FOUNDER = re.compile(
    rf"(?<=,\s){_FIRST}\s+"
    rf"(?P<title>(?i:{FOUNDER_TITLE})\b{_AND_ROLE})"
)
_NEAR = 5  # lines between a full name and the first name's role, quoted as one passage


def _full_name_said(page: SitePage, first: str, index: int) -> tuple[str, str] | None:
    """The one full name the page gives a first name ("Marisol" is "Marisol Quintero"), with the passage of
    lines from the one saying it to the line at ``index`` (at most five apart); none when the page names more
    than one person of that first name, or names it only far away."""
    said: dict[str, int] = {}
    full = re.compile(rf"(?<![\w\u00c0-\u024f]){re.escape(first)}(?:\s+{NAME_WORD}){{1,2}}")
    for at, line in enumerate(page.lines):
        for match in full.finditer(line):  # "La Montse Rovira": the article is no part of the name
            if NAME_ONLY.match(match.group(0)):
                said.setdefault(match.group(0), at)
    if len(said) != 1:
        return None
    name, at = next(iter(said.items()))
    if abs(at - index) > _NEAR:
        return None
    return name, " ".join(page.lines[min(at, index):max(at, index) + 1])


def by_first_name(page: SitePage, index: int) -> list[Candidate]:
    """Founders the line at ``index`` gives by first name with their role, completed with the full name."""
    line = page.lines[index]
    previous = page.lines[index - 1] if index > 0 else ""
    found: list[Candidate] = []
    for match in FIRST_NAME_ROLE.finditer(line):
        full = [m.group(0) for m in NAMED.finditer(previous) if m.group(0).split()[0] == match.group("first")]
        if len(full) == 1 and not QUOTATION_MARK.search(line[match.start():match.end()]):
            title = match.group("title")
            found.append({"name": full[0], "title": title[0].upper() + title[1:], "bio": None,
                          "evidence": [page.text_evidence(f"{previous} {line}")]})
    for match in [*FIRST_NAME_BRACKETED.finditer(line), *FIRST_NAME_IS_FOUNDER.finditer(line),
                  *FIRST_NAME_THEN_FOUNDER.finditer(line)]:
        before = line[:match.start()].split()
        if not FOUNDER_WORD.search(match.group("title")) or QUOTATION_MARK.search(line) \
                or (before and re.fullmatch(NAME_WORD, before[-1])):
            continue  # "Jonah Feld (CTO)" is a full name, read by the finders of full names
        said = _full_name_said(page, match.group("first"), index)
        if said:
            title = match.group("title").strip()
            found.append({"name": said[0], "title": title[0].upper() + title[1:], "bio": None,
                          "evidence": [page.text_evidence(said[1])]})
    return found
