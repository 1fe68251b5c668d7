"""Staff repairs of stopped projections: the status of every generation, skipping an event, retrying now.

A generation stopped at an event says so in its row (`projections/failures.py`).
Staff see it in the status, then either skip the event with a recorded reason
(`launchdir_projection_skips`: who, when, why; runners and rebuilds honour it)
or, after a fix, clear the stopped state so the next step tries again at once.
Both announce a `retry` on the projections channel, so every runner acts on it
without waiting for its next scheduled attempt.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from psycopg_pool import ConnectionPool

from events.errors import Conflict, FieldProblem, InvalidInput, NotFound
from events.text import storable
from projections.base import Projection
from projections.failures import CLEARED, FAILURE_COLUMNS, META, SKIPS, Failure, Skip, failure_of
from projections.generations import CHANNEL, REBUILD_LOCK
from projections.log import EventLog

log = logging.getLogger(__name__)


@dataclass
class Status:
    """One generation as staff see it: where it is, how far behind the log, and why it is stopped."""

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


def status(pool: ConnectionPool, head: int, projections: Mapping[str, Projection]) -> list[Status]:
    """Every generation of `projections` that is not retired: why it is stopped, whether a rebuild was interrupted."""
    with pool.connection() as conn:
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
            for r in rows if r[0] in projections]


def skips(pool: ConnectionPool, name: str | None = None) -> list[Skip]:
    """Recorded skips, newest first (of one projection, or of all)."""
    with pool.connection() as conn:
        rows = conn.execute(
            f"SELECT name, event_id, topic, reason, actor, skipped_at FROM {SKIPS} "
            "WHERE %s::text IS NULL OR name = %s ORDER BY skipped_at DESC, name",
            (name, name),
        ).fetchall()
    return [Skip(r[0], int(r[1]), r[2], r[3], r[4], r[5]) for r in rows]


def skip(pool: ConnectionPool, events: EventLog, projection: Projection, event_id: int, reason: str,
         actor: str) -> Skip:
    """Record that `projection` passes over one event (who, when, why) and clear a generation stopped at it.

    Only an event some generation of it has not applied yet can be skipped
    (the active one, or a rebuild stopped at it). Rebuilds honour recorded
    skips, so a rebuilt generation equals the one it replaces.
    """
    name = projection.name
    reason = storable(reason.strip())
    if not reason:
        raise InvalidInput("say why the event is skipped", [FieldProblem("reason", "required", "a reason is required")])
    topic = events.topic_of(event_id)
    if topic is None:
        raise NotFound(f"there is no event {event_id}")
    if topic not in projection.topics():
        raise InvalidInput(f"event {event_id} is a {topic}; {name} does not read that topic, so it cannot stop on it")
    with pool.connection() as conn, conn.transaction():
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
    return Skip(name, event_id, topic, reason, actor, added[0])


def retry(pool: ConnectionPool, name: str) -> list[tuple[int, Failure]]:
    """Clear the stopped state of every generation of `name` so the next step tries again now (after a fix).

    Returns what was cleared: (generation, failure) pairs.
    """
    with pool.connection() as conn, conn.transaction():
        rows = conn.execute(
            f"SELECT generation, {FAILURE_COLUMNS} FROM {META} "
            "WHERE name=%s AND status <> 'retired' AND blocked_event IS NOT NULL FOR UPDATE",
            (name,),
        ).fetchall()
        conn.execute(f"UPDATE {META} SET {CLEARED} WHERE name=%s AND status <> 'retired'", (name,))
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"retry:{name}:0:0"))
    return [(int(r[0]), f) for r in rows if (f := failure_of(r[1:])) is not None]


def retry_due(pool: ConnectionPool, names: list[str]) -> None:
    """Make every stopped active generation of `names` due for its next attempt (a start after a fix tries at once)."""
    with pool.connection() as conn:
        conn.execute(
            f"UPDATE {META} SET retry_at=now() WHERE status='active' AND blocked_event IS NOT NULL AND name = ANY(%s)",
            (names,),
        )
