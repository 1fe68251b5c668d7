"""Mail commands: queue a message, and the sender's claim / sent / failed records."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from uuid import UUID

from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel, ConfigDict, Field

from aggregates import mail
from aggregates.base import Meta
from commands.store import EventStore
from events.base import Event
from events.errors import Conflict


class QueueEmail(BaseModel):
    """Put a plain-text email in the outbox; the same `dedupe_key` queues it once."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    to: str = Field(max_length=254)
    subject: str = Field(max_length=mail.SUBJECT_MAX)
    text: str = Field(max_length=mail.TEXT_MAX)
    kind: str = Field(max_length=40)
    dedupe_key: str = Field(max_length=500)
    account_id: str | None = None


def load_email(store: EventStore, message_id: UUID) -> mail.EmailState:
    state: mail.EmailState = store.load(message_id, mail)
    return state


def queue_email(store: EventStore, cmd: QueueEmail, meta: Meta) -> tuple[UUID, int]:
    msg_id = mail.message_id(cmd.dedupe_key)
    return msg_id, _decide(store, msg_id, lambda s: mail.decide_queue(
        s, cmd.to, cmd.subject, cmd.text, cmd.kind, cmd.account_id, meta))


def claim_for_sending(store: EventStore, message_id: UUID, meta: Meta) -> tuple[mail.EmailState, int] | None:
    """Claim a due message for one attempt: the state and the attempt number, or None when another
    sender won or the message is not due (no retry: losing is the expected outcome of a race)."""
    state = load_email(store, message_id)
    try:
        events = mail.decide_attempt(state, meta)
        store.append(events)
    except (Conflict, IntegrityError):
        return None
    return state, state.attempts + 1


def record_sent(store: EventStore, message_id: UUID, attempt: int, meta: Meta) -> int:
    return _decide(store, message_id, lambda s: mail.decide_sent(s, attempt, meta))


def record_failed(store: EventStore, message_id: UUID, attempt: int, error: str, meta: Meta) -> int:
    return _decide(store, message_id, lambda s: mail.decide_failed(s, attempt, error, meta))


def _decide(store: EventStore, message_id: UUID, decision: Callable[[mail.EmailState], Sequence[Event]]) -> int:
    return store.decide(message_id, mail, decision).position
