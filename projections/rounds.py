"""One round of the live runner over the projections this process holds, in few round trips.

Stepped one by one, each projection costs four round trips and a commit per
round (the head, its row, its events, its batch), even when none of the round's
events is one it reads: its position must still move, since read-your-writes
waits on any write's position. During a burst of votes on a busy server, a
round of the seventeen projections took up to a second, and every answer
waiting for the views waited as long (docs/performance.md, "Voting burst").

A round here reads every held projection's row in one statement and the log
once (the union of their topics), and shares the events out by topic. Each
projection with events to apply still gets its own transaction
(`projections/batches.py`, unchanged); those with none move together in one
statement that, like `apply_batch`, moves only a row still at the position read
(a row another runner moved is left alone), and announces each move in the same
commit. When some projection is more than a batch behind (a catch-up, a fresh
generation), the shared read holds more than a batch and the runner steps
each projection on its own for that round.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from psycopg_pool import ConnectionPool

from projections.failures import CLEARED, META, SKIPS
from projections.generations import CHANNEL


@dataclass(frozen=True)
class Due:
    """A held projection behind the head: where its active generation is, and what it passes over."""

    name: str
    generation: int
    position: int
    skips: frozenset[int]
    blocked: bool  # stopped at an event before: its next batch goes through `apply_batch`, which logs the recovery


def due(pool: ConnectionPool, generations: dict[str, int], head: int, shapes: dict[str, int]) -> list[Due]:
    """The held generations behind `head` and not waiting for a retry, in one statement.

    `shapes`: each projection's shape in this code; a generation made by newer
    code (a higher stored shape, during a rolling deploy) is never due here,
    so it is neither applied nor moved by this process (`batches._newer`).
    """
    if not generations:
        return []
    names = list(generations)
    with pool.connection() as conn:
        rows = conn.execute(
            f"SELECT m.name, m.generation, m.position, m.blocked_event IS NOT NULL, "
            f"ARRAY(SELECT event_id FROM {SKIPS} s WHERE s.name = m.name AND s.event_id > m.position "
            f"AND s.event_id <= %s) "
            f"FROM {META} m JOIN unnest(%s::text[], %s::int[], %s::int[]) AS h(name, generation, shape) "
            f"ON m.name = h.name AND m.generation = h.generation "
            f"WHERE m.position < %s AND NOT coalesce(m.retry_at > now(), false) AND coalesce(m.shape, 1) <= h.shape",
            (head, names, [generations[n] for n in names], [shapes[n] for n in names], head),
        ).fetchall()
    return [Due(str(r[0]), int(r[1]), int(r[2]), frozenset(int(i) for i in r[4]), bool(r[3])) for r in rows]


def share_out(notes: list[tuple[int, str, Any]], after: int, topics: Iterable[str]) -> list[tuple[int, Any]]:
    """The events of one projection in a shared read: after its position, of its topics (none listed: all)."""
    wanted = frozenset(topics)
    return [(i, event) for i, topic, event in notes if i > after and (not wanted or topic in wanted)]


def move_idle(pool: ConnectionPool, idle: list[Due], head: int) -> list[Due]:
    """Move every generation in `idle` (no event of theirs up to `head`) to `head` in one commit; return those moved.

    A row no longer at the position read (another runner moved it) is left
    alone, as `apply_batch` leaves it. Each move is announced on the
    projections' channel in the same commit, as a batch's is.
    """
    if not idle:
        return []
    with pool.connection() as conn, conn.transaction():
        rows = conn.execute(
            f"WITH moved AS (UPDATE {META} m SET position = %s, {CLEARED} "
            f"FROM unnest(%s::text[], %s::int[], %s::bigint[]) AS v(name, generation, start) "
            f"WHERE m.name = v.name AND m.generation = v.generation AND m.position = v.start "
            f"RETURNING m.name, m.generation) "
            f"SELECT name, generation, pg_notify(%s, 'move:' || name || ':' || generation || ':' || %s) FROM moved",
            (head, [d.name for d in idle], [d.generation for d in idle], [d.position for d in idle], CHANNEL,
             str(head)),
        ).fetchall()
    moved = {(str(r[0]), int(r[1])) for r in rows}
    return [d for d in idle if (d.name, d.generation) in moved]
