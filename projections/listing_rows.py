"""The listing view's rows as one batch keeps them: read together, changed in memory, written once per table.

`projections/listing_view.py` keeps every listing a batch touches as a `Row`
(its private state and counters) and writes the batch's rows at `flush`:
one statement for `profiles`, one for `listings` and one for `votes`
(`projections/bulk.py`). The search rows are the search view's
(`projections/search_rows.py`), which takes its filters from here. A row whose state changed gets its document, card
and filter columns rewritten; a row whose counters alone changed gets only
its counter columns and the counters of its document patched, as a counter
event did before, so a document is never rebuilt by a vote.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from psycopg import Cursor

from projections import binary_arrays, bulk
from projections import listing_docs as docs
from projections.base import Tables
from projections.listing_cards import PUBLIC_STATUSES, domain_of, key_of, website_of

COUNTERS = ("votes", "followers", "views", "trend_log", "rating_avg", "rating_count")
PATCHED = ("votes", "followers", "views")
"""Counters kept in memory and written at `flush` (a vote's trending sum goes with `votes`); the rating is
recounted in SQL (`projections/review_tally.py`)."""


@dataclass
class Row:
    """One listing as the batch knows it, and what changed since its rows were last written."""

    listing_id: int
    stream_id: UUID
    state: dict[str, Any] | None  # None until a handler needs it (counter events need only the counters)
    counters: dict[str, Any]
    new: bool = False  # no rows yet: inserted at `flush`
    content: bool = False  # the state changed: document, card and filter columns are rewritten
    counted: set[str] = field(default_factory=set)  # the `PATCHED` counters that changed

    def changed(self) -> None:
        """The state changed: its document, card and filter columns are rewritten at `flush`."""
        self.content = True

    @property
    def dirty(self) -> bool:
        return self.new or self.content or bool(self.counted)

    def written(self) -> None:
        """Its rows now hold what the row holds."""
        self.new, self.content, self.counted = False, False, set()


def zero_counters() -> dict[str, Any]:
    return {"votes": 0, "followers": 0, "views": 0, "trend_log": None, "rating_avg": None, "rating_count": 0}


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

def read(cur: Cursor[Any], t: Tables, ids: Iterable[int], streams: Iterable[UUID], state_ids: Iterable[int],
         state_streams: Iterable[UUID]) -> list[Row]:
    """The rows of listings `ids` and `streams` in one statement; the state only of those in `state_*`."""
    rows = cur.execute(
        f"""SELECT p.listing_id, p.stream_id,
                   CASE WHEN p.listing_id = ANY(%(sid)s::int[]) OR p.stream_id = ANY(%(sst)s::uuid[]) THEN p.state END,
                   l.votes, l.followers, l.views, l.trend_log, l.rating_avg, l.rating_count
            FROM {t['profiles']} p JOIN {t['listings']} l USING (listing_id)
            WHERE p.listing_id = ANY(%(id)s::int[]) OR p.stream_id = ANY(%(st)s::uuid[])""",
        {"sid": list(state_ids), "sst": list(state_streams), "id": list(ids), "st": list(streams)},
    ).fetchall()
    return [Row(int(r[0]), r[1], r[2], dict(zip(COUNTERS, r[3:9], strict=True))) for r in rows]


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
# Filter columns both the listings and the search rows carry (`projections/search_rows.py`) (`categories` goes as JSON: arrays cannot nest).
FILTERS = (("status", "text"), ("week", "text"), ("listed_at", "timestamptz"), ("launched_at", "timestamptz"),
           ("cats", "jsonb"), ("stage", "text"), ("country", "text"), ("pricing", "text"), ("domain", "text"))
COUNTED = (("votes", "int"), ("followers", "int"), ("views", "bigint"), ("trend_log", "float8"))
LISTING_COLUMNS = (("listing_id", "int"), ("content", "bool"), *FILTERS, ("plan", "text"),
                   ("primary_category", "text"), ("card", "jsonb"), *COUNTED)
# A new listing's rows: its profile, and its listings row.
NEW_PROFILE_COLUMNS = (("listing_id", "int"), ("stream_id", "uuid"), ("slug", "text"), ("status", "text"),
                       ("state", "jsonb"), ("doc", "jsonb"))
NEW_COLUMNS = (("listing_id", "int"), ("slug", "text"), *FILTERS, ("plan", "text"), ("primary_category", "text"),
               ("card", "jsonb"), *COUNTED)
VOTE_COLUMNS = (("listing_id", "int"), ("account_id", "text"), ("x", "float8"))


def write(cur: Cursor[Any], t: Tables, rows: list[Row], names: dict[str, str], votes: list[tuple[int, str, float]]) -> None:
    """Write the batch's changed rows and new votes: one statement per table.

    New listings (most of a catch-up) are inserted by two statements of their
    own, with only the columns an insert needs (`_insert`); listings written
    before are updated by one statement per table, sent only when there are any.
    """
    bulk.insert(cur, t["votes"], VOTE_COLUMNS, votes, "ON CONFLICT DO NOTHING")
    new = [row for row in rows if row.new]
    if new:
        _insert(cur, t, new, names)
    rows = [row for row in rows if not row.new]
    if not rows:
        return
    profiles, listings = [], []
    for row in rows:
        p, lst = _values(row, names)
        profiles.append(p)
        listings.append(lst)
    _write_profiles(cur, t, profiles)
    _write_listings(cur, t, listings)


def filters_of(state: dict[str, Any], categories: Any) -> tuple[Any, ...]:
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


def _insert(cur: Cursor[Any], t: Tables, rows: list[Row], names: dict[str, str]) -> None:
    """New listings: their profiles in one statement, their listings rows in another."""
    profiles, entries = [], []
    for row in rows:
        state = row.state
        assert state is not None
        c = row.counters
        categories = state["categories"]
        profiles.append((row.listing_id, row.stream_id, state["slug"], state["status"], state, _document(row, names)))
        entries.append((row.listing_id, state["slug"], *filters_of(state, list(categories)), state["plan"],
                        categories[0] if categories else None, docs.summary_card(state, names),
                        c["votes"], c["followers"], c["views"], c["trend_log"]))
    binary_arrays.insert(cur, t["profiles"], NEW_PROFILE_COLUMNS, profiles)
    cur.execute(
        f"""INSERT INTO {t['listings']} (listing_id, slug, status, week, plan, listed_at, launched_at, categories,
                primary_category, stage, country, pricing, domain, card, votes, followers, views, trend_log)
            SELECT listing_id, slug, status, week, plan, listed_at, launched_at, {CATEGORIES},
                primary_category, stage, country, pricing, domain, card, votes, followers, views, trend_log
            FROM {bulk.unnested(NEW_COLUMNS)}""",
        binary_arrays.columns(cur, NEW_COLUMNS, entries),
    )


def written_counters(counters: dict[str, Any], counted: set[str]) -> tuple[Any, ...]:
    """The `COUNTED` values to write: those that changed, None for the others (the trending sum goes with `votes`)."""
    return tuple(counters[name] if ("votes" if name == "trend_log" else name) in counted else None
                 for name, _ in COUNTED)


def _values(row: Row, names: dict[str, str]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A written row's values for the two update statements (None where a column keeps what the table has)."""
    counted = written_counters(row.counters, row.counted)
    if not row.content:  # counters only
        none9 = (None,) * len(FILTERS)
        return ((row.listing_id, None, None, None, *counted[:3]),
                (row.listing_id, False, *none9, None, None, None, *counted))
    state = row.state
    assert state is not None
    categories = state["categories"]
    filters = filters_of(state, bulk.jsonb(list(categories)))
    return ((row.listing_id, bulk.jsonb(state), bulk.jsonb(_document(row, names)), state["status"], None, None, None),
            (row.listing_id, True, *filters, state["plan"], categories[0] if categories else None,
             bulk.jsonb(docs.summary_card(state, names)), *counted))


def kept(table: str, columns: Iterable[str], flag: str = "content") -> str:
    """`SET` items taking the batch's value when `v.<flag>`, else keeping the table's."""
    return ", ".join(f"{c} = CASE WHEN v.{flag} THEN v.{c} ELSE {table}.{c} END" for c in columns)


def counter_sets(table: str) -> str:
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
        f"""UPDATE {t['listings']} l SET {kept('l', content)},
                categories = CASE WHEN v.content THEN {CATEGORIES} ELSE l.categories END, {counter_sets('l')}
            FROM {bulk.unnested(LISTING_COLUMNS)} WHERE l.listing_id = v.listing_id""",
        bulk.params(rows, len(LISTING_COLUMNS)),
    )
