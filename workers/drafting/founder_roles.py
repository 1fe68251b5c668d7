"""A founder's title as a page gives it: the founder word or the leader's role next to their name.

Shared by the founder finders (`founders.py`, `founder_mentions.py`); the words are `founder_words.py`'s.
"""

from __future__ import annotations

import re

from .founder_words import EXECUTIVE_ROLE, FOUNDER_TITLE

FOUNDER_WORD = re.compile(rf"\b(?:{FOUNDER_TITLE})\b", re.IGNORECASE)


# a second role after the founder word: "the project's creators and lead maintainers", "founder and CEO"
_SECOND_ROLE = rf"(?:\s+(?:and|&|und|et|y)\s+(?:(?i:lead|core|chief)\s+)?(?i:maintainers?|{EXECUTIVE_ROLE}))?"
# "Beide sind Geschäftsführer der Wippe Software GmbH": a leader's role both are given
# "Beide führen Gießkanne heute als Geschäftsführer", "Both run Acme as managing directors"
_BOTH_ARE = re.compile(rf"\b(?i:beide sind|both are|are both|tous deux sont|ambos son"
                       rf"|beide f\u00fchren\s+\S+\s+(?:heute\s+|gemeinsam\s+)?als|both run\s+\S+\s+as)"
                       rf"\s+(?P<title>(?i:{EXECUTIVE_ROLE}))\b")


def role_in(line: str, name: str) -> str | None:
    """The founder word a founding sentence gives this person ("Theresa verantwortet als Mitgründerin …"), else
    the leader's role it gives them ("Priyanka leads the company as CEO; Tomasz, our CTO, …"), else the founder
    word it gives them all ("As co-founders they still split the work"), as written; None when it says none."""
    first = re.escape(name.split()[0])
    own = re.search(rf"\b{first}\b[^.!?]{{0,40}}?\b(?P<title>(?i:{FOUNDER_TITLE}){_SECOND_ROLE})\b", line)
    if own is None:  # "Léa Tremblay, a former subtitle editor who is now CEO"
        own = re.search(rf"\b{first}\b[^.!?;]{{0,60}}?\b(?P<title>(?i:{EXECUTIVE_ROLE}))\b", line)
    if own is None:  # "die Geschäftsführer Jannik Oltmanns und Svenja Ruhnau": the role said before the names
        own = re.search(rf"\b(?P<title>(?i:{EXECUTIVE_ROLE}))\s+(?:[^.!?;]{{0,40}}?\s(?:und|and|et|y)\s+)?{re.escape(name)}\b",
                        line)
    shared = own or FOUNDER_WORD.search(line) or _BOTH_ARE.search(line)
    if shared is None:
        return None
    word = shared.group("title") if own or "title" in shared.groupdict() else shared.group(0)
    return word[0].upper() + word[1:]  # as written ("Co-founders"): the gate finds a title in its quote


def own_role_in(line: str, name: str) -> str | None:
    """The founder word or leader's role a line gives this person by first name, as written; None otherwise."""
    first = re.escape(name.split()[0])
    # an apposition naming the founder word and a second role: "Ruth Kessell, co-founder and managing director."
    own = re.search(rf"\b{first}\b(?:\s+\S+)?,\s+(?P<title>(?i:{FOUNDER_TITLE})\s+(?:and|&|und|et|y|e)\s+"
                    rf"[a-z][a-z -]{{2,30}}?)(?=\s*[,.;]|$)", line)
    own = own or re.search(rf"\b{first}\b[^.!?;]{{0,40}}?\b(?P<title>(?i:{FOUNDER_TITLE}){_SECOND_ROLE}|(?i:{EXECUTIVE_ROLE}))\b",
                           line)
    if own is None:
        return None
    return own.group("title")[0].upper() + own.group("title")[1:]


# A team card's line under a person's name opens with their role: "Co-founder & CEO. Previously an SRE at …",
# "Founding Engineer.", "Head of Design", "Senior backend engineer"
_CARD_ROLE = re.compile(
    rf"^(?:(?:{FOUNDER_TITLE}|{EXECUTIVE_ROLE})\b|founding\s+\w+|head of\b|(?:senior|lead|staff|principal)\s+\w+"
    r"|[\w-]+\s+(?:engineer|developer|designer|manager|lead)\b|(?:engineer|developer|designer|product manager)\b)",
    re.IGNORECASE,
)


def opens_with_role(line: str) -> bool:
    """The line opens with a person's role, as a team card's line under the name does."""
    return _CARD_ROLE.match(line.strip()) is not None
