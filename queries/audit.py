"""The audit trail: every recorded event with who, when and through what, read from the event log itself.

Nothing is copied for it: the log is read backwards, newest first, in chunks
(`EventLog.newest`). A listing (by slug) narrows the read to its stream and an
event type to its stored topics, both in the database; an actor and a date are
checked on the decoded events. The answer is bounded twice: `limit` entries,
and at most `MAX_SCAN` events looked at per call; when the log goes on,
`next_before` says where to continue (`before=`), so a rare actor in a long
log is found page by page instead of by one endless scan.

An actor is given as an email (an account's events are recorded as
`account:<id>`, looked up in `accounts_view`; staff act as `staff:<email>`), or
as recorded (`account:<id>`, `staff:<name>`, `system`). Secrets never show:
fields named like a hash, a secret or a password are blanked.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import fields as dataclass_fields
from dataclasses import is_dataclass
from datetime import datetime, timezone
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic
from pydantic import BaseModel, ConfigDict, Field, field_validator

import events
from events.base import Event
from events.errors import FieldProblem, InvalidInput, NotFound
from projections.log import Undecodable
from projections.reads import ReadStore
from queries.paging import SLUG_PATTERN

HISTORY = "history_view"
ACCOUNTS = "accounts_view"
CHUNK = 500
MAX_SCAN = 20_000
BASE_FIELDS = ("originator_id", "originator_version", "timestamp", "actor", "channel", "via")
SECRET_WORDS = ("hash", "secret", "password")


class AuditFilter(BaseModel):
    """Which events to show: of one listing, by one actor, of one event type, since a time; newest first."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing: str | None = Field(None, pattern=SLUG_PATTERN, description="A listing's slug.")
    actor: str | None = Field(None, max_length=254, description="An email, or an actor as recorded.")
    type: str | None = Field(None, max_length=100, description="An event class name, e.g. ListingEdited.")
    since: datetime | None = Field(None, description="Only events at or after this time.")
    before: int | None = Field(None, ge=1, description="Only events older than this log position (paging).")
    limit: int = Field(100, ge=1, le=1000)

    @field_validator("since")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        """A time without a zone is taken as UTC (recorded times carry one)."""
        return value.replace(tzinfo=timezone.utc) if value is not None and value.tzinfo is None else value


def audit(reads: ReadStore, f: AuditFilter) -> dict[str, Any]:
    """Matching events newest first: `items`, `scanned` and `next_before` (None when the log was read to its start)."""
    stream = _stream_of(reads, f.listing) if f.listing else None
    topics = topics_of(f.type) if f.type else ()
    actors = _actors(reads, f.actor) if f.actor else None
    log = reads.runtime.events
    items: list[dict[str, Any]] = []
    cursor, scanned, done = f.before, 0, False
    while len(items) < f.limit and scanned < MAX_SCAN and not done:
        asked = min(CHUNK, MAX_SCAN - scanned)
        notes = log.newest(cursor, asked, topics, stream)
        older = looked = 0
        for position, event in notes:
            cursor, scanned, looked = position, scanned + 1, looked + 1
            at = getattr(event, "timestamp", None)
            if f.since is not None and at is not None and at < f.since:
                older += 1
                continue
            if actors is not None and getattr(event, "actor", None) not in actors:
                continue
            items.append(_entry(position, event))
            if len(items) >= f.limit:
                break
        done = looked == len(notes) < asked  # the whole chunk was looked at, and the log ended in it
        if f.since is not None and notes and older == len(notes):
            done = True  # a whole chunk before `since`: the log is in time order, give or take a command's duration
    slugs = _slugs(reads, {i["stream_id"] for i in items})
    emails = _emails(reads, {i["actor"] for i in items})
    for item in items:
        item["listing"] = slugs.get(item["stream_id"])
        item["actor_email"] = emails.get(item["actor"])
    return {"items": items, "scanned": scanned, "next_before": None if done else cursor}


def event_types() -> dict[str, list[str]]:
    """Every event class name and its stored topics (a name two modules share has two)."""
    for module in pkgutil.iter_modules(events.__path__):
        importlib.import_module(f"events.{module.name}")
    found: dict[str, list[str]] = {}
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        found.setdefault(cls.__name__, []).append(get_topic(cls))
    return {name: sorted(set(topics)) for name, topics in sorted(found.items())}


def topics_of(name: str) -> list[str]:
    """The stored topics of an event class name; 400 naming the field for an unknown one."""
    topics = event_types().get(name)
    if not topics:
        raise InvalidInput(f"unknown event type {name!r}",
                           [FieldProblem("type", "enum", "an event class name, such as ListingEdited")])
    return topics


def _stream_of(reads: ReadStore, slug: str) -> UUID:
    t = reads.tables(HISTORY)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT stream_id FROM {t['listings']} WHERE slug = %s ORDER BY listing_id DESC LIMIT 1",
                           (slug,)).fetchone()
    if row is None:
        raise NotFound(f"no listing with the slug {slug!r}")
    return UUID(str(row[0]))


def _actors(reads: ReadStore, who: str) -> set[str]:
    """The recorded actors that mean `who`: an email's account and its staff name, or `who` as recorded."""
    if who == "system" or who.startswith(("account:", "staff:")):
        return {who}
    email = who.strip().lower()
    t = reads.tables(ACCOUNTS)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT account_id FROM {t['accounts']} WHERE lower(email) = %s", (email,)).fetchall()
    return {f"account:{r[0]}" for r in rows} | {f"staff:{email}", f"staff:{who.strip()}"}


def _slugs(reads: ReadStore, streams: set[str]) -> dict[str, str]:
    """The listing slug of each stream that is a listing's."""
    if not streams:
        return {}
    t = reads.tables(HISTORY)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT stream_id::text, slug FROM {t['listings']} WHERE stream_id = ANY(%s::uuid[])",
                            (sorted(streams),)).fetchall()
    return {str(r[0]): str(r[1]) for r in rows}


def _emails(reads: ReadStore, actors: set[str]) -> dict[str, str]:
    """The email of each account among the actors (staff read a name, not an id)."""
    ids = sorted(a.removeprefix("account:") for a in actors if a.startswith("account:"))
    if not ids:
        return {}
    t = reads.tables(ACCOUNTS)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT account_id, email FROM {t['accounts']} WHERE account_id = ANY(%s)", (ids,)).fetchall()
    return {f"account:{r[0]}": str(r[1]) for r in rows}


def _entry(position: int, event: Any) -> dict[str, Any]:
    if isinstance(event, Undecodable):
        return {"position": position, "type": event.topic.rpartition(":")[2], "stream_id": "", "stream_version": None,
                "at": None, "actor": "", "channel": "", "via": "", "data": {"error": event.error}}
    data = {f.name: _plain(f.name, getattr(event, f.name)) for f in dataclass_fields(event) if f.name not in BASE_FIELDS}
    return {
        "position": position, "type": type(event).__name__, "stream_id": str(event.originator_id),
        "stream_version": event.originator_version, "at": event.timestamp, "actor": event.actor,
        "channel": event.channel, "via": event.via, "data": data,
    }


def _plain(name: str, value: Any) -> Any:
    """A JSON-ready value, with secrets blanked."""
    if value and any(word in name.lower() for word in SECRET_WORDS):
        return "[hidden]"
    if isinstance(value, (UUID, datetime)):
        return str(value) if isinstance(value, UUID) else value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(str(k), v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(name, v) for v in value]
    if is_dataclass(value):
        return str(value)
    return value
