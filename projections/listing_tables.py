"""The listing read side's tables: their DDL, the sort indexes, and the rating tally (`projections/listing_view.py`).

Kept apart from the projector so the handlers read as what each event does,
and the shape of the tables is in one place.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from projections.base import Tables
from projections.ddl import create_index, exists
from projections.review_tally import ReviewTally

PROFILE_ROW = 4080
"""Bytes a profile row may take before PostgreSQL compresses or moves its state and document out of line (the
default is 2032). A listing's state and public document are about 1.3 kB each: at the default almost every row was
compressed (which seldom shrinks them enough) and moved to the TOAST table, which doubled the cost of writing one;
kept inline, two rows fill a page (docs/performance.md, "`listing_view` catch-up and the first read of a log")."""

# The live-listing sort orders; each has a partial index on the search table so a page is an index scan.
SORT_INDEXES = {
    "votes": "votes DESC, launched_at, listing_id",
    "newest": "listed_at DESC, listing_id DESC",
    "trending": "trend_log DESC NULLS LAST, votes DESC, launched_at, listing_id",
    "most_viewed": "views DESC, votes DESC, launched_at, listing_id",
    "most_followed": "followers DESC, votes DESC, launched_at, listing_id",
}
# The rating shown on a listing: the average and count of its approved reviews.
TALLY = ReviewTally("listing_id", "int", {"rating_avg": "round(avg(r.rating), 2)", "rating_count": "count(*)"})


def create(cur: Cursor[Any], t: Tables) -> None:
    """The generation's tables and indexes."""
    cur.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    cur.execute("CREATE EXTENSION IF NOT EXISTS fuzzystrmatch")  # levenshtein, for typo correction
    cur.execute(
        f"""CREATE TABLE {t['profiles']} (
            listing_id int PRIMARY KEY, stream_id uuid NOT NULL UNIQUE, slug text NOT NULL UNIQUE,
            status text NOT NULL, state jsonb NOT NULL, doc jsonb NOT NULL) WITH (toast_tuple_target = {PROFILE_ROW})"""
    )
    cur.execute(
        f"""CREATE TABLE {t['listings']} (
            listing_id int PRIMARY KEY, slug text NOT NULL UNIQUE, status text NOT NULL, week text, plan text,
            listed_at timestamptz, launched_at timestamptz, categories text[] NOT NULL DEFAULT '{{}}',
            primary_category text, stage text, country text, pricing text, domain text, text_key text,
            votes int NOT NULL DEFAULT 0, followers int NOT NULL DEFAULT 0, views bigint NOT NULL DEFAULT 0,
            trend_log float8, rating_avg numeric, rating_count int NOT NULL DEFAULT 0, card jsonb NOT NULL)"""
    )
    ls = t["listings"]
    cur.execute(f"CREATE INDEX ON {ls} USING gin (categories)")  # a renamed category finds its listings
    cur.execute(f"CREATE INDEX ON {ls} (domain)")
    cur.execute(f"CREATE INDEX ON {ls} (primary_category, votes DESC, launched_at, listing_id) WHERE status = 'live'")
    cur.execute(f"CREATE INDEX ON {ls} (week) WHERE status IN ('scheduled', 'awaiting_badge')")
    create_search(cur, t)
    cur.execute(f"CREATE TABLE {t['votes']} (listing_id int NOT NULL, account_id text NOT NULL, x float8 NOT NULL, "
                "PRIMARY KEY (listing_id, account_id))")
    TALLY.create(cur, t["reviews"])
    cur.execute(f"CREATE TABLE {t['domain_ratings']} (listing_id int NOT NULL, measured_on date NOT NULL, "
                "value int NOT NULL, source text NOT NULL, PRIMARY KEY (listing_id, measured_on))")
    cur.execute(f"CREATE TABLE {t['categories']} (slug text PRIMARY KEY, name text NOT NULL, parent text, "
                "attributes jsonb NOT NULL DEFAULT '[]')")
    cur.execute(f"CREATE TABLE {t['words']} (word text PRIMARY KEY)")
    cur.execute(f"CREATE INDEX ON {t['words']} USING gin (word gin_trgm_ops) WITH (gin_pending_list_limit = 256)")
    upgrade(cur, t)


# The search table: the listings table's columns searches filter, order and match on, and nothing else
# (docs/search.md, "The search table"). Counters first: fixed-width columns pack without padding.
SEARCH_COLUMNS = ("listing_id", "votes", "followers", "views", "trend_log", "listed_at", "launched_at", "status",
                  "week", "stage", "country", "pricing", "domain", "categories", "name_lc", "name_fts", "head", "fts")


def create_search(cur: Cursor[Any], t: Tables, filled_from: str | None = None) -> None:
    """The search table and the indexes its statements need (`queries/search_postgres.py`).

    `filled_from`: a listings table that still has every search column (an older generation's) to copy first.
    """
    s = t["search"]
    cur.execute(
        f"""CREATE TABLE {s} (
            listing_id int PRIMARY KEY, votes int NOT NULL DEFAULT 0, followers int NOT NULL DEFAULT 0,
            views bigint NOT NULL DEFAULT 0, trend_log float8, listed_at timestamptz, launched_at timestamptz,
            status text NOT NULL, week text, stage text, country text, pricing text, domain text,
            categories text[] NOT NULL DEFAULT '{{}}', name_lc text NOT NULL DEFAULT '',
            name_fts tsvector, head tsvector, fts tsvector)"""
    )
    if filled_from is not None:  # filled before its indexes exist: one build each instead of 100,000 inserts
        columns = ", ".join(SEARCH_COLUMNS)
        values = ", ".join("strip(fts)" if c == "fts" else c for c in SEARCH_COLUMNS)  # as `_write_now` makes it
        cur.execute(f"INSERT INTO {s} ({columns}) SELECT {values} FROM {filled_from} ORDER BY listing_id")
    # A small pending list keeps GIN scans fast between vacuums while inserts still batch.
    cur.execute(f"CREATE INDEX ON {s} USING gin (fts) WITH (gin_pending_list_limit = 256)")
    cur.execute(f"CREATE INDEX ON {s} USING gin (name_lc gin_trgm_ops) WITH (gin_pending_list_limit = 256)")
    cur.execute(f"CREATE INDEX ON {s} USING gin (name_fts) WITH (gin_pending_list_limit = 256)")
    cur.execute(f"CREATE INDEX ON {s} USING gin (categories)")
    cur.execute(f"CREATE INDEX ON {s} (domain)")
    for order in SORT_INDEXES.values():
        cur.execute(f"CREATE INDEX ON {s} ({order}) WHERE status = 'live'")
    cur.execute(f"CREATE INDEX ON {s} (week, listed_at, listing_id) WHERE status IN ('scheduled', 'awaiting_badge')")


def upgrade(cur: Cursor[Any], t: Tables) -> None:
    """Tables and indexes added after the first release: made on start-up for generations created before them.

    A generation older than the search table gets one filled from its
    listings table, which still has every search column then (only a
    rebuild drops them and the listings table's search indexes, which that
    generation keeps updating until it is replaced).
    """
    if not exists(cur, t["search"]):
        create_search(cur, t, filled_from=t["listings"])
    words = t["words"]
    create_index(cur, f"{words}_prefix",  # completions
                 f"CREATE INDEX IF NOT EXISTS {words}_prefix ON {words} (word text_pattern_ops)")
    profiles = t["profiles"]  # list_my_listings: the listings an account owns, any status
    create_index(cur, f"{profiles}_owners",
                 f"CREATE INDEX IF NOT EXISTS {profiles}_owners ON {profiles} USING gin ((state->'owner_ids'))")
    target = f"toast_tuple_target={PROFILE_ROW}"
    (kept,) = cur.execute("SELECT %s = ANY(coalesce(reloptions, '{}')) FROM pg_class WHERE oid = %s::regclass",
                          (target, profiles)).fetchone() or (True,)
    if not kept:  # rows written from now on stay inline; those written before move when next updated
        cur.execute(f"ALTER TABLE {profiles} SET ({target})")
