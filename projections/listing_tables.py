"""The listing read side's tables: their DDL, the sort indexes, and the rating tally (`projections/listing_view.py`).

Kept apart from the projector so the handlers read as what each event does,
and the shape of the tables is in one place.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from projections.base import Tables
from projections.ddl import create_index
from projections.review_tally import ReviewTally

PROFILE_ROW = 4080
"""Bytes a profile row may take before PostgreSQL compresses or moves its state and document out of line (the
default is 2032). A listing's state and public document are about 1.3 kB each: at the default almost every row was
compressed (which seldom shrinks them enough) and moved to the TOAST table, which doubled the cost of writing one;
kept inline, two rows fill a page (docs/performance.md, "`listing_view` catch-up and the first read of a log")."""

# The rating shown on a listing: the average and count of its approved reviews.
TALLY = ReviewTally("listing_id", "int", {"rating_avg": "round(avg(r.rating), 2)", "rating_count": "count(*)"})


def create(cur: Cursor[Any], t: Tables) -> None:
    """The generation's tables and indexes."""
    cur.execute(
        f"""CREATE TABLE {t['profiles']} (
            listing_id int PRIMARY KEY, stream_id uuid NOT NULL UNIQUE, slug text NOT NULL UNIQUE,
            status text NOT NULL, state jsonb NOT NULL, doc jsonb NOT NULL) WITH (toast_tuple_target = {PROFILE_ROW})"""
    )
    cur.execute(
        f"""CREATE TABLE {t['listings']} (
            listing_id int PRIMARY KEY, slug text NOT NULL UNIQUE, status text NOT NULL, week text, plan text,
            listed_at timestamptz, launched_at timestamptz, categories text[] NOT NULL DEFAULT '{{}}',
            primary_category text, stage text, country text, pricing text, domain text,
            votes int NOT NULL DEFAULT 0, followers int NOT NULL DEFAULT 0, views bigint NOT NULL DEFAULT 0,
            trend_log float8, rating_avg numeric, rating_count int NOT NULL DEFAULT 0, card jsonb NOT NULL)"""
    )
    ls = t["listings"]
    cur.execute(f"CREATE INDEX ON {ls} USING gin (categories)")  # a renamed category finds its listings
    cur.execute(f"CREATE INDEX ON {ls} (domain)")
    cur.execute(f"CREATE INDEX ON {ls} (primary_category, votes DESC, launched_at, listing_id) WHERE status = 'live'")
    cur.execute(f"CREATE INDEX ON {ls} (week) WHERE status IN ('scheduled', 'awaiting_badge')")
    cur.execute(f"CREATE TABLE {t['votes']} (listing_id int NOT NULL, account_id text NOT NULL, x float8 NOT NULL, "
                "PRIMARY KEY (listing_id, account_id))")
    TALLY.create(cur, t["reviews"])
    cur.execute(f"CREATE TABLE {t['domain_ratings']} (listing_id int NOT NULL, measured_on date NOT NULL, "
                "value int NOT NULL, source text NOT NULL, PRIMARY KEY (listing_id, measured_on))")
    cur.execute(f"CREATE TABLE {t['categories']} (slug text PRIMARY KEY, name text NOT NULL, parent text, "
                "attributes jsonb NOT NULL DEFAULT '[]')")
    upgrade(cur, t)


def upgrade(cur: Cursor[Any], t: Tables) -> None:
    """Tables and indexes added after the first release: made on start-up for generations created before them.

    A generation made before the search view (`projections/search_view.py`) still has its `search` and `words`
    tables and a `text_key` column: nothing writes or reads them any more, and they go with the generation.
    """
    profiles = t["profiles"]  # list_my_listings: the listings an account owns, any status
    create_index(cur, f"{profiles}_owners",
                 f"CREATE INDEX IF NOT EXISTS {profiles}_owners ON {profiles} USING gin ((state->'owner_ids'))")
    target = f"toast_tuple_target={PROFILE_ROW}"
    (kept,) = cur.execute("SELECT %s = ANY(coalesce(reloptions, '{}')) FROM pg_class WHERE oid = %s::regclass",
                          (target, profiles)).fetchone() or (True,)
    if not kept:  # rows written from now on stay inline; those written before move when next updated
        cur.execute(f"ALTER TABLE {profiles} SET ({target})")
