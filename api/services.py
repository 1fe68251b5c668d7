"""The pieces operation handlers use, built once by the composition root and passed in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from aggregates.base import Meta
from commands.store import EventStore
from projections.reads import ReadStore
from projections.runtime import ProjectionRuntime


@dataclass
class Principal:
    """Who calls and what the credential allows."""

    account_id: str
    scopes: frozenset[str]
    kind: str  # "api_key" | "oauth" | "session"
    expires_at: datetime | None = None
    client_id: str | None = None
    is_staff: bool = False


@dataclass
class Call:
    """One call of one operation: the caller, the door, and the time it arrived."""

    principal: Principal | None
    channel: str  # "rest" | "mcp" | "web"
    at: datetime
    ip: str = ""

    def meta(self) -> Meta:
        actor = f"account:{self.principal.account_id}" if self.principal else "anonymous"
        return Meta(at=self.at, actor=actor, channel=self.channel)


@dataclass
class Services:
    store: EventStore
    reads: ReadStore
    runtime: ProjectionRuntime
    links: dict[str, str]
    timezone: ZoneInfo
    clock: Callable[[], datetime]
    settings: Any = None
    extras: dict[str, Any] = field(default_factory=dict)

    def now(self) -> datetime:
        """The current time in the site's timezone: days and launch weeks follow it."""
        return self.clock().astimezone(self.timezone)

    def today(self) -> date:
        return self.now().date()
