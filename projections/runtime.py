"""The projection runtime: batched catch-up, live tail, read-your-writes, poison events, status and rebuild.

Each projection's position lives in `launchdir_projections`, one row per
(projection, generation). A batch of events and the new position commit in
one transaction while that row is locked, so a crash or a second runner can
never apply an event twice or skip one. The position advances over events the
projection does not read, so waiting on any write's position works.

An event a projection cannot apply stops that projection *at* the event: the
batch is applied again event by event (each in a savepoint) so everything
before it commits, then the event is retried with backoff and finally marked
`failing` (`projections/failures.py`). The other projections keep moving, and
waits on a failing one end at once with `ReadModelBehind` (a 503).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import psycopg
from eventsourcing.utils import get_topic
from psycopg_pool import ConnectionPool

from events.errors import Conflict, FieldProblem, InvalidInput, NotFound, Unavailable
from events.text import storable
from projections.base import Projection, Tables
from projections.failures import (
    CLEARED,
    FAILURE_COLUMNS,
    META,
    SKIPS,
    Failure,
    RetryPolicy,
    Skip,
    code_fingerprint,
    error_text,
    failure_of,
    upgrade_meta,
)
from projections.log import EventLog, Undecodable

log = logging.getLogger(__name__)

CHANNEL = "launchdir_projections"
BATCH = 1000
SETUP_LOCK = 7311001  # advisory lock of set-up and of creating generations
REBUILD_LOCK = 7311003  # with hashtext(name): held by the process rebuilding that projection
BEHIND_RETRY = 1  # Retry-After (s) when a projection is only slower than the write
STUCK_RETRY = 60  # Retry-After (s) when it is stopped at an event it cannot apply


class ReadModelBehind(Unavailable):
    """A handler's answer depends on a projection that has not reached the write (a 503 with Retry-After)."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class UndecodableEvent(Exception):
    """A stored event this code cannot read; a projection reading its topic stops at it."""


class RebuildBlocked(Exception):
    """A rebuild met an event it cannot apply and spent its attempts; its generation stays `building`."""

    def __init__(self, name: str, generation: int, failure: Failure) -> None:
        super().__init__(
            f"the rebuild of {name} stopped: generation {generation} is {failure.describe()}. "
            f"The current generation keeps serving. Fix the cause and run `launchdir projections rebuild {name}` "
            f"again to resume, or skip the event: `launchdir projections skip {name} {failure.event_id} --reason ...`"
        )
        self.failure = failure


@dataclass
class Status:
    name: str
    generation: int
    status: str  # active, building
    position: int
    head: int
    failure: Failure | None = None  # why the generation is stopped, when it is
    interrupted: bool = False  # a `building` generation no rebuild is working on

    @property
    def lag(self) -> int:
        return max(0, self.head - self.position)

    @property
    def state(self) -> str:
        """What people see: `failing` or `retrying` when stopped at an event, `interrupted`, else the status."""
        if self.failure is not None:
            return "failing" if self.failure.failing else "retrying"
        return "interrupted" if self.interrupted else self.status


class ProjectionRuntime:
    """Runs projections in this process, or only watches those run elsewhere."""

    def __init__(self, pool: ConnectionPool, conninfo: str, events: EventLog, projections: Iterable[Projection],
                 retry: RetryPolicy | None = None):
        self.pool = pool
        self.conninfo = conninfo
        self.events = events
        self.projections = {p.name: p for p in projections}
        self.retry_policy = retry or RetryPolicy()
        self.positions: dict[str, int] = {}
        self.generations: dict[str, int] = {}
        self.stuck: dict[str, int] = {}  # failing active generations: name -> the event they are stopped at
        self._moved = threading.Condition()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._listeners: list[Callable[[str, int], None]] = []
        self.followed: set[str] = set()  # positions kept by other feeders (the search index), learnt by notification

    # ------------------------------------------------------------ set-up

    def setup(self) -> None:
        """Create the tracking tables (adding new columns to old ones) and a first generation for each new projection.

        Failing projections and interrupted rebuilds are logged here, so every
        start says what is wrong.
        """
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
            upgrade_meta(conn)
            for name, projection in self.projections.items():
                row = conn.execute(
                    f"SELECT generation, position, {FAILURE_COLUMNS} FROM {META} WHERE name=%s AND status='active'",
                    (name,),
                ).fetchone()
                if row is None:
                    self._create_generation(conn, projection, 1, status="active")
                    row = (1, 0, None)
                self.generations[name], self.positions[name] = int(row[0]), int(row[1])
                self._set_stuck(name, failure_of(row[2:]))
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

    def _create_generation(self, conn: psycopg.Connection[Any], p: Projection, gen: int, status: str) -> Tables:
        tables = Tables(p.name, gen, p.tables)
        with conn.cursor() as cur:
            for table in tables.all():
                cur.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
            p.create(cur, tables)
            cur.execute(
                f"INSERT INTO {META} (name, generation, position, status, code) VALUES (%s, %s, 0, %s, %s)",
                (p.name, gen, status, code_fingerprint(p)),
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
        """Apply at most one batch to one generation; return the new position, or -1 when idle.

        A generation stopped at an event waits for its next attempt (idle until
        then). Events staff skipped are passed over.
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
        notes = self.events.read(after=start, upto=head, topics=self.projections[name].topics(), limit=batch)
        end = notes[-1][0] if len(notes) == batch else head
        try:
            return self._apply_batch(name, gen, start, end, notes, skips)
        except Exception as exc:  # find the event, apply what comes before it, stop there
            log.info("projection %s: the batch after position %d failed (%s); applying it event by event",
                     name, start, error_text(exc))
            return self._apply_each(name, gen, start, end, notes, skips)

    def _apply_batch(self, name: str, gen: int, start: int, end: int, notes: list[tuple[int, Any]],
                     skips: set[int]) -> int:
        projection = self.projections[name]
        tables = Tables(name, gen, projection.tables)
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            locked = cur.execute(
                f"SELECT position, blocked_event FROM {META} WHERE name=%s AND generation=%s FOR UPDATE", (name, gen)
            ).fetchone()
            if locked is None or int(locked[0]) != start:
                return int(locked[0]) if locked else -1
            with conn.pipeline():  # handlers write without waiting for each round trip
                for event_id, event in notes:
                    if event_id not in skips:
                        _apply_one(projection, cur, tables, event)
            cur.execute(f"UPDATE {META} SET position=%s, {CLEARED} WHERE name=%s AND generation=%s", (end, name, gen))
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"move:{name}:{gen}:{end}"))
        if locked[1] is not None:
            log.warning("projection %s generation %d moved past event %d again", name, gen, int(locked[1]))
        self._after_move(name, gen, end)
        return end

    def _apply_each(self, name: str, gen: int, start: int, end: int, notes: list[tuple[int, Any]],
                    skips: set[int]) -> int:
        """Apply the batch one event at a time, each in a savepoint, up to the first event that fails."""
        projection = self.projections[name]
        tables = Tables(name, gen, projection.tables)
        failure: Failure | None = None
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            locked = cur.execute(
                f"SELECT position, {FAILURE_COLUMNS} FROM {META} WHERE name=%s AND generation=%s FOR UPDATE", (name, gen)
            ).fetchone()
            if locked is None or int(locked[0]) != start:
                return int(locked[0]) if locked else -1
            before = failure_of(locked[1:])
            for event_id, event in notes:
                if event_id in skips:
                    continue
                try:
                    with conn.transaction():  # a savepoint: the failed event leaves nothing behind
                        _apply_one(projection, cur, tables, event)
                except Exception as exc:
                    failure = self._block(cur, name, gen, event_id, event, exc, before)
                    break
            position = failure.event_id - 1 if failure is not None else end
            if failure is None:
                cur.execute(f"UPDATE {META} SET position=%s, {CLEARED} WHERE name=%s AND generation=%s",
                            (end, name, gen))
            if position > start:
                cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"move:{name}:{gen}:{position}"))
            if failure is not None and failure.failing:
                cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"fail:{name}:{gen}:{failure.event_id}"))
        if position > start:
            self._after_move(name, gen, position)
        if failure is None:
            return end
        level = logging.ERROR if failure.failing and not (before and before.failing) else logging.WARNING
        log.log(level, "projection %s generation %d is %s", name, gen, failure.describe())
        if gen == self.generations.get(name):
            self._set_stuck(name, failure)
        return position if position > start else -1

    def _block(self, cur: psycopg.Cursor[Any], name: str, gen: int, event_id: int, event: Any, exc: Exception,
               before: Failure | None) -> Failure:
        """Record that `gen` stops just before `event_id`, with the error and when to try again."""
        again = before is not None and before.event_id == event_id
        attempts = before.attempts + 1 if again and before is not None else 1
        failing = attempts >= self.retry_policy.attempts
        topic = event.topic if isinstance(event, Undecodable) else get_topic(type(event))
        error = error_text(exc)
        row = cur.execute(
            f"UPDATE {META} SET position=%s, blocked_event=%s, blocked_topic=%s, blocked_error=%s, "
            f"blocked_since=CASE WHEN %s THEN blocked_since ELSE now() END, attempts=%s, "
            f"retry_at=now() + make_interval(secs => %s), failing=%s WHERE name=%s AND generation=%s "
            f"RETURNING blocked_since, retry_at",
            (event_id - 1, event_id, topic, error, again, attempts, self.retry_policy.delay(attempts), failing, name, gen),
        ).fetchone()
        assert row is not None
        return Failure(event_id, topic, error, row[0], attempts, row[1], failing)

    def catch_up(self, name: str, generation: int | None = None, progress: Callable[[int, int], None] | None = None) -> int:
        """Apply batches until the projection reaches the head seen at the start, or stops at an event; return its position."""
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
            except Exception:  # the database itself failing: the other projections still get their turn
                log.exception("projection %s could not run; will retry", name)
                self._stop.wait(1.0)
        return moved

    def retry_now(self) -> None:
        """Make every stopped active generation due for its next attempt (a start after a code fix tries at once)."""
        with self.pool.connection() as conn:
            conn.execute(
                f"UPDATE {META} SET retry_at=now() WHERE status='active' AND blocked_event IS NOT NULL AND name = ANY(%s)",
                (list(self.projections),),
            )

    def _position_of(self, name: str, generation: int | None) -> int:
        gen = generation if generation is not None else self.generations[name]
        with self.pool.connection() as conn:
            row = conn.execute(f"SELECT position FROM {META} WHERE name=%s AND generation=%s", (name, gen)).fetchone()
        return int(row[0]) if row else 0

    def _failure(self, name: str, generation: int) -> tuple[Failure | None, float]:
        """Why a generation is stopped (None when it is not), and the seconds until its next attempt."""
        with self.pool.connection() as conn:
            row = conn.execute(
                f"SELECT {FAILURE_COLUMNS}, greatest(0, extract(epoch FROM retry_at - now())) "
                f"FROM {META} WHERE name=%s AND generation=%s",
                (name, generation),
            ).fetchone()
        if row is None:
            return None, 0.0
        return failure_of(row), float(row[7] or 0)

    def follow(self, name: str) -> None:
        """Track a position another feeder publishes on the projections channel (see `announce`)."""
        self.followed.add(name)

    @staticmethod
    def announce(conn: Any, name: str, position: int) -> None:
        """Tell every process's runtime (in this transaction's commit) that the followed `name` reached `position`."""
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"move:{name}:0:{position}"))

    def _after_move(self, name: str, gen: int, position: int) -> None:
        if gen == self.generations.get(name):
            self._moved_to(name, position)

    def _moved_to(self, name: str, position: int) -> None:
        with self._moved:
            if position > self.positions.get(name, 0):
                self.positions[name] = position
            if self.stuck.get(name, position + 1) <= position:
                del self.stuck[name]
            self._moved.notify_all()
        for listener in self._listeners:
            listener(name, position)

    def _set_stuck(self, name: str, failure: Failure | None) -> None:
        """Remember whether the active generation of `name` is failing (waits on it then end at once)."""
        with self._moved:
            if failure is not None and failure.failing:
                self.stuck[name] = failure.event_id
            else:
                self.stuck.pop(name, None)
            self._moved.notify_all()

    # ------------------------------------------------------------ threads

    def start(self, run_projectors: bool = True) -> None:
        """Start the listener, and the runner too unless projectors run in other processes.

        A runner starting retries stopped projections at once: a restart after
        a code fix clears them without waiting for the slow retry.
        """
        self._stop.clear()
        self._spawn(self._listen, "projection-listener")
        if run_projectors:
            self.retry_now()
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
            try:
                self._refresh_generations()
            except psycopg.Error:
                log.warning("projection runner could not read the generations; retrying", exc_info=True)
                self._stop.wait(1.0)
                continue
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
        kind, name, gen, value = payload.split(":")
        if name in self.followed and kind == "move":
            self._moved_to(name, int(value))
            return
        if name not in self.projections:
            return
        if kind == "switch":
            self._refresh_generations()
        elif kind == "retry":  # staff skipped an event or asked for a retry: try now
            self._set_stuck(name, None)
            self._wake.set()
        elif int(gen) != self.generations.get(name):
            return
        elif kind == "move":
            self._moved_to(name, int(value))
        elif kind == "fail":
            with self._moved:
                self.stuck[name] = int(value)
                self._moved.notify_all()

    def _refresh_generations(self) -> None:
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"SELECT name, generation, position, {FAILURE_COLUMNS} FROM {META} WHERE status='active'"
            ).fetchall()
        for name, gen, position, *failure in rows:
            if name not in self.projections:
                continue
            if self.generations.get(name) != gen:
                self.generations[name] = int(gen)
                with self._moved:
                    self.positions[name] = int(position)
                    self._moved.notify_all()
                for listener in self._listeners:
                    listener(name, int(position))
            self._set_stuck(name, failure_of(failure))

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
        deadline = time.monotonic() + timeout
        names = list(names)
        self._wake.set()
        while True:
            with self._moved:
                if all(self.positions.get(n, 0) >= position for n in names):
                    return True
                if self._stuck_at(names, position):
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                if self._threads:
                    self._moved.wait(min(left, 0.05))
                    continue
            for n in names:
                self._poll(n)
            time.sleep(0.02)

    def require(self, names: Iterable[str], position: int, timeout: float = 2.0) -> None:
        """Like `wait_for`, for answers that depend on the projection: raise `ReadModelBehind` (a 503) when it is not there."""
        names = list(names)
        if self.wait_for(names, position, timeout):
            return
        with self._moved:
            stuck = self._stuck_at(names, position)
        if stuck:
            which = ", ".join(f"{n} (at event {e})" for n, e in stuck.items())
            raise ReadModelBehind(
                f"the change is saved, but the read model is stopped at an event it cannot apply: {which}; "
                "the answer cannot show the change until that is repaired, retry later", STUCK_RETRY)
        behind = ", ".join(n for n in names if self.positions.get(n, 0) < position)
        raise ReadModelBehind(
            f"the change is saved, but the read model ({behind}) has not caught up with it yet; retry in a moment",
            BEHIND_RETRY)

    def _stuck_at(self, names: list[str], position: int) -> dict[str, int]:
        return {n: self.stuck[n] for n in names if self.stuck.get(n, position + 1) <= position}

    def _poll(self, name: str) -> None:
        if name not in self.projections:
            self._moved_to(name, self.positions.get(name, 0))
            return
        with self.pool.connection() as conn:
            row = conn.execute(
                f"SELECT position, {FAILURE_COLUMNS} FROM {META} WHERE name=%s AND generation=%s",
                (name, self.generations[name]),
            ).fetchone()
        if row is not None:
            self._moved_to(name, int(row[0]))
            self._set_stuck(name, failure_of(row[1:]))

    # ------------------------------------------------------------ operations

    def status(self) -> list[Status]:
        """Every generation that is not retired, with why it is stopped and whether a rebuild was interrupted."""
        head = self.events.head()
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"""SELECT name, generation, status, position, {FAILURE_COLUMNS},
                       status = 'building' AND NOT EXISTS (
                           SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = %s::oid
                           AND objid = hashtext(name)::oid AND objsubid = 2
                           AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))
                    FROM {META} WHERE status <> 'retired' ORDER BY name, generation""",
                (REBUILD_LOCK,),
            ).fetchall()
        return [Status(r[0], int(r[1]), r[2], int(r[3]), head, failure_of(r[4:11]), bool(r[11]))
                for r in rows if r[0] in self.projections]

    def skips(self, name: str | None = None) -> list[Skip]:
        """Recorded skips, newest first (of one projection, or of all)."""
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"SELECT name, event_id, topic, reason, actor, skipped_at FROM {SKIPS} "
                "WHERE %s::text IS NULL OR name = %s ORDER BY skipped_at DESC, name",
                (name, name),
            ).fetchall()
        return [Skip(r[0], int(r[1]), r[2], r[3], r[4], r[5]) for r in rows]

    def skip(self, name: str, event_id: int, reason: str, actor: str) -> Skip:
        """Record that `name` passes over one event (who, when, why); a generation stopped at it moves on at once.

        Only an event some generation of `name` has not applied yet can be
        skipped (the active one, or a rebuild stopped at it). Rebuilds honour
        recorded skips, so a rebuilt generation equals the one it replaces.
        """
        projection = self._known(name)
        reason = storable(reason.strip())
        if not reason:
            raise InvalidInput("say why the event is skipped", [FieldProblem("reason", "required", "a reason is required")])
        topic = self.events.topic_of(event_id)
        if topic is None:
            raise NotFound(f"there is no event {event_id}")
        if topic not in projection.topics():
            raise InvalidInput(f"event {event_id} is a {topic}; {name} does not read that topic, so it cannot stop on it")
        with self.pool.connection() as conn, conn.transaction():
            positions = [int(r[0]) for r in conn.execute(
                f"SELECT position FROM {META} WHERE name=%s AND status <> 'retired' FOR UPDATE", (name,)
            ).fetchall()]
            if positions and min(positions) >= event_id:
                raise Conflict(f"{name} applied event {event_id} already (it is at position {min(positions)}); "
                               "only events a generation has not reached can be skipped")
            added = conn.execute(
                f"INSERT INTO {SKIPS} (name, event_id, topic, reason, actor) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (name, event_id) DO NOTHING RETURNING skipped_at",
                (name, event_id, topic, reason, actor),
            ).fetchone()
            if added is None:
                raise Conflict(f"event {event_id} is already skipped for {name}")
            conn.execute(f"UPDATE {META} SET {CLEARED} WHERE name=%s AND blocked_event=%s AND status <> 'retired'",
                         (name, event_id))
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"retry:{name}:0:{event_id}"))
        log.warning("projection %s skips event %d (%s) by %s: %s", name, event_id, topic, actor, reason)
        if self.stuck.get(name) == event_id:
            self._set_stuck(name, None)
        self._wake.set()
        return Skip(name, event_id, topic, reason, actor, added[0])

    def retry(self, name: str) -> list[tuple[int, Failure]]:
        """Clear the stopped state of every generation of `name` so the next step tries again now (after a fix).

        Returns what was cleared: (generation, failure) pairs.
        """
        self._known(name)
        with self.pool.connection() as conn, conn.transaction():
            rows = conn.execute(
                f"SELECT generation, {FAILURE_COLUMNS} FROM {META} "
                "WHERE name=%s AND status <> 'retired' AND blocked_event IS NOT NULL FOR UPDATE",
                (name,),
            ).fetchall()
            conn.execute(f"UPDATE {META} SET {CLEARED} WHERE name=%s AND status <> 'retired'", (name,))
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"retry:{name}:0:0"))
        self._set_stuck(name, None)
        self._wake.set()
        return [(int(r[0]), f) for r in rows if (f := failure_of(r[1:])) is not None]

    def _known(self, name: str) -> Projection:
        if name not in self.projections:
            raise NotFound(f"unknown projection {name!r}; known: {', '.join(self.projections)}")
        return self.projections[name]

    def rebuild(self, name: str, progress: Callable[[int, int], None] | None = None, restart: bool = False) -> Status:
        """Build a fresh generation from event 0 while the old one serves, then switch reads to it.

        An interrupted rebuild (a generation left `building`) is resumed from
        its position when the projection's code is unchanged; otherwise, or
        with `restart`, it is thrown away and built again from event 0.
        """
        projection = self._known(name)
        with psycopg.connect(self.conninfo, autocommit=True) as guard:  # held until the switch: marks the rebuild live
            locked = guard.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (REBUILD_LOCK, name)).fetchone()
            if not (locked and locked[0]):
                raise Conflict(f"a rebuild of {name} is running in another process")
            try:
                gen = self._building(name, projection, restart)
                self._fill(name, gen, progress)
                old = self._switch(name, gen)
                self.catch_up(name, gen)
                self._drop_generations(name, old)
                self._refresh_generations()
            finally:  # at once: closing alone lets the server release it a little later
                guard.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (REBUILD_LOCK, name))
        return next(s for s in self.status() if s.name == name and s.generation == gen)

    def _building(self, name: str, projection: Projection, restart: bool) -> int:
        """The generation to build: the interrupted one when it can be resumed, else a new one."""
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SETUP_LOCK,))
            row = conn.execute(
                f"SELECT generation, position, code FROM {META} WHERE name=%s AND status='building'", (name,)
            ).fetchone()
            if row is not None and not restart and row[2] == code_fingerprint(projection):
                log.info("resuming the interrupted rebuild of %s: generation %d from position %d", name, row[0], row[1])
                conn.execute(f"UPDATE {META} SET {CLEARED} WHERE name=%s AND generation=%s", (name, row[0]))  # try at once
                return int(row[0])
            if row is not None:
                why = "as asked" if restart else "the projection's code changed since it began"
                log.info("restarting the interrupted rebuild of %s from event 0 (%s)", name, why)
                for table in Tables(name, int(row[0]), projection.tables).all():
                    conn.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
                conn.execute(f"DELETE FROM {META} WHERE name=%s AND status='building'", (name,))
            top = conn.execute(f"SELECT coalesce(max(generation), 0) FROM {META} WHERE name=%s", (name,)).fetchone()
            gen = int(top[0] if top else 0) + 1
            self._create_generation(conn, projection, gen, status="building")
        return gen

    def _fill(self, name: str, gen: int, progress: Callable[[int, int], None] | None) -> None:
        """Catch the building generation up, waiting out the retries of an event it cannot apply yet."""
        while True:
            self.catch_up(name, gen, progress)
            failure, wait = self._failure(name, gen)
            if failure is None:
                return
            if failure.failing:
                raise RebuildBlocked(name, gen, failure)
            log.warning("rebuild of %s: generation %d is %s", name, gen, failure.describe())
            time.sleep(wait)

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


def _apply_one(projection: Projection, cur: psycopg.Cursor[Any], tables: Tables, event: Any) -> None:
    if isinstance(event, Undecodable):
        raise UndecodableEvent(f"the stored event cannot be read: {event.error}")
    projection.apply(cur, tables, event)
