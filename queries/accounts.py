"""Account reads: get_account, the account page's keys, the token verifier's key lookup, staff lists."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from projections.reads import ReadStore

VIEW = "accounts_view"


# ---------------------------------------------------------------- inputs


class GetAccount(BaseModel):
    """Who you are signed in as and what the access allows: account, email, staff role, credential kind, scopes, expiry."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------- outputs


class AccountInfo(BaseModel):
    account_id: str
    email: str
    email_verified: bool
    is_staff: bool
    credential_kind: str  # "api_key" | "oauth" | "session"
    scopes: list[str]
    expires_at: datetime | None
    client_id: str | None  # the OAuth client; null for API keys


# ---------------------------------------------------------------- reads


def account(reads: ReadStore, account_id: str) -> dict[str, Any] | None:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT account_id, email, email_verified, is_staff, created_at FROM {t['accounts']} WHERE account_id = %s",
            (account_id,),
        ).fetchone()
    if row is None:
        return None
    return {"account_id": row[0], "email": row[1], "email_verified": row[2], "is_staff": row[3], "created_at": row[4]}


def get_account(
    reads: ReadStore, account_id: str, kind: str, scopes: frozenset[str], expires_at: datetime | None,
    client_id: str | None,
) -> dict[str, Any] | None:
    """The get_account document for a verified credential (None when the account is unknown)."""
    doc = account(reads, account_id)
    if doc is None:
        return None
    return {
        "account_id": doc["account_id"], "email": doc["email"], "email_verified": doc["email_verified"],
        "is_staff": doc["is_staff"], "credential_kind": kind, "scopes": sorted(scopes),
        "expires_at": expires_at, "client_id": client_id,
    }


def account_keys(reads: ReadStore, account_id: str) -> list[dict[str, Any]]:
    """The account's API keys, newest first (never the hash)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT key_id, name, scopes, created_at, expires_at, revoked_at FROM {t['api_keys']} "
            "WHERE account_id = %s ORDER BY created_at DESC, key_id",
            (account_id,),
        ).fetchall()
    return [
        {"key_id": r[0], "name": r[1], "scopes": list(r[2]), "created_at": r[3], "expires_at": r[4], "revoked_at": r[5]}
        for r in rows
    ]


def key_for_auth(reads: ReadStore, key_id: str) -> dict[str, Any] | None:
    """What the token verifier needs about one key, in one indexed lookup."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(
            f"SELECT k.key_id, k.account_id, k.secret_hash, k.scopes, k.expires_at, k.revoked_at, "
            f"coalesce(a.is_staff, false) FROM {t['api_keys']} k "
            f"LEFT JOIN {t['accounts']} a ON a.account_id = k.account_id WHERE k.key_id = %s",
            (key_id,),
        ).fetchone()
    if row is None:
        return None
    return {
        "key_id": row[0], "account_id": row[1], "secret_hash": row[2], "scopes": frozenset(row[3]),
        "expires_at": row[4], "revoked_at": row[5], "is_staff": bool(row[6]),
    }


def recent_accounts(reads: ReadStore, limit: int = 50) -> list[dict[str, Any]]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT account_id, email, email_verified, is_staff, created_at FROM {t['accounts']} "
            "ORDER BY created_at DESC LIMIT %s",
            (limit,),
        ).fetchall()
    return [{"account_id": r[0], "email": r[1], "email_verified": r[2], "is_staff": r[3], "created_at": r[4]} for r in rows]


def staff_accounts(reads: ReadStore, limit: int = 200) -> list[dict[str, Any]]:
    """The accounts with the staff role, by address (the staff overview lists them with a way to take it away)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"SELECT account_id, email, created_at FROM {t['accounts']} WHERE is_staff ORDER BY email LIMIT %s", (limit,),
        ).fetchall()
    return [{"account_id": r[0], "email": r[1], "created_at": r[2]} for r in rows]


def staff_ids(reads: ReadStore) -> tuple[str, ...]:
    """The ids of the accounts read as staff: the candidates the last-staff rule checks each on its own stream."""
    return tuple(str(a["account_id"]) for a in staff_accounts(reads))


def counts(reads: ReadStore) -> dict[str, int]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        a = conn.execute(
            f"SELECT count(*), count(*) FILTER (WHERE email_verified), count(*) FILTER (WHERE is_staff) FROM {t['accounts']}"
        ).fetchone()
        k = conn.execute(f"SELECT count(*) FILTER (WHERE revoked_at IS NULL) FROM {t['api_keys']}").fetchone()
    assert a is not None and k is not None
    return {"accounts": int(a[0]), "verified": int(a[1]), "staff": int(a[2]), "keys_not_revoked": int(k[0])}
