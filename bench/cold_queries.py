"""Search texts whose misspelt word no earlier text of the stream contained: every correction is cold.

The directory bench's search load repeats 20 typo queries (each request a new
response-cache key), so after the first round every word's correction comes
from the per-process word cache (`queries/word_cache.py`). A search box also
sees misspellings nobody typed before; this stream measures that case: the
n-th text holds a misspelling of a bench vocabulary word (one letter dropped,
two swapped, one doubled, or one replaced by its neighbour in the alphabet)
that no earlier text held, and every second text adds a correctly spelt word,
so one- and two-word searches alternate. When the misspellings run out the
stream starts again with trailing spaces (a new cache key, warm words);
`fresh_count` says after how many requests that happens.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

MIN_LENGTH = 5  # shorter words have too few trigrams to be corrected (queries.search_words.MIN_CORRECTABLE is 3)


def pool(phrases: Iterable[str]) -> list[str]:
    """The phrases' words of at least MIN_LENGTH letters, each once, in a fixed order."""
    words = [w for phrase in phrases for w in phrase.split()]
    return sorted({w for w in words if len(w) >= MIN_LENGTH and w.isalpha()})


def misspellings(word: str) -> list[str]:
    """One-edit misspellings of `word` in a fixed order; the first and last letters are kept, as people type."""
    found: list[str] = []
    for i in range(1, len(word) - 1):
        found.append(word[:i] + word[i + 1:])  # dropped
        if i < len(word) - 2:
            found.append(word[:i] + word[i + 1] + word[i] + word[i + 2:])  # swapped with the next
        found.append(word[:i] + word[i] + word[i:])  # doubled
        nxt = "a" if word[i] == "z" else chr(ord(word[i]) + 1)
        found.append(word[:i] + nxt + word[i + 1:])  # a neighbouring letter
    return [m for m in dict.fromkeys(found) if m != word]


def texts(words: list[str]) -> tuple[str, ...]:
    """The stream's texts, each holding a misspelling no earlier text held (round-robin over the words)."""
    vocabulary = set(words)
    per_word = [[m for m in misspellings(w) if m not in vocabulary] for w in words]
    out: list[str] = []
    seen: set[str] = set()
    for k in range(max(len(m) for m in per_word)):
        for i, options in enumerate(per_word):
            if k < len(options) and options[k] not in seen:
                seen.add(options[k])
                n = len(out)
                second = f" {words[(i * 7 + k) % len(words)]}" if n % 2 else ""
                out.append(options[k] + second)
    return tuple(out)


class ColdQueries:
    """The stream over a vocabulary (the bench generator's phrases), as request paths."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self.texts = texts(pool(phrases))

    def fresh_count(self) -> int:
        """How many requests of the stream carry a misspelling not seen before in it."""
        return len(self.texts)

    def path(self, n: int) -> str:
        """The n-th request's path (n counts from 1, as `bench.common.load` numbers them)."""
        q = self.texts[(n - 1) % len(self.texts)] + " " * ((n - 1) // len(self.texts))
        return "/api/v1/listings?" + urlencode({"q": q})
