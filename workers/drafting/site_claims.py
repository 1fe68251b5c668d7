"""Selling points a site states without a section naming them, for the extractive drafter.

Sites often state what sets them apart as figures rather than under a "Why us"
heading: stat or badge blocks ("Über 300 Onlineshops" / "vertrauen bereits auf
Nordlicht") and outcomes in a sentence ("Bootcamps on Tutorly report a 92%
course completion rate").  Each item is the site's own words, quoted with its
line; testimonials, questions and prices are never claims of the site.
"""

from __future__ import annotations

import re

from .reading import Candidate, SitePage, candidate, is_heading, is_nav, of_kind
from .site_lists import QUOTED, USP_HEADING
from .text import normalise, words
from .vocab import has_price, pricing_cues

_PRICE_TALK = frozenset({"subscription", "one-time", "usage-based", "free trial"})  # billing terms, not "paid"
_DISCOUNT = re.compile(r"\b(?:save|off|discount|rabatt|sparen|descuento|ahorra|remise|\u00e9conomisez|korting|sconto)\b", re.I)


def stat_blocks(pages: list[SitePage]) -> Candidate | None:
    """Selling points set as stat or badge blocks: two or more short label lines, each with a lower-case
    line under it that completes it ("Über 300 Onlineshops" / "vertrauen bereits auf Nordlicht"), one of
    them with a figure (a sidebar's "Recent posts" / "no posts yet" widgets are not selling points)."""
    for page in of_kind(pages, "home"):
        best: list[str] = []
        run: list[str] = []
        lines = page.lines
        index = 0
        while index < len(lines) - 1:
            label, rest = lines[index], lines[index + 1]
            if _is_stat_pair(label, rest):
                run.append(label)
                index += 2
                continue
            best, run = (run if len(run) > len(best) else best), []
            index += 1
        best = run if len(run) > len(best) else best
        if len(best) >= 2 and any(c.isdigit() for label in best for c in label):  # a figure: not a widget list
            return candidate(best[:20], [page.text_evidence(label) for label in best[:20]])
    return None


_FIGURE_CLAIM = re.compile(
    r"(?:(?:up to|over|more than|bis zu|\u00fcber|mehr als|hasta|m\u00e1s de|jusqu'\u00e0|plus de)\s+)?"
    r"\d+(?:[.,]\d+)?\s?(?:%|x\b|\u00d7)[^,;.!?]*",
    re.IGNORECASE,
)


def marked_selling_points(pages: list[SitePage]) -> Candidate | None:
    """Selling points in a block the site's markup names so (``class="usp_grid"``, ``<ul class="ventajas">``):
    its short lines on the home, features or about page, each quoted as it stands; a heading naming the
    block, questions, quotes, prices and the lower-case lines completing a stat are left out, and a block of
    labels with sentences under them is feature cards, not selling points."""
    for page in of_kind(pages, "home") + of_kind(pages, "features", "about"):
        marked = page.page.structured.get("selling_points")
        if not isinstance(marked, list):
            continue
        lines = [line for line in marked if isinstance(line, str) and line in page.all_lines]
        if any(line.endswith((".", "!")) and len(words(line)) >= 5 for line in lines):
            continue  # labels with sentences under them: feature cards, whatever the class says
        items = [line for line in lines if 2 <= len(words(line)) <= 12 and len(line) <= 120 and line[:1].isupper()
                 and not line.endswith(("?", ":")) and not line.startswith(QUOTED) and not has_price(line)
                 and not USP_HEADING.search(normalise(line))]  # a lower-case line completes the one above it
        if len(items) >= 2:
            return candidate(items[:10], [page.text_evidence(line) for line in items[:10]])
    return None


def figure_claims(pages: list[SitePage]) -> Candidate | None:
    """Selling points stated as an outcome with a figure in the homepage's own sentences: "Bootcamps on
    Tutorly report a 92% course completion rate, and ..." -> "92% course completion rate" (from the figure
    to the end of its clause). Testimonials, questions and prices are not claims of the site."""
    for page in of_kind(pages, "home"):
        items: list[str] = []
        evidence: list[dict[str, str]] = []
        for line in page.lines:
            if line.startswith(QUOTED) or line.endswith("?") or len(line) > 400 or has_price(line) \
                    or pricing_cues(line) & _PRICE_TALK or _DISCOUNT.search(line):
                continue  # "Save 20% with yearly billing" is an offer, not a claim
            for match in _FIGURE_CLAIM.finditer(line):
                claim = match.group(0).strip()
                if 3 <= len(words(claim)) <= 10 and claim not in items:
                    items.append(claim)
                    evidence.append(page.text_evidence(line))
        if items:
            return candidate(items[:5], evidence[:5])
    return None


def _is_stat_pair(label: str, rest: str) -> bool:
    """A stat block's label and its completing line; a plan card ("Pro 12 \u20ac" / "pro Monat") is no claim."""
    return (
        is_heading(label) and 2 <= len(words(label)) <= 6 and not label.endswith(("?", ":"))
        and rest[:1].islower() and not rest.endswith((".", "!", "?", ":")) and 1 <= len(words(rest)) <= 8
        and not is_nav(rest) and not has_price(label) and not pricing_cues(f"{label} {rest}") & _PRICE_TALK
    )
