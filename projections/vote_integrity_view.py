"""The staff's view of votes with their integrity signals, for the vote integrity report.

One row per vote stream (a person's vote on a listing): when it was cast, if
it still stands, whether staff voided it (and who, when, why, the last
decision), and the signals recorded with it. A withdrawn vote stays as a row
with `standing = false` and leaves the report; a new vote on the same stream
replaces the row. `first_views` keeps each account's first signed-in page
view. No raw address or user agent ever reaches these tables.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.community import VoteCast, VoteWithdrawn
from events.votes import AccountFirstPageViewed, VoidedVoteWithdrawn, VoteRestored, VoteSignalsRecorded, VoteVoided
from projections.base import Projection, Tables, handles


class VoteIntegrityView(Projection):
    name = "vote_integrity_view"
    tables = ("votes", "first_views")

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['votes']} (
                vote_id uuid PRIMARY KEY, listing_id bigint NOT NULL, account_id text NOT NULL,
                cast_at timestamptz NOT NULL, standing boolean NOT NULL DEFAULT true,
                voided boolean NOT NULL DEFAULT false, decided_by text, decided_at timestamptz, decision_reason text,
                has_signals boolean NOT NULL DEFAULT false, account_age_s bigint, email_verified boolean,
                network_hash text, agent_hash text, since_first_view_s bigint)"""
        )
        cur.execute(f"CREATE INDEX ON {t['votes']} (cast_at)")
        cur.execute(f"CREATE INDEX ON {t['votes']} (listing_id, cast_at)")
        cur.execute(f"CREATE TABLE {t['first_views']} (account_id text PRIMARY KEY, at timestamptz NOT NULL)")

    @handles(VoteCast)
    def _cast(self, cur: Cursor[Any], t: Tables, e: VoteCast) -> None:
        cur.execute(
            f"""INSERT INTO {t['votes']} (vote_id, listing_id, account_id, cast_at) VALUES (%s, %s, %s, %s)
                ON CONFLICT (vote_id) DO UPDATE SET cast_at = EXCLUDED.cast_at, standing = true, voided = false,
                    decided_by = NULL, decided_at = NULL, decision_reason = NULL, has_signals = false,
                    account_age_s = NULL, email_verified = NULL, network_hash = NULL, agent_hash = NULL,
                    since_first_view_s = NULL""",
            (e.originator_id, e.listing_id, e.account_id, e.timestamp),
        )

    @handles(VoteSignalsRecorded)
    def _signals(self, cur: Cursor[Any], t: Tables, e: VoteSignalsRecorded) -> None:
        cur.execute(
            f"""UPDATE {t['votes']} SET has_signals = true, account_age_s = %s, email_verified = %s,
                    network_hash = %s, agent_hash = %s, since_first_view_s = %s WHERE vote_id = %s""",
            (e.account_age_seconds, e.email_verified, e.network_hash, e.agent_hash, e.since_first_view_seconds,
             e.originator_id),
        )

    @handles(VoteWithdrawn, VoidedVoteWithdrawn)
    def _withdrawn(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn | VoidedVoteWithdrawn) -> None:
        cur.execute(f"UPDATE {t['votes']} SET standing = false WHERE vote_id = %s", (e.originator_id,))

    @handles(VoteVoided, VoteRestored)
    def _decided(self, cur: Cursor[Any], t: Tables, e: VoteVoided | VoteRestored) -> None:
        cur.execute(
            f"""UPDATE {t['votes']} SET voided = %s, decided_by = %s, decided_at = %s, decision_reason = %s
                WHERE vote_id = %s""",
            (isinstance(e, VoteVoided), e.actor, e.timestamp, e.reason, e.originator_id),
        )

    @handles(AccountFirstPageViewed)
    def _first_view(self, cur: Cursor[Any], t: Tables, e: AccountFirstPageViewed) -> None:
        cur.execute(f"INSERT INTO {t['first_views']} (account_id, at) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    (e.account_id, e.timestamp))
