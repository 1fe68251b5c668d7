"""The crawl as evidence: where a quote may be found, and how it is looked up.

A page's *text* is its visible text; its *metadata* is its ``<title>``, the
targets of its visible links and every string value of its structured data
(JSON-LD, microdata, OpenGraph, RDFa, meta tags, icons).  Comparison is on
:func:`workers.drafting.text.normalise`d text, on word boundaries.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from workers.adapters.websites import CrawledPage, CrawlResult

from .model import Evidence
from .text import clean, contains_phrase, normalise

MIN_QUOTE_CHARS = 4
MIN_WHOLE_METADATA_CHARS = 2
MAX_QUOTE_CHARS = 5_000
MAX_EVIDENCE_CHECKED = 40
MAX_AUDIT_CHARS = 1_000
MAX_AUDIT_ITEMS = 50


def strings_in(data: Any, *, depth: int = 0) -> Iterator[tuple[str, str]]:
    """(key, value) for every string or number value nested in ``data`` (key of the nearest dict)."""
    if depth > 30:
        return
    if isinstance(data, Mapping):
        for key, value in data.items():
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                yield str(key), str(value)
            else:
                for inner_key, inner in strings_in(value, depth=depth + 1):
                    yield (str(key) if inner_key == "" else inner_key), inner
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                yield "", str(item)
            else:
                yield from strings_in(item, depth=depth + 1)


def _founder_names(data: Any, *, depth: int = 0) -> Iterator[str]:
    """Names found under a ``founder`` / ``founders`` key of structured data."""
    if depth > 30:
        return
    if isinstance(data, Mapping):
        for key, value in data.items():
            if "founder" in str(key).lower():
                yield from _names_in(value)
            else:
                yield from _founder_names(value, depth=depth + 1)
    elif isinstance(data, list):
        for item in data:
            yield from _founder_names(item, depth=depth + 1)


def _names_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping) and isinstance(value.get("name"), str):
        yield value["name"]
    elif isinstance(value, list):
        for item in value[:50]:
            yield from _names_in(item)


def origin_of(url: str) -> str:
    """scheme://host[:port] of a URL, lower case ("" when it is not a URL)."""
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, ValueError, TypeError, UnicodeError):
        return ""
    if not parsed.host:
        return ""
    port = f":{parsed.port}" if parsed.port else ""
    return f"{parsed.scheme}://{parsed.host.lower()}{port}"


def link_key(url: str) -> str:
    """A URL for comparison: no fragment, no trailing slash, lower-case host."""
    try:
        parsed = httpx.URL(url.strip()).copy_with(fragment=None)
    except (httpx.InvalidURL, ValueError, TypeError, UnicodeError):
        return url.strip()
    text = str(parsed)
    return text[:-1] if text.endswith("/") else text


@dataclass
class PageIndex:
    """One crawled page in comparison form: its visible text and its metadata values."""

    page: CrawledPage
    text: str = ""
    metadata: list[str] = field(default_factory=list)
    founders: set[str] = field(default_factory=set)

    @classmethod
    def build(cls, page: CrawledPage) -> PageIndex:
        values = [page.title, *page.links, *(value for _, value in strings_in(page.structured))]
        metadata = list(dict.fromkeys(normalise(v) for v in values if v and v.strip()))
        founders = {normalise(n) for n in _founder_names(page.structured)}
        return cls(page=page, text=normalise(page.text), metadata=metadata, founders=founders)


class Context:
    """The crawl, indexed once per verification."""

    def __init__(self, crawl: CrawlResult, categories: list[Mapping[str, Any]]) -> None:
        self.crawl = crawl
        self._pages: dict[str, PageIndex] = {}
        self.categories = {str(c.get("slug")): c for c in categories if c.get("slug")}
        self._category_by_name = {normalise(str(c.get("name") or "")): s for s, c in self.categories.items()}
        self._links: set[str] | None = None
        self._shown: dict[str, Evidence] | None = None

    def page(self, url: str) -> PageIndex | None:
        """The crawled page at ``url`` (absolute, or a path on the crawled site), if any."""
        if not isinstance(url, str) or not url.strip():
            return None
        if url.strip().startswith("/") and not url.strip().startswith("//"):
            url = self.crawl.site + url.strip()
        page = self.crawl.page(url)
        if page is None:
            return None
        if page.url not in self._pages:
            self._pages[page.url] = PageIndex.build(page)
        return self._pages[page.url]

    def link_on_site(self, url: str) -> bool:
        """The URL is the target of a visible link or a structured-data value of a crawled page."""
        if self._links is None:
            links: set[str] = set()
            for page in self.crawl.pages:
                links.update(link_key(link) for link in page.links)
                links.update(link_key(v) for _, v in strings_in(page.structured) if v.startswith(("http://", "https://")))
            self._links = links
        return link_key(url) in self._links

    def link_evidence(self, url: str) -> Evidence | None:
        """Where the site shows ``url``: the first crawled page linking it, quoting the link target as written there.

        The anchor's ``href`` (or the structured-data value, e.g. ``sameAs``)
        is the quote, with ``source="metadata"``, so the quote check that
        holds for every other value holds for links too.
        """
        if self._shown is None:  # indexed once: every link of every allowed page
            shown: dict[str, Evidence] = {}
            for page in self.crawl.pages:
                if not page.robots_allowed:
                    continue
                targets = [*page.links, *(v for _, v in strings_in(page.structured) if v.startswith(("http://", "https://")))]
                for target in targets:
                    shown.setdefault(link_key(target), Evidence(url=page.url, quote=target, source="metadata"))
            self._shown = shown
        return self._shown.get(link_key(url))

    def category_slug(self, item: str) -> str | None:
        if item in self.categories:
            return item
        return self._category_by_name.get(normalise(item))


# --- evidence ------------------------------------------------------------------------------------


def check_evidence(raw: Any, ctx: Context) -> tuple[list[Evidence], list[dict[str, Any]]]:
    """Verified quotes (canonical page URL, cleaned quote, matched source) and the failures."""
    verified: list[Evidence] = []
    failed: list[dict[str, Any]] = []
    if not isinstance(raw, list):
        return verified, ([{"reason": "evidence is not a list"}] if raw not in (None, "") else [])
    for item in raw[:MAX_EVIDENCE_CHECKED]:
        if isinstance(item, Evidence):
            item = item.to_dict()
        if not isinstance(item, Mapping) or not isinstance(item.get("quote"), str) or not isinstance(item.get("url"), str):
            failed.append({"reason": "malformed evidence (needs url and quote strings)"})
            continue
        url, quote, source = item["url"], clean(item["quote"]), item.get("source")
        reason, matched = _locate(url, quote, source, ctx)
        if matched is None:
            failed.append({"url": url, "quote": quote[:300], "reason": reason})
            continue
        evidence = Evidence(url=matched[0], quote=quote, source=matched[1])
        if evidence not in verified:
            verified.append(evidence)
    return verified, failed


def _locate(url: str, quote: str, source: Any, ctx: Context) -> tuple[str, tuple[str, str] | None]:
    if source not in (None, "", "text", "metadata"):
        return f"unknown evidence source {str(source)[:40]!r}", None
    q = normalise(quote)
    if len(q) > MAX_QUOTE_CHARS:
        return "quote too long (cite the sentence, not the page)", None
    if not any(c.isalnum() for c in q):
        return "quote has no words", None
    page = ctx.page(url)
    if page is None:
        return "page not in the crawl (never fetched, or forbidden by robots.txt)", None
    long_enough = len(q) >= MIN_QUOTE_CHARS
    if source in (None, "", "text") and long_enough and contains_phrase(page.text, q):
        return "", (page.page.url, "text")
    if source in (None, "", "metadata"):
        if long_enough and any(contains_phrase(value, q) for value in page.metadata):
            return "", (page.page.url, "metadata")
        if len(q) >= MIN_WHOLE_METADATA_CHARS and q in page.metadata:
            return "", (page.page.url, "metadata")
    if not long_enough:
        return f"quote too short (at least {MIN_QUOTE_CHARS} characters)", None
    where = {"text": "the page's visible text", "metadata": "the page's metadata"}.get(str(source), "the page")
    return f"quote not found in {where}", None


def audit_value(value: Any) -> Any:
    """A bounded copy of a dropped value for the audit list."""
    if isinstance(value, str):
        return value[:MAX_AUDIT_CHARS]
    if isinstance(value, list):
        return [audit_value(v) if isinstance(v, str) else str(v)[:300] for v in value[:MAX_AUDIT_ITEMS]]
    if isinstance(value, Mapping):
        return {str(k)[:100]: audit_value(v) for k, v in list(value.items())[:MAX_AUDIT_ITEMS]}
    return value if isinstance(value, (int, float, bool)) or value is None else str(value)[:300]
