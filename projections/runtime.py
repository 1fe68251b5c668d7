"""The projection runtime: set-up, batched catch-up, live tail and read-your-writes, in one object.

Each projection's position lives in `launchdir_projections`, one row per
(projection, generation). The position advances over events the projection
does not read, so waiting on any write's position works. The runtime is what
the rest of the code holds; the parts it runs live next to it:

- `projections/batches.py`: applying a batch exactly once, and stopping a
  projection *at* an event it cannot apply (poison events) while the others
  keep moving.
- `projections/progress.py`: what this process knows of each projection's
  position, and the waits on it (`ReadModelBehind`, a 503, when a projection
  is failing or slower than the write).
- `projections/repairs.py`: status, skips and retries for staff.
- `projections/rebuild.py`: fresh generations, resume, switch and drop.
- `projections/reshape.py`: the rebuild a runner starts by itself when a
  projection's stored shape is behind its code (after a deploy).
- `projections/generations.py`: the channel, the locks, creating a generation.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from events.errors import NotFound
from projections import batches, collector, deferred_indexes, repairs, reshape, rounds, table_stats
from projections.base import Projection, Tables
from projections.batches import UndecodableEvent
from projections.failures import FAILURE_COLUMNS, META, SKIPS, Failure, RetryPolicy, Skip, failure_of, upgrade_meta
from projections.generations import CHANNEL, REBUILD_LOCK, SETUP_LOCK, STORED_SHAPE, create_generation
from projections.leases import Leases
from projections.log import EventLog
from projections.progress import BEHIND_RETRY, STUCK_RETRY, Progress, ReadModelBehind
from projections.read_ahead import ReadAhead
from projections.rebuild import RebuildBlocked
from projections.rebuild import rebuild as rebuild_projection
from projections.replica import ReplicaProgress
from projections.repairs import Status
from projections.retired import DROP_GRACE, DROP_PATIENCE

__all__ = [  # names other modules import from here
    "BATCH", "BEHIND_RETRY", "CHANNEL", "META", "REBUILD_LOCK", "SETUP_LOCK", "SKIPS", "STUCK_RETRY", "Failure",
    "ProjectionRuntime", "ReadModelBehind", "RebuildBlocked", "RetryPolicy", "Skip", "Status", "UndecodableEvent",
]

log = logging.getLogger(__name__)

BATCH = 1000
"""Events per transaction for the live runner: small enough that every projection it holds gets its turn soon.
Catching up over a long log uses each projection's `catch_up_batch`."""

CATCH_UPS_AT_ONCE = max(1, min(4, os.cpu_count() or 1))
"""Projections a start catches up side by side (`catch_up_all`): one per core, each a thread and a connection."""

LONG_CATCH_UP = 10_000
"""Log positions ahead from which a catch-up is long: the log is analysed first if it never was, and a generation
at position 0 fills its tables without their GIN indexes and builds them at the end (docs/performance.md)."""


class ProjectionRuntime:
    """Runs projections in this process, or only watches those run elsewhere."""

    def __init__(self, pool: ConnectionPool, conninfo: str, events: EventLog, projections: Iterable[Projection],
                 retry: RetryPolicy | None = None, replica: str | None = None):
        """`replica`: the conninfo of a streaming replica reads go to; moves then count once it has replayed
        them (`projections/replica.py`). Projecting and its bookkeeping always use `pool`, the primary."""
        self.pool = pool
        self.conninfo = conninfo
        self.events = events
        self.projections = {p.name: p for p in projections}
        for projection in self.projections.values():  # for the handlers of rare events that read earlier ones
            projection.event_log = events
        self.retry_policy = retry or RetryPolicy()
        self.generations: dict[str, int] = {}
        self.replica = ReplicaProgress(replica, self.generations, self.projections) if replica else None
        self.progress = self.replica or Progress()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.followed: set[str] = set()  # positions kept by other feeders (the search index), learnt by notification
        self.newer: set[str] = set()  # active generations made by newer code (a rolling deploy): never run here
        self._reshaper: reshape.Reshaper | None = None  # the runner's, while it runs
        self.long_catch_up = LONG_CATCH_UP
        self.drop_grace = DROP_GRACE  # after a rebuild's switch, before its old tables go (projections/retired.py)
        self.drop_patience = DROP_PATIENCE
        self.reshape_recheck = reshape.RECHECK  # a projection another process was rebuilding is looked at again

    @property
    def positions(self) -> dict[str, int]:
        """The position each projection (active generation) reached, as this process last learnt it."""
        return self.progress.positions

    @property
    def stuck(self) -> dict[str, int]:
        """Failing active generations: name -> the event they are stopped at."""
        return self.progress.stuck

    # ------------------------------------------------------------ set-up

    def setup(self) -> None:
        """Create the tracking tables (adding new columns to old ones) and a first generation for each new projection.

        Failing projections and interrupted rebuilds are logged here, so every
        start says what is wrong.
        """
        self.events.index_topics()  # a long log's index is built while the process serves
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
            upgrade_meta(conn)
            for name, projection in self.projections.items():
                row = conn.execute(
                    f"SELECT generation, position, {FAILURE_COLUMNS} FROM {META} WHERE name=%s AND status='active'",
                    (name,),
                ).fetchone()
                if row is None:
                    create_generation(conn, projection, 1, status="active")
                    row = (1, 0, None)
                self.generations[name], self.positions[name] = int(row[0]), int(row[1])
                self._set_stuck(name, failure_of(row[2:]))
                deferred_indexes.build(conn, name, int(row[0]))  # left by a long catch-up that did not finish
                with conn.cursor() as cur:
                    projection.upgrade(cur, Tables(name, int(row[0]), projection.tables))
        self._report()

    def _report(self) -> None:
        for s in self.status():
            if s.failure is not None:
                log.warning("projection %s generation %d is %s", s.name, s.generation, s.failure.describe())
            if s.interrupted:
                log.warning("projection %s: a rebuild (generation %d) was interrupted at position %d of %d; "
                            "`launchdir projections rebuild %s` resumes it", s.name, s.generation, s.position, s.head,
                            s.name)

    def tables(self, name: str) -> Tables:
        """The tables reads should use now (the active generation)."""
        return Tables(name, self.generations[name], self.projections[name].tables)

    def on_move(self, listener: Callable[[str, int], None]) -> None:
        """Call `listener(name, position)` whenever a projection moves (cache invalidation)."""
        self.progress.on_move(listener)

    # ------------------------------------------------------------ processing

    def step(self, name: str, generation: int | None = None, batch: int = BATCH, upto: int | None = None,
             ahead: ReadAhead | None = None) -> int:
        """Apply at most one batch to one generation; return the new position, or -1 when idle.

        A generation stopped at an event waits for its next attempt (idle until
        then). Events staff skipped are passed over. `ahead`: a catch-up's reader
        of the same topics, `batch` and `upto`, which reads the next batch while
        this one is applied.
        """
        gen = generation if generation is not None else self.generations[name]
        head = self.events.head() if upto is None else upto
        with self.pool.connection() as conn:
            row = conn.execute(
                f"SELECT position, coalesce(retry_at > now(), false), "
                f"ARRAY(SELECT event_id FROM {SKIPS} s WHERE s.name = m.name AND s.event_id > m.position "
                f"AND s.event_id <= %s) FROM {META} m WHERE name=%s AND generation=%s",
                (head, name, gen),
            ).fetchone()
        if row is None or int(row[0]) >= head or row[1]:
            return -1
        start, skips = int(row[0]), {int(i) for i in row[2]}
        clean: set[int] = set()
        if ahead is not None:
            notes = ahead.read(start, clean)
        else:
            notes = self.events.read(after=start, upto=head, topics=self.projections[name].topics(), limit=batch,
                                     clean=clean)
        end = notes[-1][0] if len(notes) == batch else head
        return batches.apply(self.pool, self.projections[name], gen, start, end, notes, skips, self.retry_policy,
                             self._after_move, self._stopped, clean)

    def catch_up(self, name: str, generation: int | None = None, progress: Callable[[int, int], None] | None = None,
                 analyse: bool = True) -> int:
        """Apply batches until the projection reaches the head seen at the start, or stops at an event; return its position.

        A long one from position 0 fills its tables without their GIN indexes and builds them at the end, then
        (`analyse`; a rebuild does it itself, after its own builds) gives the planner statistics of the new tables
        (`projections/table_stats.py`).
        """
        target = self.events.head()
        start = self._position_of(name, generation)
        deferred = False
        long = target - start >= self.long_catch_up
        fresh = long and start == 0
        if long:
            self.events.analyse_if_never_analysed()
            if fresh:
                deferred = self._defer_indexes(name, generation)
        position = -1
        batch = self.projections[name].catch_up_batch
        ahead = ReadAhead(self.events, self.projections[name].topics(), target, batch)
        try:
            with collector.paused() if long else nullcontext():  # its objects make no cycles (`projections/collector.py`)
                while True:
                    moved = self.step(name, generation, batch=batch, upto=target, ahead=ahead)
                    if moved < 0:
                        return max(position, self._position_of(name, generation))
                    position = moved
                    if progress:
                        progress(position, target)
        finally:
            ahead.close()
            if deferred:
                self._build_indexes(name, generation)
            if fresh and analyse:
                table_stats.analyse(self.pool, self._tables_of(name, generation))

    def catch_up_all(self, names: Iterable[str] | None = None, at_once: int | None = None) -> dict[str, Exception]:
        """Catch every projection (or `names`) up, `at_once` at a time; the errors of those that could not run.

        Each catch-up is one Python thread and its connections, and one alone
        leaves the second core mostly idle (Python and PostgreSQL take turns),
        so a start over a long log catches up `CATCH_UPS_AT_ONCE` of them side
        by side (docs/performance.md). A projection stopped at an event it
        cannot apply is not an error here: its catch-up returns, as alone.
        """
        todo = list(self.projections if names is None else names)
        failed: dict[str, Exception] = {}
        with ThreadPoolExecutor(max_workers=max(1, at_once or CATCH_UPS_AT_ONCE),
                                thread_name_prefix="launchdir-catch-up") as pool:
            running = {name: pool.submit(self.catch_up, name) for name in todo}
        for name, done in running.items():
            error = done.exception()
            if isinstance(error, Exception):
                failed[name] = error
        return failed

    def _defer_indexes(self, name: str, generation: int | None) -> bool:
        """Drop the GIN indexes (and `deferred_btrees`) of a generation about to catch up from position 0; True when
        there were any.

        Kept up row by row, they are most of what PostgreSQL does for a
        listing (`listing_view`: six of them on text vectors, trigrams and
        arrays); built once over the filled tables they cost a fraction of
        that. Reads in between still answer, by scans. A catch-up that stops
        early (an event it cannot apply) builds them all the same; a process
        that dies in between leaves their definitions, and the next start
        builds them (`setup`).
        """
        with self.pool.connection() as conn, conn.transaction():
            return deferred_indexes.defer(conn, name, self._tables_of(name, generation),
                                          self.projections[name].deferred_btrees) > 0

    def _tables_of(self, name: str, generation: int | None) -> Tables:
        """The tables of `generation`, or of the active one."""
        gen = generation if generation is not None else self.generations[name]
        return Tables(name, gen, self.projections[name].tables)

    def _build_indexes(self, name: str, generation: int | None) -> None:
        deferred_indexes.build_in_parallel(self.pool, name, self._tables_of(name, generation).generation)

    def run_all_once(self, names: Iterable[str] | None = None) -> bool:
        """One batch for each projection (or each of `names`); True if any moved."""
        moved = False
        for name in self.projections if names is None else names:
            try:
                if self.step(name) >= 0:
                    moved = True
            except Exception:  # the database itself failing: the other projections still get their turn
                log.exception("projection %s could not run; will retry", name)
                self._stop.wait(1.0)
        return moved

    def run_round(self, names: list[str]) -> bool:
        """One batch for each of `names` in few round trips (`projections/rounds.py`); True if any moved.

        The same batches as `run_all_once` when every one of them is within a
        batch of the head; otherwise it is `run_all_once`.
        """
        head = self.events.head()
        behind = rounds.due(self.pool, {n: self.generations[n] for n in names if n in self.generations}, head,
                            {n: self.projections[n].shape for n in names})
        if not behind:
            return False
        clean: set[int] = set()
        topics = [self.projections[d.name].topics() for d in behind]
        union = sorted(set().union(*topics)) if all(topics) else []
        notes = self.events.read_with_topics(after=min(d.position for d in behind), upto=head, topics=union,
                                             limit=BATCH + 1, clean=clean)
        if len(notes) > BATCH:
            return self.run_all_once(names)
        idle: list[rounds.Due] = []
        for d, wanted in zip(behind, topics, strict=True):
            mine = rounds.share_out(notes, d.position, wanted)
            if not mine and not d.blocked:
                idle.append(d)
                continue
            try:
                batches.apply(self.pool, self.projections[d.name], d.generation, d.position, head, mine, set(d.skips),
                              self.retry_policy, self._after_move, self._stopped, clean)
            except Exception:  # the database itself failing: the other projections still get their turn
                log.exception("projection %s could not run; will retry", d.name)
                self._stop.wait(1.0)
        for d in rounds.move_idle(self.pool, idle, head):
            self._after_move(d.name, d.generation, head)
        return True

    def retry_now(self) -> None:
        """Make every stopped active generation due for its next attempt (a start after a code fix tries at once)."""
        repairs.retry_due(self.pool, list(self.projections))

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

    def _after_move(self, name: str, gen: int, position: int) -> None:
        if gen == self.generations.get(name):
            self.progress.moved_to(name, position)

    def _stopped(self, name: str, gen: int, failure: Failure) -> None:
        if gen == self.generations.get(name):
            self._set_stuck(name, failure)

    def _set_stuck(self, name: str, failure: Failure | None) -> None:
        """Remember whether the active generation of `name` is failing (waits on it then end at once)."""
        self.progress.set_stuck(name, failure)

    # ------------------------------------------------------------ threads

    def start(self, run_projectors: bool = True) -> None:
        """Start the listener, and the runner too unless projectors run in other processes.

        A runner starting retries stopped projections at once: a restart after
        a code fix clears them without waiting for the slow retry. The runner
        also rebuilds the projections it holds whose stored shape is behind the
        code (`projections/reshape.py`); a process without one only says so.
        """
        self._stop.clear()
        self._spawn(self._listen, "projection-listener")
        if run_projectors:
            self.retry_now()
            self._spawn(self._run, "projection-runner")
        else:
            reshape.note_elsewhere(self.pool, self.projections)

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def wake(self, _position: int = 0) -> None:
        """Tell the runner that new events were appended in this process."""
        self._wake.set()

    def _run(self) -> None:
        """Step the projections this process holds the lease of (`projections/leases.py`), taking over free ones.

        A projection it holds whose stored shape is behind the code is rebuilt
        on a thread of its own meanwhile (`projections/reshape.py`).
        """
        leases = Leases(self.conninfo, self.projections)
        reshaper = self._reshaper = reshape.Reshaper(self, self._stop, self.retry_policy.slow, self.reshape_recheck)
        try:
            while not self._stop.is_set():
                try:
                    self._refresh_generations()
                except psycopg.Error:
                    log.warning("projection runner could not read the generations; retrying", exc_info=True)
                    self._stop.wait(1.0)
                    continue
                held = leases.take(exclude=self.newer)
                reshaper.held(held)
                try:
                    moved = self.run_round([n for n in self.projections if n in held])
                except psycopg.Error:  # the round's shared statements failed: the next round tries again
                    log.warning("projection round failed; retrying", exc_info=True)
                    self._stop.wait(1.0)
                    continue
                if not moved:
                    self._wake.wait(0.5)
                    self._wake.clear()
        finally:
            leases.close()
            reshaper.close()

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
        kind, name, gen, value = payload.split(":")
        if name in self.followed and kind == "move":
            self.progress.moved_to(name, int(value))
            return
        if name not in self.projections:
            return
        if kind == "switch":
            self._refresh_generations()
        elif kind == "retry":  # staff skipped an event or asked for a retry: try now
            self._set_stuck(name, None)
            if self._reshaper is not None:  # a shape rebuild stopped at that event too
                self._reshaper.retry_now(name)
            self._wake.set()
        elif int(gen) != self.generations.get(name):
            return
        elif kind == "move":
            self.progress.moved_to(name, int(value))
        elif kind == "fail":
            self.progress.failing_at(name, int(value))

    def _refresh_generations(self) -> None:
        """Learn each active generation, its position, whether it is failing, and whether newer code made it.

        A generation of a higher shape than this code's was made by a newer
        deploy (`projections/reshape.py` rebuilt it there): this process's
        runner gives its lease up so a process with that code runs it, and
        never applies to it (rows of the old shape would go unnoticed).
        """
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"SELECT name, generation, position, {STORED_SHAPE}, {FAILURE_COLUMNS} FROM {META} "
                f"WHERE status='active'"
            ).fetchall()
        for name, gen, position, stored, *failure in rows:
            if name not in self.projections:
                continue
            if self.generations.get(name) != gen:
                self.generations[name] = int(gen)
                self.progress.switched(name, int(position))
            self._set_stuck(name, failure_of(failure))
            newer = int(stored) > self.projections[name].shape
            if newer and name not in self.newer:
                log.warning("projection %s: its generation %d holds shape %d, newer than this code's %d; this process "
                            "leaves it to one with newer code", name, gen, int(stored), self.projections[name].shape)
            (self.newer.add if newer else self.newer.discard)(name)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads.clear()

    # ------------------------------------------------------------ read-your-writes

    def wait_for(self, names: Iterable[str], position: int, timeout: float = 2.0) -> bool:
        """Block until every named projection has processed `position` (bounded); True if it did.

        Returns False at once when one of them is failing at an event at or
        before `position` (it cannot get there by waiting). With runners or a
        listener in this process the wait is on a condition; without them (a
        CLI) the database is polled.
        """
        self._wake.set()
        return self.progress.wait(list(names), position, timeout, lambda: bool(self._threads), self._poll)

    async def wait_for_async(self, names: Iterable[str], position: int, timeout: float = 2.0) -> bool:
        """`wait_for` on the event loop: the same answer, without holding a thread while the projections move.

        With runners or a listener in this process (every server: the listener
        hears the moves of projections run by other processes) the wait is an
        event the reporting thread sets through the loop; without them the
        polling `wait_for` runs in a thread.
        """
        names = list(names)
        self._wake.set()
        if not self._threads:
            return await asyncio.to_thread(self.wait_for, names, position, timeout)
        return await self.progress.wait_async(names, position, timeout)

    def require(self, names: Iterable[str], position: int, timeout: float = 2.0) -> None:
        """Like `wait_for`, for answers that depend on the projection: raise `ReadModelBehind` (a 503) when it is not there."""
        names = list(names)
        if not self.wait_for(names, position, timeout):
            raise self.progress.behind(names, position)

    def _poll(self, name: str) -> None:
        if name not in self.projections:
            self.progress.moved_to(name, self.positions.get(name, 0))
            return
        with self.pool.connection() as conn:
            row = conn.execute(
                f"SELECT position, {FAILURE_COLUMNS} FROM {META} WHERE name=%s AND generation=%s",
                (name, self.generations[name]),
            ).fetchone()
        if row is not None:
            self.progress.moved_to(name, int(row[0]))
            self._set_stuck(name, failure_of(row[1:]))

    # ------------------------------------------------------------ operations (projections/repairs.py, rebuild.py)

    def status(self) -> list[Status]:
        """Every generation that is not retired, with why it is stopped and whether a rebuild was interrupted."""
        return repairs.status(self.pool, self.events.head(), self.projections)

    def reshaping(self) -> dict[str, tuple[int, int]]:
        """Projections whose active generation's shape is behind the code's: name -> (stored, code) (a rebuild is due)."""
        return reshape.behind(self.pool, self.projections)

    def skips(self, name: str | None = None) -> list[Skip]:
        """Recorded skips, newest first (of one projection, or of all)."""
        return repairs.skips(self.pool, name)

    def skip(self, name: str, event_id: int, reason: str, actor: str) -> Skip:
        """Record that `name` passes over one event (who, when, why); a generation stopped at it moves on at once.

        Only an event some generation of `name` has not applied yet can be
        skipped (the active one, or a rebuild stopped at it). Rebuilds honour
        recorded skips, so a rebuilt generation equals the one it replaces.
        """
        skipped = repairs.skip(self.pool, self.events, self._known(name), event_id, reason, actor)
        if self.stuck.get(name) == event_id:
            self._set_stuck(name, None)
        self._wake.set()
        return skipped

    def retry(self, name: str) -> list[tuple[int, Failure]]:
        """Clear the stopped state of every generation of `name` so the next step tries again now (after a fix).

        Returns what was cleared: (generation, failure) pairs.
        """
        self._known(name)
        cleared = repairs.retry(self.pool, name)
        self._set_stuck(name, None)
        self._wake.set()
        return cleared

    def rebuild(self, name: str, progress: Callable[[int, int], None] | None = None, restart: bool = False) -> Status:
        """Build a fresh generation from event 0 while the old one serves, then switch reads to it.

        An interrupted rebuild (a generation left `building`) is resumed from
        its position when the projection's code is unchanged; otherwise, or
        with `restart`, it is thrown away and built again from event 0.
        """
        return rebuild_projection(self, self._known(name), progress, restart, self._refresh_generations,
                                  self.drop_grace, self.drop_patience)

    def _known(self, name: str) -> Projection:
        if name not in self.projections:
            raise NotFound(f"unknown projection {name!r}; known: {', '.join(self.projections)}")
        return self.projections[name]
