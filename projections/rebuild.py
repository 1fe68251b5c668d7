"""Rebuilding a projection: a fresh generation from event 0 while the old one serves, then the switch.

The rebuilding process holds an advisory lock on the projection until the
switch, so a second rebuild is refused and a `building` generation without
that lock is known to be interrupted. An interrupted rebuild is resumed from
its position when the projection's code and shape are unchanged (the
generation row records a digest of the code, and the shape), else thrown away
and built again from event 0. The switch retires the old generation in one
transaction and announces it; the old tables are dropped after the new
generation has caught up, once their last readers are done
(`projections/retired.py`). A runner also starts a rebuild by itself when a
projection's stored shape is behind its code (`projections/reshape.py`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Protocol

import psycopg
from psycopg_pool import ConnectionPool

from events.errors import Conflict
from projections import deferred_indexes, table_stats
from projections.base import Projection, Tables
from projections.failures import CLEARED, FAILURE_COLUMNS, META, Failure, code_fingerprint, failure_of
from projections.generations import CHANNEL, REBUILD_LOCK, SETUP_LOCK, STORED_SHAPE, create_generation
from projections.repairs import Status
from projections.retired import DROP_GRACE, DROP_PATIENCE, drop_retired

log = logging.getLogger(__name__)

Reporter = Callable[[int, int], None]
"""Told (position, target) after each batch."""


class RebuildBlocked(Exception):
    """A rebuild met an event it cannot apply and spent its attempts; its generation stays `building`."""

    def __init__(self, name: str, generation: int, failure: Failure) -> None:
        super().__init__(
            f"the rebuild of {name} stopped: generation {generation} is {failure.describe()}. "
            f"The current generation keeps serving. Fix the cause and run `launchdir projections rebuild {name}` "
            f"again to resume, or skip the event: `launchdir projections skip {name} {failure.event_id} --reason ...`"
        )
        self.failure = failure


class Runtime(Protocol):
    """What a rebuild needs of the projection runtime: its database, its projections, and catching up."""

    @property
    def pool(self) -> ConnectionPool: ...

    @property
    def conninfo(self) -> str: ...

    @property
    def projections(self) -> Mapping[str, Projection]: ...

    def catch_up(self, name: str, generation: int | None = None, progress: Reporter | None = None,
                 analyse: bool = True) -> int: ...

    def status(self) -> list[Status]: ...


def rebuild(rt: Runtime, projection: Projection, progress: Reporter | None, restart: bool,
            refresh: Callable[[], None], drop_grace: float = DROP_GRACE, drop_patience: float = DROP_PATIENCE) -> Status:
    """Build a fresh generation from event 0 while the old one serves, then switch reads to it.

    An interrupted rebuild (a generation left `building`) is resumed from
    its position when the projection's code is unchanged; otherwise, or
    with `restart`, it is thrown away and built again from event 0.
    `refresh` makes this process's runtime read the active generations again.
    The retired generation's tables are dropped `drop_grace` seconds after the
    switch, once no read holds them (`projections/retired.py`).
    """
    name = projection.name
    with psycopg.connect(rt.conninfo, autocommit=True) as guard:  # held until the switch: marks the rebuild live
        locked = guard.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (REBUILD_LOCK, name)).fetchone()
        if not (locked and locked[0]):
            raise Conflict(f"a rebuild of {name} is running in another process")
        try:
            gen = _building(rt.pool, projection, restart)
            _fill(rt, name, gen, progress)
            deferred_indexes.build_in_parallel(rt.pool, name, gen)  # GIN indexes in one pass over the filled tables
            table_stats.analyse(rt.pool, Tables(name, gen, projection.tables))  # the planner's, before it serves
            _switch(rt.pool, name, gen)
            rt.catch_up(name, gen)
            refresh()
            drop_retired(rt.pool, projection, drop_grace, drop_patience)
        finally:  # at once: closing alone lets the server release it a little later
            guard.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (REBUILD_LOCK, name))
    return next(s for s in rt.status() if s.name == name and s.generation == gen)


def _building(pool: ConnectionPool, projection: Projection, restart: bool) -> int:
    """The generation to build: the interrupted one when it can be resumed, else a new one."""
    name = projection.name
    with pool.connection() as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
        row = conn.execute(
            f"SELECT generation, position, code, {STORED_SHAPE} FROM {META} WHERE name=%s AND status='building'",
            (name,),
        ).fetchone()
        same = row is not None and row[2] == code_fingerprint(projection) and row[3] == projection.shape
        if row is not None and not restart and same:
            log.info("resuming the interrupted rebuild of %s: generation %d from position %d", name, row[0], row[1])
            conn.execute(f"UPDATE {META} SET {CLEARED} WHERE name=%s AND generation=%s", (name, row[0]))  # try at once
            return int(row[0])
        if row is not None:
            why = "as asked" if restart else "the projection's code or shape changed since it began"
            log.info("restarting the interrupted rebuild of %s from event 0 (%s)", name, why)
            for table in Tables(name, int(row[0]), projection.tables).all():
                conn.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
            conn.execute(f"DELETE FROM {META} WHERE name=%s AND status='building'", (name,))
            deferred_indexes.forget(conn, name, int(row[0]))
        top = conn.execute(f"SELECT coalesce(max(generation), 0) FROM {META} WHERE name=%s", (name,)).fetchone()
        gen = int(top[0] if top else 0) + 1
        deferred_indexes.defer(conn, name, create_generation(conn, projection, gen, status="building"),
                               projection.deferred_btrees)
    return gen


def _fill(rt: Runtime, name: str, gen: int, progress: Reporter | None) -> None:
    """Catch the building generation up, waiting out the retries of an event it cannot apply yet."""
    while True:
        rt.catch_up(name, gen, progress, analyse=False)  # analysed once, after the indexes are built
        failure, wait = _failure(rt.pool, name, gen)
        if failure is None:
            return
        if failure.failing:
            raise RebuildBlocked(name, gen, failure)
        log.warning("rebuild of %s: generation %d is %s", name, gen, failure.describe())
        time.sleep(wait)


def _failure(pool: ConnectionPool, name: str, generation: int) -> tuple[Failure | None, float]:
    """Why a generation is stopped (None when it is not), and the seconds until its next attempt."""
    with pool.connection() as conn:
        row = conn.execute(
            f"SELECT {FAILURE_COLUMNS}, greatest(0, extract(epoch FROM retry_at - now())) "
            f"FROM {META} WHERE name=%s AND generation=%s",
            (name, generation),
        ).fetchone()
    if row is None:
        return None, 0.0
    return failure_of(row), float(row[7] or 0)


def _switch(pool: ConnectionPool, name: str, gen: int) -> list[int]:
    """Retire the active generation and make `gen` active, in one transaction; return the retired ones."""
    with pool.connection() as conn, conn.transaction():
        old = [
            int(r[0])
            for r in conn.execute(
                f"UPDATE {META} SET status='retired', switched_at=now() WHERE name=%s AND status='active' RETURNING generation",
                (name,),
            ).fetchall()
        ]
        conn.execute(f"UPDATE {META} SET status='active', switched_at=now() WHERE name=%s AND generation=%s", (name, gen))
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"switch:{name}:{gen}:0"))
    log.info("%s: reads switched to generation %d%s", name, gen,
             f" from generation {', '.join(map(str, old))}" if old else "")
    return old
