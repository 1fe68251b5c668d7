"""What counts as our badge on a homepage: a link to the listing's page here, or one of its badge images."""

from __future__ import annotations

import pytest

from workers.badge_check import find_badge

SITE = "https://launchdir.example"
PAGE = "https://acme.example/"


def page(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head>{head}</head><body><h1>Acme</h1>{body}</body></html>"


@pytest.mark.parametrize("body", [
    '<a href="https://launchdir.example/listings/acme">Listed on launchdir</a>',
    '<a href="http://launchdir.example/listings/acme/">http and a trailing slash</a>',
    '<a href="https://www.LaunchDir.example/listings/acme?ref=badge#top">www, case, query, fragment</a>',
    '<a href="//launchdir.example/listings/acme">scheme-relative</a>',
    '<p>see <img src="https://launchdir.example/badges/acme/upcoming.svg?shape=pill&amp;mode=dark&amp;size=s"></p>',
    '<img src="https://launchdir.example/badges/acme/launched.svg" alt="Launched">',
    '<a href="https://launchdir.example/listings/acme" target="_blank" rel="noopener">'
    '<img src="https://launchdir.example/badges/acme/listed.svg?shape=standard&amp;mode=auto&amp;size=m"></a>',
])
def test_our_link_or_image_counts(body: str) -> None:
    assert find_badge(page(body), PAGE, SITE, "acme") is not None


@pytest.mark.parametrize("body", [
    "",
    '<a href="https://launchdir.example/listings/acme-2">a neighbour\'s page</a>',
    '<a href="https://launchdir.example/listings/acm">a shorter slug</a>',
    '<a href="https://launchdir.example/listings/acme/reviews">a sub-page</a>',
    '<a href="https://other.example/listings/acme">another site</a>',
    '<a href="https://launchdir.example.evil.test/listings/acme">a look-alike host</a>',
    '<a href="https://launchdir.example:8443/listings/acme">another port</a>',
    '<a href="/listings/acme">relative: the founder\'s own site</a>',
    '<a href="listings/acme">relative without a slash</a>',
    '<img src="/badges/acme/upcoming.svg">',
    '<img src="https://launchdir.example/badges/other/upcoming.svg">',
    '<img src="https://launchdir.example/listings/acme">',
    '<a href="https://launchdir.example/badges/acme/upcoming.svg">a link to the image is not the page</a>',
    '<p>https://launchdir.example/listings/acme written as text</p>',
    '<a href="javascript:alert(1)">x</a><a href="mailto:a@b.c">y</a><a href="http://[::1">broken</a>',
])
def test_anything_else_does_not(body: str) -> None:
    assert find_badge(page(body), PAGE, SITE, "acme") is None


def test_relative_links_resolve_against_the_page_and_its_base() -> None:
    # served from our own host (a site's own page), a relative link is ours
    assert find_badge(page('<a href="/listings/acme">here</a>'), SITE + "/blog/", SITE, "acme") == "/listings/acme"
    # <base href> pointing at our site makes a relative link ours
    html = page('<a href="listings/acme">here</a>', head='<base href="https://launchdir.example/">')
    assert find_badge(html, PAGE, SITE, "acme") == "listings/acme"


def test_a_site_under_a_path_and_a_port() -> None:
    site = "http://127.0.0.1:8123/dir"
    assert find_badge(page('<a href="http://127.0.0.1:8123/dir/listings/acme">x</a>'), PAGE, site, "acme")
    assert find_badge(page('<a href="http://127.0.0.1:8123/listings/acme">x</a>'), PAGE, site, "acme") is None
    assert find_badge(page('<a href="http://127.0.0.1:9999/dir/listings/acme">x</a>'), PAGE, site, "acme") is None


def test_unreadable_html_is_no_badge() -> None:
    assert find_badge("", PAGE, SITE, "acme") is None
    assert find_badge("\x00\x01 not html at all", PAGE, SITE, "acme") is None
