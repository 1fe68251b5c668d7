"""The search table (`listing_view`'s narrow copy of what searches read) says what the listings table says.

Every fact arrives through the commands; after each step the search rows must
equal the listings rows column for column (filters, counters, the trending
log-sum) and carry the text of the current profile, and a rebuild, or a start
on a generation older than the table, must give the same rows again.
"""

from __future__ import annotations

from typing import Any

from commands import community
from commands import listing as listing_cmd
from projections.listing_cards import fold
from projections.listing_tables import SEARCH_COLUMNS
from tests.integration.test_listing_view import META, make, sync

SHARED = [c for c in SEARCH_COLUMNS if c not in ("name_lc", "name_fts", "head", "fts")]
TEXT = ("name_lc", "name_fts::text", "head::text", "fts::text")


def _rows(c: Any) -> dict[int, dict[str, Any]]:
    """Every search row, by listing id, the text vectors as text."""
    t = c.runtime.tables("listing_view")
    columns = SHARED + list(TEXT)
    with c.pool.connection() as conn:
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {t['search']} ORDER BY listing_id").fetchall()
    return {int(r[0]): dict(zip(columns, r, strict=True)) for r in rows}


def assert_consistent(c: Any) -> None:
    """Search rows match the listings rows and the profiles' current names and text, one row per listing."""
    sync(c)
    t = c.runtime.tables("listing_view")
    with c.pool.connection() as conn:
        listings = conn.execute(f"SELECT {', '.join(SHARED)} FROM {t['listings']} ORDER BY listing_id").fetchall()
        shared = conn.execute(f"SELECT {', '.join(SHARED)} FROM {t['search']} ORDER BY listing_id").fetchall()
        states = dict(conn.execute(f"SELECT listing_id, state FROM {t['profiles']}").fetchall())
        # What the text vectors of a searchable listing are made of (`listing_rows.search_texts`, `FTS`).
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
    status = c.runtime.rebuild("listing_view")
    assert status.generation == 2
    assert _rows(c) == before
    assert_consistent(c)


def test_a_generation_older_than_the_search_table_gets_one_on_start_up(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    a = make(c, "Oldgen Notes", description="Kept across the upgrade")
    community.cast_vote(c.store, a.listing_id, "u1", META)
    sync(c)
    before = _rows(c)
    t = c.runtime.tables("listing_view")
    with c.pool.connection() as conn:  # the listings table as it was: the search columns in it, no search table
        conn.execute(f"ALTER TABLE {t['listings']} ADD COLUMN name_lc text NOT NULL DEFAULT '', "
                     "ADD COLUMN name_fts tsvector, ADD COLUMN head tsvector, ADD COLUMN fts tsvector")
        conn.execute(f"UPDATE {t['listings']} l SET name_lc = s.name_lc, name_fts = s.name_fts, head = s.head, "
                     f"fts = s.fts FROM {t['search']} s WHERE s.listing_id = l.listing_id")
        conn.execute(f"DROP TABLE {t['search']}")
    c.runtime.setup()  # what every start does
    assert _rows(c) == before
    community.cast_vote(c.store, a.listing_id, "u2", META)  # and it is kept from then on
    assert_consistent(c)
    assert _rows(c)[a.listing_id]["votes"] == 2
