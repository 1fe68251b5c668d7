"""How person names are written on a page, for the founder finders: a name's words, a list of names, honorifics.

A name is two to four capitalised words (accented initials, "MacLeod", particles such as "van", "de", the Irish
"Ó"); a list joins names with commas and "and" in the languages the drafter reads, each name perhaps followed by
a description between commas.
"""

from __future__ import annotations

import re

from .founder_words import EXECUTIVE_ROLE, FOUNDER_TITLE

# Upper-case initials include accented ones ("Élodie", "Ángela"); "MacLeod", "DiNapoli" too.
# Greek initials and letters too ("Δήμητρα Παπαδοπούλου")
UPPER = "A-Z\u00c0-\u00d6\u00d8-\u00de\u0386\u0388-\u038a\u038c\u038e-\u038f\u0391-\u03a1\u03a3-\u03ab"
_LOWER = "a-z\u00df-\u00f6\u00f8-\u024f\u03ac-\u03ce"
# "I'm Beatrix, the founder of Quire": "I'm" is no name's word ("O'Brien" is)
NAME_WORD = rf"(?!I['\u2019]m\b)[{UPPER}][{_LOWER}'\u2019-]+(?:[{UPPER}][{_LOWER}]+)?"
# Particles between given name and surname, the Irish "Ó"/"Ní" among them ("Tomás Ó Súilleabháin").
# Two particles may follow each other ("Pieter van der Merwe", "Maria de la Cruz").
NAME = (rf"{NAME_WORD}(?:\s+(?:[A-Z]\.\s+|(?:(?:de|van|von|der|den|da|di|del|la|le|du|dos|\u00d3|N\u00ed|Mac)\s+){{1,2}})?"
        rf"{NAME_WORD}){{1,3}}")
# Names in a list, each perhaps with a description between commas (up to three parts): "Tiago Valadares, instrutor
# de surf há quinze anos, e Marta Seixas", "Anaïs Guérin, cofondatrice et présidente, ancienne conductrice de
# travaux, et Baptiste Le Meur" (`split_names` keeps the names)
AND = r"(?:,|and|&|und|y|e|et|en|och|og|i|ir|in)"
# "… und der Softwareentwicklerin Lena Kowalczyk": an article before the next name's description is no name
# "Nadia Boateng (CEO), who managed 600 rental units, and Pierre-Luc Gagnon (CTO)": a role in brackets after a name;
# "… y su primo Íñigo Lasheras": a possessive and a relation before the next name
_BRACKET = r"(?:\s*\([^()]{1,40}\))?"
NAMES = (rf"{NAME}{_BRACKET}(?:(?:(?:,\s*[^,.!?]{{1,120}}?){{1,3}},)?\s*{AND}\s*(?:(?:der|die|dem|den|the|la|le|el|il)\s+"
         rf"|(?:su|sus|sa|son|his|her|their|ihr|ihre|ihrem|sein|seine|seinem)\s+[a-z\u00df-\u00ff]+\s+)?"
         rf"{NAME}{_BRACKET})*")
NAME_ONLY = re.compile(rf"^{NAME}$")
NAMED = re.compile(NAME)
# Capitalised words that open a sentence before a first name, never a given name: "Today Anna is our co-founder"
NOT_GIVEN_NAMES = frozenset(
    "Today Now Then Here There Since Meanwhile Later Heute Jetzt Hier Aujourd'hui Maintenant Hoy Ahora Avui Ara "
    "Oggi Ora Vandaag Nu Idag Hi Hello Dear Meet "
    # a sentence's "when" before the name: "Quand Théo Marchand et moi avons fondé Lanterne"
    "When Als Wenn Quand Lorsque Cuando Quando Toen Wanneer N\u00e4r Da Kiedy Kdy\u017e Amikor".split()
)


def without_opener(name: str) -> str:
    """``name`` without a sentence's opening word before it ("Quand Théo Marchand" is Théo Marchand)."""
    first, _, rest = name.partition(" ")
    return rest if first in NOT_GIVEN_NAMES and NAME_ONLY.match(rest) else name
# "Dr Hannah Okafor" is Hannah Okafor
HONORIFIC = re.compile(r"^(?:(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sir|Dame|Ing|Mag|Dott|Dra|Sr|Sra)\.?\s+)+(?=\S+\s+\S)")
# "— Anna Berg, co-founder": a signature under a letter or a press quote
SIGNATURE_DASH = re.compile(r"^[\u2014\u2013-]\s*(?=[A-Z\u00c0-\u00de])")


def split_names(names: str) -> list[str]:
    """The names of a list ("A, B and C", "A, a teacher, and B"), the descriptions between commas left out."""
    names = re.sub(r"\s*\([^()]{1,40}\)", "", names)  # the roles in brackets
    pieces = (without_article(n.strip()) for n in re.split(r"\s*(?:,|&|\b(?:and|und|y|e|et|en|och|og|i|ir|in)\b)\s*", names))
    return [n for n in pieces if NAME_ONLY.match(n)]  # a description between commas is no name


_ARTICLE = re.compile(r"^(?:der|die|dem|den|the|la|le|el|il)\s+")
_ROLE_WORD = re.compile(rf"(?i:{EXECUTIVE_ROLE}|{FOUNDER_TITLE})")


def without_article(piece: str) -> str:
    """"der Entwickler Reto Imhof" is Reto Imhof: after an article, the capitalised word is the noun of an
    occupation when a name of two words or more follows it."""
    bare = _ARTICLE.sub("", piece)
    rest = bare.split(maxsplit=1)
    # "Geschäftsführer Jannik Oltmanns", "programuotojas Mantas Jurgaitis": a role or an occupation before the name
    occupation = bare != piece or bool(rest and (_ROLE_WORD.fullmatch(rest[0]) or rest[0][:1].islower()))
    if occupation and len(rest) == 2 and NAME_ONLY.match(rest[1]) and len(rest[1].split()) >= 2:
        return rest[1]
    # "fourth-generation funeral director Ruth Kessell": lower-case words of an occupation before the name
    lower = re.match(r"^(?:[a-z\u00df-\u00ff][\w-]*\s+){1,4}(?=[A-Z\u00c0-\u00de])", bare)
    if lower and NAME_ONLY.match(bare[lower.end():]) and len(bare[lower.end():].split()) >= 2:
        return bare[lower.end():]
    return bare
