"""CSRF protection for the website's forms: an HMAC token bound to the session or to a browser cookie.

Signed in, the token is HMAC(secret, "s:" + session id): a synchronizer token
that needs no storage. Signed out (sign-up, sign-in, reset forms), the browser
gets a random HttpOnly cookie and the token is HMAC(secret, "a:" + cookie): a
signed double-submit token. A cross-site page can neither read the cookie nor
compute the HMAC, so it cannot forge the form field. Every POST form carries
the field `csrf_token`; a missing or wrong token is a 403.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

FIELD = "csrf_token"


class Csrf:
    def __init__(self, secret: bytes, cookie_name: str) -> None:
        self._key = hashlib.sha256(b"launchdir-csrf:" + secret).digest()
        self.cookie_name = cookie_name

    @staticmethod
    def new_browser_value() -> str:
        return secrets.token_urlsafe(24)

    def token(self, session_id: str | None, browser_value: str | None) -> str:
        """The token to put in forms: bound to the session when there is one, else to the browser cookie."""
        binding = f"s:{session_id}" if session_id else f"a:{browser_value or ''}"
        return hmac.new(self._key, binding.encode(), hashlib.sha256).hexdigest()

    def valid(self, submitted: str | None, session_id: str | None, browser_value: str | None) -> bool:
        """A token made for this session, or for this browser's cookie (a form opened before signing in)."""
        if not submitted:
            return False
        candidates = []
        if session_id:
            candidates.append(self.token(session_id, None))
        if browser_value:
            candidates.append(self.token(None, browser_value))
        return any(hmac.compare_digest(submitted, c) for c in candidates)
