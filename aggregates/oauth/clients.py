"""Dynamic client registration (RFC 7591): one stream per registered client."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from urllib.parse import urlsplit

from aggregates.base import Meta, one
from aggregates.oauth.refusal import OAuthRefused
from aggregates.oauth.state import ClientState
from aggregates.oauth.validation import (
    AUTH_METHODS,
    GRANT_TYPES,
    MAX_NAME,
    MAX_REDIRECT_URIS,
    MAX_URI,
    redirect_uri_problem,
    scopes_problem,
)
from events.base import Event
from events.errors import Conflict
from events.oauth import OAuthClientRegistered


def decide_register_client(
    state: ClientState, *, client_name: str | None, redirect_uris: Sequence[str], grant_types: Sequence[str],
    response_types: Sequence[str], token_endpoint_auth_method: str, scope: str | None, client_uri: str | None,
    logo_uri: str | None, software_id: str | None, software_version: str | None, secret_hash: str | None,
    secret_expires_at: datetime | None, meta: Meta,
) -> list[Event]:
    """Register a client; refuses metadata this server cannot honour (`invalid_redirect_uri`, `invalid_client_metadata`)."""
    if state.exists:
        raise Conflict(f"client {state.id} is already registered")
    if not redirect_uris:
        raise OAuthRefused("invalid_redirect_uri", "redirect_uris: at least one redirect URI is required")
    if len(redirect_uris) > MAX_REDIRECT_URIS:
        raise OAuthRefused("invalid_redirect_uri", f"redirect_uris: at most {MAX_REDIRECT_URIS} redirect URIs")
    for uri in redirect_uris:
        if problem := redirect_uri_problem(uri):
            raise OAuthRefused("invalid_redirect_uri", problem)
    if token_endpoint_auth_method not in AUTH_METHODS:
        raise OAuthRefused("invalid_client_metadata",
                           f"token_endpoint_auth_method {token_endpoint_auth_method!r} is not supported: use one of "
                           + ", ".join(AUTH_METHODS))
    if (secret_hash is None) != (token_endpoint_auth_method == "none"):
        raise OAuthRefused("invalid_client_metadata", "a client secret goes with a secret-based authentication method only")
    if "authorization_code" not in grant_types or set(grant_types) - set(GRANT_TYPES):
        raise OAuthRefused("invalid_client_metadata",
                           "grant_types: include authorization_code; refresh_token is the only other grant type supported")
    if list(response_types) != ["code"]:
        raise OAuthRefused("invalid_client_metadata", "response_types: only [\"code\"] is supported")
    if scope is not None and (problem := scopes_problem(scope.split())):
        raise OAuthRefused("invalid_client_metadata", f"scope: {problem}")
    for name, value in (("client_name", client_name), ("software_id", software_id), ("software_version", software_version)):
        if value is not None and len(value) > MAX_NAME:
            raise OAuthRefused("invalid_client_metadata", f"{name}: at most {MAX_NAME} characters")
    for name, value in (("client_uri", client_uri), ("logo_uri", logo_uri)):
        if value is not None and (len(value) > MAX_URI or urlsplit(value).scheme not in ("https", "http")):
            raise OAuthRefused("invalid_client_metadata", f"{name}: an http(s) URL of at most {MAX_URI} characters")
    return one(state, meta, OAuthClientRegistered, client_id=str(state.id), client_name=client_name,
               redirect_uris=list(redirect_uris), grant_types=list(grant_types), response_types=list(response_types),
               token_endpoint_auth_method=token_endpoint_auth_method, scope=scope, client_uri=client_uri,
               logo_uri=logo_uri, software_id=software_id, software_version=software_version,
               secret_hash=secret_hash, secret_expires_at=secret_expires_at)
