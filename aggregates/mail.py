"""The Email decider: one outgoing message from queued to sent (or given up).

Senders claim a message by appending `EmailSendAttempted` at the next stream
version; optimistic concurrency lets exactly one of several racing senders
win, so a message is not sent twice by two processes. A claim older than
`STALE_CLAIM` (a sender that died mid-way) may be taken over.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import singledispatch
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, one
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput, NotFound
from events.mail import EmailFailed, EmailQueued, EmailSendAttempted, EmailSent

MAX_ATTEMPTS = 5
BACKOFF = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15), timedelta(hours=1))
STALE_CLAIM = timedelta(minutes=10)
SUBJECT_MAX = 200
TEXT_MAX = 20_000


@dataclass(frozen=True)
class EmailState:
    id: UUID
    version: int = 0
    to: str = ""
    subject: str = ""
    text: str = ""
    kind: str = ""
    account_id: str | None = None
    unsubscribe_url: str | None = None
    status: str = "new"  # new | queued | sending | sent | failed | given_up
    attempts: int = 0
    claimed_at: datetime | None = None
    retry_at: datetime | None = None


def initial(stream_id: UUID) -> EmailState:
    return EmailState(id=stream_id)


def message_id(dedupe_key: str) -> UUID:
    """A deterministic message id: queueing the same key twice sends one email."""
    return uuid5(NAMESPACE_URL, "launchdir:mail:" + dedupe_key)


def decide_queue(
    state: EmailState, to: str, subject: str, text: str, kind: str, account_id: str | None, meta: Meta,
    unsubscribe_url: str | None = None,
) -> list[Event]:
    """Put a message in the outbox; a message id already used means it is queued already.

    `unsubscribe_url`: where a mail program unsubscribes the person in one click (sent as the
    `List-Unsubscribe` headers), for mail people get because they follow something.
    """
    if state.version > 0:
        return []
    if not to or "@" not in to or "\n" in to or "\r" in to:
        raise InvalidInput("bad recipient", [FieldProblem("to", "format", "not an email address")])
    if not subject or len(subject) > SUBJECT_MAX or "\n" in subject or "\r" in subject:
        raise InvalidInput("bad subject", [FieldProblem("subject", "format", f"one line, 1..{SUBJECT_MAX} characters")])
    if len(text) > TEXT_MAX:
        raise InvalidInput("text too long", [FieldProblem("text", "max_length", f"at most {TEXT_MAX} characters")])
    if unsubscribe_url is not None and (not unsubscribe_url.startswith(("https://", "http://"))
                                        or any(c in unsubscribe_url for c in "\r\n <>") or len(unsubscribe_url) > 1000):
        raise InvalidInput("bad unsubscribe address", [FieldProblem("unsubscribe_url", "format", "one http(s) URL")])
    return one(state, meta, EmailQueued, to=to, subject=subject, text=text, kind=kind, account_id=account_id,
               unsubscribe_url=unsubscribe_url)


def is_due(state: EmailState, at: datetime) -> bool:
    """Whether a sender may claim the message now."""
    if state.status == "queued":
        return True
    if state.status == "failed":
        return state.retry_at is not None and at >= state.retry_at
    if state.status == "sending":
        return state.claimed_at is not None and at - state.claimed_at >= STALE_CLAIM and state.attempts < MAX_ATTEMPTS
    return False


def decide_attempt(state: EmailState, meta: Meta) -> list[Event]:
    """Claim the message for one send attempt."""
    if state.version == 0:
        raise NotFound("no such message")
    if not is_due(state, meta.at):
        raise Conflict(f"message is {state.status}, not due")
    return one(state, meta, EmailSendAttempted, attempt=state.attempts + 1)


def decide_sent(state: EmailState, attempt: int, meta: Meta) -> list[Event]:
    if state.status == "sent":
        return []
    return one(state, meta, EmailSent, attempt=attempt)


def decide_failed(state: EmailState, attempt: int, error: str, meta: Meta) -> list[Event]:
    """Record a failed attempt and when to retry (none after `MAX_ATTEMPTS`)."""
    if state.status == "sent":
        return []
    retry_at = meta.at + BACKOFF[min(attempt, len(BACKOFF)) - 1] if attempt < MAX_ATTEMPTS else None
    return one(state, meta, EmailFailed, attempt=attempt, error=error[:1000], retry_at=retry_at)


@singledispatch
def evolve(event: Event, state: EmailState) -> EmailState:
    return replace(state, version=event.originator_version)


@evolve.register
def _(e: EmailQueued, s: EmailState) -> EmailState:
    return replace(s, version=e.originator_version, to=e.to, subject=e.subject, text=e.text, kind=e.kind,
                   account_id=e.account_id, unsubscribe_url=e.unsubscribe_url, status="queued")


@evolve.register
def _(e: EmailSendAttempted, s: EmailState) -> EmailState:
    return replace(s, version=e.originator_version, status="sending", attempts=e.attempt, claimed_at=e.timestamp)


@evolve.register
def _(e: EmailSent, s: EmailState) -> EmailState:
    return replace(s, version=e.originator_version, status="sent", retry_at=None)


@evolve.register
def _(e: EmailFailed, s: EmailState) -> EmailState:
    status = "failed" if e.retry_at is not None else "given_up"
    return replace(s, version=e.originator_version, status=status, retry_at=e.retry_at)
