"""Safe website crawling for drafting product profiles.

Public entry point: :func:`crawl_site`.  Every fetch passes the address
guard (no private, loopback or metadata addresses, on every redirect hop and
again at connect time), respects robots.txt for the ``launchdirbot`` token and
stays within byte, page and time limits.
"""

from .address_guard import check_host, check_url, check_url_syntax
from .crawler import crawl_site
from .errors import (
    BlockedAddress,
    CrawlError,
    HttpStatusError,
    NotHtml,
    OffSite,
    RobotsForbidden,
    SiteUnreachable,
    TooLarge,
    TooManyRedirects,
)
from .extract import page_links, structured_data, visible_text
from .settings import CrawlSettings
from .types import CrawledPage, CrawlResult, SkippedPage

__all__ = [
    "BlockedAddress",
    "CrawlError",
    "CrawlResult",
    "CrawlSettings",
    "CrawledPage",
    "HttpStatusError",
    "NotHtml",
    "OffSite",
    "RobotsForbidden",
    "SiteUnreachable",
    "SkippedPage",
    "TooLarge",
    "TooManyRedirects",
    "check_host",
    "check_url",
    "check_url_syntax",
    "crawl_site",
    "page_links",
    "structured_data",
    "visible_text",
]
