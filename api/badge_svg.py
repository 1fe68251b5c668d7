"""How a badge's SVG source is written: escaping, numbers, the two palettes and the paint that applies them.

Badges are drawn by `api/badge_art.py` (frames, text, layouts) and
`api/badge_icons.py` (the symbols); both write colours only through `Paint`,
so a palette change is made here and nowhere else. In ``auto`` mode the paint
adds classes that `style_block` maps to the dark palette under
``prefers-color-scheme: dark``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final
from xml.sax.saxutils import escape as _xml_escape

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
CLASS_PREFIX: Final[str] = "ldb"


def xml_text(value: str) -> str:
    """Escape text content for XML (``&``, ``<``, ``>``)."""
    return _xml_escape(value)


def xml_attr(value: str) -> str:
    """Escape a value for a double-quoted XML attribute."""
    return _xml_escape(value, {'"': "&quot;", "'": "&apos;"})


def num(value: float) -> str:
    """Format a coordinate compactly (``12``, ``12.5``) for the SVG source."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


@dataclass(frozen=True)
class Paint:
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
        classes = [f"{CLASS_PREFIX}-fill-{fill}"] if fill else []
        if stroke:
            attrs.append(f'stroke="{self.palette[stroke]}"')
            classes.append(f"{CLASS_PREFIX}-stroke-{stroke}")
        if self.themed and classes:
            attrs.append(f'class="{" ".join(classes)}"')
        return " ".join(attrs)


def palette_vars(palette: Mapping[str, str]) -> str:
    """CSS custom-property declarations for one palette."""
    return ";".join(f"--{CLASS_PREFIX}-{key}:{palette[key]}" for key in _PAINT_KEYS)


def style_block() -> str:
    """Stylesheet for ``auto``: light by default, dark under the media query."""
    rules = [
        f".{CLASS_PREFIX}{{{palette_vars(PALETTES['light'])}}}",
        "@media (prefers-color-scheme: dark){"
        f".{CLASS_PREFIX}{{{palette_vars(PALETTES['dark'])}}}}}",
    ]
    for key in _PAINT_KEYS:
        for prop in ("fill", "stroke"):
            rules.append(f".{CLASS_PREFIX}-{prop}-{key}{{{prop}:var(--{CLASS_PREFIX}-{key})}}")
    return "<style>" + "".join(rules) + "</style>"
