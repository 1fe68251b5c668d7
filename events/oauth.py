"""Events of the OAuth authorization server: registered clients, grants (consents and codes), token families.

Three kinds of stream:

- a registered client (RFC 7591), keyed by its `client_id` (a UUID);
- a grant: one per account and client (uuid5 of both), holding the consents
  the person gave and the authorization codes issued from them;
- a token family: one per redeemed code (random UUID), holding the access and
  refresh tokens issued, rotated and revoked from that code.

Secrets never appear here: codes, access tokens, refresh tokens and client
secrets are stored as the SHA-256 of the whole string (they are 256-bit
random values, so a fast hash is enough; see docs/oauth.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class OAuthClientRegistered(Event):
    """A client registered itself (RFC 7591 dynamic client registration)."""

    client_id: str
    client_name: str | None
    redirect_uris: list[str]
    grant_types: list[str]
    response_types: list[str]
    token_endpoint_auth_method: str  # "none" | "client_secret_post" | "client_secret_basic"
    scope: str | None
    client_uri: str | None
    logo_uri: str | None
    software_id: str | None
    software_version: str | None
    secret_hash: str | None  # sha256 of the client secret; None for public clients
    secret_expires_at: datetime | None


@dataclass(frozen=True, kw_only=True)
class OAuthConsentGiven(Event):
    """On the grant stream: the account holder allowed the client these scopes for this resource."""

    account_id: str
    client_id: str
    client_name: str
    client_host: str  # the domain shown on the consent page
    client_kind: str  # "registered" | "metadata_document"
    scopes: list[str]
    resource: str


@dataclass(frozen=True, kw_only=True)
class OAuthCodeIssued(Event):
    """On the grant stream: an authorization code, single use, short-lived; `family_id` is the token family it starts."""

    code_hash: str
    family_id: str
    client_id: str
    scopes: list[str]
    resource: str
    redirect_uri: str
    redirect_uri_explicit: bool
    code_challenge: str  # S256
    expires_at: datetime
    epoch: int  # the grant's revocation epoch when issued


@dataclass(frozen=True, kw_only=True)
class OAuthCodeRedeemed(Event):
    """On the grant stream: the code was exchanged for tokens (the family's first event follows)."""

    code_hash: str
    family_id: str


@dataclass(frozen=True, kw_only=True)
class OAuthGrantRevoked(Event):
    """On the grant stream: the account holder revoked the client (every token and unused code stops working)."""

    reason: str  # "revoked_by_account"


@dataclass(frozen=True, kw_only=True)
class OAuthTokensIssued(Event):
    """First event of a token family: the tokens a redeemed code gave."""

    grant_id: str
    account_id: str
    client_id: str
    code_hash: str
    scopes: list[str]
    resource: str
    grant_epoch: int
    access_hash: str
    access_expires_at: datetime
    refresh_hash: str | None  # None when the client may not refresh
    refresh_expires_at: datetime | None


@dataclass(frozen=True, kw_only=True)
class OAuthTokensRotated(Event):
    """A refresh token was used once: it is spent, a new access token and a new refresh token replace it."""

    previous_refresh_hash: str
    scopes: list[str]  # of the new access token (may be narrower than the family's)
    access_hash: str
    access_expires_at: datetime
    refresh_hash: str
    refresh_expires_at: datetime


@dataclass(frozen=True, kw_only=True)
class OAuthTokenFamilyRevoked(Event):
    """Every token of the family stops working."""

    reason: str  # "revoked_by_client" | "refresh_token_reused" | "code_replayed"
