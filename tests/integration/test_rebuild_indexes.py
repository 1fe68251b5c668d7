"""A rebuild fills its generation without GIN indexes and makes them before the switch, also when resumed."""

from __future__ import annotations

from typing import Any

import pytest

from projections.deferred_indexes import DEFERRED


class Interrupted(Exception):
    """Stands for Ctrl-C or a crash in the middle of a rebuild."""


def _indexes(c: Any, generation: int) -> list[tuple[str, str]]:
    """(access method, definition without the generation's name) of every index of listing_view's generation."""
    tables = [t for t in c.runtime.projections["listing_view"].tables]
    names = [f"listing_view_g{generation}_{t}" for t in tables]
    with c.pool.connection() as conn:
        rows = conn.execute(
            "SELECT a.amname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid "
            "JOIN pg_am a ON a.oid = x.relam WHERE i.indrelid = ANY(%s::regclass[])", (names,)).fetchall()
    return sorted((str(am), str(d).replace(f"_g{generation}_", "_gN_")) for am, d in rows)


def _deferred(c: Any) -> int:
    with c.pool.connection() as conn:
        return int(conn.execute(f"SELECT count(*) FROM {DEFERRED}").fetchone()[0])


def test_a_rebuilt_generation_has_every_index_of_a_fresh_one(container: Any) -> None:
    c = container
    c.runtime.catch_up("listing_view")
    gen = c.runtime.generations["listing_view"]
    before = _indexes(c, gen)
    assert [am for am, _ in before].count("gin") >= 4  # full text, trigram, categories, owners, words
    seen: list[int] = []

    def stop_in_the_middle(position: int, _target: int) -> None:
        seen.append(position)
        building = max(s.generation for s in c.runtime.status() if s.name == "listing_view")
        assert all(am != "gin" for am, _ in _indexes(c, building))  # filled without them
        assert _deferred(c) == [am for am, _ in before].count("gin")
        raise Interrupted

    with pytest.raises(Interrupted):
        c.runtime.rebuild("listing_view", progress=stop_in_the_middle)
    assert seen
    status = c.runtime.rebuild("listing_view")  # resumed: the kept definitions still make the indexes
    assert status.generation == gen + 1 and c.runtime.generations["listing_view"] == gen + 1
    assert _indexes(c, gen + 1) == before
    assert _deferred(c) == 0
