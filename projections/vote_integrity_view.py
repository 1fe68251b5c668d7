"""The staff's view of votes with their integrity signals, for the vote integrity report.

One row per vote stream (a person's vote on a listing): when it was cast, if
it still stands, whether staff voided it (and who, when, why, the last
decision), and the signals recorded with it. A withdrawn vote stays as a row
with `standing = false` and leaves the report; a new vote on the same stream
replaces the row. `first_views` keeps each account's first signed-in page
view. No raw address or user agent ever reaches these tables.

Casts are kept back and written together at `flush` (one statement for the
batch's casts instead of one each): in a catch-up over a long log almost every
event this view reads is a cast. Any other event writes the kept casts first,
so its update finds the row it changes.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.account import AccountClosed
from events.community import VoteCast, VoteWithdrawn
from events.votes import AccountFirstPageViewed, VoidedVoteWithdrawn, VoteRestored, VoteSignalsRecorded, VoteVoided
from projections import bulk
from projections.base import Projection, Tables, handles

CAST_COLUMNS = (("vote_id", "uuid"), ("listing_id", "bigint"), ("account_id", "text"), ("cast_at", "timestamptz"))


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

    # The casts a batch kept back: vote id -> (vote id, listing id, account id, cast at). The memory belongs to
    # the batch's cursor (one transaction), so nothing kept outlives a rollback.
    _batch_cursor: Any = None
    _casts: dict[Any, tuple[Any, ...]] = {}

    def _kept(self, cur: Cursor[Any]) -> dict[Any, tuple[Any, ...]]:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._casts = cur, {}
        return self._casts

    @handles(VoteCast)
    def _cast(self, cur: Cursor[Any], t: Tables, e: VoteCast) -> None:
        """Kept for `flush`: a new vote on the stream replaces its row (signals and decisions start again)."""
        self._kept(cur)[e.originator_id] = (e.originator_id, e.listing_id, e.account_id, e.timestamp)

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the kept casts in one statement (a stream appears once: its last cast of the batch)."""
        casts = self._kept(cur)
        if not casts:
            return
        bulk.insert(cur, t["votes"], CAST_COLUMNS, list(casts.values()),
                    """ON CONFLICT (vote_id) DO UPDATE SET cast_at = EXCLUDED.cast_at, standing = true, voided = false,
                        decided_by = NULL, decided_at = NULL, decision_reason = NULL, has_signals = false,
                        account_age_s = NULL, email_verified = NULL, network_hash = NULL, agent_hash = NULL,
                        since_first_view_s = NULL""")
        self._casts = {}

    @handles(VoteSignalsRecorded)
    def _signals(self, cur: Cursor[Any], t: Tables, e: VoteSignalsRecorded) -> None:
        self.flush(cur, t)
        cur.execute(
            f"""UPDATE {t['votes']} SET has_signals = true, account_age_s = %s, email_verified = %s,
                    network_hash = %s, agent_hash = %s, since_first_view_s = %s WHERE vote_id = %s""",
            (e.account_age_seconds, e.email_verified, e.network_hash, e.agent_hash, e.since_first_view_seconds,
             e.originator_id),
        )

    @handles(VoteWithdrawn, VoidedVoteWithdrawn)
    def _withdrawn(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn | VoidedVoteWithdrawn) -> None:
        self.flush(cur, t)
        cur.execute(f"UPDATE {t['votes']} SET standing = false WHERE vote_id = %s", (e.originator_id,))

    @handles(VoteVoided, VoteRestored)
    def _decided(self, cur: Cursor[Any], t: Tables, e: VoteVoided | VoteRestored) -> None:
        self.flush(cur, t)
        cur.execute(
            f"""UPDATE {t['votes']} SET voided = %s, decided_by = %s, decided_at = %s, decision_reason = %s
                WHERE vote_id = %s""",
            (isinstance(e, VoteVoided), e.actor, e.timestamp, e.reason, e.originator_id),
        )

    @handles(AccountFirstPageViewed)
    def _first_view(self, cur: Cursor[Any], t: Tables, e: AccountFirstPageViewed) -> None:
        cur.execute(f"INSERT INTO {t['first_views']} (account_id, at) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    (e.account_id, e.timestamp))

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """A closed account's votes stay, under the former member's id; its first page view goes."""
        self.flush(cur, t)  # casts kept back in this batch are written first
        cur.execute(f"UPDATE {t['votes']} SET account_id = %s WHERE account_id = %s",
                    (e.former_account, str(e.originator_id)))
        cur.execute(f"DELETE FROM {t['first_views']} WHERE account_id = %s", (str(e.originator_id),))
