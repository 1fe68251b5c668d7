"""Helpers for the directory tests (no tests here): listings, launches, votes and calls, all through commands.

Every listing gets a unique name so tests sharing a database never collide.
Times are passed in explicitly (the deciders never read the clock), and reads
run through the real executor with the container's clock set to a chosen time.
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from typing import Any

from aggregates.base import Meta
from commands import community, metrics
from commands import listing as listing_cmd

DIRECTORY_VIEWS = ("launches_view", "leaderboard_view", "content_view", "catalog_view")
_counter = itertools.count(1)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)  # type: ignore[misc]


# The week the directory tests happen in (a Monday, UTC), a moment on its Monday and on its Wednesday, the week before.
W, LAST = "2026-11-16", "2026-11-09"
MON = utc(2026, 11, 16, 9)
WED = utc(2026, 11, 18, 12)


def meta(at: datetime, actor: str = "staff:test") -> Meta:
    return Meta(at=at, actor=actor, channel="cli")


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:6]} {next(_counter)}"


def create(c: Any, name: str, at: datetime, categories: Iterable[str] = ("notes-docs",), **extra: Any) -> tuple[int, str]:
    """A saved listing (draft); returns (listing_id, slug)."""
    profile = {"name": name, "tagline": f"{name} does things", "website_url": f"https://{uuid.uuid4().hex[:8]}.example.com/"}
    profile |= extra.pop("profile", {})
    cmd = listing_cmd.CreateListing(profile=profile, categories=list(categories), source="staff", **extra)
    created = listing_cmd.create_listing(c.store, cmd, meta(at))
    return created.listing_id, created.slug


def launched(c: Any, name: str, week: str, at: datetime, **extra: Any) -> tuple[int, str]:
    """A listing put live by staff in `week` at time `at`."""
    listing_id, slug = create(c, name, at, **extra)
    listing_cmd.staff_publish(c.store, listing_id, meta(at), week=week)
    return listing_id, slug


def scheduled(c: Any, name: str, week: str, at: datetime) -> tuple[int, str]:
    """A paid listing scheduled for a future `week` (decided at `at`)."""
    listing_id, slug = create(c, name, at)
    listing_cmd.schedule_paid(c.store, listing_id, week, meta(at))
    return listing_id, slug


def votes(c: Any, listing_id: int, count: int, first_at: datetime, step: timedelta = timedelta(minutes=1), who: str = "") -> list[str]:
    """`count` votes by fresh accounts, the first at `first_at`, then one every `step`."""
    accounts = [f"voter-{who or uuid.uuid4().hex[:6]}-{listing_id}-{i}" for i in range(count)]
    for i, account in enumerate(accounts):
        community.cast_vote(c.store, listing_id, account, meta(first_at + i * step, actor=f"account:{account}"))
    return accounts


def billboard(c: Any, listing_id: int, cents: int, at: datetime) -> None:
    metrics.contribute_billboard(c.store, listing_id, cents, None, meta(at))


def sync(c: Any) -> None:
    """Bring the directory projections up to the head of the log."""
    for name in DIRECTORY_VIEWS:
        c.runtime.catch_up(name)


def call(c: Any, operation_id: str, at: datetime | None = None, **raw: Any) -> tuple[int, Any]:
    """Run one operation through the executor as REST would, with the clock at `at` (UTC)."""
    if at is not None:
        c.services.clock = lambda: at
    op = c.executor.registry.get(operation_id)
    outcome = asyncio.run(c.executor.execute(op, {k: str(v) for k, v in raw.items()}, channel="rest"))
    return outcome.status, outcome.payload


def ok(c: Any, operation_id: str, at: datetime | None = None, **raw: Any) -> Any:
    status, body = call(c, operation_id, at, **raw)
    assert status == 200, body
    return body


def slugs(items: list[dict[str, Any]]) -> list[str]:
    return [i["listing"]["slug"] for i in items]
