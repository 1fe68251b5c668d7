"""The cold-word search stream: each text carries a misspelling no earlier text held, one edit from a real word."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bench.cold_queries import ColdQueries, misspellings, pool
from queries.search_words import one_edit_variants

PHRASES = ["project management", "email marketing", "workspace", "dashboard", "teams", "invoice budget"]


def _q(path: str) -> str:
    return parse_qs(urlsplit(path).query, keep_blank_values=True)["q"][0]


def test_misspellings_are_one_edit_away_and_keep_the_ends() -> None:
    found = misspellings("invoice")
    assert found and "invoice" not in found
    for m in found:
        assert m in one_edit_variants("invoice")
        assert m[0] == "i" and m[-1] == "e"
    assert "invice" in found and "inovice" in found and "invvoice" in found and "inwoice" in found


def test_every_text_brings_a_misspelling_no_earlier_text_held() -> None:
    words = pool(PHRASES)
    assert words == sorted(set(words)) and all(len(w) >= 5 for w in words)
    stream = ColdQueries(PHRASES)
    seen: set[str] = set()
    for i, text in enumerate(stream.texts):
        first, *rest = text.split()
        assert first not in seen and first not in words
        assert any(first in one_edit_variants(w) for w in words)
        assert (len(rest) == 0) == (i % 2 == 0) and all(r in words for r in rest)
        seen.add(first)
    assert any(len(t.split()) == 2 for t in stream.texts)  # one- and two-word searches alternate
    assert stream.fresh_count() == len(stream.texts) > 100


def test_paths_wrap_with_a_new_cache_key() -> None:
    stream = ColdQueries(PHRASES)
    n = stream.fresh_count()
    assert _q(stream.path(1)) == stream.texts[0]
    assert _q(stream.path(n)) == stream.texts[-1]
    assert _q(stream.path(n + 1)) == stream.texts[0] + " "
    assert len({stream.path(i) for i in range(1, 2 * n + 1)}) == 2 * n
