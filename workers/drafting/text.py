"""Text normalisation, phrase matching, sentence splitting and truncation.

Evidence is compared after :func:`normalise`: Unicode NFKC, typographic quotes
and dashes mapped to ASCII, invisible characters (soft hyphen, zero-width
spaces, BOM) removed, case folded and whitespace collapsed.  Phrases must sit
on word boundaries: "2021" is not found inside "120213".
"""

from __future__ import annotations

import re
import unicodedata

_QUOTES = {ord(c): "'" for c in "\u2018\u2019\u201a\u201b\u2032\u2035`\u00b4"} | {
    ord(c): '"' for c in "\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb"
}
_DASHES = {ord(c): "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d"}
_INVISIBLE = {ord(c): None for c in "\u00ad\u200b\u200c\u200d\u2060\ufeff"}
_TRANSLATION = _QUOTES | _DASHES | _INVISIBLE

# Where a sentence ends: terminal punctuation followed by space, or a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|\n+")
# Clause separators of titles and taglines ("Quietly — a calm inbox", "Acme | Home").
_CLAUSE_SEPARATORS = re.compile(r"\s+(?:[|\u2014\u2013\u00b7\u2022]|-|::)\s+")
_TRAILING = ".!?;:,\u2026 \t"
# an opening or closing quotation mark: a line holding one quotes someone ("“Love it,” says Jane Doe")
QUOTATION_MARK = re.compile("[\u201c\u201d\u201e\u00ab\u00bb\"]")
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*", re.UNICODE)


def clean(text: str) -> str:
    """Collapse whitespace and drop invisible characters, keeping case and punctuation."""
    return " ".join(unicodedata.normalize("NFC", text).translate(_INVISIBLE).split())


def normalise(text: str) -> str:
    """The comparison form: NFKC, ASCII quotes and dashes, case folded, single spaces."""
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATION).casefold()
    return " ".join(text.split())


def contains_phrase(haystack: str, needle: str) -> bool:
    """``needle`` occurs in ``haystack`` on word boundaries (both already normalised).

    A boundary is only required where the needle itself starts or ends with a
    letter or digit, so "$12" matches in "from $12/month".
    """
    if not needle:
        return False
    start = haystack.find(needle)
    while start != -1:
        end = start + len(needle)
        left_ok = start == 0 or not (needle[0].isalnum() and haystack[start - 1].isalnum())
        right_ok = end == len(haystack) or not (needle[-1].isalnum() and haystack[end].isalnum())
        if left_ok and right_ok:
            return True
        start = haystack.find(needle, start + 1)
    return False


def sentences(text: str) -> list[str]:
    """Sentences and title clauses of ``text`` (original form, terminal punctuation kept)."""
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        for clause in _CLAUSE_SEPARATORS.split(sentence):
            clause = clause.strip()
            if clause:
                pieces.append(clause)
    return pieces


def sentence_key(sentence: str) -> str:
    """A sentence in comparison form without its terminal punctuation or wrapping quotes."""
    return normalise(sentence).strip(_TRAILING + "\"'()[]").strip()


def words(text: str) -> list[str]:
    """Lower-case words of ``text`` (letters and digits, apostrophes inside words kept)."""
    return [w.casefold() for w in _WORD.findall(unicodedata.normalize("NFKC", text))]


def stem(word: str) -> str:
    """A crude English stem, enough to match "automates" with "automation"."""
    word = word.casefold()
    for suffix, replacement in (
        ("ations", ""), ("ation", ""), ("ings", ""), ("ing", ""), ("ies", "y"), ("ers", ""), ("er", ""),
        ("es", ""), ("ed", ""), ("s", ""), ("ly", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: len(word) - len(suffix)] + replacement
    return word


def truncate_words(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a word boundary, no trailing separators.

    The result is always a prefix of ``text``, so a value that was supported
    by its quotes is still supported after truncation.
    """
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if text[limit].isalnum() and cut[-1].isalnum():
        space = max(cut.rfind(" "), cut.rfind("\n"))
        if space > 0:
            cut = cut[:space]
    return cut.rstrip(" \t\n,;:-(\u2013\u2014/&")


def first_upper(text: str) -> str:
    """Capitalise the first letter only (evidence matching ignores case)."""
    return text[:1].upper() + text[1:] if text else text
