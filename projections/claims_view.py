"""The claims table: every claim with its status, checks and what the claimant publishes.

list_my_claims, the answers of claim_listing and verify_claim, the staff page
and `launchdir staff claims` read it (`queries/claims.py`). The token of a dns,
meta or file claim is stored (the claimant reads it again in the
instructions); an email claim's link secret never reaches this table. A pending
claim past `expires_at` is shown as expired by the reads, before any event
closes it.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.account import AccountClosed
from events.claim import ClaimAttemptsUsedUp, ClaimCheckFailed, ClaimExpired, ClaimStarted, ClaimVerified, ClaimVoided
from projections.base import Projection, Tables, handles


class ClaimsView(Projection):
    name = "claims_view"
    tables = ("claims",)
    shape = 2  # 2: `attempts` counts the check that verified a dns, meta or file claim (it read 0 after a first check)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['claims']} (
                claim_id bigint PRIMARY KEY, stream_id uuid NOT NULL UNIQUE, listing_id bigint NOT NULL,
                slug text NOT NULL, account_id text NOT NULL, method text NOT NULL, domain text NOT NULL,
                website_url text NOT NULL, token text NOT NULL, email text NOT NULL, status text NOT NULL,
                attempts int NOT NULL DEFAULT 0, last_reason text, last_detail text, last_checked_at timestamptz,
                started_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, closed_at timestamptz)"""
        )
        cur.execute(f"CREATE INDEX ON {t['claims']} (account_id, claim_id DESC)")
        cur.execute(f"CREATE INDEX ON {t['claims']} (status, claim_id DESC)")

    @handles(ClaimStarted)
    def _started(self, cur: Cursor[Any], t: Tables, e: ClaimStarted) -> None:
        cur.execute(
            f"INSERT INTO {t['claims']} (claim_id, stream_id, listing_id, slug, account_id, method, domain, "
            "website_url, token, email, status, started_at, expires_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'pending', %s, %s) ON CONFLICT (claim_id) DO NOTHING",
            (e.claim_id, e.originator_id, e.listing_id, e.slug, e.account_id, e.method, e.domain, e.website_url,
             e.token, e.email, e.timestamp, e.expires_at),
        )

    @handles(ClaimCheckFailed)
    def _failed(self, cur: Cursor[Any], t: Tables, e: ClaimCheckFailed) -> None:
        cur.execute(
            f"UPDATE {t['claims']} SET attempts = %s, last_reason = %s, last_detail = %s, last_checked_at = %s "
            "WHERE stream_id = %s",
            (e.attempt, e.reason, e.detail, e.timestamp, e.originator_id),
        )

    @handles(ClaimAttemptsUsedUp)
    def _used_up(self, cur: Cursor[Any], t: Tables, e: ClaimAttemptsUsedUp) -> None:
        cur.execute(f"UPDATE {t['claims']} SET status = 'failed', closed_at = %s WHERE stream_id = %s",
                    (e.timestamp, e.originator_id))

    @handles(ClaimVerified)
    def _verified(self, cur: Cursor[Any], t: Tables, e: ClaimVerified) -> None:
        """A dns, meta or file claim is verified by a check that found the token: a check made, counted with the
        failed ones (an email claim is verified by its link, not a check)."""
        cur.execute(
            f"UPDATE {t['claims']} SET status = 'verified', closed_at = %s, last_checked_at = %s, last_reason = NULL, "
            "last_detail = NULL, attempts = attempts + %s WHERE stream_id = %s",
            (e.timestamp, e.timestamp, 0 if e.method == "email" else 1, e.originator_id),
        )

    @handles(ClaimExpired)
    def _expired(self, cur: Cursor[Any], t: Tables, e: ClaimExpired) -> None:
        cur.execute(
            f"UPDATE {t['claims']} SET status = 'expired', closed_at = %s, last_reason = 'expired', "
            "last_detail = 'the claim expired before it was verified' WHERE stream_id = %s",
            (e.timestamp, e.originator_id),
        )

    @handles(ClaimVoided)
    def _voided(self, cur: Cursor[Any], t: Tables, e: ClaimVoided) -> None:
        cur.execute(
            f"UPDATE {t['claims']} SET status = 'voided', last_reason = 'voided', last_detail = %s WHERE stream_id = %s",
            (e.reason, e.originator_id),
        )

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """Claims of a closed account stay in the staff's list, under the former member's id."""
        cur.execute(f"UPDATE {t['claims']} SET account_id = %s WHERE account_id = %s",
                    (e.former_account, str(e.originator_id)))
