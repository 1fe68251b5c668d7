"""Read tables of accounts and their API keys (no password hashes here).

`api_keys` is what the token verifier reads, one indexed lookup by key id;
`accounts` answers get_account, the account page and the staff pages.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.account import (
    AccountClosed,
    AccountEmailChanged,
    AccountEmailChangeReverted,
    AccountEmailVerified,
    AccountRegistered,
    AccountStaffGranted,
    AccountStaffRevoked,
    ApiKeyCreated,
    ApiKeyRevoked,
)
from projections.base import Projection, Tables, handles


class AccountsView(Projection):
    name = "accounts_view"
    tables = ("accounts", "api_keys")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['accounts']} (
                account_id text PRIMARY KEY, email text NOT NULL, email_verified boolean NOT NULL DEFAULT false,
                is_staff boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX ON {t['accounts']} (email)")
        cur.execute(
            f"""CREATE TABLE {t['api_keys']} (
                key_id text PRIMARY KEY, account_id text NOT NULL, name text NOT NULL, scopes text[] NOT NULL,
                secret_hash text NOT NULL, created_at timestamptz NOT NULL, expires_at timestamptz,
                revoked_at timestamptz)"""
        )
        cur.execute(f"CREATE INDEX ON {t['api_keys']} (account_id, created_at)")

    @handles(AccountRegistered)
    def _registered(self, cur: Cursor[Any], t: Tables, e: AccountRegistered) -> None:
        cur.execute(
            f"INSERT INTO {t['accounts']} (account_id, email, created_at) VALUES (%s, %s, %s) "
            "ON CONFLICT (account_id) DO NOTHING",
            (str(e.originator_id), e.email, e.timestamp),
        )

    @handles(AccountEmailVerified)
    def _verified(self, cur: Cursor[Any], t: Tables, e: AccountEmailVerified) -> None:
        cur.execute(f"UPDATE {t['accounts']} SET email_verified = true WHERE account_id = %s", (str(e.originator_id),))

    @handles(AccountEmailChanged)
    def _email_changed(self, cur: Cursor[Any], t: Tables, e: AccountEmailChanged) -> None:
        """The new address, confirmed by the link that moved the account; everything that shows or mails it reads this."""
        cur.execute(f"UPDATE {t['accounts']} SET email = %s, email_verified = true WHERE account_id = %s",
                    (e.new_email, str(e.originator_id)))

    @handles(AccountEmailChangeReverted)
    def _email_change_reverted(self, cur: Cursor[Any], t: Tables, e: AccountEmailChangeReverted) -> None:
        """Back at the old address (its undo link proved the mailbox): found by it again, not by the dropped one."""
        cur.execute(f"UPDATE {t['accounts']} SET email = %s, email_verified = true WHERE account_id = %s",
                    (e.restored_email, str(e.originator_id)))

    @handles(AccountStaffGranted, AccountStaffRevoked)
    def _staff(self, cur: Cursor[Any], t: Tables, e: AccountStaffGranted | AccountStaffRevoked) -> None:
        cur.execute(
            f"UPDATE {t['accounts']} SET is_staff = %s WHERE account_id = %s",
            (isinstance(e, AccountStaffGranted), str(e.originator_id)),
        )

    @handles(ApiKeyCreated)
    def _key_created(self, cur: Cursor[Any], t: Tables, e: ApiKeyCreated) -> None:
        cur.execute(
            f"INSERT INTO {t['api_keys']} (key_id, account_id, name, scopes, secret_hash, created_at, expires_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (key_id) DO NOTHING",
            (e.key_id, str(e.originator_id), e.name, list(e.scopes), e.secret_hash, e.timestamp, e.expires_at),
        )

    @handles(ApiKeyRevoked)
    def _key_revoked(self, cur: Cursor[Any], t: Tables, e: ApiKeyRevoked) -> None:
        cur.execute(
            f"UPDATE {t['api_keys']} SET revoked_at = %s WHERE key_id = %s AND account_id = %s",
            (e.timestamp, e.key_id, str(e.originator_id)),
        )

    @handles(AccountClosed)
    def _closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """A closed account is forgotten here: its row and its keys (revoked in the same append) go."""
        cur.execute(f"DELETE FROM {t['api_keys']} WHERE account_id = %s", (str(e.originator_id),))
        cur.execute(f"DELETE FROM {t['accounts']} WHERE account_id = %s", (str(e.originator_id),))
