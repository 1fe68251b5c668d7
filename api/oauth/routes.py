"""The authorization server's HTTP endpoints under /oauth, and its RFC 8414 metadata.

The SDK's handlers serve /oauth/authorize, /oauth/token and /oauth/register;
thin wrappers around them add what they lack:

- /authorize: a specific `invalid_client` for a client_id that cannot be
  used (unknown, or a metadata document that fails to fetch or validate);
  repeated parameters refused; the raw parameters handed to the provider (it
  refuses a missing `code_challenge_method`); RFC 9207 `iss` added to every
  error redirect (the success redirect comes from the consent page, with `iss`).
- /token: the form handed to the provider (RFC 8707 `resource` check).
- /register: a per-address rate limit (open registration writes events), shared through Redis when configured.

/oauth/revoke (RFC 7009) is ours: the SDK's revocation request model requires
a `client_secret` field, which public clients do not have.

Every parameter, form field and registration document keeps the text rule
(`events.text`): one that breaks it is an `invalid_request` (for /register
`invalid_client_metadata`) naming the field and the rule, before the SDK sees it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from mcp.server.auth.handlers.authorize import AuthorizationHandler
from mcp.server.auth.handlers.register import RegistrationHandler
from mcp.server.auth.handlers.token import TokenHandler
from mcp.server.auth.middleware.client_auth import AuthenticationError
from mcp.server.auth.provider import construct_redirect_uri
from mcp.server.auth.settings import ClientRegistrationOptions
from mcp.server.transport_security import RequestBodyLimitMiddleware
from starlette.datastructures import FormData, ImmutableMultiDict
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route, request_response
from starlette.types import ASGIApp

from aggregates.account import SCOPES
from api.oauth.clients import SecretAuthenticator, basic_credentials
from api.oauth.provider import AUTHORIZE_PARAMS, TOKEN_FORM, Provider, StoredAccessToken, StoredRefreshToken
from api.ratelimit import Limits, LocalRateLimiter, OverLimit, RedisRateLimiter
from commands import oauth as oauth_cmd
from events import text

METADATA_PATH = "/.well-known/oauth-authorization-server"
MAX_BODY = 64 * 1024
NO_STORE = {"cache-control": "no-store", "pragma": "no-cache"}


def metadata_document(issuer: str) -> dict[str, Any]:
    """RFC 8414 metadata. `issuer` is the site's base URL exactly as RFC 9207 clients compare it (no trailing slash)."""
    methods = ["none", "client_secret_post", "client_secret_basic"]
    return {
        "issuer": issuer,
        "authorization_endpoint": issuer + "/oauth/authorize",
        "token_endpoint": issuer + "/oauth/token",
        "registration_endpoint": issuer + "/oauth/register",
        "revocation_endpoint": issuer + "/oauth/revoke",
        "scopes_supported": list(SCOPES),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": methods,
        "revocation_endpoint_auth_methods_supported": methods,
        "code_challenge_methods_supported": ["S256"],
        "client_id_metadata_document_supported": True,
        "authorization_response_iss_parameter_supported": True,
        "service_documentation": issuer + "/api/v1/docs",
    }


def oauth_error(error: str, description: str, status: int = 400, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": error, "error_description": description}, status_code=status,
                        headers={**NO_STORE, **(headers or {})})


def text_refusal(params: ImmutableMultiDict[str, Any], error: str = "invalid_request") -> Response | None:
    """An OAuth error naming the first parameter (name or value) that breaks the text rule, else None."""
    for key, value in params.multi_items():
        if isinstance(value, str) and not (text.is_clean(key) and text.is_clean(value)):
            return oauth_error(error, f"{text.storable(key)} {text.MESSAGE} (rule: {text.RULE})")
    return None


def _cors(app: ASGIApp, methods: list[str]) -> ASGIApp:
    return CORSMiddleware(app, allow_origins=["*"], allow_methods=methods, allow_headers=["Authorization", "Content-Type",
                                                                                       "MCP-Protocol-Version"])


def _endpoint(fn: Callable[[Request], Awaitable[Response]], cors: bool = True) -> ASGIApp:
    app: ASGIApp = RequestBodyLimitMiddleware(request_response(fn), MAX_BODY)
    return _cors(app, ["GET", "POST", "OPTIONS"]) if cors else app


async def with_basic_client_id(request: Request) -> FormData:
    """The request's form, with `client_id` taken from an HTTP Basic header when the form has none.

    RFC 6749 §2.3.1: a client using `client_secret_basic` sends its id and
    secret in the header only. The SDK's token request model requires
    `client_id` in the form, so the id is added to the form the request keeps
    (Starlette caches the parsed form on the request; every later reader gets
    this one). A header that cannot be read is left for the authenticator to refuse.
    """
    form = await request.form()
    if form.get("client_id"):
        return form
    try:
        basic = basic_credentials(request.headers.get("authorization", ""))
    except AuthenticationError:
        return form
    if basic is None or not basic[0]:
        return form
    completed = FormData([*form.multi_items(), ("client_id", basic[0])])
    request._form = completed  # noqa: SLF001 - the parsed form Starlette hands every reader of this request
    return completed


class OAuthEndpoints:
    def __init__(self, provider: Provider, registration_limit: LocalRateLimiter | RedisRateLimiter | None) -> None:
        self.provider = provider
        self.issuer = provider.issuer
        self.authenticator = SecretAuthenticator(provider.resolver)
        self.authorize_handler = AuthorizationHandler(provider)  # type: ignore[arg-type]
        self.token_handler = TokenHandler(provider, self.authenticator)  # type: ignore[arg-type]
        self.register_handler = RegistrationHandler(
            provider, ClientRegistrationOptions(enabled=True, valid_scopes=list(SCOPES)))  # type: ignore[arg-type]
        self.registration_limit = registration_limit
        self.metadata = metadata_document(self.issuer)

    def routes(self) -> list[BaseRoute]:
        return [
            Route(METADATA_PATH, _endpoint(self.serve_metadata), methods=["GET", "OPTIONS"]),
            Route("/oauth/authorize", _endpoint(self.authorize, cors=False), methods=["GET", "POST"]),
            Route("/oauth/token", _endpoint(self.token), methods=["POST", "OPTIONS"]),
            Route("/oauth/register", _endpoint(self.register), methods=["POST", "OPTIONS"]),
            Route("/oauth/revoke", _endpoint(self.revoke), methods=["POST", "OPTIONS"]),
        ]

    async def serve_metadata(self, request: Request) -> Response:
        return JSONResponse(self.metadata, headers={"cache-control": "public, max-age=3600",
                                                    "access-control-allow-origin": "*"})

    # ------------------------------------------------------------ /oauth/authorize

    async def authorize(self, request: Request) -> Response:
        params = request.query_params if request.method == "GET" else await request.form()
        if (refused := text_refusal(params)) is not None:  # answered here: the redirect URI itself may be bad
            return refused
        repeated = sorted({k for k in params.keys() if len(params.getlist(k)) > 1})
        if repeated:
            return oauth_error("invalid_request", f"parameter {repeated[0]} is repeated (each may appear once)")
        client_id = params.get("client_id")
        if isinstance(client_id, str) and client_id:
            client, problem = await self.provider.resolver.resolve(client_id)
            if client is None:  # no trusted redirect URI: answer here, never redirect (RFC 6749 §4.1.2.1)
                return oauth_error("invalid_client", problem)
        token = AUTHORIZE_PARAMS.set({k: v for k, v in params.items() if isinstance(v, str)})
        try:
            response = await self.authorize_handler.handle(request)
        finally:
            AUTHORIZE_PARAMS.reset(token)
        return self._with_iss(response)

    def _with_iss(self, response: Response) -> Response:
        """RFC 9207: every authorization response redirected to the client names us (`iss`)."""
        location = response.headers.get("location")
        if response.status_code not in (302, 303) or not location or location.startswith(self.provider.consent_url):
            return response
        return RedirectResponse(construct_redirect_uri(location, iss=self.issuer), status_code=response.status_code,
                                headers={"cache-control": "no-store"})

    # ------------------------------------------------------------ /oauth/token

    async def token(self, request: Request) -> Response:
        form = await with_basic_client_id(request)  # cached on the request: the SDK handler reads the same form
        if (refused := text_refusal(form)) is not None:
            return refused
        token = TOKEN_FORM.set(form)
        try:
            response: Response = await self.token_handler.handle(request)
            return response
        finally:
            TOKEN_FORM.reset(token)

    # ------------------------------------------------------------ /oauth/register

    async def register(self, request: Request) -> Response:
        if self.registration_limit is not None:
            try:
                await self.registration_limit.count(None, request.client.host if request.client else "")
            except OverLimit as exc:
                return oauth_error("rate_limited", "too many client registrations from this address; "
                                   f"try again in {exc.retry_after} s", 429, {"retry-after": str(exc.retry_after)})
        try:
            document = orjson.loads(await request.body())  # cached on the request: the SDK handler reads it again
        except orjson.JSONDecodeError:
            document = None  # the SDK answers that one
        if bad := next(text.violations(document), None):
            return oauth_error("invalid_client_metadata", f"{bad} {text.MESSAGE} (rule: {text.RULE})")
        return await self.register_handler.handle(request)

    # ------------------------------------------------------------ /oauth/revoke (RFC 7009)

    async def revoke(self, request: Request) -> Response:
        form = await with_basic_client_id(request)  # cached on the request: the authenticator reads the same form
        if (refused := text_refusal(form)) is not None:
            return refused
        try:
            client = await self.authenticator.authenticate_request(request)
        except AuthenticationError as exc:
            return oauth_error("invalid_client", exc.message, 401)
        value = form.get("token")
        if not isinstance(value, str) or not value:
            return oauth_error("invalid_request", "token is missing: send the access or refresh token to revoke")
        hint = form.get("token_type_hint")
        if hint not in (None, "", "access_token", "refresh_token"):
            return oauth_error("unsupported_token_type", f"token_type_hint {str(hint)[:40]!r}: use access_token or refresh_token")
        found: StoredAccessToken | StoredRefreshToken | None
        if oauth_cmd.refresh_family(value) is not None:
            found = await self.provider.load_refresh_token(client, value)
        else:
            found = await self.provider.load_access_token(value)
        if found is not None and found.client_id == client.client_id:
            await self.provider.revoke_token(found)
        return Response(status_code=200, headers=NO_STORE)  # unknown or foreign tokens: 200 too (RFC 7009 §2.2)


def registration_limiter(enabled: bool, redis_url: str | None = None) -> LocalRateLimiter | RedisRateLimiter | None:
    """60 registrations per address per hour, at most 10 a minute: in Redis (every process) when configured."""
    if not enabled:
        return None
    limits = Limits.of(credential=60, anonymous=60, window=3600, burst=10, burst_window=60)
    if redis_url:
        from redis import asyncio as aioredis

        client = aioredis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
        return RedisRateLimiter(limits, client, prefix="launchdir:rl:register:")
    return LocalRateLimiter(limits)
