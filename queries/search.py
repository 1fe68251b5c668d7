"""Listing search: one interface, two backends (PostgreSQL by default, Elasticsearch by configuration).

Both backends take the same `SearchRequest` (query words already typo-corrected
against the shared vocabulary, filters normalised) and return listing cards in
the same order rules, so switching backends changes scale, not answers.
The design and the ranking formula are in docs/search.md.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from projections.listing_cards import words_of
from projections.reads import ReadStore

log = logging.getLogger(__name__)
VIEW = "listing_view"
MAX_TOKENS = 8
MAX_CORRECTIONS = 3
MIN_CORRECTABLE = 3  # shorter tokens have too few trigrams to correct reliably
NAME_SIMILARITY = 0.5  # pg_trgm word_similarity threshold for fuzzy name candidates
CANDIDATE_SIMILARITY = 0.2  # pg_trgm similarity a correction candidate needs (then the edit distance decides)
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
    """One query word and the vocabulary words it may stand for (itself when known)."""

    token: str
    words: tuple[str, ...]

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
    items: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0


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

    Candidates share trigrams with the typed word (similarity >= 0.2, GIN index)
    and are at most MAX_EDITS edits away (1 for words of up to 4 letters);
    fewer edits first, then higher trigram similarity, then alphabetical order.
    """
    if not tokens:
        return ()
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        conn.execute("SELECT set_config('pg_trgm.similarity_threshold', %s, true)", (str(CANDIDATE_SIMILARITY),))
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
                FROM unnest(%(tokens)s::text[]) WITH ORDINALITY AS q(tok, n) ORDER BY n""",
            {"min": MIN_CORRECTABLE, "edits": MAX_EDITS, "n": MAX_CORRECTIONS, "tokens": tokens},
        ).fetchall()
    return tuple(Correction(tok, tuple(words)) for tok, words in rows)


def tsquery_text(corrections: tuple[Correction, ...]) -> str:
    """`(word | fix1 | fix2) & ...`: the typed word is always searched too; the last also as a prefix (type-ahead)."""
    groups = []
    for i, c in enumerate(corrections):
        options = list(dict.fromkeys((c.token, *c.words)))
        if i == len(corrections) - 1 and len(c.token) >= MIN_CORRECTABLE:
            options.append(c.token + ":*")
        groups.append("(" + " | ".join(options) + ")")
    return " & ".join(groups)


# ---------------------------------------------------------------- PostgreSQL


def any_tsquery_text(corrections: tuple[Correction, ...]) -> str:
    """Any of the query's words (or their corrections): what tier 1 looks for in names."""
    options = [o for group in tsquery_text(corrections).split(" & ") for o in group.strip("()").split(" | ")]
    return " | ".join(dict.fromkeys(options))


class PostgresSearch:
    """tsvector (name A, tagline and keywords B, description C) + pg_trgm on names, in the listing view.

    Relevance ranks in three tiers, so a query matching thousands of listings
    scores only the few whose names match (docs/search.md):

    1. a query word is in the name, or the name resembles the whole query: scored;
    2. every query word is in the name, tagline or keywords: most voted first;
    3. the rest (words found in the description): most voted first.

    Tier 1 is read whole; tiers 2 and 3 are read in vote order only as far as the page needs.
    """

    name = "postgres"

    def __init__(self, reads: ReadStore) -> None:
        self.reads = reads

    def search(self, r: SearchRequest) -> SearchPage:
        if r.categories is not None and not r.categories:
            return SearchPage()
        table = self.reads.tables(VIEW)["listings"]
        where, params = _filters(r)
        params |= {"limit": r.limit, "offset": r.offset}
        with self.reads.pool.connection() as conn:
            if not r.corrections:
                rows = conn.execute(
                    f"SELECT {CARD} FROM {table} WHERE {where} ORDER BY {ORDERS[r.order]} "
                    "LIMIT %(limit)s OFFSET %(offset)s", params,
                ).fetchall()
                (total,) = conn.execute(f"SELECT count(*) FROM {table} WHERE {where}", params).fetchone()  # type: ignore[misc]
                return SearchPage([row[0] for row in rows], int(total))
            params |= {"tsq": tsquery_text(r.corrections), "tsq_any": any_tsquery_text(r.corrections),
                       "qn": r.text or "", "qc": r.corrected}
            conn.execute("SELECT set_config('pg_trgm.word_similarity_threshold', %s, true)", (str(NAME_SIMILARITY),))
            fuzzy_only = f"%(qn)s <%% name_lc AND NOT fts @@ {TSQUERY}"
            count = f"SELECT (SELECT count(*) FROM {table} WHERE fts @@ {TSQUERY} AND {where})"
            if r.fuzzy:
                count += f" + (SELECT count(*) FROM {table} WHERE {fuzzy_only} AND {where})"
            (total,) = conn.execute(count, params).fetchone()  # type: ignore[misc]
            if total == 0 or r.offset >= total:
                return SearchPage([], int(total))
            if r.order != "relevance":
                match = f"(fts @@ {TSQUERY}" + (" OR %(qn)s <%% name_lc)" if r.fuzzy else ")")
                rows = conn.execute(
                    f"SELECT {CARD} FROM {table} WHERE {match} AND {where} ORDER BY {ORDERS[r.order]} "
                    "LIMIT %(limit)s OFFSET %(offset)s", params,
                ).fetchall()
                return SearchPage([row[0] for row in rows], int(total))
            return SearchPage(_tiers(conn, table, where, params, r), int(total))


CARD = "card || jsonb_build_object('votes', votes)"
TSQUERY = "to_tsquery('english', %(tsq)s)"
ANY_TSQUERY = "to_tsquery('english', %(tsq_any)s)"
SCORE = f"""5 * (name_lc = %(qn)s OR name_lc = %(qc)s)::int + 3 * word_similarity(%(qn)s, name_lc)
            + similarity(name_lc, %(qc)s) + ts_rank(head, {TSQUERY})"""


def _tiers(conn: Any, table: str, where: str, params: dict[str, Any], r: SearchRequest) -> list[dict[str, Any]]:
    """The page of the concatenation tier 1 ++ tier 2 ++ tier 3, reading no further than it needs."""
    in_name = f"name_fts @@ {ANY_TSQUERY} AND fts @@ {TSQUERY}"
    tier1 = f"(({in_name}) OR %(qn)s <%% name_lc)" if r.fuzzy else f"({in_name})"
    first = conn.execute(
        f"SELECT {CARD} FROM {table} WHERE {tier1} AND {where} "
        f"ORDER BY {SCORE} DESC, votes DESC, launched_at, listing_id LIMIT %(tier1_limit)s",
        params | {"tier1_limit": r.offset + r.limit},
    ).fetchall()  # a short tier 1 is all of it; a full one fills the page, so the rest is never needed
    items = [row[0] for row in first[r.offset:r.offset + r.limit]]
    skip = max(0, r.offset - len(first))
    not_tier1 = f"NOT coalesce(name_fts @@ {ANY_TSQUERY}, false)" + (" AND NOT %(qn)s <%% name_lc" if r.fuzzy else "")
    for in_head in (True, False):
        need = r.limit - len(items)
        if need <= 0:
            break
        head = "" if in_head else "NOT "
        rows = conn.execute(
            f"SELECT {CARD} FROM {table} WHERE fts @@ {TSQUERY} AND {head}head @@ {TSQUERY} AND {not_tier1} "
            f"AND {where} ORDER BY {ORDERS['votes']} LIMIT %(need)s OFFSET %(skip)s",
            params | {"need": need, "skip": skip},
        ).fetchall()
        items += [row[0] for row in rows]
        if in_head and len(rows) < need:  # tier 2 ran out: how far into tier 3 does the page start?
            if skip > 0:
                (seen,) = conn.execute(
                    f"SELECT count(*) FROM {table} WHERE fts @@ {TSQUERY} AND head @@ {TSQUERY} AND {not_tier1} "
                    f"AND {where}", params,
                ).fetchone()
                skip = max(0, skip - int(seen))
            else:
                skip = 0
    return items


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
                    *({"multi_match": {"query": w, "fields": fields}} for w in c.words if w != c.token),
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
        return SearchPage(cards_by_id(self.reads, ids), total)


def cards_by_id(reads: ReadStore, ids: list[int]) -> list[dict[str, Any]]:
    """Cards (with current votes) of these listings, in the given order; unknown ids are skipped."""
    if not ids:
        return []
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows: dict[int, dict[str, Any]] = dict(conn.execute(
            f"SELECT listing_id, {CARD} FROM {t['listings']} WHERE listing_id = ANY(%s)", (ids,)
        ).fetchall())
    return [rows[i] for i in ids if i in rows]
