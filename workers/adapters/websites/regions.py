"""What a page's markup says about its parts: hidden by its stylesheet, boilerplate, redirect notice, logo.

Site builders hide stale copy with a class (``.w-hidden{display:none}``) in
an inline ``<style>`` rather than a ``style`` attribute, so the simple rules
of a page's own ``<style>`` blocks that hide elements are applied (through
``cssselect``, the selector engine lxml uses) before the text is read.
Remote stylesheets are never fetched, and rules inside ``@media`` blocks are
ignored (they hide things on some screens only).

Boilerplate regions (navigation, header bars, footers, cookie and consent
banners) stay in the visible text, because an address or email in a footer
is still stated by the site, but their lines are reported separately so the
drafter never takes them for a tagline, feature or selling point.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import lxml.etree
import lxml.html
from cssselect import SelectorError

MAX_STYLE_RULES = 300
MAX_HIDDEN_ELEMENTS = 2_000
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_AT_BLOCK = re.compile(r"@[a-z-]+[^{;]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", re.IGNORECASE)
_RULE = re.compile(r"([^{}@;]+)\{([^{}]*)\}")
_HIDING = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!important\s*)?(?:;|$)", re.I)
_SIMPLE_SELECTOR = re.compile(r"^[A-Za-z0-9_\-\.#\s>\[\]=\"'*]+$")
_BOILER_TOKENS = re.compile(r"cookie|consent|gdpr|footer|navbar|topbar|top-bar|announcement|eyebrow|site-nav|skip-link", re.I)
_BOILER_ROLES = frozenset({"contentinfo", "navigation"})
_CONTENT_TAGS = frozenset({"html", "body", "main", "article", "h1", "h2", "h3", "h4", "h5", "h6"})
_REFRESH_URL = re.compile(r"^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?['\"]?([^'\"\s]+)['\"]?\s*$", re.IGNORECASE)
_SCRIPT_REDIRECT = re.compile(
    r"^\s*(?:(?:window|document|top|self)\.)?location(?:\.href)?\s*=\s*(['\"])([^'\"]+)\1\s*;?\s*$"
    r"|^\s*(?:(?:window|document|top|self)\.)?location\.(?:replace|assign)\(\s*(['\"])([^'\"]+)\3\s*\)\s*;?\s*$",
)
_LOGO_HINT = re.compile(r"logo|brand", re.IGNORECASE)


def hide_by_stylesheet(root: lxml.html.HtmlElement) -> None:
    """Mark elements that the page's own ``<style>`` rules hide with ``hidden`` (the tree is changed)."""
    css = " ".join(style.text or "" for style in root.iter("style"))
    if not css.strip():
        return
    css = _AT_BLOCK.sub(" ", _COMMENT.sub(" ", css))
    marked = 0
    for selectors, body in _RULE.findall(css)[:MAX_STYLE_RULES]:
        if not _HIDING.search(body.strip()):
            continue
        for selector in selectors.split(","):
            selector = selector.strip()
            if not selector or not _SIMPLE_SELECTOR.match(selector) or selector in ("*", "html", "body"):
                continue
            try:
                matched = root.cssselect(selector)
            except (SelectorError, lxml.etree.XPathError, ValueError):
                continue
            for element in matched:
                if marked >= MAX_HIDDEN_ELEMENTS:
                    return
                if isinstance(element.tag, str) and element.tag not in ("html", "body"):
                    element.set("hidden", "")
                    marked += 1


_PERMALINK_GLYPHS = frozenset({"\u00b6", "#", "\u00a7", "\U0001f517", "\u2693"})


_ELEMENTOR_HIDDEN = frozenset({"elementor-hidden-desktop", "elementor-hidden-tablet", "elementor-hidden-mobile"})
# a class that shows the element again from some screen size on: Bootstrap "d-md-block", Tailwind "md:flex"
_SHOWN_FROM = re.compile(r"^(?:d-(?:sm|md|lg|xl|xxl)-(?:block|flex|inline|inline-block|inline-flex|grid|table)"
                         r"|(?:sm|md|lg|xl|2xl):(?:block|flex|inline|inline-block|inline-flex|grid|table|contents))$")


def hide_by_utility_classes(root: lxml.html.HtmlElement) -> None:
    """Mark elements hidden at every screen size by a framework's utility classes, whose rules live in a
    stylesheet we do not fetch: Elementor's "hidden on desktop, tablet and mobile", Bootstrap's ``d-none``,
    Tailwind's ``hidden`` with no class showing them again from some size on, and Webflow's
    ``w-condition-invisible`` (a CMS item's block whose condition is not met)."""
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag in ("html", "body"):
            continue
        tokens = set((element.get("class") or "").split())
        if not tokens:
            continue
        hidden = _ELEMENTOR_HIDDEN <= tokens or "w-condition-invisible" in tokens or (
            bool(tokens & {"d-none", "hidden"}) and not any(_SHOWN_FROM.match(t) for t in tokens))
        if hidden:
            element.set("hidden", "")


def hide_permalinks(root: lxml.html.HtmlElement) -> None:
    """Heading permalinks of docs themes ("Install\u00b6"): a glyph linking to its own heading is not content."""
    for anchor in root.iter("a"):
        if (anchor.get("href") or "").startswith("#") and (anchor.text_content() or "").strip() in _PERMALINK_GLYPHS:
            anchor.set("hidden", "")


def reveal_disclosures(root: lxml.html.HtmlElement) -> None:
    """Accordion panels a visitor opens with a click (the ARIA disclosure pattern) are content, as ``<details>``
    is: a ``hidden`` or ``display:none`` panel named by an ``aria-controls`` of a toggle carrying
    ``aria-expanded`` is shown.  Hidden text nothing opens stays hidden, and so do tab panels not selected (a
    pricing toggle's yearly prices, for one): the tab labels themselves are read (`structured["tabs"]`)."""
    panels = {element.get("id"): element for element in root.iter() if isinstance(element.tag, str) and element.get("id")}
    for toggle in root.iter():
        if not isinstance(toggle.tag, str) or toggle.get("aria-expanded") is None:
            continue
        named = [panels.get(panel_id) for panel_id in (toggle.get("aria-controls") or "").split()]
        for panel in named if named else [_panel_after(toggle)]:
            if panel is None or panel is toggle:
                continue
            if panel.get("hidden") is not None:
                del panel.attrib["hidden"]
            style = panel.get("style") or ""
            if _HIDING.search(style):
                panel.set("style", _HIDING.sub(";", style))


_SLIDE_CLASS = re.compile(r"^(?:swiper-slide|slick-slide|carousel-item|splide__slide|glide__slide|slide|carousel-cell"
                          r"|keen-slider__slide|embla__slide|[\w-]*[-_]slide)$", re.IGNORECASE)


def reveal_slides(root: lxml.html.HtmlElement) -> None:
    """A carousel's slides off screen are content a visitor scrolls to: a slide marked ``aria-hidden`` beside a
    sibling slide of the same class that is shown, is shown too (carousels mark the slides out of view so)."""
    for parent in root.iter():
        if not isinstance(parent.tag, str):
            continue
        slides: dict[str, list[lxml.html.HtmlElement]] = {}
        for child in parent:
            if isinstance(child.tag, str):
                for token in (child.get("class") or "").split():
                    if _SLIDE_CLASS.match(token):
                        slides.setdefault(token, []).append(child)
        for group in slides.values():
            shown = [slide for slide in group if not _slide_hidden(slide)]
            if len(group) < 2 or not shown:
                continue
            for slide in group:
                slide.attrib.pop("aria-hidden", None)  # a hidden attribute (or a stylesheet's rule) still hides


def _slide_hidden(slide: lxml.html.HtmlElement) -> bool:
    return (slide.get("aria-hidden") or "").strip().lower() == "true" or slide.get("hidden") is not None \
        or bool(_HIDING.search(slide.get("style") or ""))


def reveal_collapsed_answers(root: lxml.html.HtmlElement) -> None:
    """An accordion item built without ARIA: a container of exactly two elements, a question (its text ends with
    "?") and the answer right after it, hidden inline until a click shows it. The answer is content."""
    for item in root.iter():
        children = [c for c in item if isinstance(c.tag, str)] if isinstance(item.tag, str) else []
        if len(children) != 2:
            continue
        question, answer = children
        text = " ".join(question.text_content().split())
        hidden = answer.get("hidden") is not None or bool(_HIDING.search(answer.get("style") or ""))
        if hidden and text.endswith("?") and len(text) <= 200 and question.get("hidden") is None \
                and not _HIDING.search(question.get("style") or ""):
            answer.attrib.pop("hidden", None)
            answer.set("style", _HIDING.sub(";", answer.get("style") or ""))


def _panel_after(toggle: lxml.html.HtmlElement) -> lxml.html.HtmlElement | None:
    """The panel a toggle without ``aria-controls`` opens: the element right after it, or right after the heading
    that holds it (``<h3><button aria-expanded="false">Question</button></h3><div hidden>Answer</div>``)."""
    after = toggle.getnext()
    parent = toggle.getparent()
    if after is None and parent is not None and isinstance(parent.tag, str) and parent.tag in _PANEL_HEADINGS:
        after = parent.getnext()
    if after is None or not isinstance(after.tag, str):
        return None
    return after if after.get("hidden") is not None or _HIDING.search(after.get("style") or "") else None


_PANEL_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6", "dt"})


def is_boilerplate(element: lxml.html.HtmlElement) -> bool:
    """Navigation, a header bar without the page's main heading, a footer, a cookie or consent banner."""
    tag = element.tag.lower() if isinstance(element.tag, str) else ""
    role = (element.get("role") or "").strip().lower()
    if tag == "nav" and role not in _BOILER_ROLES and next(element.iter("a"), None) is None:
        pass  # a <nav> holding no link navigates nowhere: site builders wrap accordion answers in one
    elif tag in ("nav", "footer") or role in _BOILER_ROLES:
        return True
    if tag == "header" or role == "banner":
        return next(element.iter("h1"), None) is None
    if tag in _CONTENT_TAGS:
        return False  # a heading's class names how it scrolls ("anchorWithStickyNavbar"), not a region
    tokens = f"{element.get('class') or ''} {element.get('id') or ''}"
    return bool(tokens.strip()) and bool(_BOILER_TOKENS.search(tokens))


def boilerplate_regions(root: lxml.html.HtmlElement) -> Iterator[lxml.html.HtmlElement]:
    """The outermost boilerplate elements, in document order."""
    for element in root.iter():
        if not isinstance(element.tag, str) or not is_boilerplate(element):
            continue
        if any(is_boilerplate(ancestor) for ancestor in element.iterancestors()):
            continue
        yield element


def refresh_target(root: lxml.html.HtmlElement) -> str | None:
    """The URL a ``<meta http-equiv=refresh>`` or a one-line script redirect sends the visitor to, as written."""
    for meta in root.iter("meta"):
        if (meta.get("http-equiv") or "").strip().lower() == "refresh":
            match = _REFRESH_URL.match(meta.get("content") or "")
            if match and match.group(1):
                return match.group(1)
    for script in root.iter("script"):
        if (script.get("type") or "text/javascript").strip().lower() not in ("text/javascript", "module", "application/javascript"):
            continue
        match = _SCRIPT_REDIRECT.match(script.text or "")
        if match:
            return match.group(2) or match.group(4)
    return None


def logo_sources(root: lxml.html.HtmlElement, home_hrefs: frozenset[str]) -> Iterator[str]:
    """``src`` of images that are the site's own logo: in a link to the homepage, or marked logo/brand in a header
    bar or in a link marked logo/brand."""
    for image in root.iter("img"):
        src = (image.get("src") or "").strip()
        if not src:
            continue
        ancestors = list(image.iterancestors())
        home_link = any(a.tag == "a" and (a.get("href") or "").strip() in home_hrefs for a in ancestors)
        in_bar = any(is_boilerplate(a) and a.tag != "footer" and "footer" not in (a.get("class") or "").lower()
                     and (a.get("role") or "") != "contentinfo" for a in ancestors)
        hinted = bool(_LOGO_HINT.search(" ".join((src, image.get("class") or "", image.get("id") or "", image.get("alt") or ""))))
        # a link the site itself marks as its logo ('<a href="/home" class="logo">'), wherever it points
        marked_link = any(a.tag == "a" and _LOGO_HINT.search(f"{a.get('class') or ''} {a.get('id') or ''}") for a in ancestors)
        if home_link and (in_bar or hinted) or (in_bar and hinted) or (marked_link and hinted):
            yield src
