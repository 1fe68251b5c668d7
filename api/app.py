"""The ASGI application: REST under /api/v1, MCP at /mcp, and the website, on one server.

Every request body, whatever the door, passes the body limit first (`api/body_limit.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
import re
from pathlib import Path

from fastapi import FastAPI
from markupsafe import Markup, escape
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp

from aggregates.account import SCOPES
from api.auth import RESOURCES, WELL_KNOWN
from api.body_limit import BodyLimit
from api.security_headers import SecurityHeaders
from api.in_flight import CountInFlight, InFlight
from api.executor import Executor, dumps
from api.mcp_server import VersionGuard, build_mcp_server, session_manager
from api.oauth.routes import METADATA_PATH
from api.openapi import openapi_document
from api.problems import problem
from api.rest import rest_routes
from api.route_index import RouteIndex
from api.web_account import SCOPE_LABELS
from queries import catalog as catalog_q

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
TEMPLATES.env.auto_reload = False  # templates are read once, as the code is: a deploy restarts both together
_TICKED = re.compile(r"`([^`]+)`")


def code_spans(text: str) -> Markup:
    """The API's descriptions mark names as `code` (as the OpenAPI document keeps them): shown as code on the page."""
    return Markup(_TICKED.sub(lambda m: f"<code>{m.group(1)}</code>", str(escape(text))))


TEMPLATES.env.filters["code_spans"] = code_spans


@dataclass
class WebConfig:
    public_url: str
    allowed_hosts: list[str]
    allowed_origins: list[str]
    on_startup: list[Callable[[], None]] = field(default_factory=list)
    on_shutdown: list[Callable[[], None]] = field(default_factory=list)
    # hooks for other parts of the site (identity: sign-in pages, well-known documents, the /mcp token guard)
    extra_routes: list[BaseRoute] = field(default_factory=list)
    mcp_wrappers: list[Callable[[ASGIApp], ASGIApp]] = field(default_factory=list)
    max_body_bytes: int = 1_048_576  # larger request bodies are refused with 413 (LAUNCHDIR_MAX_BODY_BYTES)
    not_found_html: Callable[[Request], Awaitable[Response | None]] | None = None  # the website's 404 page
    in_flight: InFlight = field(default_factory=InFlight)  # requests in flight: when the process is busy
    opentelemetry: bool = False  # FastAPI's own spans, metrics and logs (LAUNCHDIR_OPENTELEMETRY)


NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}
"""FastAPI's native OpenTelemetry, off unless `LAUNCHDIR_OPENTELEMETRY` is on. Left on with no provider
configured it exports nothing, yet asks the global tracer, meter and logger providers on every request
whether one was set: 3-4 µs a request, a fifth of what the framework adds to a trivial route
(docs/performance.md, "FastAPI's telemetry off"). On, the spans and metrics go to whatever providers the
process configures (docs/operations.md)."""


def create_app(executor: Executor, config: WebConfig) -> FastAPI:
    manager = session_manager(build_mcp_server(executor), config.allowed_hosts, config.allowed_origins)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for hook in config.on_startup:
            hook()
        try:
            async with manager.run():
                yield
        finally:
            for hook in config.on_shutdown:
                hook()

    app = FastAPI(title="launchdir", openapi_url=None, docs_url=None, redoc_url=None, lifespan=lifespan,
                  telemetry=None if config.opentelemetry else NO_TELEMETRY)
    app.add_middleware(SecurityHeaders)  # nosniff everywhere, a content security policy on pages
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(CountInFlight, in_flight=config.in_flight)  # outermost: every request counts
    document = openapi_document(executor.registry, config.public_url + "/api/v1", config.public_url)
    document_bytes = dumps(document)

    async def openapi(request: Request) -> Response:
        return Response(document_bytes, media_type="application/json")

    # How a caller gets a credential, said at the top of the docs page: the account page's keys and their scopes,
    # OAuth's discovery documents, and where the MCP server is (api/auth.py, api/oauth/routes.py).
    credentials = {"scopes": [(s, SCOPE_LABELS[s]) for s in SCOPES], "keys_page": "/account#create-title",
                   "oauth_metadata": config.public_url + METADATA_PATH, "mcp": config.public_url + RESOURCES["mcp"],
                   "resource_metadata": [(config.public_url + WELL_KNOWN + path, WELL_KNOWN + path)
                                         for path in RESOURCES.values()]}

    async def docs(request: Request) -> Response:
        return TEMPLATES.TemplateResponse(request, "api_docs.html", {
            "doc": document, "ops": list(executor.registry), "site_name": catalog_q.site_name(executor.services.reads),
            "auth": credentials})

    async def home(request: Request) -> Response:
        services = executor.services
        site = catalog_q.get_site_info(services.reads, services.links, str(services.timezone))
        tree = catalog_q.list_categories(services.reads, catalog_q.ListCategories(include_empty=True))
        return TEMPLATES.TemplateResponse(request, "home.html", {"site": site, "categories": tree["items"]})

    async def problem_page(request: Request) -> Response:
        code = request.path_params["code"]
        return TEMPLATES.TemplateResponse(request, "problem.html", {"code": code})

    index_bytes = dumps({  # what `links.api` of get_site_info points at: where the API describes itself
        "name": "launchdir API", "openapi": config.public_url + "/api/v1/openapi.json",
        "docs": config.public_url + "/api/v1/docs", "mcp": config.public_url + "/mcp",
        "operations": [{"operation_id": op.operation_id, "method": op.method, "path": "/api/v1" + op.path}
                       for op in executor.registry]})

    async def index(request: Request) -> Response:
        return Response(index_bytes, media_type="application/json")

    async def bare(request: Request) -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    mcp_app: ASGIApp = VersionGuard(manager)
    for wrap in config.mcp_wrappers:
        mcp_app = wrap(mcp_app)
    app.router.routes.extend(rest_routes(executor))
    app.router.routes.extend(config.extra_routes)
    app.router.routes.extend([
        Route("/api/v1", index, methods=["GET"]),
        Route("/api/v1/openapi.json", openapi, methods=["GET"]),
        Route("/api/v1/docs", docs, methods=["GET"]),
        Route("/api/v1/_bare", bare, methods=["GET"], include_in_schema=False),
        Route("/mcp", mcp_app, methods=["POST"]),  # stateless MCP: no stream on GET, no session to DELETE
        Route("/", home, methods=["GET"]),
        Route("/problems/{code}", problem_page, methods=["GET"]),
    ])
    app.router.routes[:] = [RouteIndex(app.router.routes)]  # tried by path prefix, in the same order

    @app.exception_handler(HTTPException)
    async def http_problem(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404 and config.not_found_html is not None and "text/html" in request.headers.get("accept", ""):
            page = await config.not_found_html(request)
            if page is not None:
                return page
        titles = {404: "Not found", 405: "Method not allowed"}
        body = problem(exc.status_code, "not-found" if exc.status_code == 404 else "http-error",
                       titles.get(exc.status_code, "Error"), f"{request.method} {request.url.path}: {exc.detail}")
        return JSONResponse(body, status_code=exc.status_code, media_type="application/problem+json",
                            headers=getattr(exc, "headers", None))

    return app


