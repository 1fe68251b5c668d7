"""Which process runs which projection: one PostgreSQL session advisory lock per projection.

Several processes may run projectors against one database (`launchdir serve
--workers N`, several servers, `launchdir projector`). The batches are safe
without this (each locks its generation's row and checks the position it
started from), but every runner would still read every batch and then throw
the work away. A lease makes exactly one process run each projection: a
runner takes `pg_try_advisory_lock(PROJECTOR_LOCK, hashtext(name))` on a
connection of its own and steps only the projections it holds. A session
lock lives as long as its connection, so when the process dies (even by
SIGKILL) PostgreSQL releases it as the socket closes, and the next runner
loop of another process (at most half a second later, sooner on a NOTIFY)
takes it over from the position the dead one committed. The runners share
the projections out among themselves (`Leases.take`), so several processes
apply them on several cores.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from typing import Any

import psycopg

log = logging.getLogger(__name__)

PROJECTOR_LOCK = 7311004  # with hashtext(name): held by the process that runs that projection
JOB_LOCK = 7311005  # with hashtext(name): held by the process that runs that background job (the badge watch)
APP_NAME = "launchdir-projector-"  # + the process id: the lease connection says which process holds it
JOB_APP_NAME = "launchdir-jobs-"


class Leases:
    """The leases of one runner, on one dedicated connection (locks are per session).

    Projections by default; a background job that must run in one process at a
    time (the free plan's badge checks) takes its lease under `JOB_LOCK`.
    """

    def __init__(self, conninfo: str, names: Iterable[str], lock: int = PROJECTOR_LOCK, app_name: str = APP_NAME) -> None:
        self.conninfo = conninfo
        self.names = list(names)
        self.lock = lock
        self.app_name = app_name
        self.held: set[str] = set()
        self._conn: psycopg.Connection[Any] | None = None

    def take(self, exclude: Iterable[str] = ()) -> set[str]:
        """Take this runner's share of the leases, give back what is above it; return the ones held.

        `exclude`: names this runner must not run (their generation was made
        by newer code): given back if held, never taken.

        The share is the names divided among the runners connected now (each
        holds one lease connection, named by `app_name`), rounded up: with
        `launchdir serve --workers 2` each process runs about half of the
        projections, on its own core. A runner above its share (the first one
        up took everything) gives the last of its names back here, between two
        rounds of batches, and the others take them at their next round. When
        a runner dies, its connection closes, the share grows and the others
        take its names over.

        Also checks the connection of the leases already held: when it broke,
        PostgreSQL released them, so none is held any more (and another
        process may run those projections now) until they are taken again.
        """
        try:
            if self._conn is None or self._conn.closed:
                self.held = set()
                self._conn = psycopg.connect(self.conninfo, autocommit=True, application_name=f"{self.app_name}{os.getpid()}")
            share = self._share(self._conn)
            barred = set(exclude)
            above = sorted(self.held & barred) + sorted(self.held - barred)[share:]
            if above:
                self._conn.execute("SELECT pg_advisory_unlock(%s, hashtext(n)) FROM unnest(%s::text[]) AS n",
                                   (self.lock, above))
                self.held -= set(above)
                log.info("this process gives %s to the other runners", ", ".join(above))
            missing = [n for n in self.names if n not in self.held and n not in barred]
            if missing and len(self.held) < share:
                rows = self._conn.execute(  # LIMIT stops the scan, so no lock is taken beyond the share
                    "SELECT n FROM unnest(%s::text[]) AS n WHERE pg_try_advisory_lock(%s, hashtext(n)) LIMIT %s",
                    (missing, self.lock, share - len(self.held)),
                ).fetchall()
                taken = {str(r[0]) for r in rows}
                if taken:
                    log.info("this process now runs %s", ", ".join(sorted(taken)))
                self.held |= taken
        except psycopg.Error:
            if self.held:
                log.warning("lost the connection holding the leases of %s; another process may take them over",
                            ", ".join(sorted(self.held)))
            self.close()
        return set(self.held)

    def _share(self, conn: psycopg.Connection[Any]) -> int:
        """How many names this runner should hold: all of them divided by the runners connected now, rounded up."""
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND application_name LIKE %s", (self.app_name + "%",)).fetchone()
        runners = max(1, int(row[0]) if row else 1)
        return -(-len(self.names) // runners)

    def close(self) -> None:
        """Give every lease up (closing the session releases its locks)."""
        self.held = set()
        if self._conn is not None:
            try:
                self._conn.close()
            except psycopg.Error:
                pass
            self._conn = None


def holders(conn: psycopg.Connection[Any], names: Iterable[str]) -> dict[str, int]:
    """The process id of the process that runs each projection now (projections nobody runs are absent)."""
    rows = conn.execute(
        "SELECT n, a.application_name FROM unnest(%s::text[]) AS n "
        "JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.classid = %s::int8::oid "
        "AND l.objid = (hashtext(n)::int8 & 4294967295)::oid AND l.objsubid = 2 "
        "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
        "JOIN pg_stat_activity a ON a.pid = l.pid",
        (list(names), PROJECTOR_LOCK),
    ).fetchall()
    return {str(n): int(app[len(APP_NAME):]) for n, app in rows if str(app).startswith(APP_NAME)}
