"""Start-up DDL that takes no lock when there is nothing to do.

Every process runs its set-up at start (a server, a worker, each CLI
command). `CREATE INDEX IF NOT EXISTS` takes the table's SHARE lock before it
finds the index there, and holds it to the end of the transaction: while it
waits for a batch in flight, every writer of that table queues behind it, and
in one transaction with another such statement it deadlocked with a running
projector (the set-up held the projections' tracking table and waited for
`listing_view`'s profiles; the projector's batch held the profiles and waited
to record its position: docs/projections.md, "Starting beside running
processes"). So an index is created only when no relation of its name exists.
"""

from __future__ import annotations

from typing import Any


def exists(conn: Any, name: str) -> bool:
    """A relation (table, index, sequence) of this name is visible on the search path."""
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()
    return bool(row and row[0])


def create_index(conn: Any, name: str, ddl: str) -> bool:
    """Run `ddl` (a `CREATE INDEX name ...`) unless `name` exists; whether it ran.

    Two processes starting at once may both find it missing: `ddl` should say
    `IF NOT EXISTS`, and callers that care serialise on an advisory lock.
    """
    if exists(conn, name):
        return False
    conn.execute(ddl)
    return True
