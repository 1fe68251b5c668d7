"""Website sessions, sign-in throttling and the signing secret: small infrastructure tables.

These are not read tables of a projection and not domain state: a session is
a bearer secret kept only server-side (so sign-out and password resets end it
at once), and failure counters are rate-limit state. Both are plain
PostgreSQL tables, created on start, shared by every server process.

- `launchdir_web_sessions`: one row per signed-in browser, keyed by the
  SHA-256 of the cookie value (the cookie itself is 256 random bits; a leaked
  table does not give usable cookies). Idle timeout 7 days, absolute 30 days.
  The account settings page lists an account's live sessions by `reference`, a
  short hash of the stored id that works only with the owner's own sessions.
- `launchdir_signin_failures`: failed sign-ins per address and per client IP
  in a 15-minute window; 5 per address or 30 per IP lock that key for 15 minutes.
- `launchdir_secrets`: the HMAC key for email links and CSRF tokens, drawn at
  random on first start (deleting the row rotates it: outstanding links and
  open forms stop working, sessions do not).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from psycopg_pool import ConnectionPool

from events.text import storable
from projections.autocommit import autocommit
from projections.ddl import create_index

SESSIONS = "launchdir_web_sessions"
FAILURES = "launchdir_signin_failures"
SECRETS = "launchdir_secrets"
IDLE = timedelta(days=7)
ABSOLUTE = timedelta(days=30)
TOUCH_EVERY = timedelta(minutes=5)

DDL = f"""
CREATE TABLE IF NOT EXISTS {SESSIONS} (
    id text PRIMARY KEY, account_id text NOT NULL, created_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, ip text, user_agent text);
CREATE TABLE IF NOT EXISTS {FAILURES} (
    key text PRIMARY KEY, failures int NOT NULL, first_at timestamptz NOT NULL, locked_until timestamptz);
CREATE TABLE IF NOT EXISTS {SECRETS} (
    name text PRIMARY KEY, value bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
"""


def setup(pool: ConnectionPool) -> None:
    with pool.connection() as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(7311002)")
        conn.execute(DDL)
        create_index(conn, f"{SESSIONS}_account",  # no lock at a start beside serving processes
                     f"CREATE INDEX IF NOT EXISTS {SESSIONS}_account ON {SESSIONS} (account_id)")


def signing_secret(pool: ConnectionPool, name: str = "links") -> bytes:
    """The shared HMAC key (created once, the same for every process on this database)."""
    with pool.connection() as conn, conn.transaction():
        conn.execute(f"INSERT INTO {SECRETS} (name, value) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING",
                     (name, secrets.token_bytes(32)))
        row = conn.execute(f"SELECT value FROM {SECRETS} WHERE name = %s", (name,)).fetchone()
    assert row is not None
    return bytes(row[0])


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def reference(session_id: str) -> str:
    """The opaque name a page gives a session: 16 hex digits of a hash of its stored id.

    Neither a cookie nor a CSRF binding can be made from it; it only picks one of the
    signed-in account's own sessions (`SessionStore.end_reference`).
    """
    return hashlib.sha256(("launchdir:session-ref:" + session_id).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class SessionRow:
    """One live session as the account settings page shows it."""

    reference: str
    created_at: datetime
    last_seen_at: datetime
    ip: str
    user_agent: str
    current: bool


@dataclass(frozen=True)
class WebSession:
    id: str  # sha256 of the cookie value; CSRF tokens are bound to it
    account_id: str
    created_at: datetime
    expires_at: datetime


class SessionStore:
    def __init__(self, pool: ConnectionPool, clock: Callable[[], datetime]) -> None:
        self.pool = pool
        self.clock = clock

    def create(self, account_id: str, ip: str = "", user_agent: str = "") -> str:
        """Start a session; returns the cookie value (only its hash is kept)."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        with self.pool.connection() as conn, conn.transaction():
            conn.execute(f"DELETE FROM {SESSIONS} WHERE expires_at < %s OR last_seen_at < %s", (now, now - IDLE))
            conn.execute(
                f"INSERT INTO {SESSIONS} (id, account_id, created_at, last_seen_at, expires_at, ip, user_agent) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (_digest(token), account_id, now, now, now + ABSOLUTE, storable(ip[:100]), storable(user_agent[:300])),
            )
        return token

    def lookup(self, token: str | None) -> WebSession | None:
        if not token or len(token) > 200:
            return None
        now = self.clock()
        sid = _digest(token)
        with autocommit(self.pool) as conn:  # every page asks: one round trip (the touch, when due, is one more)
            row = conn.execute(
                f"SELECT account_id, created_at, last_seen_at, expires_at FROM {SESSIONS} "
                "WHERE id = %s AND expires_at > %s AND last_seen_at > %s",
                (sid, now, now - IDLE),
            ).fetchone()
            if row is None:
                return None
            if now - row[2] > TOUCH_EVERY:
                conn.execute(f"UPDATE {SESSIONS} SET last_seen_at = %s WHERE id = %s", (now, sid))
        return WebSession(sid, row[0], row[1], row[3])

    def end(self, token: str | None) -> None:
        if token:
            with self.pool.connection() as conn:
                conn.execute(f"DELETE FROM {SESSIONS} WHERE id = %s", (_digest(token),))

    def live(self, account_id: str, current_id: str | None = None) -> list[SessionRow]:
        """The account's sessions that still work, most recently seen first; `current_id` is marked."""
        now = self.clock()
        with self.pool.connection() as conn:
            rows = conn.execute(
                f"SELECT id, created_at, last_seen_at, coalesce(ip, ''), coalesce(user_agent, '') FROM {SESSIONS} "
                "WHERE account_id = %s AND expires_at > %s AND last_seen_at > %s ORDER BY last_seen_at DESC, created_at DESC",
                (account_id, now, now - IDLE),
            ).fetchall()
        return [SessionRow(reference(r[0]), r[1], r[2], r[3], r[4], r[0] == current_id) for r in rows]

    def end_reference(self, account_id: str, ref: str) -> str | None:
        """End the account's session whose reference is `ref`; its stored id, or None when the account has none such."""
        with self.pool.connection() as conn, conn.transaction():
            ids = [r[0] for r in conn.execute(f"SELECT id FROM {SESSIONS} WHERE account_id = %s", (account_id,))]
            match = next((sid for sid in ids if reference(sid) == ref), None)
            if match is not None:
                conn.execute(f"DELETE FROM {SESSIONS} WHERE id = %s AND account_id = %s", (match, account_id))
        return match

    def end_others(self, account_id: str, keep_id: str) -> int:
        """End every session of the account but `keep_id` (this browser); how many ended."""
        with self.pool.connection() as conn:
            return conn.execute(f"DELETE FROM {SESSIONS} WHERE account_id = %s AND id <> %s",
                                (account_id, keep_id)).rowcount

    def end_all(self, account_id: str) -> int:
        """End every session of an account (after a password reset)."""
        with self.pool.connection() as conn:
            return conn.execute(f"DELETE FROM {SESSIONS} WHERE account_id = %s", (account_id,)).rowcount


class SigninThrottle:
    """Failure counting per key ("email:<address>", "ip:<address>") in a window, then a lock."""

    WINDOW = timedelta(minutes=15)
    LOCK = timedelta(minutes=15)
    LIMITS = {"email": 5, "ip": 30}

    def __init__(self, pool: ConnectionPool, clock: Callable[[], datetime]) -> None:
        self.pool = pool
        self.clock = clock

    def locked_for(self, keys: list[str]) -> timedelta | None:
        """How much longer the most locked of these keys stays locked (None: not locked)."""
        now = self.clock()
        with self.pool.connection() as conn:
            row = conn.execute(
                f"SELECT max(locked_until) FROM {FAILURES} WHERE key = ANY(%s) AND locked_until > %s", (keys, now)
            ).fetchone()
        return (row[0] - now) if row and row[0] else None

    def failed(self, keys: list[str]) -> None:
        now = self.clock()
        with self.pool.connection() as conn, conn.transaction():
            for key in keys:
                row = conn.execute(
                    f"INSERT INTO {FAILURES} AS f (key, failures, first_at) VALUES (%s, 1, %s) "
                    "ON CONFLICT (key) DO UPDATE SET "
                    "failures = CASE WHEN f.first_at < %s THEN 1 ELSE f.failures + 1 END, "
                    "first_at = CASE WHEN f.first_at < %s THEN EXCLUDED.first_at ELSE f.first_at END "
                    "RETURNING failures",
                    (key, now, now - self.WINDOW, now - self.WINDOW),
                ).fetchone()
                if row is not None and row[0] >= self.LIMITS[key.split(":", 1)[0]]:
                    conn.execute(
                        f"UPDATE {FAILURES} SET locked_until = %s, failures = 0, first_at = %s WHERE key = %s",
                        (now + self.LOCK, now, key),
                    )

    def succeeded(self, key: str) -> None:
        with self.pool.connection() as conn:
            conn.execute(f"DELETE FROM {FAILURES} WHERE key = %s", (key,))
