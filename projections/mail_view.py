"""The outbox table: every queued email with its delivery state, for the sender and the staff page."""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from events.account import AccountClosed
from events.mail import EmailFailed, EmailQueued, EmailSendAttempted, EmailSent
from projections.base import Projection, Tables, handles


class MailView(Projection):
    name = "mail_view"
    tables = ("outbox",)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['outbox']} (
                message_id uuid PRIMARY KEY, seq bigserial, to_address text NOT NULL, subject text NOT NULL,
                text text NOT NULL, kind text NOT NULL, account_id text, status text NOT NULL,
                attempts int NOT NULL DEFAULT 0, queued_at timestamptz NOT NULL, claimed_at timestamptz,
                sent_at timestamptz, retry_at timestamptz, last_error text)"""
        )
        cur.execute(f"CREATE INDEX ON {t['outbox']} (seq DESC)")
        cur.execute(f"CREATE INDEX ON {t['outbox']} (to_address, seq DESC)")
        cur.execute(f"CREATE INDEX ON {t['outbox']} (status) WHERE status IN ('queued', 'sending', 'failed')")

    @handles(EmailQueued)
    def _queued(self, cur: Cursor[Any], t: Tables, e: EmailQueued) -> None:
        cur.execute(
            f"INSERT INTO {t['outbox']} (message_id, to_address, subject, text, kind, account_id, status, queued_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, 'queued', %s) ON CONFLICT (message_id) DO NOTHING",
            (e.originator_id, e.to, e.subject, e.text, e.kind, e.account_id, e.timestamp),
        )

    @handles(EmailSendAttempted)
    def _attempted(self, cur: Cursor[Any], t: Tables, e: EmailSendAttempted) -> None:
        cur.execute(
            f"UPDATE {t['outbox']} SET status = 'sending', attempts = %s, claimed_at = %s WHERE message_id = %s",
            (e.attempt, e.timestamp, e.originator_id),
        )

    @handles(EmailSent)
    def _sent(self, cur: Cursor[Any], t: Tables, e: EmailSent) -> None:
        cur.execute(
            f"UPDATE {t['outbox']} SET status = 'sent', sent_at = %s, retry_at = NULL WHERE message_id = %s",
            (e.timestamp, e.originator_id),
        )

    @handles(EmailFailed)
    def _failed(self, cur: Cursor[Any], t: Tables, e: EmailFailed) -> None:
        cur.execute(
            f"UPDATE {t['outbox']} SET status = %s, retry_at = %s, last_error = %s WHERE message_id = %s",
            ("failed" if e.retry_at else "given_up", e.retry_at, e.error, e.originator_id),
        )

    @handles(AccountClosed)
    def _account_closed(self, cur: Cursor[Any], t: Tables, e: AccountClosed) -> None:
        """The messages of a closed account keep their kind, subject and times, not whom they went to nor their text."""
        cur.execute(f"UPDATE {t['outbox']} SET account_id = %s, to_address = '', text = '' WHERE account_id = %s",
                    (e.former_account, str(e.originator_id)))
