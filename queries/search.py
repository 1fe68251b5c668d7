"""Listing search: one interface, two backends (PostgreSQL by default, Elasticsearch by configuration).

Both backends take the same `SearchRequest` (query words already typo-corrected
against the shared vocabulary by `queries.search_words`, filters normalised) and
return listing cards in the same order rules, so switching backends changes
scale, not answers. The backends: `queries.search_postgres` and
`queries.search_elasticsearch`. The design and the ranking formula are in
docs/search.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol
from zlib import crc32

import orjson

from projections.base import Tables
from projections.listing_cards import words_of
from projections.reads import ReadStore
from queries.cards import listing_view_extras

VIEW = "listing_view"  # the cards
SEARCH_VIEW = "search_view"  # what searches match, filter and order on, and the vocabulary
MAX_TOKENS = 8
CARD = f"l.card || {listing_view_extras()}"  # the listing card (queries/cards.py)


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


def tokens_of(q: str | None) -> list[str]:
    """The query's distinct folded words, at most MAX_TOKENS."""
    return words_of(q or "")[:MAX_TOKENS]


def cards_by_id(reads: ReadStore, ids: list[int], conn: Any = None, tables: Tables | None = None) -> list[dict[str, Any]]:
    """Cards (with current votes) of these listings, in the given order; unknown ids are skipped.

    `tables`: the generation the ids were found in, when the caller has it (a rebuild may switch in between).
    """
    if not ids:
        return []
    if conn is None:
        with reads.pool.connection() as own:
            return cards_by_id(reads, ids, own, tables)
    t = tables or reads.tables(VIEW)
    # As text, parsed by orjson: psycopg's jsonb loader (the standard library's json) took about a third of
    # this function's CPU for a page of 20 cards (docs/performance.md, "Search under distinct queries").
    rows: dict[int, str] = dict(conn.execute(
        f"SELECT l.listing_id, ({CARD})::text FROM {t['listings']} l "
        "WHERE l.listing_id = ANY(%s)", (ids,)
    ).fetchall())
    return [orjson.loads(rows[i]) for i in ids if i in rows]


# How a prepared statement is planned: once per connection (generic), or for its values at every execution.
PLAN_CACHE = {True: "set_config('plan_cache_mode', 'force_generic_plan', true)",
              False: "set_config('plan_cache_mode', 'force_custom_plan', true)"}


def run_prepared(conn: Any, settings: str, sql: str, params: dict[str, Any], generic: bool = True) -> list[Any]:
    """Rows of `sql` as a prepared statement, planned under `settings`: once (`generic`), or for its values.

    Parsing and planning were a third of a search's PostgreSQL CPU for a
    name matching one listing (docs/performance.md, "Prepared search
    statements"). The settings (transaction-local `set_config` calls) and the
    statement travel in one pipeline: one round trip, one implicit
    transaction, so they are in place when the statement is planned, on its
    first execution on this connection or again after PostgreSQL invalidates
    the plan. The statement's text carries a tag of its settings, so a
    statement run under other settings is another prepared statement with a
    plan of its own.

    A generic plan sees parameters, not values: a text query must be written
    `(SELECT to_tsquery(...))`, evaluated once per execution, not
    `to_tsquery(..., %(q)s)`, which a generic plan evaluates again for every
    row it tests or scores. And where the plan's settings leave the planner a
    choice that the values decide (a sequential scan or an index for a
    filter), `generic=False` plans for the values each time.
    """
    with conn.pipeline():
        conn.execute(f"SELECT {settings}, {PLAN_CACHE[generic]}", prepare=True)
        cur = conn.execute(f"{sql} /* settings {settings_tag(settings, generic)} */", params, prepare=True)
    return list(cur.fetchall())


def settings_tag(settings: str, generic: bool = True) -> str:
    """A short name of a set of settings, in the text of the statements prepared under them."""
    return f"{crc32(f'{settings}, {PLAN_CACHE[generic]}'.encode()):08x}"
