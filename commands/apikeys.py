"""API key commands: create (the key is returned once, only its hash is stored) and revoke.

A key reads `ldk_<key id: 16 hex>_<secret: 64 hex>`: a recognisable prefix
(secret scanners, logs), a public id to look the key up by, and 256 random
bits. Keys are random, not chosen by people, so a fast hash (SHA-256) is
enough: there is nothing to guess; a slow hash (argon2) would only make every
authenticated request slower.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from aggregates import account
from aggregates.base import Meta
from commands.store import EventStore

PREFIX = "ldk_"
KEY = re.compile(r"^ldk_([0-9a-f]{16})_([0-9a-f]{64})$")
Scope = Literal["account:read", "listings:write", "orders:write"]
LAST_EXPIRY = date(2099, 12, 31)


class CreateApiKey(BaseModel):
    """Create an API key with a name, scopes and an optional last day of validity."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    account_id: UUID
    name: str = Field(max_length=account.KEY_NAME_MAX)
    scopes: list[Scope] = Field(max_length=len(account.SCOPES))
    # the key works through the end of this day (site timezone); a bound, so the end of the day is a date too
    expires_on: date | None = Field(None, le=LAST_EXPIRY, description="The last day the key works, at most 2099-12-31.")


class RevokeApiKey(BaseModel):
    """Revoke an API key; it stops working at once."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    account_id: UUID
    key_id: str = Field(max_length=16)


@dataclass(frozen=True)
class NewApiKey:
    key: str  # shown once, never stored
    key_id: str
    expires_at: datetime | None
    position: int


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def parse_key(raw: str) -> str | None:
    """The key id of a well-formed key, else None."""
    m = KEY.match(raw)
    return m.group(1) if m else None


def expiry(expires_on: date | None, tz: tzinfo) -> datetime | None:
    """End of the given day in the site timezone (midnight after it)."""
    if expires_on is None:
        return None
    return datetime.combine(expires_on + timedelta(days=1), time(0), tz)


def create_api_key(store: EventStore, cmd: CreateApiKey, meta: Meta, tz: tzinfo) -> NewApiKey:
    expires_at = expiry(cmd.expires_on, tz)
    key_id, secret = secrets.token_hex(8), secrets.token_hex(32)
    key = f"{PREFIX}{key_id}_{secret}"
    appended = store.decide(cmd.account_id, account, lambda s: account.decide_create_key(
        s, key_id, cmd.name, list(cmd.scopes), expires_at, hash_key(key), meta))
    return NewApiKey(key, key_id, expires_at, appended.position)


def revoke_api_key(store: EventStore, cmd: RevokeApiKey, meta: Meta) -> int:
    return store.decide(cmd.account_id, account, lambda s: account.decide_revoke_key(s, cmd.key_id, meta)).position
