"""Idempotency-Key: a retried request replays the first answer, and racing retries make one effect.

A key is scoped to (account, or `anonymous`, operation id, key), so keys of different
accounts never meet. The first request with a key reserves it in `launchdir_idempotency`
(state `running`, an owner token and a lease), runs the operation and stores the answer
(state `done`); a request with the same key and the same fingerprint (operation id plus the
canonical JSON of the validated input) replays that answer with `Idempotent-Replayed: true`, one
with a different fingerprint is refused with a 409 `idempotency-key-reused` problem.
Requests arriving while the first still runs wait for its answer (polling, bounded) and
replay it. A 5xx or a crash releases the reservation so a retry can run; a process that
dies mid-request stops renewing its lease and the key is taken over when the lease ends.

The table is infrastructure state, not a read model: it records answers to transport-level
retries, is not derived from events (it cannot be rebuilt from them and must not be), and
expires after the retention period. See docs/idempotency-and-rate-limits.md.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import anyio
import anyio.to_thread
import orjson
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from api.executor import Outcome, dumps
from api.problems import from_domain, status_of
from api.registry import Operation
from api.services import Principal
from events.errors import Conflict, DomainError, FieldProblem, InvalidInput, RateLimited
from projections.ddl import create_index

log = logging.getLogger(__name__)

TABLE = "launchdir_idempotency"
HEADER = "Idempotency-Key"
REPLAYED = "idempotent-replayed"
KEY_FORMAT = re.compile(r"[\x20-\x7e]{8,255}")
ANONYMOUS = "anonymous"
Runner = Callable[[], Awaitable[Outcome]]
SETUP_LOCK = 7311002  # advisory lock id for the DDL (the projection runtime uses 7311001)

DDL = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    account text NOT NULL,
    operation text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('running', 'done')),
    owner uuid NOT NULL,
    locked_until timestamptz NOT NULL,
    status int,
    headers jsonb,
    body bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (account, operation, key)
);
"""

# Take the key when it is free, expired, or reserved by an owner whose lease ran out.
CLAIM = f"""
INSERT INTO {TABLE} (account, operation, key, fingerprint, state, owner, locked_until, expires_at)
VALUES (%(account)s, %(operation)s, %(key)s, %(fingerprint)s, 'running', %(owner)s,
        now() + %(lease)s, now() + %(retention)s)
ON CONFLICT (account, operation, key) DO UPDATE
   SET fingerprint = EXCLUDED.fingerprint, state = 'running', owner = EXCLUDED.owner,
       locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at,
       status = NULL, headers = NULL, body = NULL, created_at = now()
 WHERE {TABLE}.expires_at < now() OR ({TABLE}.state = 'running' AND {TABLE}.locked_until < now())
RETURNING owner
"""
READ = f"""
SELECT fingerprint, state, status, headers, body FROM {TABLE}
 WHERE account = %(account)s AND operation = %(operation)s AND key = %(key)s
"""
WHERE_MINE = "account = %(account)s AND operation = %(operation)s AND key = %(key)s AND owner = %(owner)s"
FINISH = f"""
UPDATE {TABLE} SET state = 'done', status = %(status)s, headers = %(headers)s, body = %(body)s,
       locked_until = now(), expires_at = now() + %(retention)s
 WHERE {WHERE_MINE}
"""
RENEW = f"UPDATE {TABLE} SET locked_until = now() + %(lease)s WHERE {WHERE_MINE} AND state = 'running'"
RELEASE = f"DELETE FROM {TABLE} WHERE {WHERE_MINE} AND state = 'running'"
PURGE = f"""
DELETE FROM {TABLE} WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM {TABLE} WHERE expires_at < now() LIMIT %(limit)s))
"""


class IdempotencyKeyReused(Conflict):
    """The key was already used with a different request."""

    code = "idempotency-key-reused"
    title = "Idempotency-Key reused"


class IdempotencyKeyInUse(Conflict):
    """A request with this key is still running; the caller may retry shortly."""

    code = "idempotency-key-in-use"
    title = "Request with this Idempotency-Key in progress"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Stored:
    fingerprint: str
    state: str
    status: int | None
    headers: dict[str, str] | None
    body: bytes | None


def parse_key(value: str) -> str:
    """The key as sent; a structured-field string (`"..."`) is unquoted. Refuses other formats."""
    key = value.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not KEY_FORMAT.fullmatch(key):
        message = "must be 8 to 255 printable ASCII characters (space to ~), e.g. a UUID"
        raise InvalidInput(f"invalid value for: {HEADER}", [FieldProblem(HEADER, "format", message)])
    return key


def fingerprint(operation_id: str, raw: dict[str, Any]) -> str:
    """A hash of the operation and the canonical JSON (sorted keys) of its validated input.

    Validated, not as sent: a path's `listing_id` arrives as the text "69"
    over REST and as the number 69 over MCP, and the same request through
    either door must replay, not be refused as a different one.
    """
    canonical = orjson.dumps(raw, option=orjson.OPT_SORT_KEYS, default=str)
    return hashlib.sha256(operation_id.encode() + b"\n" + canonical).hexdigest()


def replay(stored: Stored) -> Outcome:
    body = stored.body or b""
    payload = orjson.loads(body) if body else None
    headers = {**(stored.headers or {}), REPLAYED: "true"}
    return Outcome(int(stored.status or 500), payload, body, headers)


class PostgresIdempotency:
    """The executor's `Idempotency` hook, backed by one PostgreSQL table."""

    def __init__(
        self,
        pool: ConnectionPool,
        *,
        retention: timedelta = timedelta(hours=48),
        lease: timedelta = timedelta(seconds=30),
        wait_seconds: float = 10.0,
        purge_every: float = 600.0,
    ) -> None:
        if retention < timedelta(hours=24):
            raise ValueError("idempotency keys are kept at least 24 hours")
        self.pool = pool
        self.retention = retention
        self.lease = lease
        self.wait_seconds = wait_seconds
        self.purge_every = purge_every
        self._next_purge = 0.0

    def setup(self) -> None:
        """Create the table (idempotent; serialised across processes starting together)."""
        with self.pool.connection() as conn, conn.transaction():
            conn.execute(f"SELECT pg_advisory_xact_lock({SETUP_LOCK})")
            conn.execute(DDL)
            create_index(conn, f"{TABLE}_expires", f"CREATE INDEX IF NOT EXISTS {TABLE}_expires ON {TABLE} (expires_at)")

    async def run(
        self, principal: Principal | None, key: str | None, op: Operation, raw: dict[str, Any],
        run: Runner,
    ) -> Outcome:
        if not op.idempotency_key or key is None:
            return await run()
        slot = {
            "account": principal.account_id if principal else ANONYMOUS,
            "operation": op.operation_id,
            "key": parse_key(key),
            "fingerprint": fingerprint(op.operation_id, raw),
        }
        deadline = time.monotonic() + self.wait_seconds
        delay = 0.01
        while True:
            owner = uuid.uuid4()
            stored = await anyio.to_thread.run_sync(self._claim, slot, owner)
            if stored is None:
                return await self._execute(slot, owner, run)
            if stored.fingerprint != slot["fingerprint"]:
                raise IdempotencyKeyReused(
                    f"the {HEADER} {slot['key']!r} was already used for a different request to "
                    f"{op.operation_id}; send a new key for a new request"
                )
            if stored.state == "done":
                return replay(stored)
            if time.monotonic() >= deadline:
                raise IdempotencyKeyInUse(
                    f"a request with the {HEADER} {slot['key']!r} is still being processed; retry shortly",
                    retry_after=1,
                )
            await anyio.sleep(delay)
            delay = min(delay * 1.5, 0.2)

    # ------------------------------------------------------------ the owner's part

    async def _execute(self, slot: dict[str, Any], owner: uuid.UUID, run: Runner) -> Outcome:
        try:
            outcome = await self._with_lease(slot, owner, run)
        except DomainError as exc:
            if status_of(exc) >= 500 or isinstance(exc, RateLimited):
                await self._shielded(self._release, slot, owner)
            else:
                await self._shielded(self._finish, slot, owner, _problem(exc))
            raise
        except BaseException:
            await self._shielded(self._release, slot, owner)
            raise
        if outcome.status >= 500:
            await self._shielded(self._release, slot, owner)
        else:
            await self._shielded(self._finish, slot, owner, outcome)
        return outcome

    async def _with_lease(self, slot: dict[str, Any], owner: uuid.UUID, run: Runner) -> Outcome:
        """Run to the end while renewing the lease, so only a dead owner's key can be taken over.

        Shielded: a caller that goes away does not stop a started effect from being recorded
        (the handler runs in a worker thread that cannot be interrupted anyway).
        """
        outcome: Outcome | None = None
        error: Exception | None = None
        with anyio.CancelScope(shield=True):
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._renew, slot, owner)
                try:
                    outcome = await run()
                except Exception as exc:  # re-raised below, outside the task group (no ExceptionGroup)
                    error = exc
                finally:
                    tg.cancel_scope.cancel()
        if error is not None:
            raise error
        assert outcome is not None
        return outcome

    async def _renew(self, slot: dict[str, Any], owner: uuid.UUID) -> None:
        every = max(self.lease.total_seconds() / 3, 0.05)
        while True:
            await anyio.sleep(every)
            try:
                await anyio.to_thread.run_sync(self._execute_sql, RENEW, {**slot, "owner": owner, "lease": self.lease})
            except Exception:
                log.warning("could not renew the idempotency lease of %s", slot["key"], exc_info=True)

    @staticmethod
    async def _shielded(fn: Callable[..., Any], *args: Any) -> None:
        """Record the result even when the caller went away (the effect has happened)."""
        with anyio.CancelScope(shield=True):
            try:
                await anyio.to_thread.run_sync(fn, *args)
            except Exception:
                log.exception("could not record the idempotency outcome of %s", args[0]["key"])

    # ------------------------------------------------------------ SQL (worker threads)

    def _claim(self, slot: dict[str, Any], owner: uuid.UUID) -> Stored | None:
        """None when this request now holds the key; otherwise what is stored under it."""
        params = {**slot, "owner": owner, "lease": self.lease, "retention": self.retention}
        while True:
            with self.pool.connection() as conn:
                claimed = conn.execute(CLAIM, params).fetchone() is not None
                found = None if claimed else conn.execute(READ, params).fetchone()
            if claimed:
                self._maybe_purge()
                return None
            if found is not None:  # else it was released between the two statements: claim again
                body = bytes(found[4]) if found[4] is not None else None
                return Stored(found[0], found[1], found[2], found[3], body)

    def _finish(self, slot: dict[str, Any], owner: uuid.UUID, outcome: Outcome) -> None:
        params = {**slot, "owner": owner, "retention": self.retention, "status": outcome.status,
                  "headers": Jsonb(outcome.headers), "body": outcome.body}
        if self._execute_sql(FINISH, params) == 0:
            log.warning("idempotency key %s was taken over before its answer was stored", slot["key"])

    def _release(self, slot: dict[str, Any], owner: uuid.UUID) -> None:
        self._execute_sql(RELEASE, {**slot, "owner": owner})

    def _execute_sql(self, sql: str, params: dict[str, Any]) -> int:
        with self.pool.connection() as conn:
            return conn.execute(sql, params).rowcount

    def _maybe_purge(self) -> None:
        now = time.monotonic()
        if now < self._next_purge:
            return
        self._next_purge = now + self.purge_every
        try:
            self.purge_expired()
        except Exception:
            log.warning("could not purge expired idempotency keys", exc_info=True)

    def purge_expired(self, batch: int = 5000) -> int:
        """Delete expired keys in batches; returns how many went."""
        total = 0
        while True:
            gone = self._execute_sql(PURGE, {"limit": batch})
            total += gone
            if gone < batch:
                return total


def _problem(exc: DomainError) -> Outcome:
    body = from_domain(exc)
    headers = {"content-type": "application/problem+json"}
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        headers["retry-after"] = str(retry_after)
    return Outcome(body["status"], body, dumps(body), headers)
