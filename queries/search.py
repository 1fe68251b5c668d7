"""Listing search: one interface, two backends (PostgreSQL by default, Elasticsearch by configuration).

Both backends take the same `SearchRequest` (query words already typo-corrected
against the shared vocabulary, filters normalised) and return listing cards in
the same order rules, so switching backends changes scale, not answers.
The design and the ranking formula are in docs/search.md.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from projections.listing_cards import words_of
from projections.reads import ReadStore

log = logging.getLogger(__name__)
VIEW = "listing_view"
MAX_TOKENS = 8
MAX_CORRECTIONS = 3
MAX_COMPLETIONS = 5  # vocabulary words the last query word may be the beginning of
SHORT_WORD = 4  # up to this length a word is corrected by one edit only
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"  # what folded words are made of
MIN_CORRECTABLE = 3  # shorter tokens have too few trigrams to correct reliably
NAME_SIMILARITY = 0.5  # pg_trgm word_similarity threshold for fuzzy name candidates
CANDIDATE_SIMILARITIES = (0.4, 0.2)  # pg_trgm similarity of correction candidates: close ones first, then looser
MAX_EDITS = 2

# ORDER BY clauses; the tie-breakers are part of each order (docs/search.md).
ORDERS = {
    "votes": "votes DESC, launched_at, listing_id",
    "newest": "listed_at DESC, listing_id DESC",
    "trending": "trend_log DESC NULLS LAST, votes DESC, launched_at, listing_id",
    "most_viewed": "views DESC, votes DESC, launched_at, listing_id",
    "most_followed": "followers DESC, votes DESC, launched_at, listing_id",
    "relevance": "score DESC, votes DESC, launched_at, listing_id",
    "soonest": "week, listed_at, listing_id",
}


@dataclass(frozen=True)
class Correction:
    """One query word, the vocabulary words it may stand for (itself when known), and, for the last word, the
    vocabulary words it begins (type-ahead)."""

    token: str
    words: tuple[str, ...]
    completions: tuple[str, ...] = ()

    @property
    def best(self) -> str:
        return self.words[0] if self.words else self.token

    @property
    def known(self) -> bool:
        return self.words == (self.token,)


@dataclass(frozen=True)
class SearchRequest:
    """What a backend answers: normalised filters and the corrected query."""

    text: str | None  # the folded query words joined by spaces; None for a browse
    corrections: tuple[Correction, ...] = ()
    categories: tuple[str, ...] | None = None  # None: any; () matches nothing (unknown category)
    stage: str | None = None
    country: str | None = None
    pricing: str | None = None
    domain: str | None = None
    status: str = "live"
    this_week: str = ""  # Monday of the current week: upcoming means scheduled, or queued for this week or later
    sort: str = "relevance"
    limit: int = 20
    offset: int = 0

    @property
    def corrected(self) -> str:
        return " ".join(c.best for c in self.corrections)

    @property
    def fuzzy(self) -> bool:
        """Look for names that merely resemble the query only when the vocabulary had nothing for some word."""
        return any(not c.words for c in self.corrections)

    @property
    def order(self) -> str:
        if self.sort == "relevance" and not self.corrections:
            return "soonest" if self.status == "upcoming" else "votes"
        return self.sort


@dataclass
class SearchPage:
    """One page of cards, how many listings matched (exact, or an estimate above the count cap), and whether more follow."""

    items: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    exact: bool = True
    has_more: bool = False


class SearchBackend(Protocol):
    """A place listings can be searched in."""

    name: str

    def search(self, request: SearchRequest) -> SearchPage:
        """Cards (with votes) in the requested order, and how many listings matched in all."""


# ---------------------------------------------------------------- shared: words and typo correction


def tokens_of(q: str | None) -> list[str]:
    """The query's distinct folded words, at most MAX_TOKENS."""
    return words_of(q or "")[:MAX_TOKENS]


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
    """
    if not tokens:
        return ()
    with reads.pool.connection() as conn:
        close, loose = CANDIDATE_SIMILARITIES
        found = dict(_candidates(reads, conn, tokens, close))
        missing = [tok for tok in tokens if not found.get(tok) and len(tok) >= MIN_CORRECTABLE]
        if missing:
            found |= _one_edit(reads, conn, missing)
        missing = [tok for tok in missing if not found.get(tok) and len(tok) > SHORT_WORD]
        if missing:
            found |= dict(_candidates(reads, conn, missing, loose))
        completions = _completions(reads, conn, tokens[-1])
    return tuple(Correction(tok, tuple(found.get(tok) or ()), completions if i == len(tokens) - 1 else ())
                 for i, tok in enumerate(tokens))


def one_edit_variants(word: str) -> set[str]:
    """Every string one edit away: a character deleted, two neighbours swapped, one replaced or one inserted."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b}
            | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in ALPHABET}
            | {a + c + b for a, b in splits for c in ALPHABET}) - {word}


def _one_edit(reads: ReadStore, conn: Any, tokens: list[str]) -> dict[str, list[str]]:
    """The vocabulary words one edit from each (unknown) token, best first."""
    words = reads.tables(VIEW)["words"]
    found = {}
    for tok in tokens:
        rows = conn.execute(
            f"SELECT word FROM {words} WHERE word = ANY(%(variants)s) "
            "ORDER BY levenshtein(word, %(tok)s), similarity(word, %(tok)s) DESC, word LIMIT %(n)s",
            {"variants": sorted(one_edit_variants(tok)), "tok": tok, "n": MAX_CORRECTIONS},
        ).fetchall()
        found[tok] = [row[0] for row in rows]
    return found


def _completions(reads: ReadStore, conn: Any, token: str) -> tuple[str, ...]:
    if len(token) < MIN_CORRECTABLE:
        return ()
    words = reads.tables(VIEW)["words"]
    rows = conn.execute(
        f"SELECT word FROM {words} WHERE word ~>=~ %(tok)s AND word ~<~ %(end)s AND word <> %(tok)s "
        "ORDER BY length(word), word LIMIT %(n)s",  # ~>=~ ~<~: the text_pattern_ops index (byte order)
        {"tok": token, "end": token + "\U0010ffff", "n": MAX_COMPLETIONS},
    ).fetchall()
    return tuple(row[0] for row in rows)


def _candidates(reads: ReadStore, conn: Any, tokens: list[str], threshold: float) -> list[tuple[str, list[str]]]:
    t = reads.tables(VIEW)
    conn.execute("SELECT set_config('pg_trgm.similarity_threshold', %s, true)", (str(threshold),))
    rows = conn.execute(
        f"""SELECT tok, coalesce(
                (SELECT array[word] FROM {t['words']} WHERE word = tok),
                CASE WHEN length(tok) >= %(min)s THEN ARRAY(
                    SELECT word FROM {t['words']}
                    WHERE word %% tok AND levenshtein_less_equal(word, tok, %(edits)s) <= %(edits)s
                          - (length(tok) <= 4)::int
                    ORDER BY levenshtein_less_equal(word, tok, %(edits)s), similarity(word, tok) DESC, word
                    LIMIT %(n)s) END,
                '{{}}')
            FROM unnest(%(tokens)s::text[]) AS q(tok)""",
        {"min": MIN_CORRECTABLE, "edits": MAX_EDITS, "n": MAX_CORRECTIONS, "tokens": tokens},
    ).fetchall()
    return [(tok, list(words)) for tok, words in rows]


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


# ---------------------------------------------------------------- PostgreSQL


def any_tsquery_text(corrections: tuple[Correction, ...]) -> str:
    """Any of the query's words (or their corrections): what tier 1 looks for in names."""
    options = [o for group in tsquery_text(corrections).split(" & ") for o in group.strip("()").split(" | ")]
    return " | ".join(dict.fromkeys(options))


TOTAL_CAP = 500  # matches counted exactly up to this many; above it `total` is an estimate
NAME_CAP = 200  # at most this many name matches are scored for tier 1 (the shortest names when more match)
PLAN_CAP = 1000  # a set estimated this small is read whole and sorted; a larger one walks the order's index


@dataclass(frozen=True)
class Count:
    """How many listings match, exact up to the cap, and the share of the sample that also matches in `head`."""

    n: int
    exact: bool
    head_share: float = 1.0


class PostgresSearch:
    """tsvector (name A, tagline and keywords B, description C) + pg_trgm on names, in the listing view.

    Relevance ranks in three tiers, so a query matching thousands of listings
    scores only the few whose names match (docs/search.md):

    1. a query word is in the name, or the name resembles the whole query: scored
       (at most `name_cap` of them: the exact names, then the shortest);
    2. every query word is in the name, tagline or keywords: most voted first;
    3. the rest (words found in the description): most voted first.

    Counting stops at `total_cap` matches and estimates the rest, and each
    tier is read by the cheaper of two plans chosen from that count (read the
    matches and sort them, or walk the order's index until the page is full),
    so a broad query costs about what a selective one does.
    """

    name = "postgres"

    def __init__(self, reads: ReadStore, total_cap: int = TOTAL_CAP, name_cap: int = NAME_CAP,
                 plan_cap: int = PLAN_CAP) -> None:
        self.reads = reads
        self.total_cap = total_cap
        self.name_cap = name_cap
        self.plan_cap = plan_cap
        self._counter = ThreadPoolExecutor(max_workers=4, thread_name_prefix="search-count")

    def search(self, r: SearchRequest) -> SearchPage:
        if r.categories is not None and not r.categories:
            return SearchPage()
        table = self.reads.tables(VIEW)["listings"]
        where, params = _filters(r)
        if r.corrections:
            params |= {"tsq": tsquery_text(r.corrections), "tsq_any": any_tsquery_text(r.corrections),
                       "qn": r.text or "", "qc": r.corrected}
        match = where if not r.corrections else f"({MATCH}{' OR %(qn)s <%% name_lc' if r.fuzzy else ''}) AND {where}"
        ranked = r.order == "relevance" and bool(r.corrections)
        first: list[int] = []
        if ranked:  # count on a second connection while this thread reads the name matches
            counting = self._counter.submit(self._count_alone, table, match, params, True)
            with self.reads.pool.connection() as raw:  # released before waiting: no thread holds one and waits
                first = self._names(_Planned(raw, NAME_SIMILARITY), table, where, params, r)
            count = counting.result()
        with self.reads.pool.connection() as raw:
            conn = _Planned(raw, NAME_SIMILARITY)
            if not ranked:
                count = self._count(conn, table, match, params, False)
            if count.n == 0 or (count.exact and r.offset >= count.n):
                return SearchPage([], count.n, count.exact, False)
            want = r.limit + (0 if count.exact else 1)  # one more row tells whether another page exists
            if not ranked:
                ids = self._read(conn, f"SELECT listing_id FROM {table} WHERE {match} ORDER BY {ORDERS[r.order]} "
                                       "LIMIT %(need)s OFFSET %(skip)s",
                                 params | {"need": want, "skip": r.offset}, walk=count.n > self.plan_cap)
            else:
                ids = self._tiers(conn, table, where, params, r, count, first, want)
            cards = cards_by_id(self.reads, ids[:r.limit], raw)
        has_more = len(ids) > r.limit if not count.exact else r.offset + len(ids) < count.n
        return SearchPage(cards, count.n, count.exact, has_more)

    def _count_alone(self, table: str, match: str, params: dict[str, Any], with_head: bool) -> Count:
        with self.reads.pool.connection() as raw:
            return self._count(_Planned(raw, NAME_SIMILARITY), table, match, params, with_head)

    def _count(self, conn: _Planned, table: str, match: str, params: dict[str, Any], with_head: bool) -> Count:
        """Matches, exact up to `total_cap`; above it estimated from how far into the table the sample reached.

        The sample is the first `total_cap + 1` matches in physical order (a
        bitmap scan), so the block it ends in tells what share of the table it
        covered: `estimate = sample * pages / (last block + 1)`. The sample
        also says what share of the matches have every word in `head`, which
        sizes tiers 2 and 3.
        """
        head = f"count(*) FILTER (WHERE head @@ {TSQUERY})" if with_head else "count(*)"
        n, in_head, last_block, pages = conn.run(
            "sort", f"SELECT count(*), {head}, max((ctid::text::point)[0]), "
            f"pg_relation_size('{table}') / current_setting('block_size')::int "
            f"FROM (SELECT ctid, head FROM {table} WHERE {match} LIMIT %(sample)s) m",
            params | {"sample": self.total_cap + 1},
        )[0]
        n = int(n)
        share = int(in_head) / n if n else 1.0
        if n <= self.total_cap:
            return Count(n, True, share)
        return Count(max(n, round(n * int(pages) / (int(last_block) + 1))), False, share)

    def _read(self, conn: _Planned, sql: str, params: dict[str, Any], walk: bool) -> list[int]:
        """Listing ids by the chosen plan: walk the order's index (large sets) or read the matches and sort (small)."""
        return [int(row[0]) for row in conn.run("walk" if walk else "sort", sql, params)]

    def _names(self, conn: _Planned, table: str, where: str, params: dict[str, Any], r: SearchRequest) -> list[int]:
        """Tier 1, best first: the exact names, then at most `name_cap` of the shortest names, scored."""
        # One word: a name match is a full match. More words: the others must be somewhere in the listing.
        in_name = f"name_fts @@ {ANY_TSQUERY}" + (f" AND {MATCH}" if len(r.corrections) > 1 else "")
        tier1 = f"(({in_name}) OR %(qn)s <%% name_lc)" if r.fuzzy else f"({in_name})"
        names = conn.run(
            "sort", f"SELECT listing_id FROM (SELECT listing_id, name_lc, head, votes, launched_at FROM {table} "
            f"    WHERE {tier1} AND {where} "
            f"    ORDER BY (name_lc = %(qn)s OR name_lc = %(qc)s) DESC, length(name_lc), votes DESC, launched_at, "
            f"    listing_id LIMIT %(name_cap)s) candidates "
            f"ORDER BY {SCORE} DESC, votes DESC, launched_at, listing_id",
            params | {"name_cap": self.name_cap},
        )
        return [int(row[0]) for row in names]

    def _tiers(self, conn: _Planned, table: str, where: str, params: dict[str, Any], r: SearchRequest, count: Count,
               first: list[int], want: int) -> list[int]:
        """The page of the concatenation tier 1 ++ tier 2 ++ tier 3, reading no further than it needs."""
        ids = first[r.offset:r.offset + want]
        skip = max(0, r.offset - len(first))
        params = params | {"tier1": first}
        in_head = round(count.n * count.head_share)  # matches with every word in name, tagline or keywords
        sizes = {True: in_head - len(first), False: count.n - in_head}  # estimated sizes of tiers 2 and 3
        for in_head in (True, False):
            need = want - len(ids)
            if need <= 0 or (count.exact and len(first) >= count.n):
                break
            if count.exact and count.head_share == (0.0 if in_head else 1.0):
                continue  # counted exactly: no match has (tier 2) or lacks (tier 3) every word in the head
            condition = (f"{MATCH} AND {'' if in_head else 'NOT '}head @@ {TSQUERY} "
                         f"AND NOT listing_id = ANY(%(tier1)s) AND {where}")
            tier = self._read(conn, f"SELECT listing_id FROM {table} WHERE {condition} ORDER BY {ORDERS['votes']} "
                                    "LIMIT %(need)s OFFSET %(skip)s",
                              params | {"need": need, "skip": skip}, walk=sizes[in_head] > self.plan_cap)
            ids += tier
            if in_head and len(tier) < need:  # tier 2 ran out: how far into tier 3 does the page start?
                if skip > 0:
                    (seen,) = conn.run("sort", f"SELECT count(*) FROM {table} WHERE {condition}", params)[0]
                    skip = max(0, skip - int(seen))
            else:
                skip = 0
        return ids


MATCH = "fts @@ to_tsquery('english', %(tsq)s)"
# Planner settings turned off per plan: `walk` leaves only an ordered index scan, `sort` only reading the
# matches (bitmap) and sorting them.
PLANS = {"walk": ("enable_bitmapscan", "enable_seqscan", "enable_sort"),
         "sort": ("enable_indexscan", "enable_indexonlyscan")}
PLAN_SETTINGS = sorted({name for names in PLANS.values() for name in names})


class _Planned:
    """A search's connection whose statements each run under a chosen plan.

    Plans are forced with transaction-local planner settings, sent only when
    the plan changes (the first time together with the search's other
    settings), and statements are never server-side prepared, so no cached
    plan made under other settings is reused.
    """

    def __init__(self, conn: Any, word_similarity: float) -> None:
        self.conn = conn
        self.plan = ""
        self.first = [f"set_config('pg_trgm.word_similarity_threshold', '{word_similarity}', true)",
                      "set_config('max_parallel_workers_per_gather', '0', true)",  # one search, one core
                      "set_config('synchronize_seqscans', 'off', true)"]  # sequential reads start at block 0

    def run(self, plan: str, sql: str, params: dict[str, Any]) -> list[Any]:
        if plan != self.plan:
            settings = self.first + [f"set_config('{name}', '{'off' if name in PLANS[plan] else 'on'}', true)"
                                     for name in PLAN_SETTINGS]
            self.conn.execute("SELECT " + ", ".join(settings))
            self.first, self.plan = [], plan
        return list(self.conn.execute(sql, params, prepare=False).fetchall())


CARD = "card || jsonb_build_object('votes', votes)"
TSQUERY = "to_tsquery('english', %(tsq)s)"
ANY_TSQUERY = "to_tsquery('english', %(tsq_any)s)"
SCORE = f"""5 * (name_lc = %(qn)s OR name_lc = %(qc)s)::int + 3 * word_similarity(%(qn)s, name_lc)
            + similarity(name_lc, %(qc)s) + ts_rank(head, {TSQUERY})"""


def _filters(r: SearchRequest) -> tuple[str, dict[str, Any]]:
    """The WHERE clause shared by every query of one request."""
    if r.status == "upcoming":
        clauses = ["(status = 'scheduled' OR (status = 'awaiting_badge' AND week >= %(this_week)s))"]
    else:
        clauses = ["status = 'live'"]
    params: dict[str, Any] = {"this_week": r.this_week}
    for column, value in (("stage", r.stage), ("country", r.country), ("pricing", r.pricing), ("domain", r.domain)):
        if value is not None:
            clauses.append(f"{column} = %({column})s")
            params[column] = value
    if r.categories is not None:
        clauses.append("categories && %(categories)s")
        params["categories"] = list(r.categories)
    return " AND ".join(clauses), params


# ---------------------------------------------------------------- Elasticsearch


ES_SORTS: dict[str, list[dict[str, Any]]] = {
    "votes": [{"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "newest": [{"listed_at": "desc"}, {"listing_id": "desc"}],
    "trending": [{"trend_log": {"order": "desc", "missing": "_last"}}, {"votes": "desc"}, {"launched_at": "asc"},
                 {"listing_id": "asc"}],
    "most_viewed": [{"views": "desc"}, {"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "most_followed": [{"followers": "desc"}, {"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "relevance": [{"_score": "desc"}, {"votes": "desc"}, {"launched_at": "asc"}, {"listing_id": "asc"}],
    "soonest": [{"week": "asc"}, {"listed_at": "asc"}, {"listing_id": "asc"}],
}


class ElasticsearchSearch:
    """The same request on an Elasticsearch alias fed by `projections/search_index.py`.

    Every query word must match (itself, a vocabulary correction, or a fuzzy
    variant) in name^5, tagline^2, keywords^2 or description; a name that
    resembles the whole query (trigrams) also counts. Cards come from the listing
    view, in the order Elasticsearch ranked their ids.
    """

    name = "elasticsearch"

    def __init__(self, reads: ReadStore, client: Any, alias: str) -> None:
        self.reads = reads
        self.client = client
        self.alias = alias

    def body(self, r: SearchRequest) -> dict[str, Any]:
        filters: list[dict[str, Any]] = []
        if r.status == "upcoming":
            filters.append({"bool": {"should": [
                {"term": {"status": "scheduled"}},
                {"bool": {"filter": [{"term": {"status": "awaiting_badge"}}, {"range": {"week": {"gte": r.this_week}}}]}},
            ], "minimum_should_match": 1}})
        else:
            filters.append({"term": {"status": "live"}})
        for field_name, value in (("stage", r.stage), ("country", r.country), ("pricing", r.pricing), ("domain", r.domain)):
            if value is not None:
                filters.append({"term": {field_name: value}})
        if r.categories is not None:
            filters.append({"terms": {"categories": list(r.categories)}})
        query: dict[str, Any] = {"bool": {"filter": filters}}
        if r.corrections:
            fields = ["name^5", "tagline^2", "keywords^2", "description"]
            words = {"bool": {"must": [
                {"bool": {"should": [
                    {"multi_match": {"query": c.token, "fields": fields, "fuzziness": "AUTO"}},
                    *({"multi_match": {"query": w, "fields": fields}}
                      for w in dict.fromkeys((*c.words, *c.completions)) if w != c.token),
                ], "minimum_should_match": 1}}
                for c in r.corrections
            ]}}
            name_like = {"match": {"name.grams": {"query": r.text or "", "minimum_should_match": "60%", "boost": 3}}}
            query["bool"]["should"] = [words, name_like, {"term": {"name.raw": {"value": r.corrected, "boost": 10}}}]
            query["bool"]["minimum_should_match"] = 1
        return {"query": query, "sort": ES_SORTS[r.order], "from_": r.offset, "size": r.limit,
                "track_total_hits": True, "source": False}

    def search(self, r: SearchRequest) -> SearchPage:
        if r.categories is not None and not r.categories:
            return SearchPage()
        response = self.client.search(index=self.alias, **self.body(r))
        ids = [int(hit["_id"]) for hit in response["hits"]["hits"]]
        total = int(response["hits"]["total"]["value"])
        return SearchPage(cards_by_id(self.reads, ids), total, True, r.offset + len(ids) < total)


def cards_by_id(reads: ReadStore, ids: list[int], conn: Any = None) -> list[dict[str, Any]]:
    """Cards (with current votes) of these listings, in the given order; unknown ids are skipped."""
    if not ids:
        return []
    if conn is None:
        with reads.pool.connection() as own:
            return cards_by_id(reads, ids, own)
    t = reads.tables(VIEW)
    rows: dict[int, dict[str, Any]] = dict(conn.execute(
        f"SELECT listing_id, {CARD} FROM {t['listings']} WHERE listing_id = ANY(%s)", (ids,)
    ).fetchall())
    return [rows[i] for i in ids if i in rows]
