"""Reads from a PostgreSQL streaming replica, with read-your-writes (docs/performance.md, "Read replica").

Projections write on the primary: a batch and its position commit together in
`launchdir_projections`, and that row reaches the replica in the same WAL
record stream as the batch's rows. So "the replica has replayed the batch that
took projection P to position N" is exactly "the replica's row of P's active
generation says N or more", a primary key lookup on the replica; no WAL
position needs to be recorded on the primary, and the projections' own code
does not change.

`ReplicaProgress` is the runtime's progress when a replica is configured: a
move of one of the runtime's projections (heard from a runner or a NOTIFY)
is published (waits end, caches drop their answers) only once the replica
shows it. Every wait on a write's position (`ProjectionRuntime.wait_for`) and
every cache keyed on positions (`ReadStore.cached`, the executor's, the page
cache) then agree with what a read of the replica sees.

A replica that lags more than `LAG_BOUND` behind a move, or cannot be reached,
is left aside: the pending moves are published at once and `ReadPool` sends
reads to the primary, until the replica has replayed every position published
meanwhile. A write is never hidden behind a slow replica for longer than the
bound, and a read that goes to the replica never misses a published move.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from projections.autocommit import autocommit
from projections.failures import META
from projections.progress import Progress

log = logging.getLogger(__name__)

LAG_BOUND = 0.5
"""Seconds a move may wait for the replica before reads go to the primary (well under the 2 s a
read-your-writes wait allows, so a lagging replica costs a write's reader this much at most, never a 503)."""

POLL = 0.002  # seconds between looks at the replica while a move waits for it (replay on a LAN takes about 1 ms)
RECHECK = 0.1  # seconds between looks while reads go to the primary, waiting for the replica to catch up
IDLE = 1.0  # seconds between looks when nothing waits: a replica gone away is noticed within this


class ReplicaProgress(Progress):
    """Progress whose moves count once the replica has replayed them (see the module's docstring)."""

    def __init__(self, replica: str, generations: Mapping[str, int], gated: Collection[str],
                 lag_bound: float = LAG_BOUND) -> None:
        super().__init__()
        self.replica = replica
        self.generations = generations  # the runtime's: the active generation of each projection
        self.gated = gated  # the runtime's projections (positions of other feeders are not in the replica's table)
        self.lag_bound = lag_bound
        self._gate = threading.Condition()
        self._pending: dict[str, tuple[int, float]] = {}  # name -> (position heard, since when it waits)
        self._owed: dict[str, int] = {}  # published while reads go to the primary: the replica must reach them
        self._lagging = True  # reads go to the primary until the first look finds the replica caught up
        self._closed = False
        self._thread: threading.Thread | None = None
        self._conn: psycopg.Connection[Any] | None = None

    @property
    def on_replica(self) -> bool:
        """True while reads go to the replica (the first call starts watching it)."""
        if self._thread is None:
            self._ensure_thread()
        return not self._lagging

    def moved_to(self, name: str, position: int) -> None:
        if name not in self.gated:
            super().moved_to(name, position)
            return
        with self._gate:
            if self._lagging:
                self._owed[name] = max(position, self._owed.get(name, 0))
                gated = False
            else:
                held = self._pending.get(name)
                if held is None or held[0] < position:
                    self._pending[name] = (position, held[1] if held else time.monotonic())
                gated = True
                self._gate.notify_all()
        if not gated:
            super().moved_to(name, position)
        self._ensure_thread()

    def switched(self, name: str, position: int) -> None:
        """Another generation serves: reads go to the primary until the replica has the switch too."""
        self._fall_back("projection %s switched generation" % name)
        super().switched(name, position)

    def close(self) -> None:
        with self._gate:
            self._closed = True
            self._gate.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._conn is not None:
            self._conn.close()

    # ------------------------------------------------------------ the watcher thread

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            with self._gate:
                if self._closed or (self._thread is not None and self._thread.is_alive()):
                    return
                self._thread = threading.Thread(target=self._watch, name="replica-watch", daemon=True)
                self._thread.start()

    def _watch(self) -> None:
        while True:
            with self._gate:
                if self._closed:
                    return
                wait = RECHECK if self._lagging else (POLL if self._pending else IDLE)
                names = sorted(set(self._pending) | set(self._owed)) if self._pending or self._lagging else []
            try:
                seen = self._replica_positions(names if not self._lagging else list(self.gated))
            except psycopg.Error as exc:
                self._drop_connection()
                self._fall_back(f"the replica cannot be read ({exc.__class__.__name__}: {exc})")
                self._sleep(RECHECK)
                continue
            self._publish(seen)
            self._sleep(wait)

    def _sleep(self, seconds: float) -> None:
        with self._gate:
            if not self._closed and not (self._pending and seconds > POLL):
                self._gate.wait(seconds)

    def _replica_positions(self, names: list[str]) -> dict[str, int]:
        """Each named projection's position on the replica (of the generation active here)."""
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.replica, autocommit=True, connect_timeout=2,
                                         application_name="launchdir-replica-watch")
        if not names:
            self._conn.execute("SELECT 1")
            return {}
        rows = self._conn.execute(f"SELECT name, generation, position FROM {META} WHERE name = ANY(%s)",
                                  (names,)).fetchall()
        return {str(n): int(p) for n, g, p in rows if self.generations.get(str(n)) == int(g)}

    def _drop_connection(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except psycopg.Error:
                pass
            self._conn = None

    def _publish(self, seen: dict[str, int]) -> None:
        """Publish what the replica has replayed; fall back to the primary when a move waited too long."""
        now = time.monotonic()
        ready: list[tuple[str, int]] = []
        with self._gate:
            if self._lagging:
                want = dict(self.positions)
                want.update(self._owed)
                if all(seen.get(n, -1) >= p for n, p in want.items() if n in self.gated):
                    self._lagging = False
                    self._owed.clear()
                    log.info("reads go to the replica (it has replayed every projection's position)")
                return
            for name, (position, since) in list(self._pending.items()):
                replayed = seen.get(name, -1)
                if replayed >= position:
                    del self._pending[name]
                    ready.append((name, replayed))
                elif replayed > self.positions.get(name, 0):
                    ready.append((name, replayed))  # part of the way: publish what is there
            late = [n for n, (_, since) in self._pending.items() if now - since > self.lag_bound]
        for name, position in ready:
            super().moved_to(name, position)
        if late:
            self._fall_back(f"the replica is more than {self.lag_bound} s behind ({', '.join(late)})")

    def _fall_back(self, why: str) -> None:
        """Send reads to the primary and publish every waiting move now (the primary has them)."""
        with self._gate:
            pending = {n: p for n, (p, _) in self._pending.items()}
            self._pending.clear()
            was = self._lagging
            self._lagging = True
            self._owed.update({n: max(p, self._owed.get(n, 0)) for n, p in pending.items()})
            self._gate.notify_all()
        if not was:
            log.warning("reads go to the primary: %s", why)
        for name, position in pending.items():
            super().moved_to(name, position)


class ReadPool:
    """The pool queries read from: the replica's while `ReplicaProgress` says it is caught up, else the primary's.

    Only `connection()`: what reads use. Writers (sessions, API keys, idempotency, secrets) hold the primary's
    pool itself (`ReadStore.primary`).
    """

    def __init__(self, primary: ConnectionPool, replica: ConnectionPool | None = None,
                 gate: Callable[[], bool] | None = None) -> None:
        self.primary = primary
        self.replica = replica
        self._on_replica = gate or (lambda: False)

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
        """In autocommit (`projections/autocommit.py`): a reader that needs a transaction opens one."""
        pool = self.replica if self.replica is not None and self._on_replica() else self.primary
        with autocommit(pool, timeout) as conn:
            yield conn

    def close(self) -> None:
        if self.replica is not None:
            self.replica.close()
