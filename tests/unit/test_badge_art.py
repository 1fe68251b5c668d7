"""Tests for the embeddable SVG badge renderer.

They check that every badge variant is a well-formed standalone SVG, that the
colours actually drawn stay readable (WCAG contrast), that ``auto`` follows
the viewer's colour scheme, and that untrusted text can never break the
document or the embed snippet.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from xml.sax.saxutils import escape as xml_escape

import pytest

from api.badge_art import FONT_STACK, PAGE_BACKGROUNDS, PALETTES, render_badge
from queries.badge_styles import (
    BADGE_KINDS,
    BADGE_LABELS,
    MODES,
    SHAPES,
    SIZE_SCALES,
    SIZES,
    badge_alt_text,
    badge_dimensions,
    embed_html,
)

SVG_NS = "{http://www.w3.org/2000/svg}"
SITE = "Acme & Co"
WEEK = "2026-W46"
ALL_COMBINATIONS = list(itertools.product(BADGE_KINDS, SHAPES, MODES, SIZES))
FIXED_MODES = ("light", "dark")
TEXT_TAGS = (f"{SVG_NS}text", f"{SVG_NS}tspan")
HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}\b")


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _detail_for(kind: str) -> str | None:
    """Awards carry the week; other kinds are rendered without a detail."""
    return WEEK if kind.startswith("award-") else None


def _render(kind: str, shape: str, mode: str, size: str = "m", site_name: str = SITE,
            detail: str | None = None) -> str:
    """Render with keyword arguments spelled out once."""
    return render_badge(kind, shape=shape, mode=mode, size=size, site_name=site_name,
                        detail=detail)


def _parse(svg: str) -> ET.Element:
    """Parse an SVG document, failing the test if it is not well-formed XML."""
    return ET.fromstring(svg)


def _all_text(root: ET.Element) -> str:
    """Concatenated character data of every ``<text>`` element."""
    return " ".join("".join(el.itertext()) for el in root.iter(f"{SVG_NS}text"))


def _frame(root: ET.Element) -> ET.Element:
    """The badge frame: the first drawn element after ``<title>``/``<style>``."""
    skipped = {f"{SVG_NS}title", f"{SVG_NS}style"}
    return next(child for child in root if child.tag not in skipped)


def _icon_group(root: ET.Element) -> ET.Element:
    """The decorative icon group (the only ``aria-hidden`` group)."""
    return next(g for g in root.iter(f"{SVG_NS}g") if g.get("aria-hidden") == "true")


def _luminance(hex_colour: str) -> float:
    """WCAG 2.x relative luminance of an ``#RRGGBB`` colour."""
    value = hex_colour.lstrip("#")
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours (1 to 21)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _backdrop(root: ET.Element, mode: str) -> str:
    """Colour behind the text: the frame fill, or the page for a transparent frame."""
    fill = _frame(root).get("fill")
    assert fill is not None
    return PAGE_BACKGROUNDS[mode] if fill == "none" else fill


# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------


def test_vocabulary_matches_the_catalogue() -> None:
    assert BADGE_KINDS == ("listed", "launched", "featured", "verified", "award-1",
                           "award-2", "award-3", "top-rated", "upcoming")
    assert set(BADGE_LABELS) == set(BADGE_KINDS)
    assert BADGE_LABELS["launched"] == "Launched on"
    assert BADGE_LABELS["award-2"] == "Launch of the Week #2"
    assert BADGE_LABELS["upcoming"] == "Launching soon on"
    assert SHAPES == ("standard", "outline", "pill", "banner", "square")
    assert MODES == ("light", "dark", "auto")
    assert SIZES == ("s", "m", "l")
    assert set(SIZE_SCALES) == set(SIZES)
    assert SIZE_SCALES["s"] < SIZE_SCALES["m"] == 1.0 < SIZE_SCALES["l"]


# --------------------------------------------------------------------------
# Every combination is a valid, self-describing SVG document
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "shape", "mode", "size"), ALL_COMBINATIONS)
def test_every_combination_is_a_valid_svg(kind: str, shape: str, mode: str, size: str) -> None:
    detail = _detail_for(kind)
    svg = _render(kind, shape, mode, size, detail=detail)
    root = _parse(svg)

    assert root.tag == f"{SVG_NS}svg"
    assert root.get("role") == "img"

    width, height = badge_dimensions(shape, size)
    assert (root.get("width"), root.get("height")) == (str(width), str(height))
    min_x, min_y, view_w, view_h = (float(v) for v in root.get("viewBox", "").split())
    assert (min_x, min_y) == (0, 0)
    scale = SIZE_SCALES[size]
    assert abs(view_w * scale - width) <= 0.5
    assert abs(view_h * scale - height) <= 0.5

    title = root.find(f"{SVG_NS}title")
    assert title is not None
    assert title.text == badge_alt_text(kind, SITE, detail)
    assert root.get("aria-label") == title.text

    label = BADGE_LABELS[kind]
    assert xml_escape(label) in svg
    assert label in _all_text(root)
    assert "Acme &amp; Co" in svg
    assert SITE in _all_text(root)
    if detail:
        assert detail in _all_text(root)


@pytest.mark.parametrize(("kind", "shape", "mode"),
                         list(itertools.product(BADGE_KINDS, SHAPES, MODES)))
def test_badge_is_self_contained(kind: str, shape: str, mode: str) -> None:
    svg = _render(kind, shape, mode)
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    for external in ("href", "url(", "@import", "@font-face", "<image", "<script", "http:"):
        assert external not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    root = _parse(svg)
    assert root.get("font-family") == FONT_STACK
    assert FONT_STACK.rstrip().endswith("sans-serif")


@pytest.mark.parametrize("shape", SHAPES)
def test_sizes_share_the_viewbox_and_scale_the_pixels(shape: str) -> None:
    roots = {size: _parse(_render("launched", shape, "light", size)) for size in SIZES}
    assert len({root.get("viewBox") for root in roots.values()}) == 1
    widths = [int(roots[size].get("width", "0")) for size in SIZES]
    heights = [int(roots[size].get("height", "0")) for size in SIZES]
    assert widths == sorted(widths) and len(set(widths)) == len(SIZES)
    assert heights == sorted(heights) and len(set(heights)) == len(SIZES)


def test_badge_dimensions_values() -> None:
    assert badge_dimensions("standard", "m") == (240, 56)
    assert badge_dimensions("standard", "s") == (180, 42)
    assert badge_dimensions("standard", "l") == (360, 84)
    assert badge_dimensions("banner", "m") == (360, 40)
    width, height = badge_dimensions("square", "m")
    assert width == height
    banner_w, banner_h = badge_dimensions("banner", "m")
    assert banner_w / banner_h > 5


def test_each_kind_has_its_own_icon_of_basic_shapes() -> None:
    basic = {f"{SVG_NS}{tag}" for tag in ("g", "path", "circle", "rect", "polygon")}
    icons = set()
    for kind in BADGE_KINDS:
        group = _icon_group(_parse(_render(kind, "standard", "light")))
        assert {el.tag for el in group.iter()} <= basic
        assert len(list(group)) >= 1
        icons.add(ET.tostring(group))
    assert len(icons) == len(BADGE_KINDS)


def test_square_puts_the_icon_above_the_text() -> None:
    root = _parse(_render("featured", "square", "light"))
    match = re.search(r"translate\([\d.]+ ([\d.]+)\)", _icon_group(root).get("transform", ""))
    assert match is not None
    icon_y = float(match.group(1))
    text_ys = [float(t.get("y", "0")) for t in root.iter(f"{SVG_NS}text")]
    assert text_ys and all(icon_y < y for y in text_ys)
    assert {t.get("text-anchor") for t in root.iter(f"{SVG_NS}text")} == {"middle"}


def test_shapes_differ_as_described() -> None:
    standard = _frame(_parse(_render("listed", "standard", "light")))
    outline = _frame(_parse(_render("listed", "outline", "light")))
    pill = _frame(_parse(_render("listed", "pill", "light")))
    banner = _frame(_parse(_render("listed", "banner", "light")))
    assert standard.get("fill") == PALETTES["light"]["background"]
    assert outline.get("fill") == "none" and outline.get("stroke")
    assert float(pill.get("rx", "0")) * 2 == pytest.approx(float(pill.get("height", "0")))
    assert float(standard.get("rx", "0")) * 2 < float(standard.get("height", "0"))
    assert banner.tag == f"{SVG_NS}path"
    banner_root = _parse(_render("listed", "banner", "light"))
    assert len(list(banner_root.iter(f"{SVG_NS}text"))) == 1


def test_award_banner_reads_as_one_sentence() -> None:
    root = _parse(_render("award-1", "banner", "light", detail=WEEK))
    text = _all_text(root)
    assert text.startswith("Launch of the Week #1 on Acme & Co")
    assert text.endswith(WEEK)


# --------------------------------------------------------------------------
# Readability
# --------------------------------------------------------------------------


@pytest.mark.parametrize("mode", FIXED_MODES)
def test_palette_text_contrast_meets_wcag_aa(mode: str) -> None:
    palette = PALETTES[mode]
    for role in ("text", "muted"):
        assert _contrast(palette[role], palette["background"]) >= 4.5
        assert _contrast(palette[role], PAGE_BACKGROUNDS[mode]) >= 4.5


@pytest.mark.parametrize("mode", FIXED_MODES)
def test_palette_icon_contrast_meets_non_text_minimum(mode: str) -> None:
    palette = PALETTES[mode]
    assert _contrast(palette["accent"], palette["background"]) >= 3
    assert _contrast(palette["accent"], PAGE_BACKGROUNDS[mode]) >= 3
    assert _contrast(palette["on_accent"], palette["accent"]) >= 3


@pytest.mark.parametrize(("kind", "shape", "mode"),
                         list(itertools.product(BADGE_KINDS, SHAPES, FIXED_MODES)))
def test_rendered_text_colours_are_readable(kind: str, shape: str, mode: str) -> None:
    root = _parse(_render(kind, shape, mode, detail=_detail_for(kind)))
    backdrop = _backdrop(root, mode)
    known = (*PALETTES[mode].values(), *PAGE_BACKGROUNDS.values())
    assert backdrop.upper() in {c.upper() for c in known}
    coloured = [el for tag in TEXT_TAGS for el in root.iter(tag) if el.get("fill")]
    assert coloured
    for element in coloured:
        fill = element.get("fill", "")
        assert fill in PALETTES[mode].values()
        assert _contrast(fill, backdrop) >= 4.5, (fill, backdrop)


def test_contrast_helper_matches_known_values() -> None:
    assert _contrast("#000000", "#FFFFFF") == pytest.approx(21)
    assert _contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)


# --------------------------------------------------------------------------
# Colour modes
# --------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_auto_mode_follows_the_colour_scheme(shape: str) -> None:
    svg = _render("verified", shape, "auto")
    root = _parse(svg)
    style = root.find(f"{SVG_NS}style")
    assert style is not None and style.text
    assert "@media (prefers-color-scheme: dark)" in style.text
    for mode in FIXED_MODES:
        for colour in PALETTES[mode].values():
            assert colour in style.text
    light_vars, dark_part = style.text.split("@media", 1)
    assert PALETTES["light"]["text"] in light_vars
    assert PALETTES["dark"]["text"] in dark_part
    assert "var(--" in style.text
    # Presentation attributes carry the light palette as the default.
    frame = _frame(root)
    assert frame.get("stroke") in PALETTES["light"].values()
    assert "ldb" in root.get("class", "")
    for element in root.iter():
        paints = (element.get("fill", ""), element.get("stroke", ""))
        if element is not root and any(HEX_COLOUR.fullmatch(p) for p in paints):
            assert element.get("class"), ET.tostring(element)


@pytest.mark.parametrize(("mode", "shape"), list(itertools.product(FIXED_MODES, SHAPES)))
def test_fixed_modes_use_only_their_own_palette(mode: str, shape: str) -> None:
    svg = _render("award-3", shape, mode, detail=WEEK)
    assert "prefers-color-scheme" not in svg
    assert "<style" not in svg
    assert " class=" not in svg
    used = {c.upper() for c in HEX_COLOUR.findall(svg)}
    assert used and used <= {c.upper() for c in PALETTES[mode].values()}


def test_light_and_dark_differ() -> None:
    assert _render("listed", "standard", "light") != _render("listed", "standard", "dark")


# --------------------------------------------------------------------------
# Escaping and untrusted text
# --------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_markup_in_site_name_and_detail_is_escaped(shape: str) -> None:
    site = "A&B <x>"
    detail = "\"W46\" & 'co' <b>"
    svg = _render("award-1", shape, "auto", site_name=site, detail=detail)
    root = _parse(svg)
    assert "A&amp;B &lt;x&gt;" in svg
    assert "<x>" not in svg and "<b>" not in svg
    assert site in _all_text(root)
    assert detail in _all_text(root)
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text == f"Launch of the Week #1 on {site} ({detail})"
    assert root.get("aria-label") == title.text


def test_characters_xml_cannot_hold_are_dropped() -> None:
    root = _parse(_render("listed", "standard", "light", site_name="Ac\x00me\x07\n  Co\ufffe"))
    assert "Acme Co" in _all_text(root)


def test_long_site_names_are_fitted_inside_the_frame() -> None:
    long_name = "The Remarkably Long Name Of A Software Directory"
    for shape in SHAPES:
        root = _parse(_render("launched", shape, "light", site_name=long_name))
        view_w = float(root.get("viewBox", "").split()[2])
        squeezed = [t for t in root.iter(f"{SVG_NS}text") if t.get("textLength")]
        assert squeezed, shape
        for text in squeezed:
            assert text.get("lengthAdjust") == "spacingAndGlyphs"
            assert 0 < float(text.get("textLength", "0")) < view_w


def test_short_names_keep_their_natural_size() -> None:
    root = _parse(_render("listed", "standard", "light", site_name="Acme"))
    assert not [t for t in root.iter(f"{SVG_NS}text") if t.get("textLength")]


def test_alt_text() -> None:
    assert badge_alt_text("launched", "Acme") == "Launched on Acme"
    assert badge_alt_text("award-2", "Acme", WEEK) == f"Launch of the Week #2 on Acme ({WEEK})"
    assert badge_alt_text("upcoming", "Acme", "") == "Launching soon on Acme"


def test_rendering_is_deterministic() -> None:
    assert _render("featured", "pill", "auto") == _render("featured", "pill", "auto")


# --------------------------------------------------------------------------
# Embed snippet
# --------------------------------------------------------------------------


class _SnippetParser(HTMLParser):
    """Collects tags and decoded attributes from an HTML snippet."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _parse_snippet(snippet: str) -> list[tuple[str, dict[str, str | None]]]:
    """Parse a snippet the way a browser would decode its attributes."""
    parser = _SnippetParser()
    parser.feed(snippet)
    parser.close()
    return parser.tags


def test_embed_html_shape() -> None:
    width, height = badge_dimensions("standard", "m")
    snippet = embed_html(svg_url="https://example.com/badge/acme.svg",
                         link_url="https://example.com/p/acme", alt="Launched on Example",
                         width=width, height=height)
    assert snippet == (
        '<a href="https://example.com/p/acme" target="_blank" rel="noopener">'
        '<img src="https://example.com/badge/acme.svg" alt="Launched on Example" '
        'width="240" height="56"></a>'
    )


def test_embed_html_escapes_attribute_values() -> None:
    svg_url = 'https://example.com/b.svg?a=1&b="2"'
    link_url = "https://example.com/p/x'><script>alert(1)</script>"
    alt = 'Launched on "A&B" <x>'
    snippet = embed_html(svg_url=svg_url, link_url=link_url, alt=alt, width=180, height=42)
    assert "<script>" not in snippet
    assert "&quot;A&amp;B&quot; &lt;x&gt;" in snippet
    assert "&#x27;" in snippet
    tags = _parse_snippet(snippet)
    assert [tag for tag, _ in tags] == ["a", "img"]
    assert tags[0][1] == {"href": link_url, "target": "_blank", "rel": "noopener"}
    assert tags[1][1] == {"src": svg_url, "alt": alt, "width": "180", "height": "42"}


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "56"])
def test_embed_html_rejects_bad_dimensions(bad: object) -> None:
    with pytest.raises(ValueError):
        embed_html(svg_url="s", link_url="l", alt="a", width=bad, height=10)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        embed_html(svg_url="s", link_url="l", alt="a", width=10, height=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Bad arguments
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [
        {"kind": "sponsored"},
        {"kind": "Listed"},
        {"kind": None},
        {"shape": "circle"},
        {"shape": ""},
        {"mode": "sepia"},
        {"mode": "Dark"},
        {"size": "xl"},
        {"size": 1},
        {"site_name": ""},
        {"site_name": "   \x00 "},
    ],
)
def test_render_badge_rejects_bad_arguments(overrides: dict[str, object]) -> None:
    arguments: dict[str, object] = {"kind": "listed", "shape": "standard", "mode": "light",
                                    "size": "m", "site_name": "Acme"}
    arguments.update(overrides)
    kind = arguments.pop("kind")
    with pytest.raises(ValueError):
        render_badge(kind, **arguments)  # type: ignore[arg-type]


def test_helpers_reject_bad_arguments() -> None:
    with pytest.raises(ValueError):
        badge_dimensions("hexagon", "m")
    with pytest.raises(ValueError):
        badge_dimensions("standard", "xxl")
    with pytest.raises(ValueError):
        badge_alt_text("unknown", "Acme")
    with pytest.raises(ValueError):
        badge_alt_text("listed", " ")
