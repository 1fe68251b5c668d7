"""URL helpers: origins, "same site", assets and duplicate detection.

A *site* is one origin (scheme, host, port) as in the browser security
model; the only exception is that ``http`` and ``https`` on the default ports
of the same host count as one site, because sites commonly mix the two
while upgrading.
"""

from __future__ import annotations

import posixpath

import httpx

DEFAULT_PORTS = {"http": 80, "https": 443}

ASSET_EXTENSIONS = frozenset(
    {
        ".7z", ".apk", ".atom", ".avi", ".avif", ".bmp", ".css", ".csv", ".deb", ".dmg", ".doc", ".docx",
        ".eot", ".epub", ".exe", ".flac", ".gif", ".gz", ".ico", ".iso", ".jpeg", ".jpg", ".js", ".json",
        ".m4a", ".m4v", ".map", ".mjs", ".mov", ".mp3", ".mp4", ".mpeg", ".msi", ".odp", ".ods", ".odt",
        ".ogg", ".otf", ".pdf", ".pkg", ".png", ".ppt", ".pptx", ".rar", ".rpm", ".rss", ".svg", ".tar",
        ".tgz", ".tif", ".tiff", ".ttf", ".txt", ".wasm", ".wav", ".webm", ".webmanifest", ".webp", ".woff",
        ".woff2", ".xls", ".xlsx", ".xml", ".zip",
    }
)

_INDEX_FILES = frozenset({"index.html", "index.htm", "index.php"})


def _parse(url: str) -> httpx.URL | None:
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError, UnicodeError):
        return None
    if parsed.scheme not in DEFAULT_PORTS or not parsed.raw_host:
        return None
    return parsed


def _host(parsed: httpx.URL) -> str:
    host = parsed.raw_host.decode("ascii").lower().rstrip(".")
    return f"[{host}]" if ":" in host else host


def _port(parsed: httpx.URL) -> int:
    return parsed.port or DEFAULT_PORTS[parsed.scheme]


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` with the default port left out ("" if not http(s))."""
    parsed = _parse(url)
    if parsed is None:
        return ""
    port = _port(parsed)
    suffix = "" if port == DEFAULT_PORTS[parsed.scheme] else f":{port}"
    return f"{parsed.scheme}://{_host(parsed)}{suffix}"


def same_site_url(url: str, site: str) -> str | None:
    """``url`` if it belongs to ``site``, upgraded to https when the site is https; else None."""
    parsed, home = _parse(url), _parse(site)
    if parsed is None or home is None or parsed.userinfo or _host(parsed) != _host(home):
        return None
    if parsed.scheme == home.scheme and _port(parsed) == _port(home):
        return str(parsed.copy_with(fragment=None))
    both_default = _port(parsed) == DEFAULT_PORTS[parsed.scheme] and _port(home) == DEFAULT_PORTS[home.scheme]
    if not both_default:
        return None
    if parsed.scheme == "http":
        return str(parsed.copy_with(scheme="https", port=None, fragment=None))
    return str(parsed.copy_with(fragment=None))


def is_asset(url: str) -> bool:
    """Does the path end in a file extension we never treat as a page?"""
    parsed = _parse(url)
    if parsed is None:
        return True
    extension = posixpath.splitext(parsed.path.lower())[1]
    return extension in ASSET_EXTENSIONS


def page_key(url: str) -> str:
    """Identity of a page for de-duplication: host and path, ignoring scheme, query and a trailing slash."""
    parsed = _parse(url)
    if parsed is None:
        return url
    path = parsed.path.rstrip("/") or "/"
    if posixpath.basename(path).lower() in _INDEX_FILES:
        path = posixpath.dirname(path).rstrip("/") or "/"
    port = _port(parsed)
    port_part = "" if port == DEFAULT_PORTS[parsed.scheme] else f":{port}"
    return f"{_host(parsed)}{port_part}{path}"
