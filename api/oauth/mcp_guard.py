"""Around /mcp: HTTP 401 and 403 for protected tool calls, so MCP clients can sign in and step up.

The executor still enforces every scope (a tool call that gets past this
guard is checked again there); this guard only makes the refusal visible at
the HTTP level, where the MCP client's OAuth support reacts to it:

- a `tools/call` of a protected tool **without credentials**: 401 with
  `WWW-Authenticate: Bearer scope="<needed>", resource_metadata="..."`: the
  client discovers the authorization server and signs in;
- a `tools/call` with an **OAuth access token that lacks the scope**: 403 with
  `Bearer error="insufficient_scope", scope="<needed>", resource_metadata="..."`:
  the client asks the person for the additional scope (step-up).

API keys without the scope keep the tool error (403 as structured content):
a key cannot step up. Invalid tokens never get here: identity's
`McpBearerGuard`, outside this one, answers them with 401 first.

The tool name is the `Mcp-Name` header on protocol 2026-07-28; on the
handshake revisions the JSON-RPC body (a message or a batch) is read and
handed on unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.auth import BearerAuthenticator
from api.problems import from_domain
from api.registry import Operation, Registry
from events.errors import DomainError, Forbidden, Unauthorized

MODERN = ("2026-07-28",)
MAX_BODY = 4 * 1024 * 1024


class McpScopeGuard:
    def __init__(self, app: ASGIApp, registry: Registry, authenticator: BearerAuthenticator,
                 challenge: Callable[..., str]) -> None:
        self.app = app
        self.registry = registry
        self.authenticator = authenticator
        self.challenge = challenge

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        headers = {k: v for k, v in scope.get("headers") or []}
        version = headers.get(b"mcp-protocol-version", b"").decode("latin-1")
        if version in MODERN:
            names = [headers.get(b"mcp-name", b"").decode("latin-1")] if headers.get(b"mcp-method") == b"tools/call" else []
        else:
            body = await _read_all(receive)
            if body is None:
                await _too_large(send)
                return
            names = _tool_calls(body)
            receive = _replay(body, receive)
        ops = [op for name in names if (op := self.registry.get(name)) is not None and op.scope]
        if ops:
            refusal = await self._refusal(ops[0], headers.get(b"authorization"))
            if refusal is not None:
                await _answer(send, refusal, self.challenge(ops[0], refusal, "mcp"))
                return
        await self.app(scope, receive, send)

    async def _refusal(self, op: Operation, authorization: bytes | None) -> DomainError | None:
        if authorization is None:
            return Unauthorized("this tool needs credentials: an API key or an OAuth access token "
                                f"with the scope {op.scope}")
        try:
            principal = await self.authenticator.authenticate(authorization.decode("latin-1"), channel="mcp")
        except Unauthorized:
            return None  # not ours to answer (identity's guard outside answers invalid tokens)
        if principal is not None and principal.kind == "oauth" and op.scope not in principal.scopes:
            return Forbidden(f"this tool needs the scope {op.scope}", scope=op.scope)
        return None


def _tool_calls(body: bytes) -> list[str]:
    try:
        message = orjson.loads(body)
    except orjson.JSONDecodeError:
        return []
    messages = message if isinstance(message, list) else [message]
    names = []
    for m in messages:
        if isinstance(m, dict) and m.get("method") == "tools/call" and isinstance(m.get("params"), dict):
            name = m["params"].get("name")
            if isinstance(name, str):
                names.append(name)
    return names


async def _read_all(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size <= MAX_BODY:
            chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks) if size <= MAX_BODY else None


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _answer(send: Send, error: DomainError, challenge: str) -> None:
    body = orjson.dumps(from_domain(error))
    status = 403 if isinstance(error, Forbidden) else 401
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/problem+json"), (b"content-length", str(len(body)).encode()),
        (b"www-authenticate", challenge.encode("latin-1", "replace")),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _too_large(send: Send) -> None:
    body = orjson.dumps({"jsonrpc": "2.0", "id": None,
                         "error": {"code": -32600, "message": f"request body larger than {MAX_BODY} bytes"}})
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
