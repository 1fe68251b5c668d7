"""The SVG artwork of embeddable badges (the website serves it at `/badges/{slug}/{kind}.svg`).

Founders paste a badge on their homepage; a free listing goes live once the
badge is found there.  This module is a pure renderer: given a badge kind,
shape, colour mode and size it returns a complete standalone SVG document, and
it builds the ready-to-paste HTML snippet that links the badge back to the
listing.  Nothing here touches storage or the network, so the same inputs
always give the same bytes (which keeps badges cacheable).

``render_badge`` gives the SVG document text; the vocabulary, alt text,
dimensions and embed snippet are `queries/badge_styles.py`. This module lays a
badge out (frames, text fitted to the frame, the layout of each shape); the
symbols are `api/badge_icons.py`, and escaping, palettes and paint are
`api/badge_svg.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from api.badge_icons import place_icon
from api.badge_svg import CLASS_PREFIX, PAGE_BACKGROUNDS, PALETTES, Paint, num, style_block, xml_attr, xml_text
from queries.badge_styles import (
    BADGE_KINDS,
    BADGE_LABELS,
    BASE_DIMENSIONS,
    MODES,
    badge_alt_text,
    badge_dimensions,
    clean_text,
    lead_in,
    require_choice,
    site_text,
)

__all__ = ["FONT_STACK", "PAGE_BACKGROUNDS", "PALETTES", "render_badge"]

FONT_STACK: Final[str] = (
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, "
    "'Helvetica Neue', Helvetica, Arial, sans-serif"
)
"""System fonts only, so a badge never downloads a web font."""

# --------------------------------------------------------------------------
# Geometry (viewBox units; sizes only change width/height)
# --------------------------------------------------------------------------

_ROW_SHAPES: Final[frozenset[str]] = frozenset({"standard", "outline", "pill"})
_OUTLINE_STROKE: Final[float] = 1.5
_BORDER_STROKE: Final[float] = 1.0
_BANNER_NOTCH: Final[int] = 10
_MIN_FONT_SCALE: Final[float] = 0.75


def _char_width(char: str) -> float:
    """Rough advance width of one character, in ems, erring on the wide side.

    The estimate is tuned to the widest common fallback fonts, so narrower
    system fonts simply end up with a little spare room.
    """
    if char in "iljtfr.,:;'|!()[] ":
        return 0.34
    if char in "mwMW@%":
        return 0.92
    if char.isupper() or char.isdigit() or char == "#":
        return 0.72
    return 0.62


def _text_width(text: str, font_size: float, bold: bool = False) -> float:
    """Estimate rendered width so long names can be fitted into the badge."""
    factor = 1.15 if bold else 1.0
    return sum(_char_width(c) for c in text) * font_size * factor


@dataclass(frozen=True)
class _Fit:
    """Font size and optional squeeze attributes that keep a line in bounds."""

    size: float
    squeeze: str


def _fit(estimated: float, size: float, available: float) -> _Fit:
    """Shrink the font (down to ``_MIN_FONT_SCALE``) so the line fits.

    If even the smallest size would overflow, ``textLength`` with
    ``spacingAndGlyphs`` squeezes the line to the available width, so long
    site names stay inside the frame without the badge measuring real fonts.
    """
    if estimated <= available:
        return _Fit(size, "")
    scale = available / estimated
    if scale >= _MIN_FONT_SCALE:
        return _Fit(size * scale, "")
    squeeze = f' textLength="{num(available)}" lengthAdjust="spacingAndGlyphs"'
    return _Fit(size * _MIN_FONT_SCALE, squeeze)


# --------------------------------------------------------------------------
# Frames
# --------------------------------------------------------------------------


def _frame(shape: str, paint: Paint, width: int, height: int) -> str:
    """The badge outline: first drawn element, so text sits on top of it."""
    if shape == "banner":
        return _banner_frame(paint, width, height)
    stroke = _OUTLINE_STROKE if shape == "outline" else _BORDER_STROKE
    inset = stroke / 2
    inner_h = height - stroke
    radius = {"pill": inner_h / 2, "square": 12.0}.get(shape, 8.0)
    colours = paint(None, "accent") if shape == "outline" else paint("background", "border")
    return (
        f'<rect x="{num(inset)}" y="{num(inset)}" width="{num(width - stroke)}" '
        f'height="{num(inner_h)}" rx="{num(radius)}" stroke-width="{num(stroke)}" {colours}/>'
    )


def _banner_frame(paint: Paint, width: int, height: int) -> str:
    """A ribbon: a wide strip with swallow-tail notches at both ends."""
    s = _BORDER_STROKE / 2
    n = _BANNER_NOTCH
    d = (
        f"M{num(s)} {num(s)}H{num(width - s)}L{num(width - n)} {num(height / 2)}"
        f"L{num(width - s)} {num(height - s)}H{num(s)}L{num(n)} {num(height / 2)}Z"
    )
    return (
        f'<path d="{d}" stroke-width="{num(_BORDER_STROKE)}" stroke-linejoin="round" '
        f'{paint("background", "accent")}/>'
    )


# --------------------------------------------------------------------------
# Content layouts
# --------------------------------------------------------------------------


def _label_line(kind: str, detail: str) -> str:
    """The small first line: the kind's label plus any detail (e.g. the week)."""
    label = BADGE_LABELS[kind]
    return f"{label} \u00b7 {detail}" if detail else label


def _text(x: float, y: float, content: str, size: float, role: str, paint: Paint,
          available: float, *, bold: bool = False, anchor: str = "start") -> str:
    """One line of escaped text, shrunk or squeezed if it would overflow."""
    weight = "700" if bold else "500"
    fit = _fit(_text_width(content, size, bold), size, available)
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(fit.size)}" font-weight="{weight}"'
        f'{anchor_attr}{fit.squeeze} {paint(role)}>{xml_text(content)}</text>'
    )


def _row_content(kind: str, shape: str, paint: Paint, site: str, detail: str,
                 width: int, height: int) -> str:
    """Icon on the left, label above the site name (standard/outline/pill)."""
    pad = 20.0 if shape == "pill" else 14.0
    icon = 28.0
    text_x = pad + icon + 10
    available = width - text_x - pad
    return (
        place_icon(kind, paint, pad, (height - icon) / 2, icon)
        + _text(text_x, 24, _label_line(kind, detail), 10.5, "muted", paint, available)
        + _text(text_x, 42, site, 17, "text", paint, available, bold=True)
    )


def _banner_content(kind: str, paint: Paint, site: str, detail: str,
                    width: int, height: int) -> str:
    """Icon then one line: ``label`` ``site name`` ``· detail``."""
    icon = 20.0
    start = _BANNER_NOTCH + 10.0
    text_x = start + icon + 8
    available = width - text_x - start
    lead = lead_in(kind) + " "
    # The gap before the tail is a dx offset, not a space: some renderers drop
    # whitespace at a tspan boundary.
    tail = f"\u00b7 {detail}" if detail else ""
    base_size = 13.0
    estimate = _text_width(f"{lead} {tail}", base_size) + _text_width(site, base_size, bold=True)
    fit = _fit(estimate, base_size, available)
    gap = num(fit.size * 0.32)
    tail_span = f'<tspan dx="{gap}" {paint("muted")}>{xml_text(tail)}</tspan>' if tail else ""
    return (
        place_icon(kind, paint, start, (height - icon) / 2, icon)
        + f'<text x="{num(text_x)}" y="{num(height / 2 + fit.size * 0.36)}" '
        f'font-size="{num(fit.size)}" font-weight="500"{fit.squeeze} {paint("muted")}>'
        f"{xml_text(lead)}"
        f'<tspan font-weight="700" {paint("text")}>{xml_text(site)}</tspan>'
        f"{tail_span}</text>"
    )


def _square_content(kind: str, paint: Paint, site: str, detail: str,
                    width: int, height: int) -> str:
    """Icon on top, then label, site name and optional detail, centred."""
    icon = 36.0
    centre = width / 2
    available = width - 20.0
    parts = [
        place_icon(kind, paint, centre - icon / 2, 18, icon),
        _text(centre, 76, BADGE_LABELS[kind], 11, "muted", paint, available, anchor="middle"),
        _text(centre, 98, site, 16, "text", paint, available, bold=True, anchor="middle"),
    ]
    if detail:
        parts.append(_text(centre, 118, detail, 10.5, "muted", paint, available, anchor="middle"))
    return "".join(parts)


def _content(kind: str, shape: str, paint: Paint, site: str, detail: str,
             width: int, height: int) -> str:
    """Dispatch to the layout that matches the shape."""
    if shape in _ROW_SHAPES:
        return _row_content(kind, shape, paint, site, detail, width, height)
    if shape == "banner":
        return _banner_content(kind, paint, site, detail, width, height)
    return _square_content(kind, paint, site, detail, width, height)


# --------------------------------------------------------------------------
# Document
# --------------------------------------------------------------------------


def render_badge(kind: str, *, shape: str, mode: str, size: str, site_name: str,
                 detail: str | None = None) -> str:
    """Render a complete standalone SVG badge document.

    ``site_name`` and ``detail`` come from settings and data, so they are
    cleaned of characters XML cannot hold and escaped.  Unknown ``kind``,
    ``shape``, ``mode`` or ``size`` (or a blank ``site_name``) raise ValueError.
    """
    require_choice(kind, BADGE_KINDS, "kind")
    require_choice(mode, MODES, "mode")
    pixel_w, pixel_h = badge_dimensions(shape, size)
    site = site_text(site_name)
    extra = clean_text(detail)
    alt = badge_alt_text(kind, site, extra)
    view_w, view_h = BASE_DIMENSIONS[shape]
    paint = Paint(PALETTES["light" if mode == "auto" else mode], themed=mode == "auto")
    root_class = f' class="{CLASS_PREFIX}"' if mode == "auto" else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{pixel_w}" height="{pixel_h}" '
        f'viewBox="0 0 {view_w} {view_h}" role="img" aria-label="{xml_attr(alt)}"{root_class} '
        f'font-family="{xml_attr(FONT_STACK)}">'
        f"<title>{xml_text(alt)}</title>"
        + (style_block() if mode == "auto" else "")
        + _frame(shape, paint, view_w, view_h)
        + _content(kind, shape, paint, site, extra, view_w, view_h)
        + "</svg>\n"
    )
