"""`launchdir serve` reading from a real streaming replica (DATABASE_REPLICA_URL), writing to the primary.

A primary and a hot standby made with the Debian PostgreSQL tools
(`tests/e2e/replica_support.py`); the server runs as its own process with
DATABASE_URL on the primary and DATABASE_REPLICA_URL on the standby. The
standby logs every statement with its client's application name, which is how
the test sees which reads it answered. An owner's edit through the API is read
back at once by the same client, both when the replica serves and while its
replay is paused (reads then go to the primary, and the standby is asked
nothing); once replay resumes, reads go back to the replica.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from aggregates.base import Meta
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd
from commands import listing as listing_cmd
from tests import conftest
from tests.conftest import free_port
from tests.e2e.replica_support import Pair, missing_tools, streaming_pair
from tests.e2e.polling import until

ROOT = Path(__file__).resolve().parents[2]
STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")
READS = "launchdir-replica-reads"  # the application name of the server's replica pool

pytestmark = pytest.mark.skipif(missing_tools() is not None, reason=missing_tools() or "")


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A primary and its standby; an owner with an API key and a live listing; `launchdir serve` on the pair."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    name = os.environ.get("TEST_DATABASE_PREFIX", "launchdir_t_") + uuid.uuid4().hex[:12]
    with streaming_pair(name) as pair:
        c = bootstrap(conftest.test_settings(pair.primary))
        ensure_catalog(c)
        reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
            account_id=uuid.uuid4(), email="owner@example.com", password=None, verified=True), STAFF, None)
        assert reg.account_id is not None
        key = apikeys_cmd.create_api_key(c.store, apikeys_cmd.CreateApiKey(
            account_id=reg.account_id, name="e2e", scopes=["account:read", "listings:write"]),  # type: ignore[arg-type]
            STAFF, c.services.timezone)
        created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
            profile={"name": "Mirror Notes", "tagline": "Notes read from a mirror", "website_url": "https://mirror.example"},
            categories=["notes-docs"], owner_ids=[reg.account_id]), STAFF)
        listing_cmd.staff_publish(c.store, created.listing_id, STAFF)
        env = {**os.environ, "DATABASE_URL": pair.primary, "DATABASE_REPLICA_URL": pair.standby,
               "LAUNCHDIR_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT), "LAUNCHDIR_RATE_LIMITS": "off"}
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "launchdir.cli", "serve", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}/api/v1"
        try:
            until(lambda: httpx.get(f"{url}/listings/{created.slug}", timeout=5).status_code == 200, 120,
                   "the server answers")
            yield {"pair": pair, "url": url, "slug": created.slug, "listing_id": created.listing_id,
                   "auth": {"Authorization": f"Bearer {key.key}"}}
        finally:
            if proc.poll() is None:
                proc.terminate()
            proc.wait(timeout=60)
            c.close()


def _replica_reads(pair: Pair, slug: str) -> int:
    """How many statements the standby ran for the server's read pool with the listing's slug as a parameter."""
    return sum(1 for line in pair.statements(READS) if f"'{slug}'" in line)


def _standby(pair: Pair, sql: str) -> Any:
    with psycopg.connect(pair.standby, autocommit=True) as conn:
        return conn.execute(sql).fetchone()


def test_public_reads_come_from_the_replica_and_a_client_reads_its_own_writes(world: dict[str, Any]) -> None:
    pair, url, slug, auth = world["pair"], world["url"], world["slug"], world["auth"]
    assert _standby(pair, "SELECT pg_is_in_recovery()") == (True,)  # the standby is a standby
    with httpx.Client(base_url=url, timeout=10) as client:
        edits = iter(range(1_000_000))

        def edit(tagline: str) -> bool:
            """The owner edits the tagline; the answer and the next public read show it (read-your-writes).

            True when the standby answered that public read (the edit dropped the cached answers, so it asks
            the database)."""
            r = client.patch(f"/me/listings/{world['listing_id']}", json={"fields": {"tagline": tagline}},
                             headers={**auth, "Idempotency-Key": uuid.uuid4().hex})
            assert r.status_code == 200, r.text
            assert r.json()["tagline"] == tagline
            before = _replica_reads(pair, slug)
            assert client.get(f"/listings/{slug}").json()["tagline"] == tagline
            return _replica_reads(pair, slug) > before

        # The server reads from the replica once its watcher finds it has replayed every projection.
        until(lambda: edit(f"Edit number {next(edits)}"), 60, "a public read answered by the replica")
        assert edit("Read back from the replica at once")

        # Replay paused: the write's move never shows on the replica, so after the bound reads go to the
        # primary; the writer still reads its write at once, and the standby is asked nothing.
        _standby(pair, "SELECT pg_wal_replay_pause()")
        try:
            assert not edit("Written while the replica is paused")
            assert not edit("Written again while the replica is paused")
        finally:
            _standby(pair, "SELECT pg_wal_replay_resume()")

        # Replay resumed: reads go back to the replica, and still show every write at once.
        until(lambda: edit(f"Edit number {next(edits)}"), 60, "reads back on the replica after it caught up")
        assert edit("Read back from the replica again")
