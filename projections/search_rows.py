"""The search view's rows as one batch keeps them: read together, changed in memory, written once per table.

`projections/search_view.py` keeps every listing a batch touches as an
`Entry`: the few facts a search row is made from (the searched texts, the
profile fields the filters come from, status, week, times, categories) and
its counters. At `flush` new listings are inserted by one statement per table
(their text vectors made in it), changed ones updated by one statement per
table, and text vectors are remade only where the searched text or whether
the listing is searchable changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import orjson
from psycopg import Cursor

from projections import binary_arrays, bulk
from projections.base import Tables
from projections.listing_cards import PUBLIC_STATUSES, UPCOMING_STATUSES, fold, text_of, word_set
from projections.listing_rows import (  # the filters and counters both views write
    CATEGORIES,
    COUNTED,
    FILTERS,
    counter_sets,
    filters_of,
    kept,
    written_counters,
)

SEARCHABLE = PUBLIC_STATUSES + UPCOMING_STATUSES
SOURCE_FIELDS = ("name", "tagline", "keywords", "description", "stage", "country", "pricing_model", "website_url")
"""The profile fields a search row is made from: the searched texts and the filters' sources (SPEC §4.2)."""

Texts = tuple[bool, tuple[str, str, str]]  # searchable, and the searched texts (name, tagline and keywords, description)


@dataclass
class Entry:
    """One listing as the batch knows it, and what changed since its rows were last written."""

    listing_id: int
    stream_id: UUID
    state: dict[str, Any] | None  # profile sources, socials, status, week, times, categories; None until needed
    counters: dict[str, Any]
    written_texts: Texts | None = None  # what the row's vectors were made from (None: no vectors, or not known)
    texts: Texts | None = None  # what they are made from now (set by `changed`)
    new: bool = False  # no rows yet: inserted at `flush`
    content: bool = False  # the state changed: filters (and vectors, where `texts` moved) are rewritten
    source: bool = False  # the profile facts changed (an edit): `sources` is rewritten too (not for a status)
    counted: set[str] = field(default_factory=set)  # the counters that changed

    def changed(self, known: AbstractSet[str] = frozenset()) -> set[str]:
        """The state changed: the words to add to the vocabulary (those of a searchable listing whose text changed),
        but those in `known`.

        Taken from each state in turn, as if every change were written on
        its own, so the vocabulary does not depend on how events were batched.
        """
        state = self.state
        assert state is not None
        self.content = True
        before, self.texts = self.texts, texts_of(state)
        searchable, texts = self.texts
        return word_set(*texts, known=known) if searchable and self.texts != before else set()

    def written(self) -> None:
        """Its rows now hold what the entry holds."""
        self.written_texts, self.new, self.content, self.source, self.counted = self.texts, False, False, False, set()


def source_of(profile: dict[str, Any], socials: dict[str, Any] | None) -> dict[str, Any]:
    """The part of a listing's profile and socials a search row is made from."""
    return {"profile": {k: profile[k] for k in SOURCE_FIELDS if profile.get(k) is not None},
            "socials": {"website": (socials or {}).get("website")}}


def search_texts(state: dict[str, Any]) -> tuple[str, str, str]:
    """The searched texts: the name, tagline and keywords, the description."""
    p = state["profile"]
    return str(p.get("name") or ""), text_of(p.get("tagline")) + " " + text_of(p.get("keywords")), text_of(p.get("description"))


def texts_of(state: dict[str, Any]) -> Texts:
    return state["status"] in SEARCHABLE, search_texts(state)


def zero_counters() -> dict[str, Any]:
    return {"votes": 0, "followers": 0, "views": 0, "trend_log": None}


# ---------------------------------------------------------------- reading

READ = """SELECT s.listing_id, o.stream_id, CASE WHEN {want} THEN o.src END, s.status, s.week, s.listed_at,
                 s.launched_at, s.categories, s.votes, s.followers, s.views, s.trend_log
          FROM {sources} o JOIN {search} s USING (listing_id)"""


def read(cur: Cursor[Any], t: Tables, ids: Iterable[int], streams: Iterable[UUID], state_ids: Iterable[int],
         state_streams: Iterable[UUID]) -> list[Entry]:
    """The entries of listings `ids` and `streams` in one statement; the state only of those in `state_*`."""
    want = "o.listing_id = ANY(%(sid)s::int[]) OR o.stream_id = ANY(%(sst)s::uuid[])"
    found = cur.execute(
        READ.format(want=want, sources=t["sources"], search=t["search"])
        + " WHERE o.listing_id = ANY(%(id)s::int[]) OR o.stream_id = ANY(%(st)s::uuid[])",
        {"sid": list(state_ids), "sst": list(state_streams), "id": list(ids), "st": list(streams)},
    ).fetchall()
    return [_entry(r) for r in found]


def read_state(cur: Cursor[Any], t: Tables, entry: Entry) -> None:
    """Read the state of an entry read without it."""
    row = cur.execute(READ.format(want="true", sources=t["sources"], search=t["search"])
                      + " WHERE o.listing_id = %s", (entry.listing_id,)).fetchone()
    assert row is not None
    found = _entry(row)
    entry.state, entry.written_texts = found.state, found.written_texts
    entry.texts = entry.texts or found.texts


def _entry(r: tuple[Any, ...]) -> Entry:
    counters = {"votes": r[8], "followers": r[9], "views": r[10], "trend_log": r[11]}
    entry = Entry(int(r[0]), r[1], None, counters)
    if r[2] is not None:
        entry.state = orjson.loads(r[2]) | {"status": r[3], "week": r[4], "listed_at": _iso(r[5]),
                                            "launched_at": _iso(r[6]), "categories": list(r[7])}
        entry.written_texts = entry.texts = texts_of(entry.state)
    return entry


def _iso(at: Any) -> str | None:
    """A time as the handlers keep it (ISO text, as events' times are kept in the listing view's state)."""
    return at.isoformat() if at is not None else None


# ---------------------------------------------------------------- writing

SEARCH_COLUMNS = (("listing_id", "int"), ("content", "bool"), ("text", "bool"), *FILTERS, ("searchable", "bool"),
                  ("name", "text"), ("tk", "text"), ("description", "text"), ("name_lc", "text"), *COUNTED)
NEW_COLUMNS = (("listing_id", "int"), *FILTERS, *COUNTED, ("searchable", "bool"), ("name", "text"), ("tk", "text"),
               ("description", "text"), ("name_lc", "text"))
SOURCE_COLUMNS = (("listing_id", "int"), ("stream_id", "uuid"), ("src", "bytea"))
VOTE_COLUMNS = (("listing_id", "int"), ("account_id", "text"), ("x", "float8"))

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


def write(cur: Cursor[Any], t: Tables, entries: list[Entry], votes: list[tuple[int, str, float]],
          words: list[str]) -> None:
    """Write the batch's changed entries, new votes and new words: one statement per table."""
    if words:  # the vocabulary only grows (an insert that finds the word changes nothing); a rebuild trims it
        cur.execute(f"INSERT INTO {t['words']} (word) SELECT unnest(%b::text[]) ON CONFLICT DO NOTHING", (words,))
    bulk.insert(cur, t["votes"], VOTE_COLUMNS, votes, "ON CONFLICT DO NOTHING")
    new = [e for e in entries if e.new]
    if new:
        _insert(cur, t, new)
    old = [e for e in entries if not e.new]
    if old:
        _update(cur, t, old)


def _source(state: dict[str, Any]) -> bytes:
    data = bulk.dumps({"profile": state["profile"], "socials": state["socials"]})
    return data if isinstance(data, bytes) else data.encode()


def _texts(entry: Entry) -> Texts:
    if entry.texts is None:
        assert entry.state is not None
        entry.texts = texts_of(entry.state)
    return entry.texts


def _insert(cur: Cursor[Any], t: Tables, entries: list[Entry]) -> None:
    """New listings: their sources in one statement, their search rows (text vectors made in it) in another."""
    sources, rows = [], []
    for e in entries:
        state = e.state
        assert state is not None
        c = e.counters
        searchable, (name, tk, description) = _texts(e)
        sources.append((e.listing_id, e.stream_id, _source(state)))
        rows.append((e.listing_id, *filters_of(state, list(state["categories"])), c["votes"], c["followers"],
                     c["views"], c["trend_log"], searchable, name, tk, description, fold(name)))
    binary_arrays.insert(cur, t["sources"], SOURCE_COLUMNS, sources)
    vectors = VECTORS.replace(" AND v.text", "")  # every new row's text is new
    cur.execute(
        f"""WITH v AS MATERIALIZED (SELECT v.*, {vectors} FROM {bulk.unnested(NEW_COLUMNS)})
            INSERT INTO {t['search']} (listing_id, status, week, listed_at, launched_at, categories,
                stage, country, pricing, domain, name_lc, name_fts, head, fts, votes, followers, views, trend_log)
            SELECT listing_id, status, week, listed_at, launched_at, {CATEGORIES},
                stage, country, pricing, domain, name_lc, {NAME_FTS}, {HEAD}, {FTS}, votes, followers, views, trend_log
            FROM v""",
        binary_arrays.columns(cur, NEW_COLUMNS, rows),
    )


def _update(cur: Cursor[Any], t: Tables, entries: list[Entry]) -> None:
    """Entries written before: their sources where their state changed, their search rows in one statement."""
    sources, rows = [], []
    for e in entries:
        counted = written_counters(e.counters, e.counted)
        if not e.content:  # counters only
            rows.append((e.listing_id, False, False, *(None,) * len(FILTERS), None, None, None, None, None, *counted))
            continue
        state = e.state
        assert state is not None
        texts = _texts(e)
        searchable, (name, tk, description) = texts
        if e.source:
            sources.append((e.listing_id, _source(state)))
        rows.append((e.listing_id, True, texts != e.written_texts, *filters_of(state, bulk.jsonb(list(state["categories"]))),
                     searchable, name, tk, description, fold(name), *counted))
    if sources:
        cur.execute(f"UPDATE {t['sources']} o SET src = v.src FROM unnest(%s::int[], %s::bytea[]) AS v(listing_id, src) "
                    "WHERE o.listing_id = v.listing_id", bulk.params(sources, 2))
    content = ("status", "week", "listed_at", "launched_at", "stage", "country", "pricing", "domain")
    cur.execute(
        f"""WITH v AS MATERIALIZED (SELECT v.*, {VECTORS} FROM {bulk.unnested(SEARCH_COLUMNS)})
            UPDATE {t['search']} s SET {kept('s', content)},
                categories = CASE WHEN v.content THEN {CATEGORIES} ELSE s.categories END,
                name_lc = CASE WHEN v.text THEN v.name_lc ELSE s.name_lc END,
                name_fts = CASE WHEN v.text THEN {NAME_FTS} ELSE s.name_fts END,
                head = CASE WHEN v.text THEN {HEAD} ELSE s.head END,
                fts = CASE WHEN v.text THEN {FTS} ELSE s.fts END, {counter_sets('s')}
            FROM v WHERE s.listing_id = v.listing_id""",
        bulk.params(rows, len(SEARCH_COLUMNS)),
    )
