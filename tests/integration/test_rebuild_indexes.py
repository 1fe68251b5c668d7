"""A rebuild fills its generation without GIN indexes (and a view's `deferred_btrees`) and makes them before the
switch, also when resumed; then it analyses the generation's tables, as a long catch-up from position 0 does."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from projections import deferred_indexes
from projections.deferred_indexes import DEFERRED
from projections.search_view import SearchView
from queries import listings as listings_q
from queries.search_postgres import PostgresSearch
from tests.integration.test_listing_view import AT, make


class Interrupted(Exception):
    """Stands for Ctrl-C or a crash in the middle of a rebuild."""


def _indexes(c: Any, generation: int, view: str = "listing_view") -> list[tuple[str, str]]:
    """(access method, definition without the generation's name) of every index of the view's generation."""
    tables = [t for t in c.runtime.projections[view].tables]
    names = [f"{view}_g{generation}_{t}" for t in tables]
    with c.pool.connection() as conn:
        rows = conn.execute(
            "SELECT a.amname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid "
            "JOIN pg_am a ON a.oid = x.relam WHERE i.indrelid = ANY(%s::regclass[])", (names,)).fetchall()
    return sorted((str(am), str(d).replace(f"_g{generation}_", "_gN_")) for am, d in rows)


def _deferrable(c: Any, indexes: list[tuple[str, str]], view: str) -> list[str]:
    """The definitions a catch-up from 0 builds at the end: GIN indexes, and the view's `deferred_btrees`' others."""
    tables = [f"{view}_gN_{t} " for t in c.runtime.projections[view].deferred_btrees]
    return [d for am, d in indexes if am == "gin" or (
        am == "btree" and not d.startswith("CREATE UNIQUE") and any(t in d for t in tables))]


def _analysed(c: Any, view: str, generation: int) -> dict[str, Any]:
    """Each table of the view's generation -> when it was last analysed by an ANALYZE statement (None: never)."""
    names = [f"{view}_g{generation}_{t}" for t in c.runtime.projections[view].tables]
    with c.pool.connection() as conn:
        rows = conn.execute("SELECT relname, last_analyze FROM pg_stat_user_tables WHERE relname = ANY(%s)",
                            (names,)).fetchall()
    return {str(name): at for name, at in rows}


def _deferred(c: Any) -> int:
    with c.pool.connection() as conn:
        return int(conn.execute(f"SELECT count(*) FROM {DEFERRED}").fetchone()[0])


# The GIN indexes of each view: categories and owners; full text, names' trigrams and words, name words, categories.
@pytest.mark.parametrize(("view", "gin"), [("listing_view", 2), ("search_view", 5)])
def test_a_rebuilt_generation_has_every_index_of_a_fresh_one(container: Any, view: str, gin: int) -> None:
    c = container
    c.runtime.catch_up(view)
    gen = c.runtime.generations[view]
    before = _indexes(c, gen, view)
    assert [am for am, _ in before].count("gin") >= gin
    seen: list[int] = []

    def stop_in_the_middle(position: int, _target: int) -> None:
        seen.append(position)
        building = max(s.generation for s in c.runtime.status() if s.name == view)
        assert not _deferrable(c, _indexes(c, building, view), view)  # filled without them
        assert _deferred(c) == len(_deferrable(c, before, view))
        raise Interrupted

    with pytest.raises(Interrupted):
        c.runtime.rebuild(view, progress=stop_in_the_middle)
    assert seen
    status = c.runtime.rebuild(view)  # resumed: the kept definitions still make the indexes
    assert status.generation == gen + 1 and c.runtime.generations[view] == gen + 1
    assert _indexes(c, gen + 1, view) == before
    assert _deferred(c) == 0
    analysed = _analysed(c, view, gen + 1)  # the planner's statistics made before it served
    assert len(analysed) == len(c.runtime.projections[view].tables) and None not in analysed.values(), analysed


def test_a_long_catch_up_from_position_0_fills_without_gin_indexes_and_ends_with_all_of_them(
        container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    c = container
    for n in range(3):
        make(c, f"Deferred Index {n}", description="Counts visits without cookies")
    c.runtime.catch_up("listing_view")  # the cards a search shows
    gen = c.runtime.generations["search_view"]
    fresh = _indexes(c, gen, "search_view")  # as the generation was created, before any event
    deferrable = _deferrable(c, fresh, "search_view")
    assert [am for am, _ in fresh].count("gin") >= 5
    assert sum(" USING btree " in d for d in deferrable) == 8  # the sort orders', the week's, the domain's, the words' prefixes
    assert any(d.startswith("CREATE UNIQUE") for _, d in fresh)  # what handlers read by stays
    seen: list[int] = []

    def in_the_middle(position: int, _target: int) -> None:
        seen.append(position)
        now = _indexes(c, gen, "search_view")
        assert not _deferrable(c, now, "search_view")  # filled without them
        assert [d for _, d in now] == [d for _, d in fresh if d not in deferrable]  # and with every other
        assert _deferred(c) == len(deferrable)
        assert not gc.isenabled()  # a long catch-up runs without the cyclic collector (`projections/collector.py`)

    assert set(_analysed(c, "search_view", gen).values()) == {None}  # new tables: no statistics yet
    c.runtime.long_catch_up = 1  # this short log counts as long
    monkeypatch.setattr(SearchView, "catch_up_batch", 2)
    c.runtime.catch_up("search_view", progress=in_the_middle)
    assert len(seen) > 1
    assert _indexes(c, gen, "search_view") == fresh and _deferred(c) == 0
    analysed = _analysed(c, "search_view", gen)  # the filled tables analysed at the end, for the planner
    assert len(analysed) == len(SearchView.tables) and None not in analysed.values(), analysed
    with c.pool.connection() as conn:  # the statuses' shares are known: the plans of every search turn on them
        shares = conn.execute("SELECT most_common_vals::text FROM pg_stats WHERE tablename = %s AND attname = 'status'",
                              (f"search_view_g{gen}_search",)).fetchone()
    assert shares is not None and "live" in shares[0]
    assert gc.isenabled()
    reads = c.services.reads
    found = listings_q.search_listings(reads, PostgresSearch(reads), listings_q.SearchListings(q="cookies"), AT.date())
    assert sorted(i["slug"] for i in found["items"]) == [f"deferred-index-{n}" for n in range(3)]

    make(c, "Deferred Index Later")  # a catch-up that does not start at position 0 keeps its indexes
    c.runtime.catch_up("search_view")
    assert _indexes(c, gen, "search_view") == fresh and _deferred(c) == 0
    assert _analysed(c, "search_view", gen) == analysed  # and leaves the statistics to autovacuum


def test_indexes_a_long_catch_up_left_deferred_are_built_on_the_next_start(container: Any) -> None:
    c = container
    gen = c.runtime.generations["listing_view"]
    fresh = _indexes(c, gen)
    with c.pool.connection() as conn, conn.transaction():  # what a process that died in a long catch-up leaves
        assert deferred_indexes.defer(conn, "listing_view", c.runtime.tables("listing_view")) > 0
    assert all(am != "gin" for am, _ in _indexes(c, gen))
    c.runtime.setup()  # the next start
    assert _indexes(c, gen) == fresh and _deferred(c) == 0


def test_a_log_never_analysed_is_analysed_once(container: Any) -> None:
    events = container.runtime.events

    def reltuples() -> float:
        with container.pool.connection() as conn:
            row = conn.execute("SELECT reltuples FROM pg_class WHERE relname = 'launchdir_events'").fetchone()
        return float(row[0])

    if reltuples() >= 0:  # autovacuum got there first: make it look never analysed again, as a fresh copy is
        with container.pool.connection() as conn:
            conn.execute("UPDATE pg_class SET reltuples = -1 WHERE relname = 'launchdir_events'")
    assert events.analyse_if_never_analysed() is True
    assert reltuples() >= 0
    assert events.analyse_if_never_analysed() is False
