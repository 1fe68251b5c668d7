"""Two `launchdir serve` processes on two ports against one database, as several machines would run them.

A write through one is answered by the other within a second (its caches
drop on the `NOTIFY` of the move); exactly one of them runs each projection
and the two share them out (the leases of `projections/leases.py`); when the
first is killed with SIGKILL the other takes its projections over, and the view counter of the
listing view equals the views recorded in the event log: no event lost,
none applied twice.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from eventsourcing.utils import get_topic

from aggregates.base import Meta
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd
from commands import community
from commands import listing as listing_cmd
from events.community import ListingViewsCounted
from projections.leases import holders
from tests import conftest
from tests.conftest import free_port
from tests.e2e.polling import until

ROOT = Path(__file__).resolve().parents[2]
STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")


class Server:
    """One `launchdir serve` process on its own port."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.get(self.url + "/api/v1" + path, timeout=5, **kw)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait(timeout=60)


@pytest.fixture
def world(fresh_db: str, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The database with an owner, their API key and a live listing; two servers started one after the other."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    c = bootstrap(conftest.test_settings(fresh_db))
    ensure_catalog(c)
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid.uuid4(), email="owner@example.com", password=None, verified=True), STAFF, None)
    assert reg.account_id is not None
    key = apikeys_cmd.create_api_key(c.store, apikeys_cmd.CreateApiKey(
        account_id=reg.account_id, name="e2e", scopes=["account:read", "listings:write"]),  # type: ignore[list-item]
        STAFF, c.services.timezone)
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Twin Notes", "tagline": "Notes on two servers", "website_url": "https://twin.example"},
        categories=["notes-docs"], owner_ids=[reg.account_id]), STAFF)
    listing_cmd.staff_publish(c.store, created.listing_id, STAFF)
    env = {**os.environ, "DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT),
           "LAUNCHDIR_RATE_LIMITS": "off", "LAUNCHDIR_VIEW_FLUSH_SECONDS": "0.2"}
    servers: list[Server] = []
    try:
        for _ in range(2):  # the first one up takes every projection, then gives the second its share
            server = Server(env)
            servers.append(server)
            until(lambda s=server: s.get(f"/listings/{created.slug}").status_code == 200, 120, "the server answers")
        yield {"c": c, "db": fresh_db, "a": servers[0], "b": servers[1], "slug": created.slug,
               "listing_id": created.listing_id, "key": key.key}
    finally:
        for server in servers:
            server.stop()
        c.close()


def _runners(db: str, names: list[str]) -> dict[str, int]:
    with psycopg.connect(db) as conn:
        return holders(conn, names)


def test_writes_cross_processes_and_the_projections_survive_a_sigkill(world: dict[str, Any]) -> None:
    c, a, b, slug = world["c"], world["a"], world["b"], world["slug"]
    names = list(c.runtime.projections)
    # Exactly one process runs each projection, and the two share them out: the first one up took every
    # projection and gives the second its share at its next round.
    def shared() -> bool:
        held = _runners(world["db"], names)
        return set(held) == set(names) and set(held.values()) == {a.proc.pid, b.proc.pid}

    until(shared, 10, "the two servers share the projections")

    # A write through one server is answered by the other within a second, both ways.
    auth = {"Authorization": f"Bearer {world['key']}"}
    for writer, reader, tagline in ((a, b, "Written through the first"), (b, a, "Written through the second")):
        assert reader.get(f"/listings/{slug}").json()["tagline"] != tagline  # cached there before the write
        r = httpx.patch(f"{writer.url}/api/v1/me/listings/{world['listing_id']}", json={"fields": {"tagline": tagline}},
                        headers={**auth, "Idempotency-Key": uuid.uuid4().hex}, timeout=5)
        assert r.status_code == 200, r.text
        until(lambda r=reader, t=tagline: r.get(f"/listings/{slug}").json()["tagline"] == t, 1.0,
               "the other server answers the write")

    # Views keep coming through both servers and straight into the log while the projector is killed.
    stop = threading.Event()

    def readers() -> None:
        while not stop.is_set():
            for server in (a, b):
                try:
                    server.get(f"/listings/{slug}")
                except httpx.HTTPError:
                    pass  # the killed one

    hits = threading.Thread(target=readers, daemon=True)
    hits.start()
    try:
        for i in range(60):
            community.count_views(c.store, {world["listing_id"]: i % 7 + 1}, STAFF)
            if i == 20:
                a.proc.send_signal(signal.SIGKILL)
                a.proc.wait(timeout=10)
            time.sleep(0.02)
        # The survivor takes over every projection within seconds.
        until(lambda: _runners(world["db"], names) == {name: b.proc.pid for name in names}, 10,
               "the second server runs the projections")
    finally:
        stop.set()
        hits.join(timeout=10)
    b.stop()  # its last flush of counted views goes to the log, and it stops applying

    # Catch the view up here (nobody else runs it now) and compare the counter with the log.
    c.runtime.catch_up("listing_view")
    topic = get_topic(ListingViewsCounted)
    logged = sum(e.counts.get(str(world["listing_id"]), 0)
                 for _, e in c.runtime.events.read(after=0, upto=c.runtime.events.head(), topics=[topic], limit=100_000))
    listings = c.runtime.tables("listing_view")["listings"]
    with c.pool.connection() as conn:
        row = conn.execute(f"SELECT views FROM {listings} WHERE listing_id = %s", (world["listing_id"],)).fetchone()
    assert row is not None
    assert logged > sum(i % 7 + 1 for i in range(60))  # the servers' own flushes are in the log too
    assert row[0] == logged
