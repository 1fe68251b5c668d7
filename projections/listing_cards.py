"""Pure helpers the listing projections share: normalised facts, the summary card, search words.

Both `listing_view` and `catalog_view` build listing cards from the same
events; keeping the rules here means a card looks the same wherever it is shown.
"""

from __future__ import annotations

import re
import string
import unicodedata
from functools import lru_cache
from collections.abc import Set as AbstractSet
from typing import Any
from urllib.parse import urlsplit

MAX_WORD = 40
_WORD_BYTES = frozenset((string.ascii_lowercase + string.digits).encode())
_SPACES = bytes(b if b in _WORD_BYTES else 32 for b in range(256))  # every byte but [a-z0-9] made a space
_ONE_LETTER = frozenset(chr(b) for b in _WORD_BYTES)  # too short to be a word
# Profile keys whose change alters the card (and what the card calls them).
CARD_FIELDS = {"name": "name", "tagline": "tagline", "logo_url": "logo_url", "website_url": "url"}
# Profile keys the full-text search reads (SPEC §4.2: name, tagline, description, keywords).
SEARCH_FIELDS = ("name", "tagline", "description", "keywords")
PUBLIC_STATUSES = ("live",)
UPCOMING_STATUSES = ("scheduled", "awaiting_badge")


def fold(text: str) -> str:
    """Lower case ASCII without accents: the form every search comparison uses."""
    if text.isascii():  # NFKD leaves ASCII as it is: most texts skip the normalisation
        return text.lower()
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def key_of(value: Any) -> str | None:
    """A filter key: `Open Beta` -> `open-beta` (stages, pricing models); None when empty."""
    return None if value is None else _key(str(value))


@lru_cache(maxsize=1024)
def _key(text: str) -> str | None:
    """Remembered: a directory has a few dozen stages and pricing models, and a catch-up asks for them per listing."""
    key = re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")
    return key or None


def domain_of(url: Any) -> str | None:
    """The host of a website URL without `www.` and port, lower case; accepts a bare host too.

    Most websites are `https://host/...` with a lower-case host and nothing
    around it: their host is read by one regular expression (a fifth of
    `urlsplit`'s time, which a catch-up paid per listing); any other URL goes
    through `urlsplit`, and both give the same host (a property test).
    """
    if not url:
        return None
    text = str(url).strip()
    if "://" not in text:
        text = "http://" + text
    plain = _PLAIN_URL.match(text)
    if plain is not None:
        host = plain[1]
    else:
        try:
            host = (urlsplit(text).hostname or "").lower()
        except ValueError:
            return None
    return host.rstrip(".").removeprefix("www.") or None


_PLAIN_URL = re.compile(r"https?://([a-z0-9.-]+)(?:[/?#]|\Z)")
"""A URL whose host `urlsplit` reads as it is: http(s), a lower-case ASCII host with no user or port, then the end,
a path, a query or a fragment (what follows cannot change the host: the characters `urlsplit` removes first, tab,
CR and LF, are not in the host, and the host ends at the first of `/?#`)."""


def text_of(value: Any) -> str:
    """Strings stay; lists are joined; None is empty."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value if v is not None)
    return str(value)


def words_of(*texts: str) -> list[str]:
    """Distinct folded words (2..40 characters) of the texts, in first-seen order.

    The texts are folded together (folding is character by character, and a
    space ends any word), so the words are those of each text in turn. Folded
    text is ASCII, so the words (runs of `[a-z0-9]`) are what is left when every
    other byte becomes a space: a byte table and a split, half the time of a
    regular expression's `findall` (a catch-up calls this per listing).
    """
    return [word for word in dict.fromkeys(_split(texts)) if 2 <= len(word) <= MAX_WORD]


def word_set(*texts: str, known: AbstractSet[str] = frozenset()) -> set[str]:
    """The words of `words_of` not in `known`, as a set: the vocabulary's, where order does not matter.

    Once per listing in a catch-up, where nearly every word of a listing is
    known already: the known ones go first (set operations in C), so the
    length rule looks at the few left instead of every word.
    """
    words = set(_split(texts))
    words -= known
    words -= _ONE_LETTER
    if words and max(map(len, words)) > MAX_WORD:
        words = {word for word in words if len(word) <= MAX_WORD}
    return words


def _split(texts: tuple[str, ...]) -> list[str]:
    return fold(" ".join(texts)).encode().translate(_SPACES).decode().split()


def website_of(profile: dict[str, Any], socials: dict[str, Any] | None = None) -> str | None:
    """The listing's real website: `profile.website_url`, else the `website` social link."""
    url = profile.get("website_url") or (socials or {}).get("website")
    return str(url) if url else None


def card_fields(profile: dict[str, Any], socials: dict[str, Any] | None = None) -> dict[str, Any]:
    """The profile part of a card: name, url (the real website), tagline, logo_url."""
    return {
        "name": str(profile.get("name") or ""),
        "url": website_of(profile, socials),
        "tagline": _str_or_none(profile.get("tagline")),
        "logo_url": _str_or_none(profile.get("logo_url")),
    }


def card(slug: str, profile: dict[str, Any], socials: dict[str, Any] | None, status: str, week: str | None,
         category: dict[str, str] | None) -> dict[str, Any]:
    """A listing summary as search results and lists show it (votes are added when read)."""
    return {"slug": slug, **card_fields(profile, socials), "status": status, "launch_week": week, "category": category}


def _str_or_none(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None
