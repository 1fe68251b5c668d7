"""A founder's title as a page gives it: the founder word or the leader's role next to their name.

Shared by the founder finders (`founders.py`, `founder_mentions.py`); the words are `founder_words.py`'s.
"""

from __future__ import annotations

import re

from .founder_words import EXECUTIVE_ROLE, FOUNDER_TITLE

FOUNDER_WORD = re.compile(rf"\b(?:{FOUNDER_TITLE})\b", re.IGNORECASE)


def role_in(line: str, name: str) -> str | None:
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


def own_role_in(line: str, name: str) -> str | None:
    """The founder word or leader's role a line gives this person by first name, as written; None otherwise."""
    first = re.escape(name.split()[0])
    own = re.search(rf"\b{first}\b[^.!?;]{{0,40}}?\b(?P<title>(?i:{FOUNDER_TITLE}|{EXECUTIVE_ROLE}))\b", line)
    if own is None:
        return None
    return own.group("title")[0].upper() + own.group("title")[1:]
