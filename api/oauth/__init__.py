"""The OAuth 2.1 authorization server: endpoints, consent and connected-apps pages, the token verifier, the MCP guard.

`build_oauth` is called once by the composition root, after `build_identity`
(it runs on identity's sessions and joins its bearer chain), with the adapter
behind the `ClientMetadataDocuments` port. See docs/oauth.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from starlette.routing import BaseRoute
from starlette.types import ASGIApp

from api.auth import RESOURCES
from api.oauth.clients import ClientMetadataDocuments, ClientResolver
from api.oauth.mcp_guard import McpScopeGuard
from api.oauth.pages import WebOAuth
from api.oauth.provider import PendingRequests, Provider
from api.oauth.routes import OAuthEndpoints, registration_limiter
from api.oauth.verifier import OAuthTokenVerifier
from api.registry import Registry
from api.services import Services
from api.identity import Identity

__all__ = ["OAuthServer", "build_oauth"]


@dataclass
class OAuthServer:
    issuer: str
    identity: Identity
    provider: Provider
    endpoints: OAuthEndpoints
    verifier: OAuthTokenVerifier
    documents: ClientMetadataDocuments
    pending: PendingRequests

    def routes(self) -> list[BaseRoute]:
        pages = WebOAuth(self.identity, self.pending, self.issuer, self.provider.resources)
        return self.endpoints.routes() + pages.routes()

    def mcp_guard(self, registry: Registry) -> Callable[[ASGIApp], ASGIApp]:
        """A wrapper for /mcp (goes inside identity's guard): HTTP 401/403 for protected tool calls."""

        def wrap(app: ASGIApp) -> ASGIApp:
            return McpScopeGuard(app, registry, self.identity.authenticator, self.identity.challenge)

        return wrap


def build_oauth(services: Services, identity: Identity, issuer: str, *, documents: ClientMetadataDocuments,
                rate_limits: bool = True, redis_url: str | None = None) -> OAuthServer:
    """Create the pending-requests table and wire provider, endpoints and verifier; add the verifier to the chain."""
    resources = {channel: issuer + path for channel, path in RESOURCES.items()}
    pending = PendingRequests(services.reads.primary)
    pending.setup()
    resolver = ClientResolver(services.store, documents)
    provider = Provider(services, resolver, pending, issuer, resources)
    endpoints = OAuthEndpoints(provider, registration_limiter(rate_limits, redis_url))
    verifier = OAuthTokenVerifier(services.reads, services.clock, resources, issuer + "/oauth/token")
    identity.authenticator.verifiers.append(verifier)  # the bearer chain: API keys, then OAuth access tokens
    return OAuthServer(issuer, identity, provider, endpoints, verifier, documents, pending)
