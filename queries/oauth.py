"""OAuth reads: the bearer verifier's token lookup and the connected-apps page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from projections.reads import ReadStore

VIEW = "oauth_view"


def token_for_auth(reads: ReadStore, token_hash: str) -> dict[str, Any] | None:
    """The access token row for a token's SHA-256 (one primary-key lookup), or None."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT family_id, grant_id, account_id, client_id, scopes, resource, expires_at, revoked_at "
            f"FROM {t['access_tokens']} WHERE token_hash = %s",
            (token_hash,),
        ).fetchone()
    if row is None:
        return None
    keys = ("family_id", "grant_id", "account_id", "client_id", "scopes", "resource", "expires_at", "revoked_at")
    return dict(zip(keys, row, strict=True))


def connected_apps(reads: ReadStore, account_id: str, now: datetime) -> list[dict[str, Any]]:
    """Clients holding live tokens for this account: a family not revoked whose refresh or access token is unexpired."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT g.grant_id, g.client_id, g.client_name, g.client_host, g.client_kind, g.first_consent_at,
                       array_agg(DISTINCT s ORDER BY s) AS scopes, array_agg(DISTINCT f.resource ORDER BY f.resource),
                       max(coalesce(f.refreshed_at, f.created_at)), count(DISTINCT f.family_id),
                       max(greatest(f.access_expires_at, coalesce(f.refresh_expires_at, f.access_expires_at)))
                FROM {t['grants']} g JOIN {t['families']} f ON f.grant_id = g.grant_id
                     CROSS JOIN LATERAL unnest(f.scopes) AS s
                WHERE g.account_id = %s AND f.revoked_at IS NULL
                  AND greatest(f.access_expires_at, coalesce(f.refresh_expires_at, f.access_expires_at)) > %s
                GROUP BY g.grant_id ORDER BY max(coalesce(f.refreshed_at, f.created_at)) DESC, g.grant_id""",
            (account_id, now),
        ).fetchall()
    return [
        {"grant_id": r[0], "client_id": r[1], "client_name": r[2], "client_host": r[3], "client_kind": r[4],
         "first_consent_at": r[5], "scopes": list(r[6]), "resources": list(r[7]), "last_used_at": r[8],
         "sessions": r[9], "expires_at": r[10]}
        for r in rows
    ]


def registered_clients(reads: ReadStore) -> int:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT count(*) FROM {t['clients']}").fetchone()
    return int(row[0]) if row else 0
