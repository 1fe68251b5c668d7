"""Read tables of the OAuth authorization server.

- `access_tokens`: what the bearer-token verifier reads, one lookup by the
  token's SHA-256 (no secret is stored). Expired rows of a family are deleted
  when it rotates, so the table holds about one row per live family.
- `families`: one row per redeemed code (its refresh chain), for the
  connected-apps page.
- `grants`: one row per account and client, with what the consent page showed.
- `clients`: dynamically registered clients.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.account import AccountClosed
from events.oauth import (
    OAuthClientRegistered,
    OAuthConsentGiven,
    OAuthGrantRevoked,
    OAuthTokenFamilyRevoked,
    OAuthTokensIssued,
    OAuthTokensRotated,
)
from projections.base import Projection, Tables, handles


class OAuthView(Projection):
    name = "oauth_view"
    tables = ("clients", "grants", "families", "access_tokens")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['clients']} (
                client_id text PRIMARY KEY, client_name text, redirect_uris text[] NOT NULL,
                token_endpoint_auth_method text NOT NULL, registered_at timestamptz NOT NULL)"""
        )
        cur.execute(
            f"""CREATE TABLE {t['grants']} (
                grant_id text PRIMARY KEY, account_id text NOT NULL, client_id text NOT NULL, client_name text NOT NULL,
                client_host text NOT NULL, client_kind text NOT NULL, scopes text[] NOT NULL, resource text NOT NULL,
                first_consent_at timestamptz NOT NULL, last_consent_at timestamptz NOT NULL, revoked_at timestamptz)"""
        )
        cur.execute(f"CREATE INDEX ON {t['grants']} (account_id)")
        cur.execute(
            f"""CREATE TABLE {t['families']} (
                family_id text PRIMARY KEY, grant_id text NOT NULL, account_id text NOT NULL, client_id text NOT NULL,
                scopes text[] NOT NULL, resource text NOT NULL, created_at timestamptz NOT NULL,
                refreshed_at timestamptz, access_expires_at timestamptz NOT NULL, refresh_expires_at timestamptz,
                revoked_at timestamptz, revoked_reason text)"""
        )
        cur.execute(f"CREATE INDEX ON {t['families']} (account_id, grant_id)")
        cur.execute(f"CREATE INDEX ON {t['families']} (grant_id)")
        cur.execute(
            f"""CREATE TABLE {t['access_tokens']} (
                token_hash text PRIMARY KEY, family_id text NOT NULL, grant_id text NOT NULL, account_id text NOT NULL,
                client_id text NOT NULL, scopes text[] NOT NULL, resource text NOT NULL,
                expires_at timestamptz NOT NULL, revoked_at timestamptz)"""
        )
        cur.execute(f"CREATE INDEX ON {t['access_tokens']} (family_id)")
        cur.execute(f"CREATE INDEX ON {t['access_tokens']} (grant_id)")

    @handles(OAuthClientRegistered)
    def _client(self, cur: Cursor[Any], t: Tables, e: OAuthClientRegistered) -> None:
        cur.execute(
            f"INSERT INTO {t['clients']} (client_id, client_name, redirect_uris, token_endpoint_auth_method, registered_at) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (client_id) DO NOTHING",
            (e.client_id, e.client_name, list(e.redirect_uris), e.token_endpoint_auth_method, e.timestamp),
        )

    @handles(OAuthConsentGiven)
    def _consent(self, cur: Cursor[Any], t: Tables, e: OAuthConsentGiven) -> None:
        cur.execute(
            f"INSERT INTO {t['grants']} AS g (grant_id, account_id, client_id, client_name, client_host, client_kind, "
            "scopes, resource, first_consent_at, last_consent_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (grant_id) DO UPDATE SET client_name = EXCLUDED.client_name, client_host = EXCLUDED.client_host, "
            "scopes = EXCLUDED.scopes, resource = EXCLUDED.resource, last_consent_at = EXCLUDED.last_consent_at",
            (str(e.originator_id), e.account_id, e.client_id, e.client_name, e.client_host, e.client_kind,
             list(e.scopes), e.resource, e.timestamp, e.timestamp),
        )

    @handles(OAuthGrantRevoked)
    def _grant_revoked(self, cur: Cursor[Any], t: Tables, e: OAuthGrantRevoked) -> None:
        grant = str(e.originator_id)
        cur.execute(f"UPDATE {t['grants']} SET revoked_at = %s WHERE grant_id = %s", (e.timestamp, grant))
        cur.execute(
            f"UPDATE {t['families']} SET revoked_at = %s, revoked_reason = %s WHERE grant_id = %s AND revoked_at IS NULL",
            (e.timestamp, e.reason, grant),
        )
        cur.execute(
            f"UPDATE {t['access_tokens']} SET revoked_at = %s WHERE grant_id = %s AND revoked_at IS NULL",
            (e.timestamp, grant),
        )

    @handles(OAuthTokensIssued)
    def _issued(self, cur: Cursor[Any], t: Tables, e: OAuthTokensIssued) -> None:
        family = str(e.originator_id)
        cur.execute(
            f"INSERT INTO {t['families']} (family_id, grant_id, account_id, client_id, scopes, resource, created_at, "
            "access_expires_at, refresh_expires_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (family_id) DO NOTHING",
            (family, e.grant_id, e.account_id, e.client_id, list(e.scopes), e.resource, e.timestamp,
             e.access_expires_at, e.refresh_expires_at),
        )
        self._token(cur, t, e.access_hash, family, e.grant_id, e.account_id, e.client_id, e.scopes, e.resource,
                    e.access_expires_at)

    @handles(OAuthTokensRotated)
    def _rotated(self, cur: Cursor[Any], t: Tables, e: OAuthTokensRotated) -> None:
        family = str(e.originator_id)
        row = cur.execute(
            f"UPDATE {t['families']} SET refreshed_at = %s, access_expires_at = %s, refresh_expires_at = %s "
            "WHERE family_id = %s RETURNING grant_id, account_id, client_id, resource",
            (e.timestamp, e.access_expires_at, e.refresh_expires_at, family),
        ).fetchone()
        if row is None:
            return
        cur.execute(f"DELETE FROM {t['access_tokens']} WHERE family_id = %s AND expires_at < %s", (family, e.timestamp))
        self._token(cur, t, e.access_hash, family, row[0], row[1], row[2], e.scopes, row[3], e.access_expires_at)

    @handles(OAuthTokenFamilyRevoked)
    def _family_revoked(self, cur: Cursor[Any], t: Tables, e: OAuthTokenFamilyRevoked) -> None:
        family = str(e.originator_id)
        cur.execute(
            f"UPDATE {t['families']} SET revoked_at = %s, revoked_reason = %s WHERE family_id = %s AND revoked_at IS NULL",
            (e.timestamp, e.reason, family),
        )
        cur.execute(
            f"UPDATE {t['access_tokens']} SET revoked_at = %s WHERE family_id = %s AND revoked_at IS NULL",
            (e.timestamp, family),
        )

    @staticmethod
    def _token(cur: Cursor[Any], t: Tables, token_hash: str, family: str, grant: str, account: str, client: str,
               scopes: list[str], resource: str, expires_at: Any) -> None:
        cur.execute(
            f"INSERT INTO {t['access_tokens']} (token_hash, family_id, grant_id, account_id, client_id, scopes, resource, "
            "expires_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (token_hash) DO NOTHING",
            (token_hash, family, grant, account, client, list(scopes), resource, expires_at),
        )

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """A closed account's grants (revoked in the same append) name the former member instead."""
        for table in ("grants", "families", "access_tokens"):
            cur.execute(f"UPDATE {t[table]} SET account_id = %s WHERE account_id = %s",
                        (e.former_account, str(e.originator_id)))
