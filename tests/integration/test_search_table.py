"""The search table (`search_view`: what searches read) says what the listing view's listings table says.

Every fact arrives through the commands; once both views have caught up the
search rows must equal the listings rows column for column (filters,
counters, the trending log-sum) and carry the text of the current profile,
and a rebuild of either view must give the same rows again.
"""

from __future__ import annotations

from typing import Any

from commands import community
from commands import listing as listing_cmd
from projections.listing_cards import fold
from projections.search_tables import SEARCH_COLUMNS
from tests.integration.test_listing_view import META, make, sync

SHARED = [c for c in SEARCH_COLUMNS if c not in ("name_lc", "name_fts", "head", "fts")]
TEXT = ("name_lc", "name_fts::text", "head::text", "fts::text")


def _rows(c: Any) -> dict[int, dict[str, Any]]:
    """Every search row, by listing id, the text vectors as text."""
    t = c.runtime.tables("search_view")
    columns = SHARED + list(TEXT)
    with c.pool.connection() as conn:
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {t['search']} ORDER BY listing_id").fetchall()
    return {int(r[0]): dict(zip(columns, r, strict=True)) for r in rows}


def assert_consistent(c: Any) -> None:
    """Search rows match the listings rows and the profiles' current names and text, one row per listing."""
    sync(c)
    t, s = c.runtime.tables("listing_view"), c.runtime.tables("search_view")
    with c.pool.connection() as conn:
        listings = conn.execute(f"SELECT {', '.join(SHARED)} FROM {t['listings']} ORDER BY listing_id").fetchall()
        shared = conn.execute(f"SELECT {', '.join(SHARED)} FROM {s['search']} ORDER BY listing_id").fetchall()
        states = dict(conn.execute(f"SELECT listing_id, state FROM {t['profiles']}").fetchall())
        # What the text vectors of a searchable listing are made of (`search_rows.search_texts`, `FTS`).
        expected = dict(conn.execute(
            f"""SELECT p.listing_id, CASE WHEN p.status IN ('live', 'scheduled', 'awaiting_badge') THEN
                    strip(to_tsvector('english', coalesce(p.state->'profile'->>'name', '') || ' '
                        || coalesce(p.state->'profile'->>'tagline', '') || ' '
                        || coalesce((SELECT string_agg(k, ' ') FROM jsonb_array_elements_text(
                               coalesce(p.state->'profile'->'keywords', '[]')) k), '') || ' '
                        || coalesce(p.state->'profile'->>'description', '')))::text
                END FROM {t['profiles']} p""").fetchall())
    assert shared == listings and len(shared) == len(states)
    for listing_id, row in _rows(c).items():
        assert row["name_lc"] == fold(str(states[listing_id]["profile"].get("name") or ""))
        assert row["fts::text"] == expected[listing_id], listing_id


def test_search_rows_follow_votes_status_edits_and_a_rebuild(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = make(c, "Quillpad", description="Notes for writers", keywords=["writing"], stage="Beta", country="de",
             pricing_model="Freemium")
    b = make(c, "Tallyboard", description="Dashboards for shops")
    draft = make(c, "Hidden Draft", live=False)
    assert_consistent(c)

    for account in ("u1", "u2", "u3"):
        community.cast_vote(c.store, a.listing_id, account, META)
    community.cast_vote(c.store, b.listing_id, "u1", META)
    community.withdraw_vote(c.store, a.listing_id, "u2", META)
    community.follow(c.store, b.listing_id, "u1", META)
    community.follow(c.store, b.listing_id, "u2", META)
    community.follow(c.store, b.listing_id, "u1", META, on=False)
    community.count_views(c.store, {a.listing_id: 5, b.listing_id: 2}, META)
    assert_consistent(c)
    rows = _rows(c)
    assert (rows[a.listing_id]["votes"], rows[a.listing_id]["views"]) == (2, 5)
    assert rows[a.listing_id]["trend_log"] is not None
    assert (rows[b.listing_id]["votes"], rows[b.listing_id]["followers"]) == (1, 1)

    listing_cmd.edit_listing(c.store, a.listing_id, {"name": "Quillpad Pro", "tagline": "Write anywhere",
                                                    "stage": "Growth", "pricing_model": "Paid"}, META)
    listing_cmd.edit_listing(c.store, b.listing_id, {"categories": ["analytics"]}, META)
    assert_consistent(c)
    rows = _rows(c)
    assert rows[a.listing_id]["name_lc"] == "quillpad pro" and "anywher" in rows[a.listing_id]["head::text"]
    assert (rows[a.listing_id]["stage"], rows[a.listing_id]["pricing"]) == ("growth", "paid")
    assert rows[b.listing_id]["categories"] == ["analytics"]
    assert rows[draft.listing_id]["status"] == "draft" and rows[draft.listing_id]["fts::text"] is None

    listing_cmd.unpublish(c.store, b.listing_id, "spam", META)
    listing_cmd.staff_publish(c.store, draft.listing_id, META)
    assert_consistent(c)
    rows = _rows(c)
    assert rows[b.listing_id]["status"] == "unpublished" and rows[b.listing_id]["fts::text"] is None
    assert rows[draft.listing_id]["status"] == "live" and rows[draft.listing_id]["fts::text"]

    before = _rows(c)
    assert c.runtime.rebuild("search_view").generation == 2
    assert _rows(c) == before
    assert c.runtime.rebuild("listing_view").generation == 2
    assert_consistent(c)


def test_a_vote_withdrawn_and_a_listing_unpublished_leave_the_two_views_agreeing(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = make(c, "Withdrawn Votes", description="Counted in both views")
    for account in ("u1", "u2", "u3"):
        community.cast_vote(c.store, a.listing_id, account, META)
    community.withdraw_vote(c.store, a.listing_id, "u1", META)
    community.withdraw_vote(c.store, a.listing_id, "u1", META)  # a second withdrawal changes nothing
    assert_consistent(c)
    assert _rows(c)[a.listing_id]["votes"] == 2
    listing_cmd.edit_listing(c.store, a.listing_id, {"description": "Words of the new description"}, META)
    listing_cmd.unpublish(c.store, a.listing_id, "check", META)
    assert_consistent(c)
    assert _rows(c)[a.listing_id]["fts::text"] is None
    listing_cmd.staff_publish(c.store, a.listing_id, META)
    assert_consistent(c)
    assert "'descript'" in _rows(c)[a.listing_id]["fts::text"]


def test_a_rebuild_drops_the_search_tables_an_older_listing_view_generation_kept(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    make(c, "Older Generation", description="Its search rows were the listing view's")
    sync(c)
    t = c.runtime.tables("listing_view")
    old = [f"listing_view_g{t.generation}_search", f"listing_view_g{t.generation}_words"]
    with c.pool.connection() as conn:  # as a generation made before the search view has them
        for table in old:
            conn.execute(f"CREATE TABLE {table} (listing_id int PRIMARY KEY)")
    c.runtime.setup()  # a start leaves them alone (a server of the older release may still write them)
    assert c.runtime.rebuild("listing_view").generation == t.generation + 1
    with c.pool.connection() as conn:
        left = conn.execute("SELECT relname FROM pg_class WHERE relname LIKE 'listing\\_view\\_g%'").fetchall()
    assert not {table for table in old} & {r[0] for r in left}
    assert_consistent(c)
