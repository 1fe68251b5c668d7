"""Reading the event log: the head position, batches of decoded events, and single notifications."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Composed, Identifier, Literal

from projections.decoding import FastDecoder

TOPIC_INDEX_LOCK = 7311006  # advisory lock (with hashtext of the index's name) of building the topic index
CONCURRENT_FROM = 32 * 2**20  # a log of at least this many bytes (~60,000 events) is indexed without blocking appends

log = logging.getLogger(__name__)
# The topic index's validity (NULL when there is none) and the log's size: (index name, schema, table).
_INDEX_STATE = ("SELECT i.indisvalid AS valid, pg_relation_size(t.oid) AS size FROM pg_class t "
                "JOIN pg_namespace n ON n.oid = t.relnamespace "
                "LEFT JOIN pg_class ic ON ic.relname = %s AND ic.relnamespace = n.oid "
                "LEFT JOIN pg_index i ON i.indexrelid = ic.oid WHERE n.nspname = %s AND t.relname = %s")


@dataclass(frozen=True)
class Undecodable:
    """Stands in for a stored event this code cannot turn back into an event object.

    A renamed event class or a stored state the transcoder refuses must not
    stop the reading of the batch around it: the projection runtime meets this
    placeholder at its place and treats it like any event a handler cannot
    apply (retried, then `failing`, until fixed or skipped).
    """

    topic: str
    error: str


class EventLog:
    """The application's notification log, as projections need it."""

    def __init__(self, app: Application[UUID]) -> None:
        self._app = app
        self.channel: str = getattr(app.recorder, "channel_name", "launchdir_events")
        self._decoder = FastDecoder(app.mapper)

    def head(self) -> int:
        """The highest notification id (0 when the log is empty)."""
        return self._app.recorder.max_notification_id() or 0

    def read(self, after: int, upto: int, topics: Sequence[str], limit: int,
             clean: set[int] | None = None) -> list[tuple[int, Any]]:
        """Events with after < id <= upto of the given topics, oldest first, decoded (or `Undecodable`).

        Rows come as tuples in binary (no per-row dicts or notification
        objects) and are decoded by `FastDecoder`: the read is the floor under
        every projection's catch-up. The ids of events whose stored JSON shows
        they keep the text rule are added to `clean` when given (their handlers
        then skip the look at every string, `Projection.apply`).
        """
        return [(i, event) for i, _, event in self.read_with_topics(after, upto, topics, limit, clean)]

    def read_with_topics(self, after: int, upto: int, topics: Sequence[str], limit: int,
                         clean: set[int] | None = None) -> list[tuple[int, str, Any]]:
        """As `read`, each event with its stored topic: one read shared out to several projections by topic."""
        recorder = self._recorder()
        sql = SQL("SELECT notification_id, originator_id, originator_version, topic, state FROM {} "
                  "WHERE notification_id > %s AND notification_id <= %s").format(self._table())
        if topics:
            # The topics as a literal, not a parameter: each projection's read is then its own prepared statement,
            # planned knowing how much of the log its topics are, so rare topics are read from the topic index and
            # common ones by walking the log (a shared generic plan read a 1 % projection the slow way).
            sql += SQL(" AND topic = ANY({}::text[])").format(Literal(list(topics)))
        sql += SQL(" ORDER BY notification_id LIMIT %s")
        with recorder.datastore.get_connection() as conn, conn.cursor(binary=True, row_factory=tuple_row) as cur:
            rows = cur.execute(sql, [after, upto, limit], prepare=True).fetchall()
        notes: list[tuple[int, str, Any]] = []
        for notification_id, originator_id, originator_version, topic, state in rows:
            event, is_clean = self._decode(originator_id, originator_version, topic, bytes(state))
            notes.append((notification_id, topic, event))
            if clean is not None and is_clean:
                clean.add(notification_id)
        return notes

    def index_topics(self) -> threading.Thread | None:
        """At a process's start: `ensure_topic_index`, in a thread of its own when the log is long.

        A concurrent build over a long log takes as long as reading it (about
        a second per 700,000 events here, minutes for a large directory), and
        nothing needs the index to be right, only to be fast: until it is
        valid, reads by topic walk the log's id range as they did before it.
        So a long log's start does not wait for it (the thread, returned for
        tests, is a daemon: a process stopped mid-build leaves an invalid
        index, which the next start drops and builds again). A short log is
        indexed here, in well under a second; a valid index (every start
        after the first) costs the one look at its state.
        """
        valid, size = self._topic_index_state()
        if valid:
            return None
        if size < CONCURRENT_FROM:
            self._index_and_say()
            return None
        thread = threading.Thread(target=self._index_and_say, name="launchdir-topic-index", daemon=True)
        thread.start()
        return thread

    def _index_and_say(self) -> None:
        try:
            if self.ensure_topic_index():
                log.info("the event log is now indexed by topic")
        except Exception:  # a failed build costs speed, not correctness: the next start tries again
            log.exception("indexing the event log by topic failed")

    def _topic_index_state(self) -> tuple[bool | None, int]:
        """(whether the topic index is valid, None when there is none; the log's size in bytes)."""
        recorder = self._recorder()
        schema, table = recorder.datastore.schema or "public", recorder.events_table_name
        with recorder.datastore.get_connection() as conn:
            row = conn.execute(_INDEX_STATE, (f"{table}_topic_idx", schema, table)).fetchone()
        return (None, 0) if row is None else (row["valid"], int(row["size"]))

    def ensure_topic_index(self) -> bool:
        """Index the log by (topic, notification id) unless it is; True when this call built it.

        Without it a projection reading rare topics (votes, 1 % of a directory's
        log) walks the whole log to find them, and one reading none of its topics
        yet walks it to find nothing (docs/performance.md, "The log read by
        topic"). Each append then writes one more index entry.

        A log of `CONCURRENT_FROM` bytes or more is indexed concurrently, so
        appends go on while it builds; a shorter one in one statement (appends
        wait a moment). Its size, not the planner's row estimate, decides: a
        restored log that was never analysed has no estimate. Processes starting together build it
        once: the others find the lock taken and go on without waiting. A
        concurrent build that was interrupted leaves an invalid index, dropped
        and built again here.
        """
        recorder = self._recorder()
        schema, table = recorder.datastore.schema or "public", recorder.events_table_name
        name = f"{table}_topic_idx"
        with recorder.datastore.get_connection() as conn:  # the library's connections are in autocommit
            taken = conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s)) AS taken",
                                 (TOPIC_INDEX_LOCK, name)).fetchone()
            if not (taken and taken["taken"]):
                return False
            try:
                return self._build_topic_index(conn, schema, table, name)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (TOPIC_INDEX_LOCK, name))

    @staticmethod
    def _build_topic_index(conn: Any, schema: str, table: str, name: str) -> bool:
        row = conn.execute(_INDEX_STATE, (name, schema, table)).fetchone()
        if row is None or row["valid"]:
            return False
        concurrently = SQL(" CONCURRENTLY" if row["size"] >= CONCURRENT_FROM else "")
        if row["valid"] is False:
            conn.execute(SQL("DROP INDEX{} {}.{}").format(concurrently, Identifier(schema), Identifier(name)))
        conn.execute(SQL("CREATE INDEX{} {} ON {}.{} (topic, notification_id)").format(
            concurrently, Identifier(name), Identifier(schema), Identifier(table)))
        return True

    def analyse_if_never_analysed(self) -> bool:
        """ANALYZE the log when it never was (a copied or restored database); True when it ran.

        Without statistics the batch read of `read` (an id range, topics, a
        limit) is planned as a bitmap scan of the whole rest of the log and a
        sort, for every batch: the first catch-up over a freshly copied log
        read it at half the speed of the next one. A log the server has ever
        vacuumed or analysed has `reltuples` >= 0 and is left to autovacuum.
        """
        recorder = self._recorder()
        with recorder.datastore.get_connection() as conn:
            row = conn.execute(
                "SELECT c.reltuples < 0 AS never FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relname = %s",
                (recorder.datastore.schema or "public", recorder.events_table_name),
            ).fetchone()
            if not (row and row["never"]):
                return False
            conn.execute(SQL("ANALYZE {}").format(self._table()))
        return True

    def newest(self, before: int | None, limit: int, topics: Sequence[str] = (),
               stream: UUID | None = None) -> list[tuple[int, Any]]:
        """Up to `limit` events with id < `before` (from the head when None), newest first, decoded (audit).

        Optionally only some topics, or one stream (its primary key serves that).
        """
        recorder = self._recorder()
        where: list[Composed | SQL] = []
        params: list[Any] = []
        for clause, value in ((SQL("notification_id < %s"), before), (SQL("topic = ANY(%s)"), list(topics) or None),
                              (SQL("originator_id = %s"), stream)):
            if value is not None:
                where.append(clause)
                params.append(value)
        sql = SQL("SELECT notification_id, originator_id, originator_version, topic, state FROM {}").format(
            self._table())
        if where:
            sql += SQL(" WHERE ") + SQL(" AND ").join(where)
        sql += SQL(" ORDER BY notification_id DESC LIMIT %s")
        with recorder.datastore.get_connection() as conn:
            rows = conn.execute(sql, [*params, limit]).fetchall()
        return [(int(r["notification_id"]), self._decode(r["originator_id"], r["originator_version"], r["topic"],
                                                         bytes(r["state"]))[0]) for r in rows]

    def topic_counts(self) -> dict[str, int]:
        """How many stored events of each topic the log holds (what a projection reading some topics replays)."""
        recorder = self._recorder()
        sql = SQL("SELECT topic, count(*) AS n FROM {} GROUP BY topic").format(self._table())
        with recorder.datastore.get_connection() as conn:
            return {str(r["topic"]): int(r["n"]) for r in conn.execute(sql).fetchall()}

    def topic_of(self, event_id: int) -> str | None:
        """The stored topic of one notification, or None when there is no such id."""
        notes = self._app.recorder.select_notifications(start=event_id, stop=event_id, limit=1)
        return notes[0].topic if notes and notes[0].id == event_id else None

    def _recorder(self) -> PostgresApplicationRecorder:
        recorder = self._app.recorder
        assert isinstance(recorder, PostgresApplicationRecorder)
        return recorder

    def _table(self) -> Composed:
        """The events table, schema-qualified, for statements the recorder has no method for."""
        recorder = self._recorder()
        return SQL("{}.{}").format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))

    def _decode(self, originator_id: UUID, originator_version: int, topic: str, state: bytes) -> tuple[Any, bool]:
        """(the event, whether its stored JSON shows it keeps the text rule), or (`Undecodable`, False)."""
        try:
            decoded = self._decoder.decode(originator_id, originator_version, topic, state)
        except Exception as exc:  # anything the mapper raises: the event stays in the log, readable later
            return Undecodable(topic, f"{type(exc).__name__}: {exc}"), False
        return decoded.event, decoded.clean
