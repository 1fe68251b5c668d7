"""robots.txt policies, sitemap parsing and bounded decompression."""

from __future__ import annotations

import gzip
import zlib

import pytest
from protego import Protego

from workers.adapters.websites.decoding import BoundedDecoder, gunzip_capped
from workers.adapters.websites.errors import SiteUnreachable
from workers.adapters.websites.robots import ALLOW_ALL, DISALLOW_ALL, RULES, RobotsPolicy, robots_url_for
from workers.adapters.websites.sitemap import parse_sitemap

ROBOTS = """
User-agent: launchdirbot
Disallow: /team
Disallow: /pricing
Allow: /pricing/public

User-agent: *
Disallow: /

Sitemap: /sitemap.xml
Sitemap: https://cdn.example/other.xml
"""


def policy(text: str) -> RobotsPolicy:
    return RobotsPolicy("https://acme.example/robots.txt", "launchdirbot", RULES, True, "", Protego.parse(text))


def test_rules_for_our_token_apply_not_the_wildcard_group() -> None:
    rules = policy(ROBOTS)
    assert rules.allows("https://acme.example/")
    assert rules.allows("https://acme.example/about")
    assert not rules.allows("https://acme.example/team")
    assert not rules.allows("https://acme.example/team/marta")
    assert not rules.allows("https://acme.example/pricing?x=1")
    assert rules.allows("https://acme.example/pricing/public")
    assert rules.sitemaps == ("https://acme.example/sitemap.xml", "https://cdn.example/other.xml")


def test_token_matching_is_case_insensitive_and_wildcard_applies_otherwise() -> None:
    assert not policy("User-agent: LaunchDirBot\nDisallow: /x\n").allows("https://acme.example/x")
    assert not policy("User-agent: *\nDisallow: /\n").allows("https://acme.example/")
    assert policy("User-agent: otherbot\nDisallow: /\n").allows("https://acme.example/")


def test_fixed_modes() -> None:
    allow = RobotsPolicy("u", "launchdirbot", ALLOW_ALL, False)
    deny = RobotsPolicy("u", "launchdirbot", DISALLOW_ALL, False)
    assert allow.allows("https://acme.example/anything")
    assert not deny.allows("https://acme.example/")
    assert allow.sitemaps == () and deny.sitemaps == ()


def test_robots_url_is_per_origin() -> None:
    assert robots_url_for("https://acme.example/a/b?c") == "https://acme.example/robots.txt"
    assert robots_url_for("http://127.0.0.1:8080/x") == "http://127.0.0.1:8080/robots.txt"


URLSET = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://acme.example/about </loc><lastmod>2024-01-01</lastmod></url>
  <url><loc>https://acme.example/pricing</loc></url>
</urlset>"""


def test_urlset_and_index() -> None:
    assert parse_sitemap(URLSET, 10_000).pages == ("https://acme.example/about", "https://acme.example/pricing")
    index = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://acme.example/sitemap-pages.xml</loc></sitemap></sitemapindex>"""
    content = parse_sitemap(index, 10_000)
    assert content.sitemaps == ("https://acme.example/sitemap-pages.xml",) and content.pages == ()


def test_gzipped_and_truncated_sitemaps() -> None:
    assert parse_sitemap(gzip.compress(URLSET), 10_000).pages[0] == "https://acme.example/about"
    truncated = parse_sitemap(URLSET[:-40], 10_000)
    assert truncated.pages[:1] == ("https://acme.example/about",)


@pytest.mark.parametrize("junk", [b"", b"not xml", b"\x00\xff" * 100, b"<html><body>hi</body></html>"])
def test_junk_sitemaps_are_empty(junk: bytes) -> None:
    assert parse_sitemap(junk, 10_000).pages == ()


def test_sitemap_parser_does_not_expand_entities() -> None:
    xxe = b"""<?xml version="1.0"?>
    <!DOCTYPE urlset [<!ENTITY secret SYSTEM "file:///etc/hostname"><!ENTITY a "https://acme.example/expanded">]>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>&secret;</loc></url><url><loc>&a;</loc></url><url><loc>https://acme.example/plain</loc></url>
    </urlset>"""
    pages = parse_sitemap(xxe, 10_000).pages
    assert "https://acme.example/plain" in pages
    assert all("acme.example/expanded" not in p and "\n" not in p for p in pages)


def test_decompression_stops_at_the_limit() -> None:
    bomb = gzip.compress(b"\0" * 20_000_000)
    assert len(bomb) < 100_000
    assert len(gunzip_capped(bomb, 1_000)) == 1_000
    decoder = BoundedDecoder("gzip")
    assert len(decoder.decode(bomb[:5_000], 50_000)) == 50_000


def test_deflate_with_and_without_zlib_header() -> None:
    assert BoundedDecoder("deflate").decode(zlib.compress(b"hello"), 100) == b"hello"
    raw = zlib.compressobj(wbits=-15)
    assert BoundedDecoder("deflate").decode(raw.compress(b"hello") + raw.flush(), 100) == b"hello"
    assert BoundedDecoder("identity").decode(b"hello", 3) == b"hel"


def test_unsupported_or_corrupt_encodings_fail_cleanly() -> None:
    with pytest.raises(SiteUnreachable):
        BoundedDecoder("br")
    with pytest.raises(SiteUnreachable):
        BoundedDecoder("gzip").decode(b"definitely not gzip", 100)
