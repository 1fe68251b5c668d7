"""Where the site answers, as the last `launchdir serve` recorded it, for processes told nothing else.

Links in mails and pages, and the badge checks of `staff check-badge` and
`staff tick`, use the site's public URL. A server knows it (its flags,
`LAUNCHDIR_PUBLIC_URL`, `LAUNCHDIR_HOST`/`LAUNCHDIR_PORT`); a staff command
run from another shell, a worker or a projector often does not, and used to
assume http://127.0.0.1:8000: a badge linking to the real site was then
reported missing. So `serve` records its URL in the database it serves, and a
process whose environment names no address takes that one (docs/operations.md).
"""

from __future__ import annotations

from dataclasses import replace

import psycopg

from launchdir.settings import Settings
from projections.ddl import exists

TABLE = "launchdir_site_address"
DDL = f"CREATE TABLE IF NOT EXISTS {TABLE} (one boolean PRIMARY KEY DEFAULT true CHECK (one), " \
      "base_url text NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now())"


def record(conninfo: str, base_url: str) -> None:
    """Remember `base_url` as where the site answers (one row; the last server started wins)."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        if not exists(conn, TABLE):
            conn.execute(DDL)
        conn.execute(f"INSERT INTO {TABLE} (base_url) VALUES (%s) ON CONFLICT (one) DO UPDATE "
                     "SET base_url = excluded.base_url, recorded_at = now()", (base_url,))


def recorded(conninfo: str) -> str | None:
    """The URL the last server recorded, or None when no server has run on this database."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        if not exists(conn, TABLE):
            return None
        row = conn.execute(f"SELECT base_url FROM {TABLE}").fetchone()
    return str(row[0]) if row else None


def settle(settings: Settings, conninfo: str) -> Settings:
    """`settings` with the recorded public URL when its environment named no address of its own."""
    if settings.address_given:
        return settings
    url = recorded(conninfo)
    return replace(settings, public_url=url) if url else settings
