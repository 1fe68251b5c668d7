"""Company social profile keys and how a link is recognised as one of them.

Twelve platform keys plus ``website`` (the company's own site) and ``custom``
(any other link the site itself shows).  A platform is recognised by the
link's host (``www.``, ``m.`` and ``mobile.`` prefixes ignored, subdomains
allowed).  Mastodon has no single host: known instances and hosts whose name
contains "mastodon" count when the path is a profile (``/@name``).

Hosts under the reserved ``.example`` top-level domain (RFC 2606: it can never
exist on the internet) match a platform domain with any top-level domain
(``twitter.example`` is twitter.com, ``bsky.example`` is bsky.app), so fixture
sites can link to platforms without pointing at a real account.
"""

from __future__ import annotations

import httpx


PLATFORM_HOSTS: dict[str, tuple[str, ...]] = {
    "x": ("x.com", "twitter.com"),
    "linkedin": ("linkedin.com",),
    "github": ("github.com",),
    "facebook": ("facebook.com", "fb.com"),
    "instagram": ("instagram.com",),
    "youtube": ("youtube.com", "youtu.be"),
    "tiktok": ("tiktok.com",),
    "mastodon": ("mastodon.social", "mastodon.online", "mas.to", "mstdn.social", "fosstodon.org",
                 "hachyderm.io", "infosec.exchange", "techhub.social"),
    "bluesky": ("bsky.app",),
    "discord": ("discord.gg", "discord.com", "discordapp.com"),
    "reddit": ("reddit.com",),
    "producthunt": ("producthunt.com",),
}

# Links that are actions, not profiles: sharing a page, a login wall.
_NOT_PROFILE_PATHS: tuple[str, ...] = ("/intent/", "/share", "/sharer", "/sharing/", "/login", "/signup", "/home")


def normalised_host(url: str) -> tuple[str, str] | None:
    """(lower-case host without ``www.``/``m.``/``mobile.``, path) of an http(s) URL, else None."""
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, ValueError, TypeError, UnicodeError):
        return None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return None
    host = parsed.host.lower().rstrip(".")
    for prefix in ("www.", "m.", "mobile."):
        if host.startswith(prefix):
            host = host[len(prefix):]
    return host, parsed.path or "/"


def host_matches(host: str, domain: str) -> bool:
    """``host`` is ``domain`` or a subdomain of it; ``*.example`` hosts ignore the top-level domain."""
    if host == domain or host.endswith("." + domain):
        return True
    if host.endswith(".example"):
        bare = host[: -len(".example")]
        stem = domain.rsplit(".", 1)[0]
        return bare == stem or bare.endswith("." + stem)
    return False


def platform_for(url: str) -> str | None:
    """The platform key for a profile link (``"x"`` for twitter.com/acme), else None."""
    found = normalised_host(url)
    if found is None:
        return None
    host, path = found
    for platform, hosts in PLATFORM_HOSTS.items():
        if any(host_matches(host, h) for h in hosts):
            if platform == "mastodon" and not path.startswith("/@"):
                return None
            return platform
    if "mastodon" in host.split(".")[0] and path.startswith("/@") and len(path) > 2:
        return "mastodon"
    return None


def is_profile_link(url: str) -> bool:
    """A platform link that points at an account, not at a share button or one video."""
    found = normalised_host(url)
    platform = platform_for(url)
    if found is None or platform is None:
        return False
    _, path = found
    if path.strip("/") == "" or path.lower().startswith(_NOT_PROFILE_PATHS):
        return False
    if platform == "youtube":
        return path.startswith(("/@", "/channel/", "/c/", "/user/"))
    return True
