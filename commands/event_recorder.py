"""The event log's recorder: the library's PostgreSQL recorder, appending in one round trip.

The library orders the log by taking an EXCLUSIVE lock on the events table in
each appending transaction (commit order is then notification-id order, so a
projection tailing the log never passes a gap that fills later). Its insert
syncs after the INSERT and sends COMMIT in a second round trip, so the lock is
held across a round trip plus whatever Python runs between the two. Under a
burst of writes from many threads of one process, the lock holder's thread
waits for the interpreter lock before it can send its COMMIT, and every other
append queues behind it on the table lock: appends serialise on the slowest
thread's scheduling, not on PostgreSQL (docs/performance.md, "One round trip
per append").

Here BEGIN, the lock, NOTIFY, the INSERT and COMMIT are pipelined and sent
together, one sync: the lock is taken and released inside the server within
one message exchange. The ordering guarantee is the library's (the same lock,
held from before the insert until the commit); only the client's share of the
hold time goes.

`PERSISTENCE_MODULE` names `commands.event_recorder:Factory` (launchdir/database.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from eventsourcing import postgres as es_postgres
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.utils import retry


class OneTripRecorder(es_postgres.PostgresApplicationRecorder):
    """Appends: lock, notify, insert and commit in one round trip."""

    def create_table(self) -> None:
        """The library's set-up, without re-creating the notification-id index when it exists.

        Every process start runs it (each CLI command, each worker).
        `CREATE UNIQUE INDEX IF NOT EXISTS` takes the events table's SHARE lock
        before it finds the index, and holds it to the end of the set-up's
        transaction: it waits for an append in flight and holds every append
        back meanwhile. The table, type and function statements take no lock on
        the table, and `CREATE OR REPLACE FUNCTION` keeps the function current.
        """
        name = self.notification_id_index_name
        qualified = f"{self.datastore.schema}.{name}" if self.datastore.schema else name
        with self.datastore.get_connection() as conn:
            row = conn.execute("SELECT to_regclass(%s) IS NOT NULL AS present", (qualified,)).fetchone()
        if not (row and row["present"]):
            super().create_table()
            return
        every = self.sql_create_statements  # the library keeps positions in this list: put it back after
        self.sql_create_statements = [s for s in every if "CREATE UNIQUE INDEX IF NOT EXISTS" not in s.as_string()]
        try:
            super().create_table()
        finally:
            self.sql_create_statements = every

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's insert_events
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        rows = [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
                for e in stored_events]
        ids: list[int] = []
        with self.datastore.get_connection() as conn:
            failed: psycopg.Error | None = None
            with conn.pipeline() as pipeline:
                try:
                    with conn.cursor() as control, conn.cursor() as insert:
                        control.execute("BEGIN")
                        for statement in self.lock_table_statements:  # SET LOCAL lock_timeout, LOCK TABLE
                            control.execute(statement, prepare=True)
                        self._notify_channel(control)
                        if rows:
                            insert.execute(self.insert_events_statement, (rows,), prepare=True)
                        control.execute("COMMIT")
                        pipeline.sync()
                        ids = [row["notification_id"] for row in insert.fetchall()] if rows else []
                except psycopg.Error as exc:  # caught inside the pipeline, so leaving it raises no second error
                    failed = exc
            if failed is not None:
                # A duplicate version (a concurrent writer won), a lock timeout, ...: it may surface at any statement
                # of the pipeline and leaves the BEGIN block aborted; end the block before the pool takes the
                # connection back. The datastore's connection context maps the error (a duplicate to IntegrityError).
                if not conn.closed:
                    conn.rollback()
                raise failed
        return ids


class Factory(es_postgres.PostgresFactory):
    """The library's PostgreSQL factory with the one-round-trip recorder for the application's events."""

    application_recorder_class = OneTripRecorder
