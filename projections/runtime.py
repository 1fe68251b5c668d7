"""The projection runtime: batched catch-up, live tail, read-your-writes, status and rebuild.

Each projection's position lives in `launchdir_projections`, one row per
(projection, generation). A batch of events and the new position commit in
one transaction while that row is locked, so a crash or a second runner can
never apply an event twice or skip one. The position advances over events the
projection does not read, so waiting on any write's position works.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from projections.base import Projection, Tables
from projections.log import EventLog

log = logging.getLogger(__name__)

META = "launchdir_projections"
CHANNEL = "launchdir_projections"
BATCH = 1000

META_DDL = f"""
CREATE TABLE IF NOT EXISTS {META} (
    name text NOT NULL,
    generation int NOT NULL,
    position bigint NOT NULL DEFAULT 0,
    status text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    switched_at timestamptz,
    PRIMARY KEY (name, generation)
);
CREATE UNIQUE INDEX IF NOT EXISTS {META}_one_active ON {META} (name) WHERE status = 'active';
"""


@dataclass
class Status:
    name: str
    generation: int
    status: str
    position: int
    head: int

    @property
    def lag(self) -> int:
        return max(0, self.head - self.position)


class ProjectionRuntime:
    """Runs projections in this process, or only watches those run elsewhere."""

    def __init__(self, pool: ConnectionPool, conninfo: str, events: EventLog, projections: Iterable[Projection]):
        self.pool = pool
        self.conninfo = conninfo
        self.events = events
        self.projections = {p.name: p for p in projections}
        self.positions: dict[str, int] = {}
        self.generations: dict[str, int] = {}
        self._moved = threading.Condition()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._listeners: list[Callable[[str, int], None]] = []
        self.followed: set[str] = set()  # positions kept by other feeders (the search index), learnt by notification

    # ------------------------------------------------------------ set-up

    def setup(self) -> None:
        """Create the tracking table and a first generation for each new projection."""
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(7311001)")
            conn.execute(META_DDL)
            for name, projection in self.projections.items():
                row = conn.execute(
                    f"SELECT generation, position FROM {META} WHERE name=%s AND status='active'", (name,)
                ).fetchone()
                if row is None:
                    self._create_generation(conn, projection, 1, status="active")
                    row = (1, 0)
                self.generations[name], self.positions[name] = int(row[0]), int(row[1])
                with conn.cursor() as cur:
                    projection.upgrade(cur, Tables(name, int(row[0]), projection.tables))

    def _create_generation(self, conn: psycopg.Connection[Any], p: Projection, gen: int, status: str) -> Tables:
        tables = Tables(p.name, gen, p.tables)
        with conn.cursor() as cur:
            for table in tables.all():
                cur.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
            p.create(cur, tables)
            cur.execute(
                f"INSERT INTO {META} (name, generation, position, status) VALUES (%s, %s, 0, %s)",
                (p.name, gen, status),
            )
        return tables

    def tables(self, name: str) -> Tables:
        """The tables reads should use now (the active generation)."""
        return Tables(name, self.generations[name], self.projections[name].tables)

    def on_move(self, listener: Callable[[str, int], None]) -> None:
        """Call `listener(name, position)` whenever a projection moves (cache invalidation)."""
        self._listeners.append(listener)

    # ------------------------------------------------------------ processing

    def step(self, name: str, generation: int | None = None, batch: int = BATCH, upto: int | None = None) -> int:
        """Apply at most one batch to one generation; return the new position, or -1 when idle."""
        projection = self.projections[name]
        gen = generation if generation is not None else self.generations[name]
        head = self.events.head() if upto is None else upto
        with self.pool.connection() as conn:
            row = conn.execute(f"SELECT position FROM {META} WHERE name=%s AND generation=%s", (name, gen)).fetchone()
            conn.commit()
            if row is None or int(row[0]) >= head:
                return -1
            start = int(row[0])
            notes = self.events.read(after=start, upto=head, topics=projection.topics(), limit=batch)
            new_position = notes[-1][0] if len(notes) == batch else head
            with conn.transaction(), conn.cursor() as cur:
                locked = cur.execute(
                    f"SELECT position FROM {META} WHERE name=%s AND generation=%s FOR UPDATE", (name, gen)
                ).fetchone()
                if locked is None or int(locked[0]) != start:
                    return int(locked[0]) if locked else -1
                tables = Tables(name, gen, projection.tables)
                with conn.pipeline():  # handlers write without waiting for each round trip
                    for _, event in notes:
                        projection.apply(cur, tables, event)
                cur.execute(
                    f"UPDATE {META} SET position=%s WHERE name=%s AND generation=%s", (new_position, name, gen)
                )
                cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"move:{name}:{gen}:{new_position}"))
        if gen == self.generations.get(name):
            self._moved_to(name, new_position)
        return new_position

    def catch_up(self, name: str, generation: int | None = None, progress: Callable[[int, int], None] | None = None) -> int:
        """Apply batches until the projection reaches the head seen at the start; return its position."""
        target = self.events.head()
        position = -1
        while True:
            moved = self.step(name, generation, upto=target)
            if moved < 0:
                return max(position, self._position_of(name, generation))
            position = moved
            if progress:
                progress(position, target)

    def run_all_once(self) -> bool:
        """One batch for each projection; True if any moved."""
        moved = False
        for name in self.projections:
            try:
                if self.step(name) >= 0:
                    moved = True
            except Exception:  # a bad event must not stop the other projections
                log.exception("projection %s failed; will retry", name)
                time.sleep(1.0)
        return moved

    def _position_of(self, name: str, generation: int | None) -> int:
        gen = generation if generation is not None else self.generations[name]
        with self.pool.connection() as conn:
            row = conn.execute(f"SELECT position FROM {META} WHERE name=%s AND generation=%s", (name, gen)).fetchone()
        return int(row[0]) if row else 0

    def follow(self, name: str) -> None:
        """Track a position another feeder publishes on the projections channel (see `announce`)."""
        self.followed.add(name)

    @staticmethod
    def announce(conn: Any, name: str, position: int) -> None:
        """Tell every process's runtime (in this transaction's commit) that the followed `name` reached `position`."""
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"move:{name}:0:{position}"))

    def _moved_to(self, name: str, position: int) -> None:
        with self._moved:
            if position > self.positions.get(name, 0):
                self.positions[name] = position
            self._moved.notify_all()
        for listener in self._listeners:
            listener(name, position)

    # ------------------------------------------------------------ threads

    def start(self, run_projectors: bool = True) -> None:
        """Start the listener, and the runner too unless projectors run in other processes."""
        self._stop.clear()
        self._spawn(self._listen, "projection-listener")
        if run_projectors:
            self._spawn(self._run, "projection-runner")

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def wake(self, _position: int = 0) -> None:
        """Tell the runner that new events were appended in this process."""
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._refresh_generations()
            if not self.run_all_once():
                self._wake.wait(0.5)
                self._wake.clear()

    def run_forever(self) -> None:
        """For `launchdir projector`: run until stopped."""
        self.start(run_projectors=True)
        while not self._stop.is_set():
            self._stop.wait(1.0)

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f'LISTEN "{self.events.channel}"')
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._on_notify(note.channel, note.payload)
            except psycopg.Error:
                if not self._stop.is_set():
                    log.warning("projection listener lost its connection; reconnecting")
                    self._stop.wait(1.0)

    def _on_notify(self, channel: str, payload: str) -> None:
        if channel != CHANNEL:
            self._wake.set()
            return
        kind, name, gen, position = payload.split(":")
        if name in self.followed and kind == "move":
            self._moved_to(name, int(position))
            return
        if name not in self.projections:
            return
        if kind == "switch":
            self._refresh_generations()
        elif int(gen) == self.generations.get(name):
            self._moved_to(name, int(position))

    def _refresh_generations(self) -> None:
        with self.pool.connection() as conn:
            rows = conn.execute(f"SELECT name, generation, position FROM {META} WHERE status='active'").fetchall()
        for name, gen, position in rows:
            if name in self.projections and self.generations.get(name) != gen:
                self.generations[name] = int(gen)
                with self._moved:
                    self.positions[name] = int(position)
                    self._moved.notify_all()
                for listener in self._listeners:
                    listener(name, int(position))

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads.clear()

    # ------------------------------------------------------------ read-your-writes

    def wait_for(self, names: Iterable[str], position: int, timeout: float = 2.0) -> bool:
        """Block until every named projection has processed `position` (bounded); True if it did.

        With runners or a listener in this process the wait is on a condition;
        without them (a CLI) the database is polled.
        """
        deadline = time.monotonic() + timeout
        names = list(names)
        self._wake.set()
        while True:
            with self._moved:
                if all(self.positions.get(n, 0) >= position for n in names):
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                if self._threads:
                    self._moved.wait(min(left, 0.05))
                    continue
            for n in names:
                self._moved_to(n, self._position_of(n, None))
            time.sleep(0.02)

    # ------------------------------------------------------------ operations

    def status(self) -> list[Status]:
        head = self.events.head()
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"SELECT name, generation, status, position FROM {META} WHERE status <> 'retired' ORDER BY name, generation"
            ).fetchall()
        return [Status(r[0], int(r[1]), r[2], int(r[3]), head) for r in rows if r[0] in self.projections]

    def rebuild(self, name: str, progress: Callable[[int, int], None] | None = None) -> Status:
        """Build a fresh generation from event 0 while the old one serves, then switch reads to it."""
        projection = self.projections[name]
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(7311001)")
            conn.execute(f"DELETE FROM {META} WHERE name=%s AND status='building'", (name,))
            row = conn.execute(f"SELECT coalesce(max(generation), 0) FROM {META} WHERE name=%s", (name,)).fetchone()
            gen = int(row[0] if row else 0) + 1
            self._create_generation(conn, projection, gen, status="building")
        self.catch_up(name, gen, progress)
        old = self._switch(name, gen)
        self.catch_up(name, gen)
        self._drop_generations(name, old)
        self._refresh_generations()
        return next(s for s in self.status() if s.name == name and s.generation == gen)

    def _switch(self, name: str, gen: int) -> list[int]:
        with self.pool.connection() as conn, conn.transaction():
            old = [
                int(r[0])
                for r in conn.execute(
                    f"UPDATE {META} SET status='retired', switched_at=now() WHERE name=%s AND status='active' RETURNING generation",
                    (name,),
                ).fetchall()
            ]
            conn.execute(f"UPDATE {META} SET status='active', switched_at=now() WHERE name=%s AND generation=%s", (name, gen))
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"switch:{name}:{gen}:0"))
        return old

    def _drop_generations(self, name: str, generations: list[int]) -> None:
        projection = self.projections[name]
        for gen in generations:
            with self.pool.connection() as conn, conn.transaction():
                conn.execute("SET LOCAL lock_timeout = '10s'")
                for table in Tables(name, gen, projection.tables).all():
                    conn.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
                conn.execute(f"DELETE FROM {META} WHERE name=%s AND generation=%s", (name, gen))
