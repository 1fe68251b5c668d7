"""OAuth clients: registered ones (RFC 7591, from their stream) and URL ones (client ID metadata documents).

`ClientResolver.resolve` gives the client or the reason it cannot be used, so
/authorize and /token can say exactly what is wrong with a client_id.
`SecretAuthenticator` replaces the SDK's client authenticator: the SDK keeps
client secrets in plain text, we keep only their SHA-256. URL clients' documents
come through the `ClientMetadataDocuments` port (the guarded fetcher of
`workers/adapters/client_metadata.py`, wired in `launchdir/bootstrap.py`).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import time
from collections.abc import Sequence
from typing import Protocol
from urllib.parse import unquote, urlsplit
from uuid import UUID

import anyio.to_thread
from mcp.server.auth.middleware.client_auth import AuthenticationError, ClientAuthenticator
from mcp.shared.auth import InvalidScopeError, OAuthClientInformationFull
from starlette.requests import Request

from aggregates.oauth import scopes_problem
from commands import oauth as oauth_cmd
from commands.store import EventStore

REGISTERED, METADATA_DOCUMENT = "registered", "metadata_document"


class ClientMetadataDocument(Protocol):
    """A validated client ID metadata document: what a URL client is made of."""

    @property
    def client_name(self) -> str: ...
    @property
    def redirect_uris(self) -> Sequence[str]: ...
    @property
    def grant_types(self) -> Sequence[str]: ...
    @property
    def scope(self) -> str | None: ...
    @property
    def client_uri(self) -> str | None: ...
    @property
    def logo_uri(self) -> str | None: ...
    @property
    def host(self) -> str:
        """The domain the consent page shows."""
        ...


class ClientMetadataDocuments(Protocol):
    """The port to the documents of URL client_ids: fetched, validated and cached by the adapter."""

    def lookup(self, url: str) -> ClientMetadataDocument | str:
        """The document at `url`, or why it cannot be used (told to the client's developer). Blocking."""
        ...


def looks_like_url(client_id: str) -> bool:
    return client_id.startswith(("https://", "http://"))


class LaunchdirClient(OAuthClientInformationFull):
    """The SDK's client record plus what we need: the kind, the shown host, the secret's hash (never the secret)."""

    kind: str = REGISTERED
    host: str = ""
    secret_hash: str | None = None

    def validate_scope(self, requested_scope: str | None) -> list[str] | None:
        """Any of the server's scopes, whatever the client registered: step-up authorization asks for more later."""
        if requested_scope is None:
            return self.scope.split() if self.scope else None
        scopes = requested_scope.split()
        if problem := scopes_problem(scopes):
            raise InvalidScopeError(problem)
        return list(dict.fromkeys(scopes))

    @property
    def display_name(self) -> str:
        return self.client_name or "An unnamed app"


class ClientResolver:
    """client_id -> client: a UUID names a registered client, an https URL a client ID metadata document."""

    def __init__(self, store: EventStore, documents: ClientMetadataDocuments) -> None:
        self.store = store
        self.documents = documents

    async def resolve(self, client_id: str) -> tuple[LaunchdirClient | None, str]:
        if looks_like_url(client_id):
            doc = await anyio.to_thread.run_sync(self.documents.lookup, client_id)
            if isinstance(doc, str):
                return None, f"client ID metadata document {client_id}: {doc}"
            return LaunchdirClient(
                client_id=client_id, client_name=doc.client_name, redirect_uris=list(doc.redirect_uris),  # type: ignore[arg-type]
                grant_types=list(doc.grant_types), response_types=["code"], token_endpoint_auth_method="none",
                scope=doc.scope, client_uri=doc.client_uri, logo_uri=doc.logo_uri,  # type: ignore[arg-type]
                kind=METADATA_DOCUMENT, host=doc.host,
            ), ""
        unknown = (f"unknown client_id {client_id[:80]!r}: register the client first (POST /oauth/register) "
                   "or use the https URL of a client ID metadata document")
        try:
            stream = UUID(client_id)
        except ValueError:
            return None, unknown
        if str(stream) != client_id:
            return None, unknown
        state = await anyio.to_thread.run_sync(oauth_cmd.load_client, self.store, stream)
        if not state.exists:
            return None, unknown
        return LaunchdirClient(
            client_id=client_id, client_name=state.client_name, redirect_uris=list(state.redirect_uris),  # type: ignore[arg-type]
            grant_types=list(state.grant_types), response_types=list(state.response_types),
            token_endpoint_auth_method=state.token_endpoint_auth_method, scope=state.scope,
            client_uri=state.client_uri, logo_uri=state.logo_uri,  # type: ignore[arg-type]
            client_id_issued_at=int(state.registered_at.timestamp()) if state.registered_at else None,
            kind=REGISTERED, host=urlsplit(state.client_uri or state.redirect_uris[0]).hostname or "",
            secret_hash=state.secret_hash,
            client_secret_expires_at=int(state.secret_expires_at.timestamp()) if state.secret_expires_at else None,
        ), ""


def basic_credentials(header: str) -> tuple[str, str] | None:
    if not header.lower().startswith("basic "):
        return None
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise AuthenticationError("the Basic authorization header cannot be decoded") from None
    if ":" not in decoded:
        raise AuthenticationError("the Basic authorization header must be client_id:client_secret")
    client_id, secret = decoded.split(":", 1)
    return unquote(client_id), unquote(secret)  # RFC 6749 §2.3.1: form-encoded before base64


class SecretAuthenticator(ClientAuthenticator):
    """Token and revocation endpoints: public clients name themselves; confidential ones prove their secret."""

    def __init__(self, resolver: ClientResolver) -> None:
        self.resolver = resolver

    async def authenticate_request(self, request: Request) -> OAuthClientInformationFull:
        form = await request.form()
        basic = basic_credentials(request.headers.get("authorization", ""))
        client_id = form.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            raise AuthenticationError("client_id is missing: send it in the form, or with the secret in an HTTP Basic header")
        if basic is not None and basic[0] != client_id:
            raise AuthenticationError("the client_id of the form and of the Basic authorization header differ")
        client, problem = await self.resolver.resolve(client_id)
        if client is None:
            raise AuthenticationError(problem)
        method = client.token_endpoint_auth_method or "none"
        if method == "none":
            return client
        if method == "client_secret_basic":
            secret = basic[1] if basic else None
        else:
            sent = form.get("client_secret")
            secret = sent if isinstance(sent, str) else None
        if not secret:
            raise AuthenticationError(f"this client authenticates with {method}: the client secret is missing")
        if client.secret_hash is None or not hmac.compare_digest(oauth_cmd.hash_secret(secret), client.secret_hash):
            raise AuthenticationError("wrong client secret")
        if client.client_secret_expires_at and client.client_secret_expires_at < int(time.time()):
            raise AuthenticationError("the client secret expired: register the client again")
        return client
