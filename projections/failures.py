"""Poison events: what a projection does with an event it cannot apply, and what staff do about it.

A projection stops *at* such an event: everything before it is applied, the
event itself is never silently dropped, and its generation row in
`launchdir_projections` says which event, of which topic, with which error.
The runtime retries it with backoff (`RetryPolicy`); when the attempts are
spent the generation is marked `failing` and retried at a slow pace, so a
transient cause or a code fix (and a restart) clears it without anyone's
help. Staff can also skip the event with a recorded reason (`launchdir_projection_skips`:
who, when, why) or ask for a retry at once. Other projections never wait.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from events.text import storable
from projections.ddl import create_index

META = "launchdir_projections"
SKIPS = "launchdir_projection_skips"
ERROR_CHARS = 2000  # the stored error text is cut here (a value in a message can be long)

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
CREATE TABLE IF NOT EXISTS {SKIPS} (
    name text NOT NULL,
    event_id bigint NOT NULL,
    topic text NOT NULL,
    reason text NOT NULL,
    actor text NOT NULL,
    skipped_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, event_id)
);
"""

# Columns later versions added to the generation rows; `upgrade_meta` adds the missing ones to old databases.
BLOCKED_COLUMNS = {
    "blocked_event": "bigint",  # the notification id the generation is stopped at (NULL: moving)
    "blocked_topic": "text",
    "blocked_error": "text",
    "blocked_since": "timestamptz",
    "attempts": "int NOT NULL DEFAULT 0",  # failed attempts at blocked_event
    "retry_at": "timestamptz",  # the next attempt is not made before this
    "failing": "boolean NOT NULL DEFAULT false",  # the attempts of the policy are spent
    "code": "text",  # fingerprint of the projection's code that built the generation (rebuild resume)
    "shape": "int",  # `Projection.shape` of the code that created the generation (NULL, from before: 1)
}
CLEARED = ("blocked_event=NULL, blocked_topic=NULL, blocked_error=NULL, blocked_since=NULL, attempts=0, "
           "retry_at=NULL, failing=false")


def upgrade_meta(conn: psycopg.Connection[Any]) -> None:
    """Create the runtime's tables, and add the columns an older database lacks (idempotent, at every start).

    Nothing here locks the tables when they are complete (`projections/ddl.py`): running projectors write them.
    """
    conn.execute(META_DDL)
    create_index(conn, f"{META}_one_active",
                 f"CREATE UNIQUE INDEX IF NOT EXISTS {META}_one_active ON {META} (name) WHERE status = 'active'")
    have = {r[0] for r in conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = %s",
        (META,),
    ).fetchall()}
    missing = [f"ADD COLUMN IF NOT EXISTS {name} {kind}" for name, kind in BLOCKED_COLUMNS.items() if name not in have]
    if missing:  # only then: ALTER TABLE takes a lock every runner would wait for
        conn.execute(f"ALTER TABLE {META} " + ", ".join(missing))


@dataclass(frozen=True)
class RetryPolicy:
    """How often an event a projection cannot apply is tried again.

    Attempt n+1 comes `first * 2**(n-1)` seconds after attempt n (capped);
    after `attempts` failed attempts the generation is `failing` and is tried
    every `slow` seconds from then on. The defaults spend about a minute.
    """

    first: float = 1.0
    cap: float = 60.0
    attempts: int = 6
    slow: float = 300.0

    def delay(self, failed: int) -> float:
        """Seconds before the next attempt after `failed` failed attempts."""
        if failed >= self.attempts:
            return self.slow
        return float(min(self.cap, self.first * 2 ** (failed - 1)))


@dataclass(frozen=True)
class Failure:
    """Why a generation is stopped: the event, its topic, the last error and the retry schedule."""

    event_id: int
    topic: str
    error: str
    since: datetime | None
    attempts: int
    retry_at: datetime | None
    failing: bool

    def describe(self) -> str:
        """One line for logs and the status command."""
        state = "failing" if self.failing else "retrying"
        when = f"; next attempt {self.retry_at:%Y-%m-%d %H:%M:%S %Z}" if self.retry_at else ""
        return f"{state} at event {self.event_id} ({self.topic}) after {self.attempts} attempt(s){when}: {self.error}"


@dataclass(frozen=True)
class Skip:
    """A poison event staff decided a projection passes over: who, when and why."""

    name: str
    event_id: int
    topic: str
    reason: str
    actor: str
    skipped_at: datetime


FAILURE_COLUMNS = "blocked_event, blocked_topic, blocked_error, blocked_since, attempts, retry_at, failing"


def failure_of(row: tuple[Any, ...] | Any) -> Failure | None:
    """A `Failure` from the `FAILURE_COLUMNS` of a row, or None when the generation is moving."""
    if row[0] is None:
        return None
    return Failure(int(row[0]), str(row[1] or ""), str(row[2] or ""), row[3], int(row[4] or 0), row[5], bool(row[6]))


def error_text(exc: BaseException) -> str:
    """The error as stored and shown: class and message, cut, and storable itself (it may quote the value)."""
    return storable(f"{type(exc).__name__}: {exc}".strip())[:ERROR_CHARS]


def code_fingerprint(projection: object) -> str:
    """A digest of the source of the module defining the projection (a changed module means a fresh rebuild)."""
    module = sys.modules.get(type(projection).__module__)
    try:
        source = inspect.getsource(module) if module is not None else ""
    except (OSError, TypeError):  # no source at hand: fall back to the class's qualified name
        source = ""
    source = source or f"{type(projection).__module__}.{type(projection).__qualname__}"
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()[:16]
