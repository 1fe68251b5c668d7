"""Applying one batch of events to one generation exactly once, and stopping at an event it cannot apply.

A batch and the new position commit in one transaction while the
generation's row is locked, so a crash or a second runner can never apply an
event twice or skip one. When the batch fails, it is applied again event by
event, each in a savepoint, so everything before the failing event commits;
the generation then stops just before that event, with the error and the time
of the next attempt recorded by the `RetryPolicy` (`projections/failures.py`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import psycopg
from eventsourcing.utils import get_topic
from psycopg_pool import ConnectionPool

from projections.base import Projection, Tables
from projections.failures import CLEARED, FAILURE_COLUMNS, META, Failure, RetryPolicy, error_text, failure_of
from projections.generations import CHANNEL, STORED_SHAPE
from projections.log import Undecodable

log = logging.getLogger(__name__)

Moved = Callable[[str, int, int], None]
"""Told (name, generation, position) after a commit moved a generation."""

Stopped = Callable[[str, int, Failure], None]
"""Told (name, generation, failure) after a generation stopped at an event."""


class UndecodableEvent(Exception):
    """A stored event this code cannot read; a projection reading its topic stops at it."""


def apply(pool: ConnectionPool, projection: Projection, gen: int, start: int, end: int,
          notes: list[tuple[int, Any]], skips: set[int], policy: RetryPolicy, moved: Moved, stopped: Stopped,
          clean: frozenset[int] | set[int] = frozenset()) -> int:
    """Apply the events after `start` up to `end` (but `skips`) to generation `gen`; return the new position, or -1.

    The whole batch first; when it fails, event by event up to the one that
    fails, which stops the generation there. `clean`: ids of events already
    known to keep the text rule (`EventLog.read`).

    One batch at a time per projection object (`_lock_of`): handlers keep a
    batch's rows on the object until `flush`, and a rebuild in a serving
    process fills its new generation on one thread while the runner applies
    the tail of the active one on another, with the same object.
    """
    with _lock_of(projection):
        try:
            return apply_batch(pool, projection, gen, start, end, notes, skips, moved, clean)
        except Exception as exc:  # find the event, apply what comes before it, stop there
            log.info("projection %s: the batch after position %d failed (%s); applying it event by event",
                     projection.name, start, error_text(exc))
            return apply_each(pool, projection, gen, start, end, notes, skips, policy, moved, stopped, clean)


_LOCKS_GUARD = threading.Lock()


def _lock_of(projection: Projection) -> threading.RLock:
    """The lock that lets one thread at a time apply batches with `projection` (made on first use)."""
    lock: threading.RLock | None = getattr(projection, "_batch_lock", None)
    if lock is None:
        with _LOCKS_GUARD:
            lock = getattr(projection, "_batch_lock", None)
            if lock is None:
                lock = threading.RLock()
                projection._batch_lock = lock  # type: ignore[attr-defined]
    return lock


def apply_batch(pool: ConnectionPool, projection: Projection, gen: int, start: int, end: int,
                notes: list[tuple[int, Any]], skips: set[int], moved: Moved,
                clean: frozenset[int] | set[int] = frozenset()) -> int:
    """Apply the batch in one transaction with the new position (nothing when another runner moved the row)."""
    name = projection.name
    tables = Tables(name, gen, projection.tables)
    with pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
        locked = cur.execute(
            f"SELECT position, blocked_event, {STORED_SHAPE} FROM {META} WHERE name=%s AND generation=%s FOR UPDATE",
            (name, gen),
        ).fetchone()
        if locked is None or int(locked[0]) != start:
            return int(locked[0]) if locked else -1
        if _newer(projection, gen, int(locked[2])):
            return -1
        projection.prepare(cur, tables, [e for i, e in notes if i not in skips and not isinstance(e, Undecodable)])
        with conn.pipeline():  # handlers write without waiting for each round trip
            for event_id, event in notes:
                if event_id not in skips:
                    _apply_one(projection, cur, tables, event_id, event, event_id in clean)
            projection.flush(cur, tables)  # rows the handlers kept back, each written once
        cur.execute(f"UPDATE {META} SET position=%s, {CLEARED} WHERE name=%s AND generation=%s", (end, name, gen))
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"move:{name}:{gen}:{end}"))
    if locked[1] is not None:
        log.warning("projection %s generation %d moved past event %d again", name, gen, int(locked[1]))
    projection.committed(tables)
    moved(name, gen, end)
    return end


def apply_each(pool: ConnectionPool, projection: Projection, gen: int, start: int, end: int,
               notes: list[tuple[int, Any]], skips: set[int], policy: RetryPolicy, moved: Moved,
               stopped: Stopped, clean: frozenset[int] | set[int] = frozenset()) -> int:
    """Apply the batch one event at a time, each in a savepoint, up to the first event that fails."""
    name = projection.name
    tables = Tables(name, gen, projection.tables)
    failure: Failure | None = None
    with pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
        locked = cur.execute(
            f"SELECT position, {STORED_SHAPE}, {FAILURE_COLUMNS} FROM {META} WHERE name=%s AND generation=%s "
            f"FOR UPDATE", (name, gen)
        ).fetchone()
        if locked is None or int(locked[0]) != start:
            return int(locked[0]) if locked else -1
        if _newer(projection, gen, int(locked[1])):
            return -1
        before = failure_of(locked[2:])
        for event_id, event in notes:
            if event_id in skips:
                continue
            try:
                with conn.transaction():  # a savepoint: the failed event leaves nothing behind
                    _apply_one(projection, cur, tables, event_id, event, event_id in clean)
                    projection.flush(cur, tables)
            except Exception as exc:
                failure = _block(cur, policy, name, gen, event_id, event, exc, before)
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
        moved(name, gen, position)
    if failure is None:
        return end
    level = logging.ERROR if failure.failing and not (before and before.failing) else logging.WARNING
    log.log(level, "projection %s generation %d is %s", name, gen, failure.describe())
    stopped(name, gen, failure)
    return position if position > start else -1


def _newer(projection: Projection, gen: int, stored: int) -> bool:
    """Whether generation `gen` was made by newer code than this process's (a rolling deploy): then it is left alone.

    Rows this code writes would lack what the newer shape stores, and its
    handlers may not even read the topics the newer code does, so applying or
    moving the generation here would leave it wrong with nothing to say so. The
    runner gives such a projection's lease up (`ProjectionRuntime._run`); this
    check, under the generation row's lock, covers a batch already under way.
    """
    if stored <= projection.shape:
        return False
    log.warning("projection %s generation %d holds shape %d, newer than this code's %d: left to a process with "
                "newer code", projection.name, gen, stored, projection.shape)
    return True


def _block(cur: psycopg.Cursor[Any], policy: RetryPolicy, name: str, gen: int, event_id: int, event: Any,
           exc: Exception, before: Failure | None) -> Failure:
    """Record that `gen` stops just before `event_id`, with the error and when to try again."""
    again = before is not None and before.event_id == event_id
    attempts = before.attempts + 1 if again and before is not None else 1
    failing = attempts >= policy.attempts
    topic = event.topic if isinstance(event, Undecodable) else get_topic(type(event))
    error = error_text(exc)
    row = cur.execute(
        f"UPDATE {META} SET position=%s, blocked_event=%s, blocked_topic=%s, blocked_error=%s, "
        f"blocked_since=CASE WHEN %s THEN blocked_since ELSE now() END, attempts=%s, "
        f"retry_at=now() + make_interval(secs => %s), failing=%s WHERE name=%s AND generation=%s "
        f"RETURNING blocked_since, retry_at",
        (event_id - 1, event_id, topic, error, again, attempts, policy.delay(attempts), failing, name, gen),
    ).fetchone()
    assert row is not None
    return Failure(event_id, topic, error, row[0], attempts, row[1], failing)


def _apply_one(projection: Projection, cur: psycopg.Cursor[Any], tables: Tables, event_id: int, event: Any,
               checked: bool) -> None:
    if isinstance(event, Undecodable):
        raise UndecodableEvent(f"the stored event cannot be read: {event.error}")
    projection.apply(cur, tables, event, event_id, checked)
