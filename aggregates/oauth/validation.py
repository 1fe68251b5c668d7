"""What may be registered: redirect URIs, scopes, client metadata limits (shared by DCR and CIMD clients)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from aggregates.account import SCOPES

AUTH_METHODS = ("none", "client_secret_post", "client_secret_basic")
GRANT_TYPES = ("authorization_code", "refresh_token")
MAX_REDIRECT_URIS = 10
MAX_URI = 2000
MAX_NAME = 200
FORBIDDEN_SCHEMES = frozenset({"javascript", "data", "file", "vbscript", "about", "blob", "filesystem"})
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


def redirect_uri_problem(uri: str) -> str | None:
    """Why a redirect URI may not be registered (None when it may).

    https anywhere; http only on loopback hosts (RFC 8252 §7.3); private-use
    schemes of native apps only in reverse-domain form (RFC 8252 §7.1); never a
    fragment, user info, or a scheme that runs code in the browser.
    """
    if not isinstance(uri, str) or not uri:
        return "a redirect URI must be a non-empty string"
    if len(uri) > MAX_URI:
        return f"redirect URI longer than {MAX_URI} characters"
    if "#" in uri:
        return f"redirect URI {uri!r} must not contain a fragment"
    if any(c.isspace() for c in uri):
        return f"redirect URI {uri!r} must not contain spaces"
    try:
        parts = urlsplit(uri)
        host = parts.hostname
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        return f"redirect URI {uri!r} cannot be parsed"
    scheme = parts.scheme.lower()
    if not scheme:
        return f"redirect URI {uri!r} must be absolute"
    if parts.username or parts.password:
        return f"redirect URI {uri!r} must not contain a user name or password"
    if scheme == "https":
        return None if host else f"redirect URI {uri!r} has no host"
    if scheme == "http":
        if host in LOOPBACK_HOSTS:
            return None
        return f"redirect URI {uri!r}: http is allowed only for loopback hosts (127.0.0.1, [::1], localhost); use https"
    if scheme in FORBIDDEN_SCHEMES:
        return f"redirect URI {uri!r}: the scheme {scheme} is not allowed"
    if "." not in scheme:
        return f"redirect URI {uri!r}: a private-use scheme must be a reverse domain name such as com.example.app"
    return None


def scopes_problem(scopes: Sequence[str]) -> str | None:
    if not scopes:
        return "no scope: ask for one or more of " + ", ".join(SCOPES)
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        return f"unknown scope {unknown[0]!r}: this server knows " + ", ".join(SCOPES)
    return None


def ordered_scopes(scopes: Sequence[str]) -> list[str]:
    return [s for s in SCOPES if s in set(scopes)]
