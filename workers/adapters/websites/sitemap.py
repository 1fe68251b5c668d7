"""Read page URLs from a site's XML sitemap(s).

Sitemaps are only a source of candidate pages, so every failure here is
silent.  The XML is parsed without DTDs, entity expansion or network access
(no XXE), the download is capped, and at most ``max_sitemaps`` files are
fetched, including children of a sitemap index.  Only sitemaps on the
crawled site are fetched.
"""

from __future__ import annotations

from dataclasses import dataclass

import lxml.etree

from .decoding import gunzip_capped
from .errors import CrawlError, OffSite
from .fetcher import GuardedFetcher
from .robots import RobotsCache
from .settings import CrawlSettings
from .urls import same_site_url

MAX_LOCS_PER_SITEMAP = 5_000
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class SitemapContent:
    """The ``<loc>`` entries of one sitemap file."""

    pages: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()


def parse_sitemap(data: bytes, max_bytes: int) -> SitemapContent:
    """Parse a urlset or sitemapindex document (gzip accepted); empty on any error."""
    try:
        if data.startswith(_GZIP_MAGIC):
            data = gunzip_capped(data, max_bytes)
        parser = lxml.etree.XMLParser(
            resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=True
        )
        root = lxml.etree.fromstring(data, parser=parser)
    except (CrawlError, lxml.etree.LxmlError, ValueError, TypeError):
        return SitemapContent()
    if root is None or not isinstance(root.tag, str):
        return SitemapContent()
    locs: list[str] = []
    for element in root.iter():
        if isinstance(element.tag, str) and lxml.etree.QName(element).localname == "loc":
            text = (element.text or "").strip()
            if text:
                locs.append(text)
            if len(locs) >= MAX_LOCS_PER_SITEMAP:
                break
    if lxml.etree.QName(root).localname == "sitemapindex":
        return SitemapContent(sitemaps=tuple(locs))
    return SitemapContent(pages=tuple(locs))


def sitemap_page_urls(
    fetcher: GuardedFetcher, robots: RobotsCache, *, site: str, settings: CrawlSettings
) -> list[str]:
    """Same-site page URLs from the sitemaps announced in robots.txt, or ``/sitemap.xml``."""
    policy = robots.policy_for(site)
    queue = [u for u in (same_site_url(s, site) for s in policy.sitemaps) if u] or [f"{site}/sitemap.xml"]
    seen: set[str] = set()
    pages: list[str] = []
    while queue and len(seen) < settings.max_sitemaps:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        if not robots.allows(url):
            continue
        content = _fetch_one(fetcher, url, site, settings)
        pages.extend(u for u in (same_site_url(p, site) for p in content.pages) if u)
        queue.extend(u for u in (same_site_url(s, site) for s in content.sitemaps) if u)
    return pages


def _fetch_one(fetcher: GuardedFetcher, url: str, site: str, settings: CrawlSettings) -> SitemapContent:
    def stay_on_site(hop: str) -> None:
        if same_site_url(hop, site) is None:
            raise OffSite("off_site", f"sitemap redirect to {hop} leaves the site")

    try:
        fetched = fetcher.fetch(
            url,
            max_bytes=settings.max_sitemap_bytes,
            html_only=False,
            accept="application/xml,text/xml;q=0.9,*/*;q=0.1",
            before_hop=stay_on_site,
        )
    except CrawlError:
        return SitemapContent()
    if fetched.status != 200 or not fetched.body:
        return SitemapContent()
    return parse_sitemap(fetched.body, settings.max_sitemap_bytes)
