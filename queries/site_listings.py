"""Which listing already stands for a website: one public listing per site, so nobody lists someone else's.

A listing's website decides what it is: two listings of one site split its
votes and let anyone launch a copy of a product they do not own. submit_draft
asks here before it makes a new listing (`commands/draft.py`); a site that
already has a public listing (awaiting its badge, scheduled or live) is
refused with the way to claim it (docs/submission.md, "One listing per site").

Two websites are one site when their host (without `www.`, any case), port
and path (without the trailing slash) are the same, or when either is the
site's root: a company's homepage stands for the pages under it, while
`github.com/a/one` and `github.com/b/two` are two products on a shared host.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from projections.listing_cards import domain_of
from projections.reads import ReadStore

VIEW = "listing_view"
PUBLIC = ("awaiting_badge", "scheduled", "live")


@dataclass(frozen=True)
class SiteListing:
    """A public listing of the site: its slug and whether the asking account owns it."""

    listing_id: int
    slug: str
    status: str
    website_url: str
    yours: bool


def site_key(url: Any) -> tuple[str, int | None, str] | None:
    """(host without `www.`, port when not the scheme's default, path without trailing slash); None if unreadable."""
    host = domain_of(url)
    if not host:
        return None
    text = str(url).strip()
    parts = urlsplit(text if "://" in text else "http://" + text)
    try:
        port = parts.port
    except ValueError:
        return None
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return host, None if port == default else port, parts.path.rstrip("/")


def same_site(a: Any, b: Any) -> bool:
    """One site: the same host and port, and the same path or either one the root."""
    ka, kb = site_key(a), site_key(b)
    if ka is None or kb is None or ka[:2] != kb[:2]:
        return False
    return ka[2] == kb[2] or not ka[2] or not kb[2]


def listing_of_site(reads: ReadStore, website_url: str, account_id: str) -> SiteListing | None:
    """The public listing that already stands for `website_url`'s site, or None (the oldest when several do)."""
    host = domain_of(website_url)
    if not host:
        return None
    t = reads.tables(VIEW)
    with reads.primary.connection() as conn:  # a write's check: never a replica's older copy
        rows = conn.execute(
            f"""SELECT l.listing_id, l.slug, l.status, p.state->'profile'->>'website_url', p.state->'owner_ids'
                FROM {t['listings']} l JOIN {t['profiles']} p USING (listing_id)
                WHERE l.domain = %s AND l.status = ANY(%s) ORDER BY l.listing_id""",
            (host, list(PUBLIC))).fetchall()
    for listing_id, slug, status, website, owners in rows:
        if same_site(website, website_url):
            return SiteListing(int(listing_id), str(slug), str(status), str(website), account_id in (owners or []))
    return None
