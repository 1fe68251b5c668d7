"""The PostgreSQL search backend: full text and trigrams in the listing view (docs/search.md).

Relevance ranks in three tiers, counting stops at a cap and estimates beyond
it, and every page is read by the plan its count calls for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from projections.reads import ReadStore
from queries.search import CARD, SEARCH_VIEW, VIEW, SearchPage, SearchRequest, run_prepared
from queries.search_words import any_tsquery_text, tsquery_text

NAME_SIMILARITY = 0.5  # pg_trgm word_similarity threshold for fuzzy name candidates

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
    """tsvector (name A, tagline and keywords B; description in `fts`) + pg_trgm on names, in the search view's
    search table; cards come from the listing view's listings table by id.

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

    def search(self, r: SearchRequest) -> SearchPage:
        if r.categories is not None and not r.categories:
            return SearchPage()
        table = self.reads.tables(SEARCH_VIEW)["search"]
        where, params = _filters(r)
        if r.corrections:
            params |= {"tsq": tsquery_text(r.corrections), "tsq_any": any_tsquery_text(r.corrections),
                       "qn": r.text or "", "qc": r.corrected}
        match = where if not r.corrections else f"({MATCH}{' OR %(qn)s <%% name_lc' if r.fuzzy else ''}) AND {where}"
        ranked = r.order == "relevance" and bool(r.corrections)
        page = _Page(self.reads.tables(VIEW)["listings"], r.offset, r.limit)
        # One connection, one statement for the count (and tier 1 when ranked, with the cards of its part of the
        # page), then the page's ids with their cards. In autocommit: each statement travels with its planner
        # settings, which last for its pipeline only, so no BEGIN and COMMIT round trips (docs/performance.md,
        # "Search under distinct queries").
        with self.reads.pool.connection() as raw:
            conn = _Planned(raw, NAME_SIMILARITY)
            count, first = self._count(conn, table, match, where, params, r, ranked, page)
            if count.n == 0 or (count.exact and r.offset >= count.n):
                return SearchPage([], count.n, count.exact, False)
            want = r.limit + (0 if count.exact else 1)  # one more row tells whether another page exists
            if not ranked:
                ids = self._read(conn, page, f"SELECT listing_id FROM {table} WHERE {match} "
                                             f"ORDER BY {ORDERS[r.order]} LIMIT %(need)s OFFSET %(skip)s",
                                 params | {"need": want, "skip": r.offset}, walk=count.n > self.plan_cap,
                                 text=bool(r.corrections))
            else:
                ids = self._tiers(conn, page, table, where, params, r, count, first, want)
            cards = page.cards_of(raw, ids[:r.limit])
        has_more = len(ids) > r.limit if not count.exact else r.offset + len(ids) < count.n
        return SearchPage(cards, count.n, count.exact, has_more)

    def _count(self, conn: _Planned, table: str, match: str, where: str, params: dict[str, Any], r: SearchRequest,
               ranked: bool, page: _Page) -> tuple[Count, list[int]]:
        """Matches, exact up to `total_cap`; above it estimated from how far into the table the sample reached.

        The sample is the first `total_cap + 1` matches in physical order (a
        bitmap scan), so the blocks it spans tell what share of the table it
        covered: `estimate = sample * (pages - first block) / (last block -
        first block + 1)`. Counting from the sample's first block keeps an
        empty start of the file (left by a mass rewrite) from shrinking the
        estimate. A ranked search's sample also says what share of the
        matches have every word in `head`, which sizes tiers 2 and 3, and the
        same statement reads tier 1 (`_names`): both read the matches through
        their indexes (`_plan`), so one round trip serves them.
        """
        head = f"count(*) FILTER (WHERE head @@ {TSQUERY})" if ranked else "count(*)"
        # A ranked search's first statement also brings tier 1 and the cards of its part of the page (`_Page`).
        names = f"({self._names(table, where, r)}) AS first" if ranked else "NULL::int[] AS first, NULL::text AS cards"
        sql = (f"SELECT count(*), {head}, {FIRST_BLOCK}, {LAST_BLOCK}, "
               f"pg_relation_size('{table}') / current_setting('block_size')::int, {names} "
               f"FROM (SELECT ctid, head FROM {table} WHERE {match} LIMIT %(sample)s) m")
        n, in_head, first_block, last_block, pages, first, cards = conn.run(
            _plan(bool(r.corrections)), page.with_cards(sql, "first", "%(page_from)s") if ranked else sql,
            params | {"sample": self.total_cap + 1, "name_cap": self.name_cap, "page_from": r.offset + 1,
                      "page_upto": r.offset + r.limit},
        )[0]
        n = int(n)
        ids = [int(i) for i in first or ()]
        page.add(ids[r.offset:r.offset + r.limit], cards)
        share = int(in_head) / n if n else 1.0
        if n <= self.total_cap:
            return Count(n, True, share), ids
        covered = int(last_block) - int(first_block) + 1
        return Count(max(n, round(n * (int(pages) - int(first_block)) / covered)), False, share), ids

    def _read(self, conn: _Planned, page: _Page, sql: str, params: dict[str, Any], walk: bool, text: bool,
              before: int = 0) -> list[int]:
        """Listing ids by the chosen plan: walk the order's index (large sets) or read the matches and sort (small).

        The same statement brings the cards of those of them that are on the
        page, after the `before` ids the page already has.
        """
        plan = "walk" if walk else _plan(text)
        if plan == "sort":  # planned at every execution: its cards are read on their own, a statement never planned again
            return [int(row[0]) for row in conn.run(plan, sql, params)]
        rows = conn.run(plan, page.with_ids_and_cards(sql), params | {"page_from": 1,
                                                                      "page_upto": max(0, page.limit - before)})
        (found, cards), = rows
        ids = [int(i) for i in found]
        page.add(ids[:max(0, page.limit - before)], cards)
        return ids

    @staticmethod
    def _names(table: str, where: str, r: SearchRequest) -> str:
        """Tier 1 as an array subquery, best first: the exact names, then at most `name_cap` of the shortest, scored."""
        # One word: a name match is a full match. More words: the others must be somewhere in the listing.
        in_name = f"name_fts @@ {ANY_TSQUERY}" + (f" AND {MATCH}" if len(r.corrections) > 1 else "")
        tier1 = f"(({in_name}) OR %(qn)s <%% name_lc)" if r.fuzzy else f"({in_name})"
        return (f"SELECT array_agg(listing_id ORDER BY {SCORE} DESC, votes DESC, launched_at, listing_id) "
                f"FROM (SELECT listing_id, name_lc, head, votes, launched_at FROM {table} "
                f"    WHERE {tier1} AND {where} "
                f"    ORDER BY (name_lc = %(qn)s OR name_lc = %(qc)s) DESC, length(name_lc), votes DESC, launched_at, "
                f"    listing_id LIMIT %(name_cap)s) candidates")

    def _tiers(self, conn: _Planned, page: _Page, table: str, where: str, params: dict[str, Any], r: SearchRequest,
               count: Count, first: list[int], want: int) -> list[int]:
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
            tier = self._read(conn, page, f"SELECT listing_id FROM {table} WHERE {condition} "
                                          f"ORDER BY {ORDERS['votes']} LIMIT %(need)s OFFSET %(skip)s",
                              params | {"need": need, "skip": skip}, walk=sizes[in_head] > self.plan_cap, text=True,
                              before=len(ids))
            ids += tier
            if in_head and len(tier) < need:  # tier 2 ran out: how far into tier 3 does the page start?
                if skip > 0:
                    (seen,) = conn.run(_plan(True), f"SELECT count(*) FROM {table} WHERE {condition}", params)[0]
                    skip = max(0, skip - int(seen))
            else:
                skip = 0
        return ids


class _Page:
    """The cards of a page of results, brought by the statements that find the page's ids.

    A separate statement for the cards cost a round trip a search; inside
    the search's statements they cost no planning either, since those run
    with generic plans (docs/performance.md, "Prepared search statements").
    """

    def __init__(self, listings: str, offset: int, limit: int) -> None:
        self.listings = listings
        self.offset = offset
        self.limit = limit
        self.asked: set[int] = set()
        self.cards: dict[int, dict[str, Any]] = {}

    def cards_sql(self, ids: str) -> str:
        """The cards of the listings with ids in the array `ids`, one JSON object by id, as text."""
        return (f"(SELECT json_object_agg(l.listing_id, {CARD}) FROM {self.listings} l "
                f"WHERE l.listing_id = ANY({ids}))::text")

    def with_cards(self, sql: str, column: str, start: str) -> str:
        """`sql` (one row) with the cards of its array `column` from `start` to `%(page_upto)s` as one more column."""
        return f"SELECT c.*, {self.cards_sql(f'c.{column}[{start}:%(page_upto)s]')} FROM ({sql}) c"

    def with_ids_and_cards(self, sql: str) -> str:
        """`sql` (listing ids in order) as one row: the ids as an array and the cards of the first `%(page_upto)s`."""
        # Materialized: a subquery in FROM would be pulled up, and its ids read twice (once for the cards).
        return (f"WITH p AS MATERIALIZED (SELECT ARRAY({sql}) AS ids) "
                f"SELECT ids, {self.cards_sql('ids[%(page_from)s:%(page_upto)s]')} FROM p")

    def add(self, ids: list[int], cards: str | None) -> None:
        """Keep the cards a statement brought for `ids` (a listing without a card is skipped, as before)."""
        self.asked.update(ids)
        for key, card in (orjson.loads(cards) if cards else {}).items():
            self.cards[int(key)] = card

    def cards_of(self, conn: Any, ids: list[int]) -> list[dict[str, Any]]:
        """The page's cards in order; any the statements did not bring are read now."""
        missing = [i for i in ids if i not in self.asked]
        if missing:
            self.add(missing, conn.execute(f"SELECT {self.cards_sql('%s')}", (missing,)).fetchone()[0])
        return [self.cards[i] for i in ids if i in self.cards]


MATCH = "fts @@ (SELECT to_tsquery('english', %(tsq)s))"
# The sample's first and last heap blocks: the lowest and highest row address, each turned into its block number
# once. Converting every row's address to text (`min((ctid::text::point)[0])`) cost 4 % of the statement's
# backend CPU (docs/performance.md, "Search under distinct queries"); `min`/`max` of `tid` need PostgreSQL 14.
FIRST_BLOCK = "(min(ctid)::text::point)[0]"
LAST_BLOCK = "(max(ctid)::text::point)[0]"
# Planner settings turned off per plan: `walk` leaves only an ordered index scan, `sort` only reading the
# matches (bitmap, or a sequential scan) and sorting them, `bitmap` only reading them through their indexes.
PLANS = {"walk": ("enable_bitmapscan", "enable_seqscan", "enable_sort"),
         "sort": ("enable_indexscan", "enable_indexonlyscan"),
         "bitmap": ("enable_indexscan", "enable_indexonlyscan", "enable_seqscan")}


def _plan(text: bool) -> str:
    """How a statement reads every match (or the count's sample): through the text indexes when it matches text.

    The planner's guess of how many rows a text query matches is often 2-5
    times off; guessing high, it chose a sequential scan for the count's
    sample, which then evaluated the text query on every row until 501
    matched (10,000 rows, 11 ms, for a word in 5 % of the listings, against
    about 2 ms through the index: docs/performance.md). Without text (a
    browse), a sequential scan is what reads the first matches cheapest.
    """
    return "bitmap" if text else "sort"
PLAN_SETTINGS = sorted({name for names in PLANS.values() for name in names})


class _Planned:
    """A search's connection (in autocommit) whose statements each run under a chosen plan.

    Plans are forced with transaction-local planner settings sent in the same
    pipeline as the statement they are for (`queries.search.run_prepared`):
    the two are one implicit transaction, so the settings last for that
    statement only, and no BEGIN or COMMIT is needed around the search. Each
    statement is prepared once per connection and plan, with a generic plan
    made under that plan's settings.
    """

    def __init__(self, conn: Any, word_similarity: float) -> None:
        self.conn = conn
        self.common = [f"set_config('pg_trgm.word_similarity_threshold', '{word_similarity}', true)",
                       "set_config('max_parallel_workers_per_gather', '0', true)",  # one search, one core
                       "set_config('synchronize_seqscans', 'off', true)"]  # sequential reads start at block 0
        self.settings = {plan: ", ".join(self.common + [
            f"set_config('{name}', '{'off' if name in PLANS[plan] else 'on'}', true)" for name in PLAN_SETTINGS])
            for plan in PLANS}

    def run(self, plan: str, sql: str, params: dict[str, Any]) -> list[Any]:
        # `sort` reads a browse's matches by a sequential scan or a filter's index, whichever the filter's values
        # make cheaper (a category of 15 % of the listings: the scan), so it is planned for them every time.
        return run_prepared(self.conn, self.settings[plan], sql, params, generic=plan != "sort")


# The text queries, each evaluated once per statement (a scalar subquery): statements run with generic plans,
# which would otherwise make the query from its text again for every row (`queries.search.run_prepared`).
TSQUERY = "(SELECT to_tsquery('english', %(tsq)s))"
ANY_TSQUERY = "(SELECT to_tsquery('english', %(tsq_any)s))"
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
