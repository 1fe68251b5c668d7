"""The request body limit of the whole site: REST, MCP and the website's forms.

A body larger than the limit (`LAUNCHDIR_MAX_BODY_BYTES`, 1 MiB by default)
is refused with 413 and an RFC 9457 problem before any route reads it:

- at once when `Content-Length` declares more (the body is never read; a
  client that sent `Expect: 100-continue` does not even send it);
- otherwise (a chunked body) while it streams in: the chunks are held until
  the end of the body or until they pass the limit, so at most the limit is
  ever buffered, and the route then receives them as if nothing happened.

A declared length within the limit passes straight through: the server
delivers no more than the declared length. So do GET, HEAD and OPTIONS
requests that are not chunked: reads cost nothing.
"""

from __future__ import annotations

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem

CODE = "payload-too-large"
BODILESS = ("GET", "HEAD", "OPTIONS")  # without a length or chunking, these carry no body: nothing to count


def too_large(max_bytes: int) -> bytes:
    """The problem document of a refused body."""
    detail = f"the request body is larger than the limit of {max_bytes} bytes"
    return orjson.dumps(problem(413, CODE, "Payload too large", detail))


class BodyLimit:
    """ASGI middleware: 413 problem details for bodies over `max_bytes`."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared, chunked = _framing(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        streamed = chunked or (declared is None and scope.get("method") not in BODILESS)
        if not streamed:  # a declared length within the limit (the server delivers no more), or no body at all
            await self.app(scope, receive, send)
            return
        body = bytearray()
        complete = False
        trailing: Message | None = None
        while True:
            message = await receive()
            if message["type"] != "http.request":
                trailing = message  # the client went away; the route sees that as it would have
                break
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                complete = True
                break
        held: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": not complete}]
        if trailing is not None:
            held.append(trailing)

        async def replay() -> Message:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = too_large(self.max_bytes)
        await send({"type": "http.response.start", "status": 413, "headers": [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),  # the rest of the body is not read: this connection cannot carry another request
        ]})
        await send({"type": "http.response.body", "body": body})


def _framing(scope: Scope) -> tuple[int | None, bool]:
    """The declared body length (None without one) and whether the body is chunked. The server answers
    400 itself to a malformed length, or to both headers at once, so neither reaches us."""
    declared, chunked = None, False
    for name, value in scope.get("headers") or []:
        if name == b"content-length":
            try:
                declared = int(value)
            except ValueError:
                pass
        elif name == b"transfer-encoding":
            chunked = True
    return declared, chunked
