"""Query words against the vocabulary: typo corrections and completions, and the text queries built from them.

Shared by both search backends (docs/search.md, "Typo correction").
"""

from __future__ import annotations

from typing import Any

from projections.reads import ReadStore
from queries.search import SEARCH_VIEW, Correction, run_prepared
from queries.word_cache import word_cache

MAX_CORRECTIONS = 3
MAX_COMPLETIONS = 5  # vocabulary words the last query word may be the beginning of
SHORT_WORD = 4  # up to this length a word is corrected by one edit only
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"  # what folded words are made of
MIN_CORRECTABLE = 3  # shorter tokens have too few trigrams to correct reliably
CANDIDATE_SIMILARITIES = (0.4, 0.2)  # pg_trgm similarity of correction candidates: close ones first, then looser
MAX_EDITS = 2
# Transaction-local planner settings: exact-word lookups use the btree, trigram searches the GIN index again.
BTREE_ONLY = "set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)"
BITMAPS_BACK = "set_config('enable_bitmapscan', 'on', true), set_config('enable_seqscan', 'on', true)"
NO_SEQSCAN = "set_config('enable_seqscan', 'off', true)"  # a prefix range and a trigram LIKE, OR-ed in a bitmap


def correct(reads: ReadStore, tokens: list[str]) -> tuple[Correction, ...]:
    """Known words stay; an unknown word gains up to three vocabulary words close to it.

    Candidates come in three steps, each only for the words the previous one
    left without any: vocabulary words sharing trigrams with the typed word
    (similarity >= 0.4, GIN index) and at most MAX_EDITS edits away (1 for
    words of up to four letters), which covers the usual dropped or doubled
    letter; then the words exactly one edit away, looked up by equality
    (a letter dropped, added, changed, or two swapped: `slak`, `emial`);
    then, for words of five letters or more, looser trigram candidates
    (similarity >= 0.2) within MAX_EDITS. Fewer edits first, then higher
    trigram similarity, then alphabetical order.

    The last word also gains the shortest vocabulary words it begins
    (type-ahead: `notio` finds `notion`), at most MAX_COMPLETIONS of them.

    Each word's result is kept until the listing view moves (`queries.word_cache`),
    so a word another query already corrected costs no round trip.
    """
    if not tokens:
        return ()
    cache = word_cache(reads)
    stamp = cache.stamp()  # before reading: what the vocabulary moves to meanwhile is not kept
    found: dict[str, tuple[str, ...]] = {}
    for tok in dict.fromkeys(tokens):
        hit = cache.get(("fix", tok))
        if isinstance(hit, tuple):
            found[tok] = hit
    begins = cache.get(("begins", tokens[-1]))
    completions = begins if isinstance(begins, tuple) else None
    todo = [tok for tok in dict.fromkeys(tokens) if tok not in found]
    if todo or completions is None:
        with reads.pool.connection() as conn:  # autocommit: each step's planner settings travel with its statement
            if todo:  # the completions, when needed, ride in the first step's statement
                fresh, begun = _corrections(reads, conn, todo, tokens[-1] if completions is None else None)
                completions = begun if completions is None else completions
            else:
                fresh, completions = {}, _completions(reads, conn, tokens[-1])
        cache.put(stamp, {("fix", tok): words for tok, words in fresh.items()} | {("begins", tokens[-1]): completions})
        found |= fresh
    return tuple(Correction(tok, found.get(tok, ()), completions if i == len(tokens) - 1 else ())
                 for i, tok in enumerate(tokens))


def _corrections(reads: ReadStore, conn: Any, tokens: list[str],
                 begins: str | None = None) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """Each token's vocabulary words by the three steps of `correct` (empty when none is close), and the
    completions of `begins` when given (read by the first step's statement: one round trip fewer)."""
    close, loose = CANDIDATE_SIMILARITIES
    first, completions = _candidates(reads, conn, tokens, close, begins)
    found = dict(first)
    missing = [tok for tok in tokens if not found.get(tok) and len(tok) >= MIN_CORRECTABLE]
    if missing:
        found |= _one_edit(reads, conn, missing)
    missing = [tok for tok in missing if not found.get(tok) and len(tok) > SHORT_WORD]
    if missing:
        found |= dict(_candidates(reads, conn, missing, loose)[0])
    return {tok: tuple(found.get(tok) or ()) for tok in tokens}, completions


def one_edit_variants(word: str) -> set[str]:
    """Every string one edit away: a character deleted, two neighbours swapped, one replaced or one inserted."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b}
            | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in ALPHABET}
            | {a + c + b for a, b in splits for c in ALPHABET}) - {word}


AFFIX_MIN = 5  # from this length a token's one-edit neighbours are found by their unchanged half, not by variants


def _one_edit(reads: ReadStore, conn: Any, tokens: list[str]) -> dict[str, list[str]]:
    """The vocabulary words one edit from each (unknown) token, best first: a statement per token.

    A short token's variants (every string one edit away, a few hundred) are
    looked up by equality; a longer one's neighbours by the half the edit left
    untouched (`_by_halves`), which reads far fewer index entries for the same
    words (docs/performance.md, "Fewer statements and cheaper corrections").
    """
    found = {}
    for tok in tokens:
        found[tok] = _by_halves(reads, conn, tok) if len(tok) >= AFFIX_MIN else _by_variants(reads, conn, tok)
    return found


ONE_EDIT_ORDER = "ORDER BY levenshtein(word, %(tok)s), similarity(word, %(tok)s) DESC, word LIMIT %(n)s"


def _by_variants(reads: ReadStore, conn: Any, tok: str) -> list[str]:
    """Looked up in the primary key's btree only: the trigram GIN index also
    answers equality, and with some statistics the planner picks it for the
    several hundred variants, which costs a second instead of a millisecond
    (docs/performance.md, "Search under distinct queries").
    """
    words = reads.tables(SEARCH_VIEW)["words"]
    # The variants travel as one space-separated text (folded words hold no spaces): binding several
    # hundred array elements one by one cost more of the server's CPU than the lookup itself.
    sql = f"SELECT word FROM {words} WHERE word = ANY(string_to_array(%(variants)s, ' ')) {ONE_EDIT_ORDER}"
    params = {"variants": " ".join(sorted(one_edit_variants(tok))), "tok": tok, "n": MAX_CORRECTIONS}
    return [row[0] for row in run_prepared(conn, BTREE_ONLY, sql, params)]


def _by_halves(reads: ReadStore, conn: Any, tok: str) -> list[str]:
    """The same words as `_by_variants`, found by what one edit leaves unchanged.

    An edit at position p (a letter dropped, changed or inserted before it, or
    the letters p and p + 1 swapped) keeps `tok[:p]` as the word's beginning
    and `tok[p + 2:]` as its end. So with k = len(tok) // 2, every neighbour
    begins with `tok[:k]` (an edit at k or later) or ends with `tok[k + 1:]`
    (an edit before k): the candidates are read from the prefix btree and the
    trigram index (`LIKE '%end'`), then kept when exactly one edit away
    (Levenshtein distance 1, or one of the swaps). Folded words are made of
    `ALPHABET` only, so a vocabulary word at distance 1 is one of the variants
    and no `%` or `_` can reach the pattern.
    """
    words = reads.tables(SEARCH_VIEW)["words"]
    k = len(tok) // 2
    swaps = " ".join(tok[:i] + tok[i + 1] + tok[i] + tok[i + 2:] for i in range(len(tok) - 1))
    sql = (f"SELECT word FROM {words} WHERE ((word ~>=~ %(head)s AND word ~<~ %(head_end)s) OR word LIKE %(tail)s) "
           "AND word <> %(tok)s AND (levenshtein_less_equal(word, %(tok)s, 1) = 1 "
           f"OR word = ANY(string_to_array(%(swaps)s, ' '))) {ONE_EDIT_ORDER}")
    params = {"head": tok[:k], "head_end": tok[:k] + "\U0010ffff", "tail": "%" + tok[k + 1:], "tok": tok,
              "swaps": swaps, "n": MAX_CORRECTIONS}
    return [row[0] for row in run_prepared(conn, NO_SEQSCAN, sql, params)]


# The shortest vocabulary words `%(begins)s` is the beginning of; `~>=~ ~<~`: the text_pattern_ops index (byte order).
COMPLETIONS = ("ARRAY(SELECT word FROM {words} WHERE word ~>=~ %(begins)s AND word ~<~ %(end)s AND word <> %(begins)s "
               "ORDER BY length(word), word LIMIT %(completions)s)")


def _completions(reads: ReadStore, conn: Any, token: str) -> tuple[str, ...]:
    if not _completable(token):
        return ()
    words = reads.tables(SEARCH_VIEW)["words"]
    (found,) = conn.execute(f"SELECT {COMPLETIONS.format(words=words)}", _begins(token)).fetchone()
    return tuple(found)


def _completable(token: str | None) -> bool:
    return token is not None and len(token) >= MIN_CORRECTABLE


def _begins(token: str) -> dict[str, Any]:
    return {"begins": token, "end": token + "\U0010ffff", "completions": MAX_COMPLETIONS}


def _candidates(reads: ReadStore, conn: Any, tokens: list[str], threshold: float,
                begins: str | None = None) -> tuple[list[tuple[str, list[str]]], tuple[str, ...]]:
    """Each token's trigram candidates, and the completions of `begins` (a column of every row, computed once)."""
    t = reads.tables(SEARCH_VIEW)
    complete = begins if _completable(begins) else None
    rows = run_prepared(
        conn, f"set_config('pg_trgm.similarity_threshold', '{threshold}', true), {BITMAPS_BACK}",
        f"""SELECT tok, coalesce(
                (SELECT array[word] FROM {t['words']} WHERE word = tok),
                CASE WHEN length(tok) >= %(min)s THEN ARRAY(
                    SELECT word FROM {t['words']}
                    WHERE word %% tok AND levenshtein_less_equal(word, tok, %(edits)s) <= %(edits)s
                          - (length(tok) <= 4)::int
                    ORDER BY levenshtein_less_equal(word, tok, %(edits)s), similarity(word, tok) DESC, word
                    LIMIT %(n)s) END,
                '{{}}'), {"NULL" if complete is None else COMPLETIONS.format(words=t['words'])}
            FROM unnest(%(tokens)s::text[]) AS q(tok)""",
        {"min": MIN_CORRECTABLE, "edits": MAX_EDITS, "n": MAX_CORRECTIONS, "tokens": tokens}
        | ({} if complete is None else _begins(complete)),
    )
    completions = tuple(rows[0][2]) if complete is not None and rows else ()
    return [(tok, list(words)) for tok, words, _ in rows], completions


def tsquery_text(corrections: tuple[Correction, ...]) -> str:
    """`(word | fix1 | fix2) & ...`: the typed word is always searched too; the last also by its completions.

    Completions come from the vocabulary rather than a `word:*` prefix query,
    which would make every full-text match a costly partial-match recheck.
    """
    groups = []
    for c in corrections:
        options = list(dict.fromkeys((c.token, *c.words, *c.completions)))
        groups.append("(" + " | ".join(options) + ")")
    return " & ".join(groups)


def any_tsquery_text(corrections: tuple[Correction, ...]) -> str:
    """Any of the query's words (or their corrections): what tier 1 looks for in names."""
    options = [o for group in tsquery_text(corrections).split(" & ") for o in group.strip("()").split(" | ")]
    return " | ".join(dict.fromkeys(options))
