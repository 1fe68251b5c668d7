"""`ReplicaProgress` against a database standing in for the replica, whose positions the test sets by hand.

The stand-in has only the projections' position table; what it says decides
when a move counts (waits end, listeners hear it) and whether reads go to the
replica: a move counts once the stand-in shows it; one it does not show within
the bound counts anyway and sends reads to the primary, until the stand-in
shows every position counted meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import psycopg
import pytest

from projections.failures import META
from projections.replica import ReplicaProgress


def _until(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def stand_in(fresh_db: str) -> Iterator[Callable[[str, int], None]]:
    """Set a projection's position (generation 1) on the stand-in replica."""
    with psycopg.connect(fresh_db, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {META} (name text, generation int, position bigint, PRIMARY KEY (name, generation))")
        conn.execute(f"INSERT INTO {META} VALUES ('listing_view', 1, 0), ('accounts_view', 1, 0)")

        def at(name: str, position: int) -> None:
            conn.execute(f"UPDATE {META} SET position = %s WHERE name = %s AND generation = 1", (position, name))

        yield at


@pytest.fixture
def progress(fresh_db: str, stand_in: Callable[[str, int], None]) -> Iterator[ReplicaProgress]:
    p = ReplicaProgress(fresh_db, {"listing_view": 1, "accounts_view": 1}, {"listing_view", "accounts_view"},
                        lag_bound=2.0)
    p.positions.update({"listing_view": 0, "accounts_view": 0})
    assert _until(lambda: p.on_replica)  # caught up at 0: reads go to the replica
    yield p
    p.close()


def test_a_move_counts_once_the_replica_shows_it(progress: ReplicaProgress,
                                                 stand_in: Callable[[str, int], None]) -> None:
    heard: list[tuple[str, int]] = []
    progress.on_move(lambda name, position: heard.append((name, position)))
    progress.moved_to("listing_view", 7)
    assert progress.positions["listing_view"] == 0 and heard == []  # the replica does not have it yet
    assert not progress.wait(["listing_view"], 7, 0.2, lambda: True, lambda _: None)
    stand_in("listing_view", 7)
    assert progress.wait(["listing_view"], 7, 5.0, lambda: True, lambda _: None)
    assert heard == [("listing_view", 7)] and progress.on_replica


def test_positions_of_other_feeders_count_at_once(progress: ReplicaProgress) -> None:
    progress.moved_to("search_index", 12)  # not a projection of the runtime: not in the replica's table
    assert progress.positions["search_index"] == 12


def test_a_lagging_replica_sends_reads_to_the_primary_until_it_catches_up(
        progress: ReplicaProgress, stand_in: Callable[[str, int], None]) -> None:
    progress.moved_to("accounts_view", 3)
    assert progress.wait(["accounts_view"], 3, 5.0, lambda: True, lambda _: None)  # after the bound, not before
    assert not progress.on_replica
    progress.moved_to("listing_view", 9)  # while on the primary: counts at once, and the replica owes it
    assert progress.positions["listing_view"] == 9
    stand_in("accounts_view", 3)
    time.sleep(0.3)
    assert not progress.on_replica  # listing_view's 9 is still missing there
    stand_in("listing_view", 9)
    assert _until(lambda: progress.on_replica)
