"""The badge symbols, one per kind, drawn in a 24x24 box with basic shapes only.

A list for "listed", a rocket for "launched", a star, a shield, medals with
the rank for the weekly awards, a trophy and a clock. `place_icon` puts the
kind's symbol where a layout of `api/badge_art.py` wants it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from api.badge_svg import Paint, num

_ROUND: Final[str] = 'stroke-linecap="round" stroke-linejoin="round"'


def _icon_listed(paint: Paint) -> str:
    """Bulleted list: the product is in the directory."""
    parts = []
    for y in (6, 12, 18):
        parts.append(f'<circle cx="5" cy="{y}" r="1.9" {paint("accent")}/>')
        parts.append(
            f'<rect x="9" y="{num(y - 1.2)}" width="12" height="2.4" rx="1.2" {paint("accent")}/>'
        )
    return "".join(parts)


def _icon_launched(paint: Paint) -> str:
    """Rocket: the product launched on the site."""
    return (
        f'<path d="M12 2c3.5 2.2 5.5 5.9 5.5 10.2V16h-11v-3.8C6.5 7.9 8.5 4.2 12 2z" {paint("accent")}/>'
        f'<circle cx="12" cy="9.5" r="2" {paint("on_accent")}/>'
        f'<path d="M6.5 12.5 3.5 16.5V19l3-1.5zM17.5 12.5l3 4V19l-3-1.5z" {paint("accent")}/>'
        f'<path d="M10 17.5h4L12 22z" {paint("accent")}/>'
    )


def _icon_featured(paint: Paint) -> str:
    """Five-point star: an editor featured the product."""
    points = "12,2.5 14.9,8.6 21.5,9.3 16.5,13.8 17.9,20.4 12,17 6.1,20.4 7.5,13.8 2.5,9.3 9.1,8.6"
    return f'<polygon points="{points}" {paint("accent")}/>'


def _icon_verified(paint: Paint) -> str:
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


def _medal(digit_path: str) -> Callable[[Paint], str]:
    """Build a medal icon carrying a rank digit drawn as a stroked path."""

    def draw(paint: Paint) -> str:
        """Ribbon, disc, and the rank digit: a weekly award."""
        return (
            '<path d="M6.5 2h4l2.3 6.5-3.9 1.3zM17.5 2h-4l-2.3 6.5 3.9 1.3z" opacity="0.7" '
            f'{paint("accent")}/>'
            f'<circle cx="12" cy="15" r="7" {paint("accent")}/>'
            f'<path d="{digit_path}" stroke-width="1.7" {_ROUND} {paint(None, "on_accent")}/>'
        )

    return draw


def _icon_top_rated(paint: Paint) -> str:
    """Trophy: the product is among the best rated."""
    return (
        f'<path d="M7 3h10v5a5 5 0 0 1-10 0z" {paint("accent")}/>'
        f'<path d="M7 5H4v1.5A3.5 3.5 0 0 0 7.3 10M17 5h3v1.5a3.5 3.5 0 0 1-3.3 3.5" '
        f'stroke-width="1.6" {_ROUND} {paint(None, "accent")}/>'
        f'<rect x="11" y="12.5" width="2" height="4.5" {paint("accent")}/>'
        f'<rect x="7.5" y="17" width="9" height="3.5" rx="1" {paint("accent")}/>'
    )


def _icon_upcoming(paint: Paint) -> str:
    """Clock: the launch is scheduled."""
    return (
        f'<circle cx="12" cy="12" r="9" stroke-width="2" {paint(None, "accent")}/>'
        f'<path d="M12 7v5l3.5 2" stroke-width="2" {_ROUND} {paint(None, "accent")}/>'
    )


_ICONS: Final[Mapping[str, Callable[[Paint], str]]] = MappingProxyType(
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


def place_icon(kind: str, paint: Paint, x: float, y: float, size: float) -> str:
    """Position the kind's 24x24 icon at ``(x, y)`` scaled to ``size`` units."""
    transform = f"translate({num(x)} {num(y)}) scale({size / 24:.4g})"
    return f'<g transform="{transform}" aria-hidden="true">{_ICONS[kind](paint)}</g>'
