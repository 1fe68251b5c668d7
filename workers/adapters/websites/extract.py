"""Turn fetched HTML into evidence: visible text, structured data and links.

Profiles are drafted from what a *visitor* of the site can see, so text in
scripts, styles, comments, templates and hidden elements is excluded: it is
where stale, misleading or injected content tends to hide.  The HTML is
untrusted; every function here returns empty results instead of raising on
malformed markup, binary junk or oversized input.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

import extruct
import httpx
import lxml.etree
import lxml.html
from extruct.jsonld import JsonLdExtractor
from extruct.utils import parse_xmldom_html

from .regions import (
    boilerplate_regions,
    hide_by_stylesheet,
    hide_permalinks,
    is_boilerplate,
    logo_sources,
    refresh_target,
    hide_by_utility_classes,
    reveal_collapsed_answers,
    reveal_disclosures,
    reveal_slides,
)

MAX_HTML_CHARS = 5_000_000
"""Input beyond this many characters is ignored (the crawler caps pages lower)."""

MAX_META_VALUE_CHARS = 2_000
STRUCTURED_SYNTAXES = ("json-ld", "microdata", "opengraph", "rdfa")

_SKIPPED_TAGS = frozenset(
    {"script", "style", "noscript", "template", "head", "title", "meta", "link", "iframe",
     "object", "embed", "canvas", "svg", "math", "datalist", "audio", "video", "select"}
)
_BLOCK_TAGS = frozenset(
    {"address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog",
     "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
     "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li", "main", "nav", "ol",
     "p", "pre", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul"}
)
_CELL_TAGS = frozenset({"td", "th"})
_BUTTON_INPUT_TYPES = frozenset({"submit", "button", "reset"})
_ICON_RELS = frozenset({"icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon"})
_META_NAMES = frozenset({"description", "keywords", "author", "application-name"})
_META_URL_SUFFIXES = ("image", "image:url", "image:secure_url", "image:src", "og:url", "og:video", "og:audio")
_LINK_SCHEMES = ("http", "https")
_HOST_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789.-_:[]")
_MAX_URL_CHARS = 2048
MAX_EMBEDDED = 20  # mailto addresses and iframe sources kept per page
MAX_BOILERPLATE_LINES = 200
_EMAIL = re.compile(r"[^@\s<>()\[\]:;\\\"',]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}")
# C0 control characters other than tab/newline/carriage return confuse the parser.
_CONTROL_CHARS = {code: None for code in range(32) if code not in (9, 10, 13)} | {0x7F: None}
# Source line breaks are ordinary whitespace in HTML; only block elements break lines.
_SOURCE_WHITESPACE = str.maketrans("\n\r\t\f\v", "     ")
# Hyphenation hints and zero-width breaks: a visitor never sees them ("Sprecher\u00aderkennung" reads
# "Sprechererkennung"), so the visible text does not hold them either and a quote of what is shown matches.
_INVISIBLE_FORMAT = str.maketrans("", "", "\u00ad\u200b\u2060\ufeff")


@dataclass(frozen=True)
class PageContent:
    """Everything extracted from one HTML document."""

    title: str = ""
    text: str = ""
    structured: dict[str, Any] = field(default_factory=dict)
    links: tuple[tuple[str, str], ...] = ()

    @property
    def is_empty(self) -> bool:
        """True when nothing usable was found (no title, text, links or metadata)."""
        has_structured = any(self.structured.get(key) for key in (*STRUCTURED_SYNTAXES, "meta", "icons"))
        return not (self.title or self.text or self.links or has_structured)


def extract_page(html: str, base_url: str) -> PageContent:
    """Parse once and extract title, visible text, structured data and links."""
    root = _parse(html)
    if root is None:
        return PageContent(structured=_empty_structured())
    return PageContent(
        title=_title(root),
        text=_visible_text_of(root),
        structured=_structured(html, root, base_url),
        links=tuple(_links(root, base_url)),
    )


def visible_text(html: str) -> str:
    """The text a visitor sees: block elements on their own lines, spaces collapsed."""
    root = _parse(html)
    return "" if root is None else _visible_text_of(root)


def structured_data(html: str, base_url: str) -> dict[str, Any]:
    """json-ld, microdata, opengraph and rdfa (uniform), plus ``meta`` and ``icons``."""
    root = _parse(html)
    return _empty_structured() if root is None else _structured(html, root, base_url)


def page_links(html: str, base_url: str) -> list[tuple[str, str]]:
    """Visible ``<a href>`` targets as absolute http(s) URLs with their link text.

    Fragments are dropped and each URL appears once (first non-empty text wins).
    """
    root = _parse(html)
    return [] if root is None else list(_links(root, base_url))


def page_title(html: str) -> str:
    """The document ``<title>``, whitespace-normalised."""
    root = _parse(html)
    return "" if root is None else _title(root)


def _parse(html: str) -> lxml.html.HtmlElement | None:
    if not isinstance(html, str):
        return None
    cleaned = html[:MAX_HTML_CHARS].translate(_CONTROL_CHARS)
    if not cleaned.strip():
        return None
    parser = lxml.html.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True, recover=True
    )
    try:
        root = lxml.html.document_fromstring(cleaned.encode("utf-8", "replace"), parser=parser)
    except (lxml.etree.LxmlError, ValueError, TypeError, MemoryError):
        return None
    if not isinstance(root, lxml.html.HtmlElement):
        return None
    hide_by_stylesheet(root)  # the page's own <style> rules hiding elements, applied before anything is read
    hide_by_utility_classes(root)  # hidden at every screen size by Elementor, Bootstrap or Tailwind classes
    hide_permalinks(root)
    reveal_disclosures(root)  # an accordion's collapsed answers, opened by a click
    reveal_collapsed_answers(root)  # the same built without ARIA: a question and its hidden answer
    reveal_slides(root)  # a carousel's slides off screen
    return root


def _normalise(text: str) -> str:
    return " ".join(text.translate(_INVISIBLE_FORMAT).split())


def _title(root: lxml.html.HtmlElement) -> str:
    node = root.find("head/title")
    if node is None:
        node = root.find(".//title")
    return "" if node is None else _normalise(node.text_content())[:1000]


def _is_hidden(element: lxml.html.HtmlElement) -> bool:
    """Hidden by attribute or inline style (stylesheets are not evaluated)."""
    if element.get("hidden") is not None:
        return True
    if (element.get("aria-hidden") or "").strip().lower() == "true":
        return True
    if element.tag == "input" and (element.get("type") or "").strip().lower() == "hidden":
        return True
    if _READER_ONLY & set((element.get("class") or "").split()):
        return True  # text for screen readers only: no visitor sees it on the page
    return _style_hides(element.get("style") or "")


# moved out of view: "position:absolute;left:-9999px", "text-indent:-9999px" (a screen-reader-only text, or a trap)
_OFF_SCREEN = re.compile(r"(?:left|top|text-indent)\s*:\s*-\d{3,}", re.IGNORECASE)
_READER_ONLY = frozenset({"sr-only", "screen-reader-text", "visually-hidden", "visuallyhidden"})


def _style_hides(style: str) -> bool:
    if _OFF_SCREEN.search(style):
        return True
    for declaration in style.split(";"):
        prop, sep, value = declaration.partition(":")
        if not sep:
            continue
        prop = prop.strip().lower()
        value = value.lower().replace("!important", "").strip()
        if (prop == "display" and value == "none") or (prop == "visibility" and value in ("hidden", "collapse")):
            return True
    return False


def _invisible(element: Any) -> bool:
    """Comments, processing instructions, non-rendered tags and hidden elements."""
    tag = element.tag
    if not isinstance(tag, str):
        return True
    return tag.lower() in _SKIPPED_TAGS or _is_hidden(element)


def _text_pieces(root: lxml.html.HtmlElement) -> Iterator[str]:
    """Yield text and line-break markers in document order, iteratively (no recursion)."""
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        tag = node.tag.lower() if isinstance(node.tag, str) else ""
        if closing:
            if tag in _BLOCK_TAGS:
                yield "\n"
            elif tag in _CELL_TAGS:
                yield " "
            elif node is not root:
                yield _INLINE_END
            if node is not root and node.tail:
                yield node.tail.translate(_SOURCE_WHITESPACE)
            continue
        if _invisible(node):
            if node is not root and node.tail:
                yield node.tail.translate(_SOURCE_WHITESPACE)
            continue
        if tag in _BLOCK_TAGS or tag == "br":
            yield "\n"
        elif tag in _CELL_TAGS:
            yield " "
        if tag == "input" and (node.get("type") or "").strip().lower() in _BUTTON_INPUT_TYPES:
            yield f" {(node.get('value') or '').translate(_SOURCE_WHITESPACE)} "
        if node.text:
            yield node.text.translate(_SOURCE_WHITESPACE)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node))


# Where an inline element ends: two spans styled as separate lines ("<span>Cinderpath</span><span>Ship logs
# ...</span>") would otherwise run together as "CinderpathShip logs"; a small letter followed right away by a
# capital across that boundary is read as a space, anything else as nothing.
_INLINE_END = "\x1f"
_RUN_TOGETHER = re.compile(rf"(?<=[a-z\u00df-\u00ff]){_INLINE_END}+(?=[A-Z\u00c0-\u00de])")


def _visible_text_of(root: lxml.html.HtmlElement) -> str:
    joined = _RUN_TOGETHER.sub(" ", "".join(_text_pieces(root))).replace(_INLINE_END, "")
    lines = joined.split("\n")
    return "\n".join(line for line in (_normalise(raw) for raw in lines) if line)


def _base_url(root: lxml.html.HtmlElement, base_url: str) -> str:
    """Honour ``<base href>`` when it is an http(s) URL."""
    base = root.find(".//base[@href]")
    if base is not None:
        joined = _join(base_url, base.get("href") or "")
        if joined:
            return joined
    return base_url


def _join(base_url: str, href: str) -> str | None:
    """Absolute http(s) URL without fragment, or None for anything else. A protocol-relative address on another
    host ("//images.cdn.example/logo.png") is taken as https, as a browser on any real site today reads it."""
    href = href.strip()
    if not href or href.startswith("#") or len(href) > _MAX_URL_CHARS:
        return None
    try:
        base = httpx.URL(base_url)
        url = base.join(href).copy_with(fragment=None)
        if href.startswith("//") and url.host != base.host:
            url = url.copy_with(scheme="https")  # another host's "//cdn…/logo.png" is served over https
    except (httpx.InvalidURL, ValueError, TypeError, UnicodeError):
        return None
    if url.scheme not in _LINK_SCHEMES or not url.raw_host or not set(url.raw_host.lower()) <= _HOST_BYTES:
        return None
    text = str(url)
    return text if len(text) <= _MAX_URL_CHARS else None


def _hidden_by_ancestor(element: lxml.html.HtmlElement) -> bool:
    return _invisible(element) or any(_invisible(ancestor) for ancestor in element.iterancestors())


def _links(root: lxml.html.HtmlElement, base_url: str) -> Iterator[tuple[str, str]]:
    base = _base_url(root, base_url)
    seen: dict[str, str] = {}
    for anchor in root.iter("a", "area"):
        url = _join(base, anchor.get("href") or "")
        if url is None or _hidden_by_ancestor(anchor):
            continue
        text = _normalise(_visible_text_of(anchor)) or _normalise(anchor.get("aria-label") or anchor.get("title") or "")
        if url not in seen or (not seen[url] and text):
            seen[url] = text[:300]
    yield from seen.items()


def _empty_structured() -> dict[str, Any]:
    return {**{syntax: [] for syntax in STRUCTURED_SYNTAXES}, "meta": {}, "icons": [], "emails": [], "embeds": [],
            "logos": [], "boilerplate": [], "refresh": "", "lang": "", "tags": [], "headline": "", "site_tagline": "", "selling_points": [], "tables": [],
            "leads": [], "tabs": [], "named_images": [], "fediverse": []}


def _structured(html: str, root: lxml.html.HtmlElement, base_url: str) -> dict[str, Any]:
    result = _empty_structured()
    result.update(_extruct(html, base_url))
    base = _base_url(root, base_url)
    result["meta"] = _meta(root, base)
    result["icons"] = _icons(root, base)
    result["emails"] = _mailto_addresses(root)
    result["embeds"] = _embeds(root, base)
    result["logos"] = _logos(root, base)
    result["boilerplate"] = _boilerplate_lines(root)
    target = refresh_target(root)
    result["refresh"] = (_join(base, target) or "") if target else ""
    result["lang"] = (root.get("lang") or "").strip().lower()[:20]
    result["tags"] = _tag_links(root)
    result["headline"] = _headline(root)
    result["site_tagline"] = _site_tagline(root)
    result["selling_points"] = _selling_point_lines(root)
    result["tables"] = _tables(root)
    result["leads"] = _leads(root)
    result["tabs"] = _tab_labels(root)
    result["named_images"] = _named_images(root, base)
    result["fediverse"] = _fediverse_links(root, base)
    return result


MAX_TABLES, MAX_ROWS, MAX_CELLS, MAX_CELL_CHARS = 10, 50, 8, 300


def _tables(root: lxml.html.HtmlElement) -> list[list[list[str]]]:
    """Visible tables outside boilerplate as rows of cell texts (a row's cells are one line of the page's
    text, joined by spaces), so a reader can tell a "Feature | What it does" table's first column apart."""
    found: list[list[list[str]]] = []
    for table in root.iter("table"):
        if len(found) >= MAX_TABLES:
            break
        if _hidden_by_ancestor(table) or any(is_boilerplate(a) for a in table.iterancestors()):
            continue
        rows: list[list[str]] = []
        for row in table.iter("tr"):
            if len(rows) >= MAX_ROWS or _hidden_by_ancestor(row):
                continue
            cells = [_normalise(_visible_text_of(cell))[:MAX_CELL_CHARS] for cell in row
                     if isinstance(cell.tag, str) and cell.tag.lower() in ("td", "th")][:MAX_CELLS]
            if any(cells):
                rows.append(cells)
        if rows:
            found.append(rows)
    return found


# a block the site's own markup calls its selling points: class="usp_grid", "ventajas", "benefits-list", "why-us"
_SELLING_POINT_CLASS = re.compile(
    r"(?:^|[\s_-])(?:usps?|benefits?|advantages?|ventajas|vorteile|avantages|voordelen|vantaggi|vantagens"
    r"|why-?us|perks|differentiators)(?:$|[\s_-])",
    re.IGNORECASE,
)
MAX_SELLING_POINTS = 20


def _selling_point_lines(root: lxml.html.HtmlElement) -> list[str]:
    """Visible lines of the outermost blocks whose class or id names them selling points, outside boilerplate."""
    lines: list[str] = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        marked = f"{element.get('class') or ''} {element.get('id') or ''}"
        if not _SELLING_POINT_CLASS.search(marked) or _hidden_by_ancestor(element):
            continue
        if any(_SELLING_POINT_CLASS.search(f"{a.get('class') or ''} {a.get('id') or ''}") or is_boilerplate(a)
               for a in element.iterancestors()):
            continue  # inside an outer block already read, or in a footer or navigation
        for line in _visible_text_of(element).split("\n"):
            if line and line not in lines and len(lines) < MAX_SELLING_POINTS:
                lines.append(line)
    return lines


def _headline(root: lxml.html.HtmlElement) -> str:
    """The text of the page's first visible ``h1`` outside boilerplate: the line the page leads with."""
    for heading in root.iter("h1"):
        if _hidden_by_ancestor(heading) or any(is_boilerplate(a) for a in heading.iterancestors()):
            continue
        text = _normalise(_visible_text_of(heading))
        if text:
            return text[:300]
    return ""


_FEDIVERSE_PATH = re.compile(r"^/@[\w.-]+/?$")


def _fediverse_links(root: lxml.html.HtmlElement, base: str) -> list[str]:
    """Profile links on a Mastodon server of any name (``https://social.example/@acme``) that the site marks as its
    own: ``rel="me"`` (how Mastodon verifies a site) or labelled Mastodon."""
    found: list[str] = []
    for anchor in root.iter("a"):
        url = _join(base, (anchor.get("href") or "").strip())
        if url is None or _hidden_by_ancestor(anchor) or not _FEDIVERSE_PATH.match(urlsplit(url).path):
            continue
        label = f"{anchor.get('aria-label') or ''} {anchor.get('title') or ''} {_visible_text_of(anchor)}".lower()
        if "me" in (anchor.get("rel") or "").lower().split() or "mastodon" in label or "fediverse" in label:
            if url not in found:
                found.append(url)
    return found[:10]


MAX_NAMED_IMAGES = 20


def _named_images(root: lxml.html.HtmlElement, base: str) -> list[list[str]]:
    """[absolute URL, alt text] of the first visible images whose alt text is a short name ("Vandkant"): a logo set
    with nothing marking it a logo but the name it shows."""
    found: list[list[str]] = []
    for image in root.iter("img"):
        if len(found) >= MAX_NAMED_IMAGES:
            break
        alt = _normalise(image.get("alt") or "")
        src = (image.get("src") or "").strip()
        url = _join(base, src) if src and not src.startswith("data:") else None
        if url and alt and len(alt.split()) <= 4 and not _hidden_by_ancestor(image) and not _is_hidden(image):
            found.append([url, alt])
    return found


MAX_TAB_LISTS = 10


def _tab_labels(root: lxml.html.HtmlElement) -> list[list[str]]:
    """The labels of each tab list (``role="tablist"`` holding ``role="tab"`` elements): a product tour's tabs
    name what it does ("Voice-to-log daily reports", "Pour scheduler", ...)."""
    lists: list[list[str]] = []
    for tablist in root.iter():
        if len(lists) >= MAX_TAB_LISTS:
            break
        if not isinstance(tablist.tag, str) or (tablist.get("role") or "").strip().lower() != "tablist":
            continue
        if _hidden_by_ancestor(tablist) or _is_hidden(tablist):
            continue
        labels = [_normalise(_visible_text_of(tab)) for tab in tablist.iter()
                  if isinstance(tab.tag, str) and (tab.get("role") or "").strip().lower() == "tab" and not _is_hidden(tab)]
        labels = [label for label in labels if label]
        if labels:
            lists.append(labels[:20])
    return lists


MAX_LEADS = 60
_LEAD_TAGS = frozenset({"strong", "b"})


def _leads(root: lxml.html.HtmlElement) -> list[str]:
    """The bold phrases list items and paragraphs open with ("<li><strong>Headless crawler</strong>, which also
    checks ...", "<p>🔁 <b>Live reload.</b> Save the file …"): the item's name as the site sets it, which its text
    alone no longer shows."""
    leads: list[str] = []
    for item in root.iter("li", "dd", "p"):
        if len(leads) >= MAX_LEADS:
            break
        if _hidden_by_ancestor(item):
            continue
        node = item
        while node is not None and not (node.text or "").strip() and len(node) and node[0].tag in ("p", "span", "div"):
            node = node[0]  # "<li><p><strong>…": the paragraph the item wraps
        before = (node.text or "") if node is not None else ""
        # "<p>🔁 <b>Live reload.</b> Save the file …": an icon before the bold phrase is no text
        first = node[0] if node is not None and len(node) and not any(c.isalnum() for c in before) else None
        if first is None or not isinstance(first.tag, str) or first.tag.lower() not in _LEAD_TAGS or _is_hidden(first):
            continue
        lead = _normalise(_visible_text_of(first)).rstrip(":.\u2013\u2014- ").strip()
        if lead and len(lead.split()) <= 10 and (first.tail or "").strip():
            leads.append(lead)
    return leads


def _site_tagline(root: lxml.html.HtmlElement) -> str:
    """The site's own tagline where the markup names it: the ``site-description`` a blog theme prints under the
    site title (the tagline its owner set), visible."""
    for element in root.iter():
        if not isinstance(element.tag, str) or "site-description" not in (element.get("class") or "").split():
            continue
        if _is_hidden(element) or _hidden_by_ancestor(element):
            continue
        text = _normalise(_visible_text_of(element))
        if text:
            return text[:300]
    return ""


_TAG_ARCHIVE = re.compile(
    r"^(?:https?://[^/?#]+)?/(?:[\w-]+/)?(?:tag|tags|etiqueta|etiquetas|schlagwort|schlagworte|stichwort|mot-cle"
    r"|mots-cles|etiquette|trefwoord|tema)/[^/?#]+/?$",
    re.IGNORECASE,
)


# a container of tags by its class: "md-tags", "post-tags", "tags" (a class token ending in "tags")
_TAG_LIST_CLASS = re.compile(r"(?:^|\s|[-_])tags(?:\s|$)", re.IGNORECASE)


# a badge that marks a post, not a tag of it: "post-card-featured", "sticky", "pinned"
_MARKER_CLASS = re.compile(r"(?:^|\s|[-_])(?:featured|sticky|pinned)(?:\s|$)", re.IGNORECASE)
# a site's menu: <nav>, <header>, or an element whose class or id names a menu or a navigation bar
_MENU = re.compile(r"(?:^|\s|[-_])(?:menu|nav|navbar|navigation)(?:\s|$|[-_])", re.IGNORECASE)


def _in_menu(element: lxml.html.HtmlElement) -> bool:
    """The element sits in the site's menu (a tag list of a docs theme, ``<nav class="md-tags">``, is no menu)."""
    for ancestor in element.iterancestors():
        if not isinstance(ancestor.tag, str):
            continue
        if ancestor.tag in ("body", "html"):
            return False  # the body's classes describe the page ("navigation-with-keyboard"), not a menu
        marks = f"{ancestor.get('class') or ''} {ancestor.get('id') or ''}"
        if _TAG_LIST_CLASS.search(marks):
            return False
        if ancestor.tag in ("nav", "header") or _MENU.search(marks):
            return True
    return False


def _tag_links(root: lxml.html.HtmlElement) -> list[str]:
    """Texts of visible tag links: the tags a blog or shop puts on its own posts and products, marked
    ``rel="tag"`` or linking to a tag archive (``/tag/sync/``, ``/etiqueta/cfdi/``: themes that omit the rel);
    then the items of a tag list a docs theme shows without links (``<nav class="md-tags">``)."""
    found: list[str] = []
    for anchor in root.iter("a"):
        rel = (anchor.get("rel") or "").lower().split()
        # a post's category ("Posted in Guides", rel="category tag") and a menu's link to a tag archive are the
        # blog's sections, not tags of the product
        is_tag = ("tag" in rel or bool(_TAG_ARCHIVE.search(anchor.get("href") or ""))) and "category" not in rel
        if not is_tag or _hidden_by_ancestor(anchor) or _in_menu(anchor):
            continue
        text = _normalise(_visible_text_of(anchor))
        if text and len(text) <= 100 and text not in found:
            found.append(text)
        if len(found) >= MAX_EMBEDDED:
            break
    for tag_list in root.iter():  # a tag list without links: <nav class="md-tags"><span class="md-tag">Monitoring</span>
        if not isinstance(tag_list.tag, str) or not _TAG_LIST_CLASS.search(tag_list.get("class") or ""):
            continue
        items = [child for child in tag_list if isinstance(child.tag, str)]
        if not 1 <= len(items) <= MAX_EMBEDDED or _hidden_by_ancestor(tag_list):
            continue
        for item in items:
            if _MARKER_CLASS.search(item.get("class") or ""):
                continue  # a post card's "Featured" badge sits among its tags
            text = _normalise(_visible_text_of(item))
            if text and len(text) <= 40 and text not in found and len(found) < MAX_EMBEDDED:
                found.append(text)
    return found


def _boilerplate_lines(root: lxml.html.HtmlElement) -> list[str]:
    """Visible lines of navigation, header bars, footers and cookie banners (still part of the page's text)."""
    lines: list[str] = []
    for region in boilerplate_regions(root):
        if _hidden_by_ancestor(region):
            continue
        for line in _visible_text_of(region).split("\n"):
            if line and line not in lines:
                lines.append(line)
        if len(lines) >= MAX_BOILERPLATE_LINES:
            break
    return lines[:MAX_BOILERPLATE_LINES]


def _logos(root: lxml.html.HtmlElement, base: str) -> list[str]:
    """Absolute URLs of visible images that are the site's logo (see `regions.logo_sources`)."""
    home = _join(base, "/") or ""
    home_hrefs = frozenset({"/", "./", "#", "#top", home, home.rstrip("/"), base, "index.html", "./index.html",
                            "/index.html", home + "index.html"})
    found: list[str] = []
    for src in logo_sources(root, home_hrefs):
        url = _join(base, src)
        if url and url not in found:
            found.append(url)
    return found[:5]


def _mailto_addresses(root: lxml.html.HtmlElement) -> list[str]:
    """Addresses of visible `mailto:` links: an email shown only as a "Contact us" link is still on the site."""
    found: list[str] = []
    for anchor in root.iter("a", "area"):
        href = (anchor.get("href") or "").strip()
        if not href[:7].lower() == "mailto:" or _hidden_by_ancestor(anchor):
            continue
        for address in unquote(href[7:].split("?", 1)[0]).split(","):
            address = address.strip()
            if _EMAIL.fullmatch(address) and address not in found:
                found.append(address)
        if len(found) >= MAX_EMBEDDED:
            break
    return found[:MAX_EMBEDDED]


def _embeds(root: lxml.html.HtmlElement, base: str) -> list[str]:
    """Absolute http(s) `src` of visible iframes (video players, demos); never fetched."""
    found: list[str] = []
    for frame in root.iter("iframe"):
        url = _join(base, frame.get("src") or "")
        hidden = _is_hidden(frame) or any(_invisible(ancestor) for ancestor in frame.iterancestors())
        if url and url not in found and not hidden:  # (an iframe's own tag is a skipped tag for text)
            found.append(url)
        if len(found) >= MAX_EMBEDDED:
            break
    return found


def _extruct(html: str, base_url: str) -> dict[str, list[Any]]:
    """Run extruct one syntax at a time so one broken block cannot hide the others."""
    cleaned = html[:MAX_HTML_CHARS].translate(_CONTROL_CHARS).encode("utf-8", "replace")
    try:
        tree = parse_xmldom_html(cleaned, encoding="UTF-8")
    except Exception:  # extruct and lxml raise many types on hostile input
        return {}
    output: dict[str, list[Any]] = {"json-ld": _json_ld(tree)}
    for syntax in STRUCTURED_SYNTAXES[1:]:
        try:
            found = extruct.extract(tree, base_url=base_url, syntaxes=[syntax], uniform=True, errors="strict")
            output[syntax] = _jsonable(found.get(syntax) or [])
        except Exception:  # a broken block of one syntax must not fail the page
            output[syntax] = []
    return output


def _json_ld(tree: Any) -> list[Any]:
    """Each JSON-LD block on its own, so one malformed block does not drop the rest."""
    items: list[Any] = []
    extractor = JsonLdExtractor()
    for script in tree.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        try:
            items.extend(extractor.extract_items(script))
        except Exception:  # malformed JSON in one block
            continue
    return _jsonable(items)


def _jsonable(value: Any) -> list[Any]:
    """Force extruct output into plain JSON types (it is stored as JSON)."""
    try:
        data = json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError, RecursionError):
        return []
    return data if isinstance(data, list) else []


def _meta(root: lxml.html.HtmlElement, base: str) -> dict[str, str]:
    meta: dict[str, str] = {}
    for element in root.iter("meta"):
        key = (element.get("property") or element.get("name") or "").strip().lower()
        content = element.get("content")
        if content is None or key in meta:
            continue
        if key in _META_NAMES or key.startswith(("og:", "twitter:")):
            value = _normalise(content)[:MAX_META_VALUE_CHARS]
            if key.endswith(_META_URL_SUFFIXES):
                value = _join(base, value) or value
            meta[key] = value
    return meta


def _icons(root: lxml.html.HtmlElement, base: str) -> list[str]:
    icons: list[str] = []
    for element in root.iter("link"):
        rels = set((element.get("rel") or "").lower().split())
        if rels & _ICON_RELS:
            url = _join(base, element.get("href") or "")
            if url and url not in icons:
                icons.append(url)
    return icons
