"""Shared fixtures: a real PostgreSQL per test session, containers, and a real HTTP server.

The machine's PostgreSQL at 127.0.0.1:5432 is used when reachable (a fresh
database per session, dropped afterwards); otherwise the embedded server
starts in a temporary directory. `TEST_DATABASE_ADMIN_URL` points elsewhere.
"""

from __future__ import annotations

from contextlib import contextmanager

import os
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from launchdir.settings import Settings

ADMIN_URL = os.environ.get("TEST_DATABASE_ADMIN_URL", "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=3")


def _admin_url() -> str:
    try:
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute("SELECT 1")
        return ADMIN_URL
    except psycopg.Error:
        from launchdir.database import start_embedded

        data = Path(tempfile.mkdtemp(prefix="launchdir-test-pg-"))
        return start_embedded(data)


class Databases:
    """Creates throw-away databases on one server and drops them at the end."""

    def __init__(self, admin: str) -> None:
        self.admin = admin
        self.created: list[str] = []

    def create(self) -> str:
        name = os.environ.get("TEST_DATABASE_PREFIX", "launchdir_t_") + uuid.uuid4().hex[:12]
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self.created.append(name)
        params = psycopg.conninfo.conninfo_to_dict(self.admin)
        params["dbname"] = name
        return psycopg.conninfo.make_conninfo(**params)

    def drop_all(self) -> None:
        with psycopg.connect(self.admin, autocommit=True) as conn:
            for name in self.created:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def databases() -> Iterator[Databases]:
    dbs = Databases(_admin_url())
    yield dbs
    dbs.drop_all()


@pytest.fixture(scope="session")
def session_db(databases: Databases) -> str:
    return databases.create()


@pytest.fixture
def fresh_db(databases: Databases) -> str:
    """A database of its own, for tests that need an empty event log."""
    return databases.create()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_settings(database_url: str, port: int = 8000, **overrides: object) -> Settings:
    base = Settings(database_url=database_url, port=port, data_dir=Path(tempfile.mkdtemp(prefix="launchdir-test-")))
    from dataclasses import replace

    return replace(base, **overrides)  # type: ignore[arg-type]


@pytest.fixture
def container(fresh_db: str):  # type: ignore[no-untyped-def]
    from launchdir.bootstrap import bootstrap, ensure_catalog

    c = bootstrap(test_settings(fresh_db))
    ensure_catalog(c)
    c.runtime.catch_up("catalog_view")
    yield c
    c.close()


class RunningServer:
    def __init__(self, container, port: int) -> None:  # type: ignore[no-untyped-def]
        import uvicorn

        from launchdir.bootstrap import web_app
        from launchdir.serving import uvicorn_config

        self.container = container
        self.url = f"http://127.0.0.1:{port}"
        settings = container.settings.with_server("127.0.0.1", port)
        self.server = uvicorn.Server(uvicorn_config(web_app(container), settings, log_level="warning"))  # as `serve` runs
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> RunningServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@contextmanager
def fresh_server(databases: Databases) -> Iterator[RunningServer]:
    """launchdir served by uvicorn on a free port over a database of its own, catalogue loaded."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(test_settings(databases.create(), port=port))
    ensure_catalog(c)
    with RunningServer(c, port) as running:
        yield running
    c.close()


@pytest.fixture(scope="session")
def server(databases: Databases) -> Iterator[RunningServer]:
    """launchdir served for the whole session (`fresh_server`)."""
    with fresh_server(databases) as running:
        yield running
