"""Badge styles: which badges exist, their labels, shapes, modes and sizes, alt text and embed code.

What get_badges answers with. The SVG artwork itself is drawn by the website
(`api/badge_art.py`), which serves the images at `/badges/{slug}/{kind}.svg`.
Nothing here touches storage or the network.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------

BADGE_KINDS: Final[tuple[str, ...]] = (
    "listed",
    "launched",
    "featured",
    "verified",
    "award-1",
    "award-2",
    "award-3",
    "top-rated",
    "upcoming",
)
"""Every badge kind, in the order the badge picker shows them."""

BADGE_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "listed": "Listed on",
        "launched": "Launched on",
        "featured": "Featured on",
        "verified": "Verified on",
        "award-1": "Launch of the Week #1",
        "award-2": "Launch of the Week #2",
        "award-3": "Launch of the Week #3",
        "top-rated": "Top rated on",
        "upcoming": "Launching soon on",
    }
)
"""Human label for each kind; the site name is shown after (or under) it."""

SHAPES: Final[tuple[str, ...]] = ("standard", "outline", "pill", "banner", "square")
"""Badge outlines: filled rounded rectangle, stroked only, capsule, ribbon, tile."""

MODES: Final[tuple[str, ...]] = ("light", "dark", "auto")
"""Colour modes; ``auto`` follows the viewer's ``prefers-color-scheme``."""

SIZES: Final[tuple[str, ...]] = ("s", "m", "l")
"""Size steps; each scales width/height while the viewBox stays the same."""

SIZE_SCALES: Final[Mapping[str, float]] = MappingProxyType({"s": 0.75, "m": 1.0, "l": 1.5})
"""Scale factor applied to the base dimensions for each size."""

# --------------------------------------------------------------------------
# Geometry (viewBox units; sizes only change width/height)
# --------------------------------------------------------------------------

BASE_DIMENSIONS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "standard": (240, 56),
        "outline": (240, 56),
        "pill": (240, 56),
        "banner": (360, 40),
        "square": (140, 140),
    }
)

# XML 1.0 forbids most C0 controls, surrogates and U+FFFE/U+FFFF; data from
# settings must never be able to make the document unparseable.
_XML_INVALID: Final[re.Pattern[str]] = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]"
)
_WHITESPACE: Final[re.Pattern[str]] = re.compile(r"\s+")


# --------------------------------------------------------------------------
# Validation and text helpers
# --------------------------------------------------------------------------


# Validation and text helpers
# --------------------------------------------------------------------------


def require_choice(value: object, allowed: tuple[str, ...], what: str) -> str:
    """Return ``value`` if it is one of ``allowed``; raise ValueError otherwise."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"unknown badge {what} {value!r}; expected one of {', '.join(allowed)}")
    return value


def clean_text(value: str | None) -> str:
    """Drop characters XML cannot carry and collapse runs of whitespace."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"badge text must be a string, not {type(value).__name__}")
    return _WHITESPACE.sub(" ", _XML_INVALID.sub("", value)).strip()


def site_text(site_name: str) -> str:
    """Clean the site name and refuse an empty one (the badge would say nothing)."""
    cleaned = clean_text(site_name)
    if not cleaned:
        raise ValueError("site_name must not be blank")
    return cleaned


def lead_in(kind: str) -> str:
    """The label as a phrase that reads straight into the site name."""
    label = BADGE_LABELS[kind]
    return label if label.endswith(" on") else f"{label} on"


# Public helpers
# --------------------------------------------------------------------------


def badge_alt_text(kind: str, site_name: str, detail: str | None = None) -> str:
    """Accessible sentence for a badge, e.g. ``"Launched on Acme"``.

    Used both as the SVG ``<title>`` and as the ``alt`` of the embed snippet,
    so screen readers announce the same thing the badge shows.
    """
    sentence = f"{lead_in(require_choice(kind, BADGE_KINDS, 'kind'))} {site_text(site_name)}"
    extra = clean_text(detail)
    return f"{sentence} ({extra})" if extra else sentence


def badge_dimensions(shape: str, size: str) -> tuple[int, int]:
    """Pixel ``(width, height)`` of a badge, as written in the SVG and embed HTML."""
    base_w, base_h = BASE_DIMENSIONS[require_choice(shape, SHAPES, "shape")]
    scale = SIZE_SCALES[require_choice(size, SIZES, "size")]
    return int(base_w * scale + 0.5), int(base_h * scale + 0.5)


def embed_html(*, svg_url: str, link_url: str, alt: str, width: int, height: int) -> str:
    """Ready-to-paste snippet linking the badge image back to the listing.

    Every attribute value is HTML-escaped (quotes included) so a URL or alt
    text can never break out of its attribute.
    """
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{name} must be a positive integer, not {value!r}")
    href, src, alt_text = (html.escape(v, quote=True) for v in (link_url, svg_url, alt))
    return (
        f'<a href="{href}" target="_blank" rel="noopener">'
        f'<img src="{src}" alt="{alt_text}" width="{width}" height="{height}">'
        "</a>"
    )


# --------------------------------------------------------------------------
# Painting: fixed colours, plus classes when the badge follows the scheme
# --------------------------------------------------------------------------
