"""A process starting beside running ones (a CLI command, a new worker) waits for none of their work.

Found by running `launchdir projections rebuild leaderboard_view` during a
voting burst on two serve processes: the command's start-up deadlocked with
a projector. Its set-up transaction had created-if-missing the tracking
table's index (a SHARE lock on `launchdir_projections`) and then waited for
`listing_view`'s tables, which a batch in flight held; the batch then waited
to record its position in `launchdir_projections`.
"""

from __future__ import annotations

import threading

import psycopg

from launchdir.bootstrap import bootstrap
from projections.failures import META
from tests.conftest import test_settings as settings_for


def test_a_start_does_not_wait_for_a_projector_batch_in_flight(fresh_db: str) -> None:
    first = bootstrap(settings_for(fresh_db))  # the serving process: creates every table
    try:
        t = first.runtime.tables("listing_view")
        with psycopg.connect(fresh_db) as batch:  # a batch of `listing_view` in flight, holding its tables
            batch.execute(f"LOCK TABLE {', '.join(t.all())} IN ROW EXCLUSIVE MODE")  # what its writes hold
            started = threading.Event()
            outcome: list[object] = []

            def start() -> None:
                started.set()
                try:
                    other = bootstrap(settings_for(fresh_db))  # as a CLI command or another worker starts
                    outcome.append(other.runtime.generations["listing_view"])
                    other.close()
                except Exception as exc:  # reported below
                    outcome.append(exc)

            thread = threading.Thread(target=start, daemon=True)
            thread.start()
            assert started.wait(10)
            thread.join(30)  # a start that waits for the batch would wait until it commits, below
            assert not thread.is_alive(), "the start waited for a projector's batch in flight"
            assert outcome == [1]
            # the batch records its position and commits, as a projector's does
            batch.execute(f"UPDATE {META} SET position = position WHERE name = 'listing_view'")
            batch.commit()
    finally:
        first.close()


def test_a_start_does_not_wait_for_an_append_in_flight(fresh_db: str) -> None:
    first = bootstrap(settings_for(fresh_db))
    try:
        with psycopg.connect(fresh_db) as append:  # an append holds the log's EXCLUSIVE lock until it commits
            append.execute("LOCK TABLE launchdir_events IN EXCLUSIVE MODE")
            outcome: list[object] = []

            def start() -> None:
                try:
                    other = bootstrap(settings_for(fresh_db))
                    outcome.append(other.store.position())
                    other.close()
                except Exception as exc:  # reported below
                    outcome.append(exc)

            thread = threading.Thread(target=start, daemon=True)
            thread.start()
            thread.join(30)
            assert not thread.is_alive(), "the start waited for an append in flight"
            assert outcome == [first.store.position()]
            append.commit()
    finally:
        first.close()
