"""Events of outgoing email messages: the outbox.

Each message is its own small stream. A command that must send mail appends
`EmailQueued` in the same transaction as its own events, so an email is sent
if and only if the change happened (a transactional outbox).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class EmailQueued(Event):
    to: str
    subject: str
    text: str
    kind: str  # "verify_email" | "signup_existing" | "password_reset" | ...
    account_id: str | None
    # the one-click unsubscribe address of a mail sent to followers (RFC 8058 `List-Unsubscribe`); None elsewhere
    unsubscribe_url: str | None = None


@dataclass(frozen=True, kw_only=True)
class EmailSendAttempted(Event):
    """A sender claimed the message (optimistic concurrency decides between racing senders)."""

    attempt: int


@dataclass(frozen=True, kw_only=True)
class EmailSent(Event):
    attempt: int


@dataclass(frozen=True, kw_only=True)
class EmailFailed(Event):
    attempt: int
    error: str
    retry_at: datetime | None  # None: given up
