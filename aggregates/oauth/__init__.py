"""Deciders of the OAuth authorization server: registered clients, grants, token families.

- A **client** stream per dynamically registered client (RFC 7591).
- A **grant** stream per account and client (uuid5 of both): consents and the
  authorization codes issued from them. Codes are single use; a grant keeps
  an `epoch` that the account holder's "revoke" moves on, which voids every
  code and token family issued before it.
- A **token family** stream per redeemed code (its id is drawn when the code
  is issued): the first access and refresh tokens, each rotation, revocation.
  A refresh token works once; presenting a spent one revokes the family.

Handlers pass hashes, ids and expiry times; deciders never hash, draw random
numbers or read the clock. `OAuthRefused` carries the OAuth error code
(`invalid_grant`, `invalid_scope`...) and, when refusing must still change
something (a replayed code, a reused refresh token revoke their family), the
events to append before the refusal is reported.

The package: `refusal` (`OAuthRefused`), `validation` (redirect URIs, scopes
and metadata limits, shared with client ID metadata documents), `state`
(the three states and the grant stream id), `clients`, `grants` (consent,
codes, revocation), `families` (rotation, revocation) and `evolve`, one
dispatch table for the three stream kinds named below.
"""

from __future__ import annotations

from aggregates.base import StreamKind
from aggregates.oauth.clients import decide_register_client
from aggregates.oauth.evolve import evolve
from aggregates.oauth.families import decide_refresh, decide_revoke_family
from aggregates.oauth.grants import decide_consent, decide_redeem, decide_revoke_grant
from aggregates.oauth.refusal import OAuthRefused
from aggregates.oauth.state import (
    CODE_MEMORY,
    ClientState,
    Code,
    FamilyState,
    GrantState,
    grant_stream,
    initial_client,
    initial_family,
    initial_grant,
)
from aggregates.oauth.validation import (
    AUTH_METHODS,
    FORBIDDEN_SCHEMES,
    GRANT_TYPES,
    LOOPBACK_HOSTS,
    MAX_NAME,
    MAX_REDIRECT_URIS,
    MAX_URI,
    ordered_scopes,
    redirect_uri_problem,
    scopes_problem,
)

__all__ = [
    "AUTH_METHODS", "CLIENT", "CODE_MEMORY", "FAMILY", "FORBIDDEN_SCHEMES", "GRANT", "GRANT_TYPES", "LOOPBACK_HOSTS",
    "MAX_NAME", "MAX_REDIRECT_URIS", "MAX_URI", "ClientState", "Code", "FamilyState", "GrantState", "OAuthRefused",
    "decide_consent", "decide_redeem", "decide_refresh", "decide_register_client", "decide_revoke_family",
    "decide_revoke_grant", "evolve", "grant_stream", "initial_client", "initial_family", "initial_grant",
    "ordered_scopes", "redirect_uri_problem", "scopes_problem",
]

CLIENT: StreamKind[ClientState] = StreamKind(initial_client, evolve)
"""Registered client streams (the client id)."""

GRANT: StreamKind[GrantState] = StreamKind(initial_grant, evolve)
"""Grant streams (`grant_stream(account, client)`): consents and their codes."""

FAMILY: StreamKind[FamilyState] = StreamKind(initial_family, evolve)
"""Token family streams (the family id a code names): issue, rotations, revocation."""
