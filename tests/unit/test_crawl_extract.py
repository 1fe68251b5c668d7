"""Extraction keeps what a visitor sees and the page's metadata, and never crashes."""

from __future__ import annotations

import json
import random

import pytest

from workers.adapters.websites.extract import extract_page, page_links, page_title, structured_data, visible_text

BASE = "https://acme.example/products/"

TRAPS = """<!doctype html>
<html><head><title>Trap page</title>
<style>body::before { content: "STYLE-FACT" }</style>
<script>var x = "HEAD-SCRIPT-FACT";</script>
</head><body>
<h1>Visible heading</h1>
<!-- COMMENT-FACT -->
<p>Visible paragraph.</p>
<div hidden>HIDDEN-ATTR-FACT</div>
<div hidden="hidden"><p>Deep <b>NESTED-HIDDEN-FACT</b></p></div>
<span aria-hidden="true">ARIA-FACT</span>
<span aria-hidden="false">Aria false is visible</span>
<p style="display:none">DISPLAY-NONE-FACT</p>
<p style="DISPLAY : NONE !important; color: red">DISPLAY-NONE-UPPER-FACT</p>
<p style="visibility:hidden">VISIBILITY-FACT</p>
<p style="display:block">Display block is visible</p>
<input type="hidden" value="INPUT-HIDDEN-FACT">
<input type="submit" value="Start free trial">
<noscript>NOSCRIPT-FACT</noscript>
<template><p>TEMPLATE-FACT</p></template>
<script>document.write("BODY-SCRIPT-FACT")</script>
<script type="application/ld+json">{"@type": "Thing", "name": "JSONLD-IN-TEXT-FACT"}</script>
<?php echo "PI-FACT"; ?>
<p>After the traps <!-- INLINE-COMMENT-FACT -->comes more text.</p>
</body></html>"""


def test_visible_text_excludes_hidden_content_scripts_and_comments() -> None:
    text = visible_text(TRAPS)
    for fact in ("STYLE-FACT", "HEAD-SCRIPT-FACT", "COMMENT-FACT", "HIDDEN-ATTR-FACT", "NESTED-HIDDEN-FACT",
                 "ARIA-FACT", "DISPLAY-NONE-FACT", "DISPLAY-NONE-UPPER-FACT", "VISIBILITY-FACT",
                 "INPUT-HIDDEN-FACT", "NOSCRIPT-FACT", "TEMPLATE-FACT", "BODY-SCRIPT-FACT",
                 "JSONLD-IN-TEXT-FACT", "PI-FACT", "INLINE-COMMENT-FACT", "Trap page"):
        assert fact not in text, fact
    assert text.splitlines() == [
        "Visible heading",
        "Visible paragraph.",
        "Aria false is visible",
        "Display block is visible",
        "Start free trial",
        "After the traps comes more text.",
    ]


def test_visible_text_separates_blocks_and_joins_inline_text() -> None:
    html = """<body><div>One <b>bold</b>
        <i>word</i></div><ul><li>First</li><li>Second</li></ul>
        Loose<br>break <table><tr><td>a</td><td>b</td></tr></table>&nbsp;&amp; entities</body>"""
    assert visible_text(html) == "One bold word\nFirst\nSecond\nLoose\nbreak\na b\n& entities"


def test_text_tail_after_a_hidden_element_is_kept() -> None:
    assert visible_text("<p>before <span hidden>gone</span> after</p>") == "before after"


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "   \n\t ",
        "\x00\x01\x02\x03",
        "<<<>>><</><!--",
        "<html><body><p>unclosed <b>bold <i>italic</p></div></span>text",
        bytes(range(256)).decode("latin-1") * 20,
        "<?xml version='1.0' encoding='utf-8'?><html><body>declared</body></html>",
        "<div>" * 50_000 + "deep" + "</div>" * 50_000,
        "\ud800 lone surrogate <p>x</p>",
        "<p>" + "x" * 6_000_000 + "</p>",
    ],
    ids=["empty", "blank", "controls", "brackets", "unclosed", "binary", "xml-decl", "deep", "surrogate", "huge"],
)
def test_never_crashes_on_junk(junk: str) -> None:
    text = visible_text(junk)
    data = structured_data(junk, BASE)
    links = page_links(junk, BASE)
    assert isinstance(text, str)
    assert isinstance(links, list)
    assert set(data) == {"json-ld", "microdata", "opengraph", "rdfa", "meta", "icons", "emails", "embeds",
                         "logos", "boilerplate", "refresh", "lang", "tags", "headline", "site_tagline", "selling_points", "tables",
                         "leads", "tabs", "named_images", "fediverse"}
    json.dumps(data)


def test_non_string_input_gives_empty_results() -> None:
    assert visible_text(None) == ""  # type: ignore[arg-type]
    assert page_links(b"<a href='/x'>x</a>", BASE) == []  # type: ignore[arg-type]


def test_random_binary_never_crashes() -> None:
    rng = random.Random(1234)
    for _ in range(30):
        blob = bytes(rng.randrange(256) for _ in range(2000)).decode("utf-8", "replace")
        assert isinstance(visible_text(blob), str)
        assert isinstance(structured_data(blob, BASE)["meta"], dict)


def test_malformed_html_still_yields_text() -> None:
    html = "<p>Unclosed paragraph <b>bold <i>italic</p><div><span>broken nesting</div></span><p>last"
    assert visible_text(html) == "Unclosed paragraph bold italic\nbroken nesting\nlast"


STRUCTURED = """<!doctype html><html><head>
<title>  Acme   Rockets </title>
<meta name="description" content="Reusable rockets for hobbyists.">
<meta name="keywords" content="rockets, hobby">
<meta property="og:title" content="Acme Rockets">
<meta property="og:type" content="website">
<meta property="og:image" content="/img/card.png">
<meta name="twitter:card" content="summary">
<meta name="twitter:image" content="https://cdn.acme.example/tw.png">
<meta name="viewport" content="width=device-width">
<link rel="icon" href="/favicon.ico">
<link rel="shortcut icon" href="/favicon.ico">
<link rel="apple-touch-icon" href="icons/touch.png">
<link rel="icon" href="data:image/png;base64,AAAA">
<link rel="stylesheet" href="/site.css">
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Organization", "name": "Acme Inc", "url": "https://acme.example/"}
</script>
<script type="application/ld+json">{ this is not json </script>
<script type="application/ld+json">
[{"@context": "https://schema.org", "@type": "SoftwareApplication", "name": "Acme Rockets",
  "offers": {"@type": "Offer", "price": "0"}}]
</script>
</head><body>
<div itemscope itemtype="https://schema.org/Product">
  <span itemprop="name">Rocket Kit</span>
  <span itemprop="brand">Acme</span>
</div>
<p>Body text.</p>
</body></html>"""


def test_structured_data_extracts_json_ld_opengraph_microdata_meta_and_icons() -> None:
    data = structured_data(STRUCTURED, BASE)
    types = [item.get("@type") for item in data["json-ld"]]
    assert types == ["Organization", "SoftwareApplication"], "a broken block must not hide the others"
    assert data["json-ld"][0]["name"] == "Acme Inc"
    assert data["opengraph"][0]["og:title"] == "Acme Rockets"
    product = data["microdata"][0]
    assert product["@type"] == "Product"
    assert product["name"] == "Rocket Kit"
    assert isinstance(data["rdfa"], list)
    assert data["meta"] == {
        "description": "Reusable rockets for hobbyists.",
        "keywords": "rockets, hobby",
        "og:title": "Acme Rockets",
        "og:type": "website",
        "og:image": "https://acme.example/img/card.png",
        "twitter:card": "summary",
        "twitter:image": "https://cdn.acme.example/tw.png",
    }
    assert data["icons"] == ["https://acme.example/favicon.ico", "https://acme.example/products/icons/touch.png"]
    json.dumps(data)


def test_page_without_metadata_has_empty_sections() -> None:
    data = structured_data("<p>plain</p>", BASE)
    assert data == {"json-ld": [], "microdata": [], "opengraph": [], "rdfa": [], "meta": {}, "icons": [],
                    "emails": [], "embeds": [], "logos": [], "boilerplate": [], "refresh": "", "lang": "", "tags": [], "headline": "",
                    "site_tagline": "", "selling_points": [], "tables": [], "leads": [], "tabs": [], "named_images": [], "fediverse": []}


def test_title_is_whitespace_normalised() -> None:
    assert page_title(STRUCTURED) == "Acme Rockets"
    assert extract_page(STRUCTURED, BASE).title == "Acme Rockets"


def test_links_are_absolute_deduplicated_and_visible_only() -> None:
    html = """<body>
    <a href="/about#team">About <span hidden>secret</span>us</a>
    <a href="/about">About again</a>
    <a href="pricing">Pricing</a>
    <a href="">empty</a><a href="#top">top</a>
    <a href="mailto:hi@acme.example">mail</a><a href="javascript:void(0)">js</a><a href="tel:123">tel</a>
    <a href="ftp://acme.example/file">ftp</a>
    <a href="https://other.example/x?y=1">Other</a>
    <a href="/icon-only" aria-label="Icon link"><img src="x.png"></a>
    <div style="display:none"><a href="/hidden-link">hidden</a></div>
    <a href="/aria" aria-hidden="true">aria</a>
    <template><a href="/template-link">t</a></template>
    <a href="http://[bad">broken</a>
    </body>"""
    assert page_links(html, BASE) == [
        ("https://acme.example/about", "About us"),
        ("https://acme.example/products/pricing", "Pricing"),
        ("https://other.example/x?y=1", "Other"),
        ("https://acme.example/icon-only", "Icon link"),
    ]


def test_base_element_is_honoured_for_links() -> None:
    html = '<head><base href="https://cdn.acme.example/site/"></head><body><a href="page">Page</a></body>'
    assert page_links(html, BASE) == [("https://cdn.acme.example/site/page", "Page")]


def test_mailto_addresses_and_iframe_sources_are_kept_as_metadata() -> None:
    html = """<body>
    <a href="mailto:Hello%20Team%20<x>">not an address</a>
    <a href="mailto:hi@acme.example?subject=Hi">Contact us</a>
    <a href="MAILTO:sales@acme.example,support@acme.example">Sales</a>
    <a href="mailto:hi@acme.example">again</a>
    <div hidden><a href="mailto:secret@acme.example">hidden</a></div>
    <iframe src="https://www.youtube.example/embed/abc123" title="Demo"></iframe>
    <iframe src="/player/7"></iframe>
    <iframe src="javascript:alert(1)"></iframe>
    <div style="display:none"><iframe src="https://hidden.example/embed/1"></iframe></div>
    <template><iframe src="https://template.example/embed/2"></iframe></template>
    </body>"""
    structured = extract_page(html, BASE).structured
    assert structured["emails"] == ["hi@acme.example", "sales@acme.example", "support@acme.example"]
    assert structured["embeds"] == ["https://www.youtube.example/embed/abc123", "https://acme.example/player/7"]
    assert "hi@acme.example" not in extract_page(html, BASE).text  # metadata, not visible text


def test_soft_hyphens_and_zero_width_breaks_are_not_visible_text() -> None:
    text = visible_text("<h3>Sprecher\u00aderkennung</h3><p>zero\u200bwidth and word\u2060joiner</p>")
    assert text == "Sprechererkennung\nzerowidth and wordjoiner"


def test_a_heading_is_content_whatever_its_class_says() -> None:
    html = ("<main><h2 class='anchor anchorWithStickyNavbar_x1'>Does it work offline?</h2><p>Yes.</p></main>"
            "<div class='navbar'><a href='/'>Home</a></div>")
    assert structured_data(html, BASE)["boilerplate"] == ["Home"]


def test_tag_archive_links_headline_and_a_link_marked_logo() -> None:
    html = ("<div class='top'><a href='/home' class='logo'><img src='/acme-logo.svg' alt='Acme'></a></div>"
            "<h1>Notes that link themselves</h1>"
            "<p>Tags: <a href='/tag/sync/'>Sync</a>, <a href='/blog/tags/encryption'>Encryption</a>,"
            " <a href='/pricing'>Pricing</a></p>")
    data = structured_data(html, BASE)
    assert data["tags"] == ["Sync", "Encryption"]
    assert data["headline"] == "Notes that link themselves"
    assert data["logos"] == ["https://acme.example/acme-logo.svg"]


def test_an_image_whose_alt_text_says_logo_in_a_link_home_is_the_logo() -> None:
    html = "<main><a href='/'><img src='/img/a1b2.svg' alt='Acme logo'></a><a href='/'><img src='/img/hero.png' alt='Hero'></a></main>"
    assert structured_data(html, "https://acme.example/")["logos"] == ["https://acme.example/img/a1b2.svg"]
