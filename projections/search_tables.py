"""The search view's tables: the search rows, the vocabulary, the votes and the listings' sources (DDL only).

Kept apart from the projector (`projections/search_view.py`) so the shape of
the tables is in one place, as `projections/listing_tables.py` does for the
listing view.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from projections.base import Tables
from projections.ddl import create_index

# The live-listing sort orders; each has a partial index on the search table so a page is an index scan.
SORT_INDEXES = {
    "votes": "votes DESC, launched_at, listing_id",
    "newest": "listed_at DESC, listing_id DESC",
    "trending": "trend_log DESC NULLS LAST, votes DESC, launched_at, listing_id",
    "most_viewed": "views DESC, votes DESC, launched_at, listing_id",
    "most_followed": "followers DESC, votes DESC, launched_at, listing_id",
}


# The search table's columns: counters first (fixed-width columns pack without padding).
SEARCH_COLUMNS = ("listing_id", "votes", "followers", "views", "trend_log", "listed_at", "launched_at", "status",
                  "week", "stage", "country", "pricing", "domain", "categories", "name_lc", "name_fts", "head", "fts")


def create(cur: Cursor[Any], t: Tables) -> None:
    """The generation's tables and indexes.

    - `search`: only what searches filter, order and match on (filters,
      counters, the trending log-sum, the folded name and the text vectors):
      narrow rows, so a search reads few pages (docs/search.md).
    - `sources`: what the rows are made from (the searched texts and the
      profile facts the filters come from), as bytes only this projection
      reads back: an edit of one field remakes the texts and filters from it.
    - `votes`: the counted votes and their times, for the trending sum.
    - `words`: the vocabulary typo correction and completions read.
    """
    cur.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    cur.execute("CREATE EXTENSION IF NOT EXISTS fuzzystrmatch")  # levenshtein, for typo correction
    s = t["search"]
    cur.execute(
        f"""CREATE TABLE {s} (
            listing_id int PRIMARY KEY, votes int NOT NULL DEFAULT 0, followers int NOT NULL DEFAULT 0,
            views bigint NOT NULL DEFAULT 0, trend_log float8, listed_at timestamptz, launched_at timestamptz,
            status text NOT NULL, week text, stage text, country text, pricing text, domain text,
            categories text[] NOT NULL DEFAULT '{{}}', name_lc text NOT NULL DEFAULT '',
            name_fts tsvector, head tsvector, fts tsvector)"""
    )
    # A small pending list keeps GIN scans fast between vacuums while inserts still batch.
    cur.execute(f"CREATE INDEX ON {s} USING gin (fts) WITH (gin_pending_list_limit = 256)")
    cur.execute(f"CREATE INDEX ON {s} USING gin (name_lc gin_trgm_ops) WITH (gin_pending_list_limit = 256)")
    cur.execute(f"CREATE INDEX ON {s} USING gin (name_fts) WITH (gin_pending_list_limit = 256)")
    cur.execute(f"CREATE INDEX ON {s} USING gin (categories)")
    cur.execute(f"CREATE INDEX ON {s} (domain)")
    for order in SORT_INDEXES.values():
        cur.execute(f"CREATE INDEX ON {s} ({order}) WHERE status = 'live'")
    cur.execute(f"CREATE INDEX ON {s} (week, listed_at, listing_id) WHERE status IN ('scheduled', 'awaiting_badge')")
    cur.execute(f"CREATE TABLE {t['sources']} (listing_id int PRIMARY KEY, stream_id uuid NOT NULL UNIQUE, "
                "src bytea NOT NULL)")
    cur.execute(f"CREATE TABLE {t['votes']} (listing_id int NOT NULL, account_id text NOT NULL, x float8 NOT NULL, "
                "PRIMARY KEY (listing_id, account_id))")
    cur.execute(f"CREATE TABLE {t['words']} (word text PRIMARY KEY)")
    cur.execute(f"CREATE INDEX ON {t['words']} USING gin (word gin_trgm_ops) WITH (gin_pending_list_limit = 256)")
    upgrade(cur, t)


def upgrade(cur: Cursor[Any], t: Tables) -> None:
    """Indexes added after the first release: made on start-up for generations created before them."""
    words = t["words"]
    create_index(cur, f"{words}_prefix",  # completions
                 f"CREATE INDEX IF NOT EXISTS {words}_prefix ON {words} (word text_pattern_ops)")
