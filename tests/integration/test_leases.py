"""Leases against real PostgreSQL: each name held by exactly one runner, shared out among the runners connected,
given back above the share, and taken over when a runner goes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from projections.leases import APP_NAME, PROJECTOR_LOCK, Leases

NAMES = [f"projection_{i}" for i in range(7)]


def locks_of(conninfo: str, leases: Leases) -> int:
    """Advisory locks of the lease class that the runner's own session holds in PostgreSQL."""
    assert leases._conn is not None
    pid = leases._conn.info.backend_pid
    with psycopg.connect(conninfo) as conn:
        row = conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = %s "
                           "AND classid = %s::int8::oid", (pid, PROJECTOR_LOCK)).fetchone()
    return int(row[0]) if row else 0


@pytest.fixture
def runners(fresh_db: str) -> Iterator[list[Leases]]:
    made: list[Leases] = []
    yield made
    for leases in made:
        leases.close()


def runner(fresh_db: str, made: list[Leases]) -> Leases:
    leases = Leases(fresh_db, NAMES, app_name=APP_NAME)
    made.append(leases)
    return leases


def taken_over(survivor: Leases, rounds: int = 200) -> set[str]:
    """The survivor's leases after the rounds it needs: the server ends a closed session's backend (and drops its
    locks) a moment after the client closes, so the first rounds may still count the gone runner."""
    held: set[str] = set()
    for _ in range(rounds):
        held = survivor.take()
        if held == set(NAMES):
            break
        time.sleep(0.02)
    return held


def test_the_runners_share_the_names_out_and_the_survivor_takes_them_all(fresh_db: str, runners: Any) -> None:
    first = runner(fresh_db, runners)
    assert first.take() == set(NAMES)  # alone: it runs everything
    second = runner(fresh_db, runners)
    assert second.take() == set()  # every name is held; the first gives its surplus back at its next round
    kept = first.take()
    assert len(kept) == 4  # 7 names, 2 runners: a share of 4
    taken = second.take()
    assert taken == set(NAMES) - kept  # the rest, and nothing twice
    assert (locks_of(fresh_db, first), locks_of(fresh_db, second)) == (4, 3)  # no lock beyond what each knows
    assert (first.take(), second.take()) == (kept, taken)  # stable: nothing moves while both live

    first.close()  # the first runner goes (a dead process's session closes the same way)
    assert taken_over(second) == set(NAMES)
    assert locks_of(fresh_db, second) == len(NAMES)


def test_a_third_runner_gets_a_share_and_no_name_is_ever_held_twice(fresh_db: str, runners: Any) -> None:
    group = [runner(fresh_db, runners) for _ in range(3)]
    for _ in range(3):  # a few rounds, as the runner loops make them
        held = [r.take() for r in group]
        for i, a in enumerate(held):
            for b in held[i + 1:]:
                assert not a & b
    assert set().union(*held) == set(NAMES)
    assert max(len(h) for h in held) == 3 and sum(len(h) for h in held) == len(NAMES)  # a share of 3 each, 7 names
