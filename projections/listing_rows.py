"""The listing view's rows as one batch keeps them: read together, changed in memory, written once per table.

`projections/listing_view.py` keeps every listing a batch touches as a `Row`
(its private state and counters) and writes the batch's rows at `flush`:
one statement for `profiles`, one for `listings`, one for `search` (text
vectors computed in it), one for `votes` and one for `words`
(`projections/bulk.py`). A row whose state changed gets its document, card
and filter columns rewritten; a row whose counters alone changed gets only
its counter columns and the counters of its document patched, as a counter
event did before, so a document is never rebuilt by a vote.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from psycopg import Cursor

from projections import binary_arrays, bulk
from projections import listing_docs as docs
from projections.base import Tables
from projections.listing_cards import (
    PUBLIC_STATUSES,
    UPCOMING_STATUSES,
    domain_of,
    fold,
    key_of,
    text_of,
    website_of,
    words_of,
)

SEARCHABLE = PUBLIC_STATUSES + UPCOMING_STATUSES
COUNTERS = ("votes", "followers", "views", "trend_log", "rating_avg", "rating_count")
PATCHED = ("votes", "followers", "views")
"""Counters kept in memory and written at `flush` (a vote's trending sum goes with `votes`); the rating is
recounted in SQL (`projections/review_tally.py`)."""


@dataclass
class Row:
    """One listing as the batch knows it, and what changed since its rows were last written."""

    listing_id: int
    stream_id: str
    state: dict[str, Any] | None  # None until a handler needs it (counter events need only the counters)
    counters: dict[str, Any]
    written_key: str | None  # the text key in the tables (None: no row yet)
    key: str | None = None  # the text key of `state` as it is now (None: to be computed, see `changed`)
    texts: tuple[str, str, str] | None = None  # the searched texts of `state`, when computed
    new: bool = False  # no rows yet: inserted at `flush`
    content: bool = False  # the state changed: document, card and filter columns are rewritten
    counted: set[str] = field(default_factory=set)  # the `PATCHED` counters that changed

    def __post_init__(self) -> None:
        if self.key is None:
            self.key = self.written_key

    def changed(self) -> list[str]:
        """The state changed: the words to add to the vocabulary (those of a searchable listing whose text changed).

        The text key is computed here only for a searchable state (its words
        are taken from each state in turn, as when every change was written);
        for any other, at `flush`, from the last state.
        """
        state = self.state
        assert state is not None
        self.content = True
        if state["status"] not in SEARCHABLE:
            self.key = self.texts = None
            return []
        texts = search_texts(state)
        key = _digest(True, texts)
        found = key != self.key
        self.key, self.texts = key, texts
        return words_of(*texts) if found else []

    @property
    def dirty(self) -> bool:
        return self.new or self.content or bool(self.counted)

    def written(self) -> None:
        """Its rows now hold what the row holds."""
        self.written_key, self.new, self.content, self.counted = self.key, False, False, set()


def zero_counters() -> dict[str, Any]:
    return {"votes": 0, "followers": 0, "views": 0, "trend_log": None, "rating_avg": None, "rating_count": 0}


def text_key(state: dict[str, Any]) -> str:
    """A digest of what the text vectors are made of (they are recomputed only when it changes)."""
    return _digest(state["status"] in SEARCHABLE, search_texts(state))


def _digest(searchable: bool, texts: tuple[str, str, str]) -> str:
    name, tk, description = texts
    return hashlib.blake2b(repr((searchable, name, tk, description)).encode(), digest_size=12).hexdigest()


def search_texts(state: dict[str, Any]) -> tuple[str, str, str]:
    """The searched texts: the name, tagline and keywords, the description."""
    p = state["profile"]
    return str(p.get("name") or ""), text_of(p.get("tagline")) + " " + text_of(p.get("keywords")), text_of(p.get("description"))


def folded_vote(trend_log: float | None, x: float) -> float:
    """The trending log-sum with one more vote of exponent `x`: log2(2 ** trend_log + 2 ** x).

    The same float operations, in the same order, as the SQL statement that
    folded each vote before the batch kept them (PostgreSQL's `ln` and `power`
    are the C library's `log` and `pow`, as `math`'s are), so the sums are
    equal to the bit; `tests/integration/test_listing_view_batching.py` compares the two.
    """
    if trend_log is None:
        return x
    return max(trend_log, x) + math.log(1 + math.pow(2.0, max(-1000.0, -abs(trend_log - x)))) / math.log(2)


# ---------------------------------------------------------------- reading

def read(cur: Cursor[Any], t: Tables, ids: Iterable[int], streams: Iterable[str], state_ids: Iterable[int],
         state_streams: Iterable[str]) -> list[Row]:
    """The rows of listings `ids` and `streams` in one statement; the state only of those in `state_*`."""
    rows = cur.execute(
        f"""SELECT p.listing_id, p.stream_id::text,
                   CASE WHEN p.listing_id = ANY(%(sid)s::int[]) OR p.stream_id = ANY(%(sst)s::uuid[]) THEN p.state END,
                   l.votes, l.followers, l.views, l.trend_log, l.rating_avg, l.rating_count, l.text_key
            FROM {t['profiles']} p JOIN {t['listings']} l USING (listing_id)
            WHERE p.listing_id = ANY(%(id)s::int[]) OR p.stream_id = ANY(%(st)s::uuid[])""",
        {"sid": list(state_ids), "sst": list(state_streams), "id": list(ids), "st": list(streams)},
    ).fetchall()
    return [Row(int(r[0]), str(r[1]), r[2], dict(zip(COUNTERS, r[3:9], strict=True)), r[9]) for r in rows]


def read_state(cur: Cursor[Any], t: Tables, listing_id: int) -> dict[str, Any]:
    row = cur.execute(f"SELECT state FROM {t['profiles']} WHERE listing_id = %s", (listing_id,)).fetchone()
    assert row is not None
    state: dict[str, Any] = row[0]
    return state


def voted(cur: Cursor[Any], t: Tables, pairs: list[tuple[int, str]]) -> set[tuple[int, str]]:
    """Which (listing id, account id) pairs have a vote counted."""
    if not pairs:
        return set()
    found = cur.execute(
        f"SELECT listing_id, account_id FROM {t['votes']} WHERE (listing_id, account_id) IN "
        "(SELECT * FROM unnest(%s::int[], %s::text[]))",
        ([p[0] for p in pairs], [p[1] for p in pairs]),
    ).fetchall()
    return {(int(r[0]), str(r[1])) for r in found}


# ---------------------------------------------------------------- writing

PROFILE_COLUMNS = (("listing_id", "int"), ("state", "jsonb"), ("doc", "jsonb"), ("status", "text"), ("votes", "int"),
                   ("followers", "int"), ("views", "bigint"))
# Filter columns both the listings and the search rows carry (`categories` goes as JSON: arrays cannot nest).
FILTERS = (("status", "text"), ("week", "text"), ("listed_at", "timestamptz"), ("launched_at", "timestamptz"),
           ("cats", "jsonb"), ("stage", "text"), ("country", "text"), ("pricing", "text"), ("domain", "text"))
COUNTED = (("votes", "int"), ("followers", "int"), ("views", "bigint"), ("trend_log", "float8"))
LISTING_COLUMNS = (("listing_id", "int"), ("content", "bool"), ("text", "bool"), *FILTERS, ("plan", "text"),
                   ("primary_category", "text"), ("card", "jsonb"), ("text_key", "text"), *COUNTED)
SEARCH_COLUMNS = (("listing_id", "int"), ("content", "bool"), ("text", "bool"), *FILTERS, ("searchable", "bool"),
                  ("name", "text"), ("tk", "text"), ("description", "text"), ("name_lc", "text"), *COUNTED)
# A new listing's rows: its profile, and one row of values for both its listings and its search row.
NEW_PROFILE_COLUMNS = (("listing_id", "int"), ("stream_id", "uuid"), ("slug", "text"), ("status", "text"),
                       ("state", "jsonb"), ("doc", "jsonb"))
NEW_COLUMNS = (("listing_id", "int"), ("slug", "text"), *FILTERS, ("plan", "text"), ("primary_category", "text"),
               ("card", "jsonb"), ("text_key", "text"), *COUNTED, ("searchable", "bool"), ("name", "text"),
               ("tk", "text"), ("description", "text"), ("name_lc", "text"))
VOTE_COLUMNS = (("listing_id", "int"), ("account_id", "text"), ("x", "float8"))


def write(cur: Cursor[Any], t: Tables, rows: list[Row], names: dict[str, str], votes: list[tuple[int, str, float]],
          words: list[str]) -> None:
    """Write the batch's changed rows, new votes and new words: one statement per table.

    New listings (most of a catch-up) are inserted by two statements of their
    own, with only the columns an insert needs (`_insert`); listings written
    before are updated by one statement per table, sent only when there are any.
    """
    if words:  # the vocabulary only grows (an insert that finds the word changes nothing); a rebuild trims it
        cur.execute(f"INSERT INTO {t['words']} (word) SELECT unnest(%b::text[]) ON CONFLICT DO NOTHING", (words,))
    bulk.insert(cur, t["votes"], VOTE_COLUMNS, votes, "ON CONFLICT DO NOTHING")
    new = [row for row in rows if row.new]
    if new:
        _insert(cur, t, new, names)
    rows = [row for row in rows if not row.new]
    if not rows:
        return
    profiles, listings, search = [], [], []
    for row in rows:
        p, lst, s = _values(row, names)
        profiles.append(p)
        listings.append(lst)
        search.append(s)
    _write_profiles(cur, t, profiles)
    _write_listings(cur, t, listings)
    _write_search(cur, t, search)


def _filters(state: dict[str, Any], categories: Any) -> tuple[Any, ...]:
    """The `FILTERS` values of a state (`categories`: its categories as the statement takes them)."""
    p = state["profile"]
    country = str(p.get("country") or "").strip().upper()
    return (state["status"], state["week"], state["listed_at"], state["launched_at"], categories,
            key_of(p.get("stage")), country if len(country) == 2 and country.isalpha() else None,
            key_of(p.get("pricing_model")), domain_of(website_of(p, state["socials"])))


def _document(row: Row, names: dict[str, str]) -> dict[str, Any]:
    """The public document: only live listings are public, other statuses keep an empty one (rebuilt when they go live)."""
    state = row.state
    assert state is not None
    return docs.public_doc(state, row.counters, names) if state["status"] in PUBLIC_STATUSES else {}


def _texts(row: Row) -> tuple[bool, tuple[str, str, str]]:
    """Whether the row is searchable, and its searched texts (its text key set from them)."""
    state = row.state
    assert state is not None
    searchable = state["status"] in SEARCHABLE
    texts = row.texts or search_texts(state)
    row.key = row.key or _digest(searchable, texts)
    return searchable, texts


def _insert(cur: Cursor[Any], t: Tables, rows: list[Row], names: dict[str, str]) -> None:
    """New listings: their profiles in one statement, their listings and search rows in another (text vectors in it)."""
    profiles, entries = [], []
    for row in rows:
        state = row.state
        assert state is not None
        c = row.counters
        categories = state["categories"]
        searchable, (name, tk, description) = _texts(row)
        profiles.append((row.listing_id, row.stream_id, state["slug"], state["status"], state, _document(row, names)))
        entries.append((row.listing_id, state["slug"], *_filters(state, list(categories)), state["plan"],
                        categories[0] if categories else None, docs.summary_card(state, names), row.key,
                        c["votes"], c["followers"], c["views"], c["trend_log"], searchable, name, tk, description,
                        fold(name)))
    binary_arrays.insert(cur, t["profiles"], NEW_PROFILE_COLUMNS, profiles)
    vectors = VECTORS.replace(" AND v.text", "")  # every new row's text is new
    cur.execute(
        f"""WITH v AS MATERIALIZED (SELECT v.*, {vectors} FROM {bulk.unnested(NEW_COLUMNS)}),
                 l AS (INSERT INTO {t['listings']} (listing_id, slug, status, week, plan, listed_at, launched_at,
                           categories, primary_category, stage, country, pricing, domain, card, text_key,
                           votes, followers, views, trend_log)
                       SELECT listing_id, slug, status, week, plan, listed_at, launched_at, {CATEGORIES},
                           primary_category, stage, country, pricing, domain, card, text_key,
                           votes, followers, views, trend_log FROM v)
            INSERT INTO {t['search']} (listing_id, status, week, listed_at, launched_at, categories,
                stage, country, pricing, domain, name_lc, name_fts, head, fts, votes, followers, views, trend_log)
            SELECT listing_id, status, week, listed_at, launched_at, {CATEGORIES},
                stage, country, pricing, domain, name_lc, {NAME_FTS}, {HEAD}, {FTS}, votes, followers, views, trend_log
            FROM v""",
        binary_arrays.columns(cur, NEW_COLUMNS, entries),
    )


def _values(row: Row, names: dict[str, str]) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
    """A written row's values for the three update statements (None where a column keeps what the table has)."""
    c = row.counters
    counted = tuple(c[name] if ("votes" if name == "trend_log" else name) in row.counted else None
                    for name, _ in COUNTED)
    if not row.content:  # counters only
        none9 = (None,) * len(FILTERS)
        return ((row.listing_id, None, None, None, *counted[:3]),
                (row.listing_id, False, False, *none9, None, None, None, None, *counted),
                (row.listing_id, False, False, *none9, None, None, None, None, None, *counted))
    state = row.state
    assert state is not None
    categories = state["categories"]
    filters = _filters(state, bulk.jsonb(list(categories)))
    searchable, (name, tk, description) = _texts(row)
    text = row.key != row.written_key
    return ((row.listing_id, bulk.jsonb(state), bulk.jsonb(_document(row, names)), state["status"], None, None, None),
            (row.listing_id, True, text, *filters, state["plan"], categories[0] if categories else None,
             bulk.jsonb(docs.summary_card(state, names)), row.key, *counted),
            (row.listing_id, True, text, *filters, searchable, name, tk, description, fold(name), *counted))


def _kept(table: str, columns: Iterable[str], flag: str = "content") -> str:
    """`SET` items taking the batch's value when `v.<flag>`, else keeping the table's."""
    return ", ".join(f"{c} = CASE WHEN v.{flag} THEN v.{c} ELSE {table}.{c} END" for c in columns)


def _counters(table: str) -> str:
    """`SET` items for the counters: the batch's value where it has one (the trending sum goes with the votes)."""
    return (f"votes = coalesce(v.votes, {table}.votes), followers = coalesce(v.followers, {table}.followers), "
            f"views = coalesce(v.views, {table}.views), "
            f"trend_log = CASE WHEN v.votes IS NULL THEN {table}.trend_log ELSE v.trend_log END")


CATEGORIES = "ARRAY(SELECT jsonb_array_elements_text(v.cats))"


def _write_profiles(cur: Cursor[Any], t: Tables, rows: list[tuple[Any, ...]]) -> None:
    """A changed state rewrites state, document and status; counters alone patch the document."""
    doc = "p.doc"
    for counter in PATCHED:  # as a counter event patched it: a document without a community section stays as it is
        doc = (f"CASE WHEN v.{counter} IS NULL THEN {doc} "
               f"ELSE jsonb_set({doc}, '{{community,{counter}}}', to_jsonb(v.{counter})) END")
    cur.execute(
        f"""UPDATE {t['profiles']} p SET state = coalesce(v.state, p.state), status = coalesce(v.status, p.status),
                doc = coalesce(v.doc, {doc})
            FROM {bulk.unnested(PROFILE_COLUMNS)} WHERE p.listing_id = v.listing_id""",
        bulk.params(rows, len(PROFILE_COLUMNS)),
    )


def _write_listings(cur: Cursor[Any], t: Tables, rows: list[tuple[Any, ...]]) -> None:
    content = ("status", "week", "plan", "listed_at", "launched_at", "primary_category", "stage", "country", "pricing",
               "domain", "card")
    cur.execute(
        f"""UPDATE {t['listings']} l SET {_kept('l', content)},
                categories = CASE WHEN v.content THEN {CATEGORIES} ELSE l.categories END,
                text_key = CASE WHEN v.text THEN v.text_key ELSE l.text_key END, {_counters('l')}
            FROM {bulk.unnested(LISTING_COLUMNS)} WHERE l.listing_id = v.listing_id""",
        bulk.params(rows, len(LISTING_COLUMNS)),
    )


# The text vectors, as the search statements read them (docs/search.md), each text's vector made once: `name_fts`
# the name's, `head` the name's and the tagline's and keywords', weighted, `fts` all three without positions
# (only matched, `@@` without weights or phrases, never ranked: a quarter smaller). None but for a searchable listing.
# The statements keep their `v` materialized, so each vector is computed once however often it is referenced.
VECTORS = """CASE WHEN v.searchable AND v.text THEN to_tsvector('english', v.name) END AS name_v,
             CASE WHEN v.searchable AND v.text THEN to_tsvector('english', v.tk) END AS tk_v,
             CASE WHEN v.searchable AND v.text THEN to_tsvector('english', v.description) END AS description_v"""
NAME_FTS = "v.name_v"
HEAD = "setweight(v.name_v, 'A') || setweight(v.tk_v, 'B')"
FTS = "strip(v.name_v || v.tk_v || v.description_v)"


def _write_search(cur: Cursor[Any], t: Tables, rows: list[tuple[Any, ...]]) -> None:
    """The search rows (`listing_tables.SEARCH_COLUMNS`): text vectors computed here, only where the text changed."""
    content = ("status", "week", "listed_at", "launched_at", "stage", "country", "pricing", "domain")
    cur.execute(
        f"""WITH v AS MATERIALIZED (SELECT v.*, {VECTORS} FROM {bulk.unnested(SEARCH_COLUMNS)})
            UPDATE {t['search']} s SET {_kept('s', content)},
                categories = CASE WHEN v.content THEN {CATEGORIES} ELSE s.categories END,
                name_lc = CASE WHEN v.text THEN v.name_lc ELSE s.name_lc END,
                name_fts = CASE WHEN v.text THEN {NAME_FTS} ELSE s.name_fts END,
                head = CASE WHEN v.text THEN {HEAD} ELSE s.head END,
                fts = CASE WHEN v.text THEN {FTS} ELSE s.fts END, {_counters('s')}
            FROM v WHERE s.listing_id = v.listing_id""",
        bulk.params(rows, len(SEARCH_COLUMNS)),
    )
