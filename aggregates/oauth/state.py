"""OAuth states: a registered client's, a grant's (with its codes), a token family's, and the grant stream id."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from uuid import NAMESPACE_URL, UUID, uuid5

CODE_MEMORY = timedelta(days=1)  # used and expired codes are remembered this long (replays are recognised)


def grant_stream(account_id: str, client_id: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:oauth-grant:{account_id}:{client_id}")


@dataclass(frozen=True)
class ClientState:
    id: UUID
    version: int = 0
    client_name: str | None = None
    redirect_uris: tuple[str, ...] = ()
    grant_types: tuple[str, ...] = ()
    response_types: tuple[str, ...] = ()
    token_endpoint_auth_method: str = "none"
    scope: str | None = None
    client_uri: str | None = None
    logo_uri: str | None = None
    software_id: str | None = None
    software_version: str | None = None
    secret_hash: str | None = None
    secret_expires_at: datetime | None = None
    registered_at: datetime | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class Code:
    family_id: str
    client_id: str
    scopes: tuple[str, ...]
    resource: str
    redirect_uri: str
    redirect_uri_explicit: bool
    code_challenge: str
    expires_at: datetime
    epoch: int
    used: bool = False


@dataclass(frozen=True)
class GrantState:
    id: UUID
    version: int = 0
    account_id: str = ""
    client_id: str = ""
    client_name: str = ""
    epoch: int = 0
    codes: dict[str, Code] = field(default_factory=dict)  # code hash -> code
    last_consent_at: datetime | None = None
    revoked_at: datetime | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class FamilyState:
    id: UUID
    version: int = 0
    grant_id: str = ""
    account_id: str = ""
    client_id: str = ""
    scopes: tuple[str, ...] = ()
    resource: str = ""
    grant_epoch: int = 0
    refresh_hash: str | None = None
    refresh_expires_at: datetime | None = None
    spent: dict[str, datetime] = field(default_factory=dict)  # rotated refresh hashes -> when they would have expired
    revoked_reason: str | None = None

    @property
    def exists(self) -> bool:
        return self.version > 0


def initial_client(stream_id: UUID) -> ClientState:
    return ClientState(id=stream_id)


def initial_grant(stream_id: UUID) -> GrantState:
    return GrantState(id=stream_id)


def initial_family(stream_id: UUID) -> FamilyState:
    return FamilyState(id=stream_id)
