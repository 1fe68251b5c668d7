"""The event log's topic index: built at set-up, once, rebuilt when a build was interrupted; reads by topic unchanged."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest

from projections import log as log_module

INDEX = "launchdir_events_topic_idx"


def _index(c: Any) -> tuple[bool, str] | None:
    """(valid, definition) of the log's topic index, or None when there is none."""
    with c.pool.connection() as conn:
        row = conn.execute(
            "SELECT i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "JOIN pg_class x ON x.oid = i.indexrelid WHERE x.relname = %s", (INDEX,)).fetchone()
    return None if row is None else (bool(row[0]), str(row[1]))


def _drop(c: Any) -> None:
    with c.pool.connection() as conn:
        conn.execute(f"DROP INDEX {INDEX}")


def test_set_up_indexes_the_log_by_topic_and_position_once(container: Any) -> None:
    index = _index(container)
    assert index is not None and index[0] is True
    assert index[1].endswith("USING btree (topic, notification_id)")
    assert container.runtime.events.ensure_topic_index() is False  # already there: nothing to do
    _drop(container)
    container.runtime.setup()  # the next start of a process
    assert _index(container) == index


def test_an_index_left_invalid_by_an_interrupted_build_is_built_again(container: Any) -> None:
    with container.pool.connection() as conn:  # what a concurrent build cut short leaves behind
        conn.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass", (INDEX,))
    assert _index(container) is not None and _index(container)[0] is False  # type: ignore[index]
    assert container.runtime.events.ensure_topic_index() is True
    index = _index(container)
    assert index is not None and index[0] is True


def test_a_long_log_is_indexed_concurrently(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _drop(container)
    monkeypatch.setattr(log_module, "CONCURRENT_FROM", 0)  # every log counts as long
    statements: list[str] = []  # what the build sends, seen at the driver
    original = psycopg.Connection.execute

    def recording(self: psycopg.Connection[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        statements.append(query.as_string(self) if hasattr(query, "as_string") else str(query))
        return original(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", recording)
    assert container.runtime.events.ensure_topic_index() is True
    monkeypatch.undo()
    assert any(s.startswith("CREATE INDEX CONCURRENTLY") for s in statements), statements
    index = _index(container)
    assert index is not None and index[0] is True


def test_another_process_building_it_is_not_waited_for(container: Any) -> None:
    _drop(container)
    with psycopg.connect(container.settings.database_url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (log_module.TOPIC_INDEX_LOCK, INDEX))
        pid = other.info.backend_pid
        assert container.runtime.events.ensure_topic_index() is False
        assert _index(container) is None
    _wait_for_backend_exit(container, pid)
    assert container.runtime.events.ensure_topic_index() is True  # its session ended: the lock went with it


def _wait_for_backend_exit(c: Any, pid: int) -> None:
    """Wait until the server has ended a closed connection's backend.

    Closing a connection only tells the server; the backend exits, and its
    session's advisory locks go, a moment later (on a loaded machine, later).
    """
    with c.pool.connection() as conn:
        for _ in range(200):
            if not conn.execute("SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = %s) "
                                "OR EXISTS (SELECT FROM pg_locks WHERE pid = %s)", (pid, pid)).fetchone()[0]:
                return
            time.sleep(0.05)
    raise AssertionError(f"backend {pid} still running 10 s after its connection closed")


def test_a_read_by_topics_gives_what_the_whole_log_filtered_gives(container: Any) -> None:
    events = container.runtime.events
    head = events.head()
    everything = events.read_with_topics(0, head, (), limit=10_000)
    topics = sorted({t for _, t, _ in everything})
    assert len(topics) >= 2
    some = topics[::2]
    wanted = [(i, t) for i, t, _ in everything if t in some]
    assert wanted and len(wanted) < len(everything)
    got = events.read_with_topics(0, head, some, limit=10_000)
    assert [(i, t) for i, t, _ in got] == wanted
    first = events.read_with_topics(0, head, some, limit=1)  # a batch stops at its limit, oldest first
    assert [(i, t) for i, t, _ in first] == wanted[:1]


def test_a_long_logs_start_does_not_wait_for_its_index(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A concurrent build waits for the transactions writing to the log; the start goes on meanwhile."""
    _drop(container)
    monkeypatch.setattr(log_module, "CONCURRENT_FROM", 0)  # every log counts as long
    with psycopg.connect(container.settings.database_url) as writer:
        writer.execute("LOCK TABLE launchdir_events IN ROW EXCLUSIVE MODE")  # as an append in progress holds it
        thread = container.runtime.events.index_topics()
        assert thread is not None
        container.runtime.setup()  # a whole start's set-up, while the build waits for the writer
        thread.join(0.5)
        building = _index(container)
        assert thread.is_alive() and (building is None or building[0] is False)  # not usable yet
        writer.rollback()  # the append ends: the build goes on
    thread.join(30)
    assert not thread.is_alive()
    index = _index(container)
    assert index is not None and index[0] is True


def test_a_short_log_is_indexed_before_the_start_goes_on(container: Any) -> None:
    _drop(container)
    assert container.runtime.events.index_topics() is None  # built in the call
    index = _index(container)
    assert index is not None and index[0] is True


def test_a_valid_index_starts_no_build(container: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every start after the first finds the index valid: no thread, even for a long log."""
    _drop(container)
    assert container.runtime.events.index_topics() is None
    monkeypatch.setattr(log_module, "CONCURRENT_FROM", 0)  # every log counts as long
    assert container.runtime.events.index_topics() is None  # valid already: nothing started
    index = _index(container)
    assert index is not None and index[0] is True
