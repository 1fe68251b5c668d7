"""The MCP server at /mcp: every operation a tool of the same name, served by the same executor.

Stateless JSON mode of Streamable HTTP: protocol 2026-07-28 and the
initialize-based 2025-03-26 .. 2025-11-25. An `initialize` that offers an
older revision is answered with our newest handshake revision, as the
protocol's negotiation prescribes; a request that names an unsupported
revision in its header is refused with the transport's 400.

Stateless mode keeps no sessions and offers no server-to-client stream, so
only POST is served: GET (which would otherwise open an event stream that
never sends anything) and DELETE are answered 405 with `Allow: POST`, as
the Streamable HTTP transport allows.
"""

from __future__ import annotations

import copy
from typing import Any

import mcp_types as types
import orjson
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import Receive, Scope, Send

from api.executor import Executor
from api.openapi import with_text_rule
from api.registry import Operation

HANDSHAKE_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)
LATEST_HANDSHAKE = HANDSHAKE_VERSIONS[-1]
DEFS_REF = "#/$defs/{model}"


def _schema(model: Any) -> dict[str, Any]:
    schema: dict[str, Any] = copy.deepcopy(model.model_json_schema(ref_template=DEFS_REF))
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    schema.pop("title", None)
    return schema


def tool_for(op: Operation) -> types.Tool:
    input_schema = _schema(op.input_model)
    input_schema["additionalProperties"] = False
    input_schema = with_text_rule(input_schema)  # the same text rule as the OpenAPI document declares
    return types.Tool(
        name=op.operation_id,
        title=op.summary,
        description=tool_description(op),
        input_schema=input_schema,
        output_schema=_schema(op.output_model),
        annotations=types.ToolAnnotations(
            title=op.summary,
            read_only_hint=op.read_only,
            destructive_hint=op.destructive if not op.read_only else False,
            idempotent_hint=op.idempotent,
            open_world_hint=False,
        ),
    )


def tool_description(op: Operation) -> str:
    """The operation's own description, then what a caller must know before calling: its scope, and how to
    make a retry safe where one would otherwise do the work twice."""
    lines = [op.description]
    if op.scope:
        lines.append(f"Needs the `{op.scope}` scope (an API key or OAuth token that grants it).")
    if op.idempotency_key:
        lines.append("To retry safely, send the same `idempotency_key` in the request's `_meta` (or an "
                     "Idempotency-Key header): a repeat then answers the first result instead of doing it again.")
    return "\n\n".join(lines)


INSTRUCTIONS = """launchdir: a directory and launch calendar for software products. Tools mirror the REST API /api/v1.

Reading needs no credentials: get_site_info, search_listings, get_listing, list_categories, get_category,
get_launch_week, list_launches, get_leaderboard (the billboard is a paid ranking: say so), list_awards,
list_founders, list_blog_posts, list_products. There is no voting here: votes come only from people on the website.

The other tools act for a signed-in person (an API key sent as `Authorization: Bearer <key>`, or OAuth); each
description names the scope it needs.

Launching a product: submit_listing with its website URL; get_draft every few seconds until `status` is `ready`
(or `failed`); update_draft to fix what the draft lacks; submit_draft (answers `listing_id` and `next_step`);
then either choose_free_listing (free: put the returned badge on the homepage, then check_my_badge) or
quote_order and create_checkout with product `launch` (give `checkout_url` to the person, who pays there; never
ask for card details), then get_order. Afterwards: get_my_listing (its `next_step`), update_my_listing,
post_listing_update, add_milestone, set_founder_story, get_my_listing_history.

Errors are RFC 9457 problems (`isError: true`): `status`, `detail`, and `errors` naming each field and rule
(a 404 names the field whose value found nothing, rule `exists`)."""


def build_mcp_server(executor: Executor) -> Server[Any]:
    tools = [tool_for(op) for op in executor.registry]
    schemas = {t.name: t.input_schema for t in tools}

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        op = executor.registry.get(params.name)
        if op is None:
            text = f"unknown tool {params.name!r}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)
        request = ctx.request
        headers = request.headers if request is not None else {}
        raw_meta = getattr(params, "meta", None) or {}
        meta = raw_meta if isinstance(raw_meta, dict) else raw_meta.model_dump()
        outcome = await executor.execute(
            op, dict(params.arguments or {}), channel="mcp",
            authorization=headers.get("authorization"),
            idempotency_key=headers.get("idempotency-key") or meta.get("idempotency_key"),
            ip=request.client.host if request is not None and request.client else "",
        )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=outcome.body.decode())],
            # the same JSON as the text (and as REST), not the handler's objects: a time reads alike in both
            structured_content=orjson.loads(outcome.body) if outcome.body else outcome.payload,
            is_error=outcome.is_problem,
        )

    return Server(
        "launchdir",
        version="1.0.0",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=schemas.get,
    )


def session_manager(server: Server[Any], allowed_hosts: list[str], allowed_origins: list[str]) -> StreamableHTTPSessionManager:
    return StreamableHTTPSessionManager(
        app=server,
        stateless=True,
        json_response=True,
        security_settings=TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins
        ),
    )


ALLOWED_METHODS = "POST"


class VersionGuard:
    """Keeps the served protocol revisions to the ones we support, and the methods to POST (see module docstring)."""

    def __init__(self, manager: StreamableHTTPSessionManager) -> None:
        self.inner = StreamableHTTPASGIApp(manager)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("method") != "POST":
            await _method_not_allowed(send, str(scope.get("method")))
            return
        headers = dict(scope.get("headers") or [])
        version = headers.get(b"mcp-protocol-version", b"").decode()
        if version and version not in HANDSHAKE_VERSIONS + MODERN_VERSIONS:
            await _unsupported(send, version)
            return
        if version in MODERN_VERSIONS:
            await self.inner(scope, receive, send)
            return
        body = await _read_all(receive)
        body = _negotiate(body)
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.inner(scope, replay, send)


async def _read_all(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def _negotiate(body: bytes) -> bytes:
    """Answer an `initialize` offering an unsupported revision with our newest handshake revision."""
    try:
        message = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body
    if isinstance(message, dict) and message.get("method") == "initialize":
        params = message.get("params") or {}
        if isinstance(params, dict) and params.get("protocolVersion") not in HANDSHAKE_VERSIONS:
            params["protocolVersion"] = LATEST_HANDSHAKE
            return orjson.dumps(message)
    return body


async def _method_not_allowed(send: Send, method: str) -> None:
    """405 at once: no event stream on GET, no session to end with DELETE."""
    body = orjson.dumps({
        "jsonrpc": "2.0", "id": None,
        "error": {"code": -32600, "message": f"Method Not Allowed: {method} /mcp; this stateless server serves POST only"},
    })
    await send({"type": "http.response.start", "status": 405,
                "headers": [(b"content-type", b"application/json"), (b"allow", ALLOWED_METHODS.encode()),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _unsupported(send: Send, version: str) -> None:
    body = orjson.dumps({
        "jsonrpc": "2.0", "id": None,
        "error": {"code": -32022, "message": f"Unsupported protocol version: {version}",
                  "data": {"supported": list(MODERN_VERSIONS + HANDSHAKE_VERSIONS), "requested": version}},
    })
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
