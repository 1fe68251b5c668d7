"""The draft -> listing move is one append: a process killed in the middle leaves draft and listing as they were.

A trigger holds the insert of the listing's first event (after the draft's
events of the same edit were inserted), a separate process running the edit
is killed there, and the database is left to do what it does with a dead
client's transaction. The listing must then be whole: either the edit is on
both or on neither. Run again, the edit lands on both.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from typing import Any

import psycopg

from aggregates import listing
from commands import draft as draft_cmd
from commands import listing as listing_cmd
from tests.integration import draft_helpers as h
from tests.integration.test_draft_commands import ready_draft, site  # noqa: F401 - fixtures (`c`: conftest.py)

EDIT = textwrap.dedent("""
    import sys
    from datetime import datetime, timezone
    from uuid import UUID
    from psycopg_pool import ConnectionPool
    from aggregates.base import Meta
    from commands import draft as draft_cmd
    from commands.ids import IdAllocator
    from commands.store import EventStore, LaunchdirEvents
    from launchdir.database import eventsourcing_env

    db, draft_id, who = sys.argv[1:4]
    app = LaunchdirEvents(env=eventsourcing_env(db, 4))
    store = EventStore(app, ids=IdAllocator(ConnectionPool(db, min_size=1, max_size=2)))
    cmd = draft_cmd.UpdateDraft.model_validate({"id": draft_id, "fields": {"tagline": "Half made?"},
                                                "story": {"title": "Our story"}})
    meta = Meta(at=datetime.now(timezone.utc), actor="account:" + who, channel="rest")
    print("editing", flush=True)
    draft_cmd.update_draft(store, cmd, who, meta, check_url=lambda url, field: None, jobs=None)
    print("done", flush=True)
""")


def _hold_inserts_of(conninfo: str, stream: Any) -> None:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("CREATE OR REPLACE FUNCTION test_hold_insert() RETURNS trigger LANGUAGE plpgsql AS "
                     "$$ BEGIN PERFORM pg_sleep(120); RETURN NEW; END $$")
        conn.execute(f"CREATE TRIGGER test_hold BEFORE INSERT ON launchdir_events FOR EACH ROW "
                     f"WHEN (NEW.originator_id = '{stream}') EXECUTE FUNCTION test_hold_insert()")


def _release(conninfo: str) -> None:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        # the killed client's backend first: closed by the server as it would be after a crash (it holds the
        # table's lock while it sleeps, so dropping the trigger before it would wait for its whole sleep)
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = current_database() AND wait_event = 'PgSleep'")
        conn.execute("DROP TRIGGER IF EXISTS test_hold ON launchdir_events")


def _held(conninfo: str, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    with psycopg.connect(conninfo, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                               "AND wait_event = 'PgSleep'").fetchone()
            if row and row[0]:
                return True
            time.sleep(0.05)
    return False


def test_a_process_killed_between_the_draft_and_the_listing_halves_leaves_the_listing_whole(
        c: Any, site: str) -> None:  # noqa: F811 - fixtures
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": ["productivity"]})  # the site's own words support none
    listed = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    stream = listing.listing_stream(listed.listing_id)
    draft_before = len(c.store.stream(draft_id))
    listing_before = listing_cmd.load(c.store, listed.listing_id)
    _hold_inserts_of(c.conninfo, stream)
    proc = subprocess.Popen([sys.executable, "-c", EDIT, c.conninfo, str(draft_id), who],
                            cwd=os.getcwd(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _held(c.conninfo), "the edit never reached the listing's insert"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        _release(c.conninfo)
    time.sleep(0.2)

    draft = draft_cmd.load(c.store, draft_id)
    after = listing_cmd.load(c.store, listed.listing_id)
    assert len(c.store.stream(draft_id)) == draft_before  # nothing of the edit was stored...
    assert draft.value("tagline") == after.profile.get("tagline") == listing_before.profile.get("tagline")
    assert after.story == listing_before.story  # ...and the listing is exactly as it was

    h.update(c, who, draft_id, fields={"tagline": "Half made?"}, story={"title": "Our story"})
    draft = draft_cmd.load(c.store, draft_id)
    after = listing_cmd.load(c.store, listed.listing_id)
    assert draft.value("tagline") == after.profile["tagline"] == "Half made?"
    assert after.story == {"title": "Our story"}
