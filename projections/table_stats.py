"""A generation filled from the first event gets the planner's statistics before it serves.

Its tables are new, and PostgreSQL keeps no statistics for a table until it
is analysed: autovacuum's next look comes a minute or more after the
catch-up (later on a busy server), and until then the planner guesses. On
the 100,000-listing history, with no statistics, a search for a name two
listings hold read a partial index of every live listing to intersect it
with the full-text index, 5.8 ms where the plan made with statistics takes
0.78 ms (docs/performance.md, "Statistics before a new generation serves").
After a rebuild's switch every search would pay that until autovacuum came.

So a long catch-up from position 0, and a rebuild before its switch, end by
analysing the generation's tables on a small sample (`SAMPLE_TARGET`: about
3,000 rows a table; 25-30 ms for the 145 MB search table, where the default
target's 30,000 rows take 290-320 ms): the share of each status, week and
filter value the plans turn on. Autovacuum's own analyses refine them later,
as rows change.
"""

from __future__ import annotations

from psycopg_pool import ConnectionPool

from projections.base import Tables

SAMPLE_TARGET = 10  # `default_statistics_target` for this analysis: 300 sampled rows per unit


def analyse(pool: ConnectionPool, tables: Tables) -> None:
    """ANALYZE each of the generation's tables with `SAMPLE_TARGET`, in one transaction (readers are not blocked)."""
    with pool.connection() as conn, conn.transaction():
        conn.execute(f"SET LOCAL default_statistics_target = {SAMPLE_TARGET}")
        for table in tables.all():
            conn.execute(f"ANALYZE {table}")
