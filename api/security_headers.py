"""Headers every answer carries: no content-type sniffing, and for pages a content security policy.

A pure ASGI middleware (it edits the response's first message only, so
streamed answers pass untouched). The policy keeps pages to the site's own
scripts, styles, forms' targets aside: a script injected into a page through
some missed escaping would not run, and no other site may frame a page.

- `script-src 'self'`: only the site's own files (`site.js`, `checkout.js`);
  the one inline handler, a logo's `onerror="this.remove()"` (a logo that
  fails leaves its initial), is allowed by its hash (CSP3 'unsafe-hashes').
  JSON-LD blocks are data, not scripts, and need nothing.
- `style-src 'self' 'unsafe-inline'`: templates carry small `<style>` blocks.
- `img-src` also `https:`/`http:`/`data:`: listings' logos live on their own sites.
- `frame-ancestors 'none'`, `object-src 'none'`, `base-uri 'self'`.
- No `form-action`: browsers apply it to the redirect after a form (the OAuth
  consent answers with the app's own address), so it would break sign-in for apps.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOGO_ONERROR = "'sha256-9f8ZK5epjuMsYtXFjPqrgJI0L4QOAUYmJdHtT+RSH/c='"  # of `this.remove()`
POLICY = ("default-src 'self'; "
          f"script-src 'self' 'unsafe-hashes' {LOGO_ONERROR}; "
          "style-src 'self' 'unsafe-inline'; "
          "img-src 'self' https: http: data:; "
          "object-src 'none'; base-uri 'self'; frame-ancestors 'none'")


class SecurityHeaders:
    """ASGI middleware adding `x-content-type-options: nosniff` to every answer and `POLICY` to HTML pages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                names = {name.lower() for name, _ in headers}
                if b"x-content-type-options" not in names:
                    headers.append((b"x-content-type-options", b"nosniff"))
                html = any(name.lower() == b"content-type" and value.startswith(b"text/html") for name, value in headers)
                if html and b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", POLICY.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
