"""The SVG artwork of embeddable badges (the website serves it at `/badges/{slug}/{kind}.svg`).

Founders paste a badge on their homepage; a free listing goes live once the
badge is found there.  This module is a pure renderer: given a badge kind,
shape, colour mode and size it returns a complete standalone SVG document, and
it builds the ready-to-paste HTML snippet that links the badge back to the
listing.  Nothing here touches storage or the network, so the same inputs
always give the same bytes (which keeps badges cacheable).

``render_badge`` gives the SVG document text; the vocabulary, alt text,
dimensions and embed snippet are `queries/badge_styles.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final
from xml.sax.saxutils import escape as _xml_escape

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
# Colours
# --------------------------------------------------------------------------

PALETTES: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {
        "light": MappingProxyType(
            {
                "background": "#FFFFFF",
                "text": "#1F2328",
                "muted": "#57606A",
                "accent": "#C2410C",
                "border": "#D0D7DE",
                "on_accent": "#FFFFFF",
            }
        ),
        "dark": MappingProxyType(
            {
                "background": "#161B22",
                "text": "#F0F6FC",
                "muted": "#9EA7B3",
                "accent": "#FB923C",
                "border": "#3D444D",
                "on_accent": "#161B22",
            }
        ),
    }
)
"""Fixed palettes.  ``text``/``muted`` are the two text colours, ``accent`` the
icon and outline colour, ``on_accent`` the marks drawn on top of the icon."""

PAGE_BACKGROUNDS: Final[Mapping[str, str]] = MappingProxyType(
    {"light": "#FFFFFF", "dark": "#111111"}
)
"""Page colour assumed behind the transparent ``outline`` shape per palette."""

_PAINT_KEYS: Final[tuple[str, ...]] = tuple(PALETTES["light"])
_CLASS_PREFIX: Final[str] = "ldb"

# --------------------------------------------------------------------------
# Geometry (viewBox units; sizes only change width/height)
# --------------------------------------------------------------------------

_ROW_SHAPES: Final[frozenset[str]] = frozenset({"standard", "outline", "pill"})
_OUTLINE_STROKE: Final[float] = 1.5
_BORDER_STROKE: Final[float] = 1.0
_BANNER_NOTCH: Final[int] = 10
_MIN_FONT_SCALE: Final[float] = 0.75


def _xml_text(value: str) -> str:
    """Escape text content for XML (``&``, ``<``, ``>``)."""
    return _xml_escape(value)


def _xml_attr(value: str) -> str:
    """Escape a value for a double-quoted XML attribute."""
    return _xml_escape(value, {'"': "&quot;", "'": "&apos;"})


def _num(value: float) -> str:
    """Format a coordinate compactly (``12``, ``12.5``) for the SVG source."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


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
    squeeze = f' textLength="{_num(available)}" lengthAdjust="spacingAndGlyphs"'
    return _Fit(size * _MIN_FONT_SCALE, squeeze)


# --------------------------------------------------------------------------



@dataclass(frozen=True)
class _Paint:
    """Writes fill/stroke attributes for palette roles.

    Colours are always written as presentation attributes (the light palette
    in ``auto`` mode), so renderers without CSS still draw a readable badge.
    In ``auto`` mode each painted element also gets classes that the embedded
    stylesheet maps to CSS custom properties, which override the attributes.
    """

    palette: Mapping[str, str]
    themed: bool

    def __call__(self, fill: str | None = None, stroke: str | None = None) -> str:
        """Attributes painting with palette ``fill``/``stroke`` roles (None = no paint)."""
        attrs = [f'fill="{self.palette[fill]}"' if fill else 'fill="none"']
        classes = [f"{_CLASS_PREFIX}-fill-{fill}"] if fill else []
        if stroke:
            attrs.append(f'stroke="{self.palette[stroke]}"')
            classes.append(f"{_CLASS_PREFIX}-stroke-{stroke}")
        if self.themed and classes:
            attrs.append(f'class="{" ".join(classes)}"')
        return " ".join(attrs)


def _palette_vars(palette: Mapping[str, str]) -> str:
    """CSS custom-property declarations for one palette."""
    return ";".join(f"--{_CLASS_PREFIX}-{key}:{palette[key]}" for key in _PAINT_KEYS)


def _style_block() -> str:
    """Stylesheet for ``auto``: light by default, dark under the media query."""
    rules = [
        f".{_CLASS_PREFIX}{{{_palette_vars(PALETTES['light'])}}}",
        "@media (prefers-color-scheme: dark){"
        f".{_CLASS_PREFIX}{{{_palette_vars(PALETTES['dark'])}}}}}",
    ]
    for key in _PAINT_KEYS:
        for prop in ("fill", "stroke"):
            rules.append(f".{_CLASS_PREFIX}-{prop}-{key}{{{prop}:var(--{_CLASS_PREFIX}-{key})}}")
    return "<style>" + "".join(rules) + "</style>"


# --------------------------------------------------------------------------
# Icons, drawn in a 24x24 box with basic shapes only
# --------------------------------------------------------------------------

_ROUND: Final[str] = 'stroke-linecap="round" stroke-linejoin="round"'


def _icon_listed(paint: _Paint) -> str:
    """Bulleted list: the product is in the directory."""
    parts = []
    for y in (6, 12, 18):
        parts.append(f'<circle cx="5" cy="{y}" r="1.9" {paint("accent")}/>')
        parts.append(
            f'<rect x="9" y="{_num(y - 1.2)}" width="12" height="2.4" rx="1.2" {paint("accent")}/>'
        )
    return "".join(parts)


def _icon_launched(paint: _Paint) -> str:
    """Rocket: the product launched on the site."""
    return (
        f'<path d="M12 2c3.5 2.2 5.5 5.9 5.5 10.2V16h-11v-3.8C6.5 7.9 8.5 4.2 12 2z" {paint("accent")}/>'
        f'<circle cx="12" cy="9.5" r="2" {paint("on_accent")}/>'
        f'<path d="M6.5 12.5 3.5 16.5V19l3-1.5zM17.5 12.5l3 4V19l-3-1.5z" {paint("accent")}/>'
        f'<path d="M10 17.5h4L12 22z" {paint("accent")}/>'
    )


def _icon_featured(paint: _Paint) -> str:
    """Five-point star: an editor featured the product."""
    points = "12,2.5 14.9,8.6 21.5,9.3 16.5,13.8 17.9,20.4 12,17 6.1,20.4 7.5,13.8 2.5,9.3 9.1,8.6"
    return f'<polygon points="{points}" {paint("accent")}/>'


def _icon_verified(paint: _Paint) -> str:
    """Shield with a tick: ownership of the product was verified."""
    return (
        f'<path d="M12 2 20 5v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5z" {paint("accent")}/>'
        f'<path d="M8 12.2l2.8 2.8 5.4-5.4" stroke-width="2.2" {_ROUND} {paint(None, "on_accent")}/>'
    )


_MEDAL_DIGITS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "award-1": "M10.9 12.6l1.6-1.1v7",
        "award-2": "M9.8 12.8a2.2 2.2 0 1 1 3.9 1.4L9.8 18.5h4.6",
        "award-3": "M9.9 11.6h4.2l-2.3 2.7a2.3 2.3 0 1 1-2 3.7",
    }
)


def _medal(digit_path: str) -> Callable[[_Paint], str]:
    """Build a medal icon carrying a rank digit drawn as a stroked path."""

    def draw(paint: _Paint) -> str:
        """Ribbon, disc, and the rank digit: a weekly award."""
        return (
            '<path d="M6.5 2h4l2.3 6.5-3.9 1.3zM17.5 2h-4l-2.3 6.5 3.9 1.3z" opacity="0.7" '
            f'{paint("accent")}/>'
            f'<circle cx="12" cy="15" r="7" {paint("accent")}/>'
            f'<path d="{digit_path}" stroke-width="1.7" {_ROUND} {paint(None, "on_accent")}/>'
        )

    return draw


def _icon_top_rated(paint: _Paint) -> str:
    """Trophy: the product is among the best rated."""
    return (
        f'<path d="M7 3h10v5a5 5 0 0 1-10 0z" {paint("accent")}/>'
        f'<path d="M7 5H4v1.5A3.5 3.5 0 0 0 7.3 10M17 5h3v1.5a3.5 3.5 0 0 1-3.3 3.5" '
        f'stroke-width="1.6" {_ROUND} {paint(None, "accent")}/>'
        f'<rect x="11" y="12.5" width="2" height="4.5" {paint("accent")}/>'
        f'<rect x="7.5" y="17" width="9" height="3.5" rx="1" {paint("accent")}/>'
    )


def _icon_upcoming(paint: _Paint) -> str:
    """Clock: the launch is scheduled."""
    return (
        f'<circle cx="12" cy="12" r="9" stroke-width="2" {paint(None, "accent")}/>'
        f'<path d="M12 7v5l3.5 2" stroke-width="2" {_ROUND} {paint(None, "accent")}/>'
    )


_ICONS: Final[Mapping[str, Callable[[_Paint], str]]] = MappingProxyType(
    {
        "listed": _icon_listed,
        "launched": _icon_launched,
        "featured": _icon_featured,
        "verified": _icon_verified,
        **{kind: _medal(path) for kind, path in _MEDAL_DIGITS.items()},
        "top-rated": _icon_top_rated,
        "upcoming": _icon_upcoming,
    }
)


def _place_icon(kind: str, paint: _Paint, x: float, y: float, size: float) -> str:
    """Position the kind's 24x24 icon at ``(x, y)`` scaled to ``size`` units."""
    transform = f"translate({_num(x)} {_num(y)}) scale({size / 24:.4g})"
    return f'<g transform="{transform}" aria-hidden="true">{_ICONS[kind](paint)}</g>'


# --------------------------------------------------------------------------
# Frames
# --------------------------------------------------------------------------


def _frame(shape: str, paint: _Paint, width: int, height: int) -> str:
    """The badge outline: first drawn element, so text sits on top of it."""
    if shape == "banner":
        return _banner_frame(paint, width, height)
    stroke = _OUTLINE_STROKE if shape == "outline" else _BORDER_STROKE
    inset = stroke / 2
    inner_h = height - stroke
    radius = {"pill": inner_h / 2, "square": 12.0}.get(shape, 8.0)
    colours = paint(None, "accent") if shape == "outline" else paint("background", "border")
    return (
        f'<rect x="{_num(inset)}" y="{_num(inset)}" width="{_num(width - stroke)}" '
        f'height="{_num(inner_h)}" rx="{_num(radius)}" stroke-width="{_num(stroke)}" {colours}/>'
    )


def _banner_frame(paint: _Paint, width: int, height: int) -> str:
    """A ribbon: a wide strip with swallow-tail notches at both ends."""
    s = _BORDER_STROKE / 2
    n = _BANNER_NOTCH
    d = (
        f"M{_num(s)} {_num(s)}H{_num(width - s)}L{_num(width - n)} {_num(height / 2)}"
        f"L{_num(width - s)} {_num(height - s)}H{_num(s)}L{_num(n)} {_num(height / 2)}Z"
    )
    return (
        f'<path d="{d}" stroke-width="{_num(_BORDER_STROKE)}" stroke-linejoin="round" '
        f'{paint("background", "accent")}/>'
    )


# --------------------------------------------------------------------------
# Content layouts
# --------------------------------------------------------------------------


def _label_line(kind: str, detail: str) -> str:
    """The small first line: the kind's label plus any detail (e.g. the week)."""
    label = BADGE_LABELS[kind]
    return f"{label} \u00b7 {detail}" if detail else label


def _text(x: float, y: float, content: str, size: float, role: str, paint: _Paint,
          available: float, *, bold: bool = False, anchor: str = "start") -> str:
    """One line of escaped text, shrunk or squeezed if it would overflow."""
    weight = "700" if bold else "500"
    fit = _fit(_text_width(content, size, bold), size, available)
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(fit.size)}" font-weight="{weight}"'
        f'{anchor_attr}{fit.squeeze} {paint(role)}>{_xml_text(content)}</text>'
    )


def _row_content(kind: str, shape: str, paint: _Paint, site: str, detail: str,
                 width: int, height: int) -> str:
    """Icon on the left, label above the site name (standard/outline/pill)."""
    pad = 20.0 if shape == "pill" else 14.0
    icon = 28.0
    text_x = pad + icon + 10
    available = width - text_x - pad
    return (
        _place_icon(kind, paint, pad, (height - icon) / 2, icon)
        + _text(text_x, 24, _label_line(kind, detail), 10.5, "muted", paint, available)
        + _text(text_x, 42, site, 17, "text", paint, available, bold=True)
    )


def _banner_content(kind: str, paint: _Paint, site: str, detail: str,
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
    gap = _num(fit.size * 0.32)
    tail_span = f'<tspan dx="{gap}" {paint("muted")}>{_xml_text(tail)}</tspan>' if tail else ""
    return (
        _place_icon(kind, paint, start, (height - icon) / 2, icon)
        + f'<text x="{_num(text_x)}" y="{_num(height / 2 + fit.size * 0.36)}" '
        f'font-size="{_num(fit.size)}" font-weight="500"{fit.squeeze} {paint("muted")}>'
        f"{_xml_text(lead)}"
        f'<tspan font-weight="700" {paint("text")}>{_xml_text(site)}</tspan>'
        f"{tail_span}</text>"
    )


def _square_content(kind: str, paint: _Paint, site: str, detail: str,
                    width: int, height: int) -> str:
    """Icon on top, then label, site name and optional detail, centred."""
    icon = 36.0
    centre = width / 2
    available = width - 20.0
    parts = [
        _place_icon(kind, paint, centre - icon / 2, 18, icon),
        _text(centre, 76, BADGE_LABELS[kind], 11, "muted", paint, available, anchor="middle"),
        _text(centre, 98, site, 16, "text", paint, available, bold=True, anchor="middle"),
    ]
    if detail:
        parts.append(_text(centre, 118, detail, 10.5, "muted", paint, available, anchor="middle"))
    return "".join(parts)


def _content(kind: str, shape: str, paint: _Paint, site: str, detail: str,
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
    paint = _Paint(PALETTES["light" if mode == "auto" else mode], themed=mode == "auto")
    root_class = f' class="{_CLASS_PREFIX}"' if mode == "auto" else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{pixel_w}" height="{pixel_h}" '
        f'viewBox="0 0 {view_w} {view_h}" role="img" aria-label="{_xml_attr(alt)}"{root_class} '
        f'font-family="{_xml_attr(FONT_STACK)}">'
        f"<title>{_xml_text(alt)}</title>"
        + (_style_block() if mode == "auto" else "")
        + _frame(shape, paint, view_w, view_h)
        + _content(kind, shape, paint, site, extra, view_w, view_h)
        + "</svg>\n"
    )
