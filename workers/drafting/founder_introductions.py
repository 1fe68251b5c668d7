"""Founders introducing themselves: "Tobias Renfro and I met … we founded", "We are Anouk Devereux and Kwame
Lindholm. … we, the two co-founders, …", "Me llamo Inés Carvajal y fundé Alfarje".

Each is quoted with the line, or with the line and the next when the founding is said there; a quotation is
someone else speaking and is not read.
"""

from __future__ import annotations

import re

from .founder_roles import role_in
from .founder_words import FOUNDER_TITLE, FOUNDING
from .person_names import NAME, without_opener
from .reading import Candidate, SitePage
from .text import QUOTATION_MARK

PARTNER_AND_I = re.compile(
    rf"(?P<name>{NAME})\s+(?:and|und|et|y|e|en|och)\s+(?:I|ich|moi|yo|io|ik|jag)\b.{{0,400}}?"
    rf"(?:\b(?i:we|wir|nous|nosotros|noi|wij|vi)\b[^.!?]{{0,160}}?"
    # "Quand Théo Marchand et moi avons fondé Lanterne": the verb's auxiliary right after "and I"
    rf"|\s+(?i:avons|haben|hemos|abbiamo|hebben|have|had|hab(?:en)?)\s+(?:\S+\s+)?)"
    rf"\b(?i:{FOUNDING}|started|co-founded)\b"
)
PARTNER_AND_I_START = re.compile(rf"{NAME}\s+(?:and|und|et|y|e|en|och)\s+(?:I|ich|moi|yo|io|ik|jag)\b")
# The founders introducing themselves, then calling themselves the founders a sentence or a paragraph later: "We
# are Anouk Devereux and Kwame Lindholm. …" / "So in 2024 we, the two co-founders, turned that server into Keystave."
WE_ARE_NAMES = re.compile(
    rf"\b(?i:we're|we\u2019re|we are|wir sind|nous sommes|somos|siamo|wij zijn|vi \u00e4r)\s+(?P<first>{NAME})"
    rf"(?:,[^,]{{1,80}},)?\s+(?:and|und|y|e|et|en|och|og|i)\s+(?P<second>{NAME})\b"
)
WE_THE_FOUNDERS = re.compile(
    rf"\b(?i:we|wir|nous|nosotros|noi|wij|vi)\b,?\s+(?:(?i:the|die|les|los|i|de)\s+)?"
    rf"(?:(?i:two|beiden|deux|dos|due|twee|tv\u00e5)\s+)?(?P<title>(?i:{FOUNDER_TITLE}))\b"
)
# "Nous sommes Arnaud Dewulf et Sofia Mertens, les cofondateurs de Rabot": the title right after the names
THE_FOUNDERS_AFTER = re.compile(
    rf",\s+(?i:the|les|los|las|die|i|gli|le|de|os|as)\s+(?:(?i:two|deux|dos|beiden|due|twee|tv\u00e5)\s+)?"
    rf"(?P<title>(?i:{FOUNDER_TITLE}))\b"
)
# A founder naming themself and saying they founded it: "Me llamo Inés Carvajal y fundé Alfarje en Granada",
# "My name is Ada Berg and I started Acme", "Je m'appelle Léa Roux et j'ai fondé Acme"
I_FOUNDED = re.compile(
    rf"\b(?i:my name is|i am|i'm|i\u2019m|me llamo|soy|je m'appelle|je m\u2019appelle|je suis|ich hei\u00dfe|ich bin"
    rf"|mi chiamo|sono|meu nome \u00e9|chamo-me)\s+(?P<name>{NAME})\b[^.!?]{{0,30}}?"
    rf"\b(?i:and i (?:founded|started|co-founded)|y fund\u00e9|y cofund\u00e9|et j['\u2019]ai (?:co)?fond\u00e9"
    rf"|und habe\s+\S+(?:\s+\S+)?\s+gegr\u00fcndet|e ho fondato|e fundei)\b"
)


def introduced(page: SitePage, index: int) -> list[Candidate]:
    """Founders the line at ``index`` (with the next) introduces in the first person."""
    line = page.lines[index]
    following = page.lines[index + 1] if index + 1 < len(page.lines) else ""
    found: list[Candidate] = []
    for text in (line, f"{line} {following}"):
        partner = PARTNER_AND_I.search(text) if PARTNER_AND_I_START.search(line) else None
        if partner and not QUOTATION_MARK.search(text):
            name = without_opener(partner.group("name"))
            found.append({"name": name, "title": role_in(text, name), "bio": None, "evidence": [page.text_evidence(text)]})
            break
    founded = I_FOUNDED.search(line)
    if founded and not QUOTATION_MARK.search(line[:founded.start()]):
        name = founded.group("name")
        found.append({"name": name, "title": role_in(line, name), "bio": None, "evidence": [page.text_evidence(line)]})
    we = WE_ARE_NAMES.search(line)
    if we and not QUOTATION_MARK.search(line):
        here = THE_FOUNDERS_AFTER.match(line, we.end()) or WE_THE_FOUNDERS.search(line, we.end())
        there = None if here else WE_THE_FOUNDERS.search(following)
        called = here or there
        if called:
            title = called.group("title")
            quote = line if here else f"{line} {following}"
            found.extend({"name": name, "title": title[0].upper() + title[1:], "bio": None,
                          "evidence": [page.text_evidence(quote)]} for name in (we.group("first"), we.group("second")))
    return found
