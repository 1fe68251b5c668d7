"""Which pages the crawler picks, and how URLs are compared."""

from __future__ import annotations

from workers.adapters.websites.selection import rank_candidates, score
from workers.adapters.websites.urls import is_asset, origin_of, page_key, same_site_url

SITE = "https://acme.example"


def test_descriptive_pages_rank_first() -> None:
    links = [
        ("https://acme.example/blog/2024/10/some-post", "Read more"),
        ("https://acme.example/terms", "Terms"),
        ("https://acme.example/about", "About us"),
        ("https://acme.example/pricing", "Pricing"),
        ("https://acme.example/company/team", "Our team"),
        ("https://acme.example/faq", "FAQ"),
    ]
    ranked = [c.url for c in rank_candidates(links, ["https://acme.example/features"], site=SITE,
                                             homepage_url="https://acme.example/")]
    assert ranked[:2] == ["https://acme.example/about", "https://acme.example/pricing"]
    assert ranked.index("https://acme.example/faq") < ranked.index("https://acme.example/terms")
    assert ranked.index("https://acme.example/features") < ranked.index("https://acme.example/terms")
    assert ranked[-1] == "https://acme.example/blog/2024/10/some-post"


def test_link_text_counts_when_the_path_says_nothing() -> None:
    assert score("https://acme.example/p/123", "Pricing") > score("https://acme.example/p/124", "Read more")


def test_candidates_exclude_homepage_assets_other_sites_and_query_duplicates() -> None:
    links = [
        ("https://acme.example/", "Home"),
        ("https://acme.example/index.html", "Home again"),
        ("https://acme.example/pricing?ref=nav", "Plans"),
        ("https://acme.example/pricing", "Pricing"),
        ("https://acme.example/pricing/", ""),
        ("https://acme.example/logo.PNG", "Logo"),
        ("https://acme.example/brochure.pdf", "Brochure"),
        ("https://acme.example/download.zip", "Download"),
        ("https://other.example/about", "About them"),
        ("https://sub.acme.example/about", "Subdomain"),
        ("https://acme.example:8443/about", "Other port"),
        ("http://acme.example/about", "Upgraded"),
    ]
    ranked = rank_candidates(links, [], site=SITE, homepage_url="https://acme.example/")
    assert [(c.url, c.text) for c in ranked] == [
        ("https://acme.example/pricing", "Plans"),
        ("https://acme.example/about", "Upgraded"),
    ]


def test_same_site_rules() -> None:
    assert same_site_url("https://acme.example/a#frag", SITE) == "https://acme.example/a"
    assert same_site_url("http://acme.example/a", SITE) == "https://acme.example/a"
    assert same_site_url("https://acme.example/a", "http://acme.example") == "https://acme.example/a"
    assert same_site_url("HTTPS://ACME.EXAMPLE:443/a", SITE) == "https://acme.example/a"
    assert same_site_url("https://www.acme.example/a", SITE) is None
    assert same_site_url("https://acme.example:444/a", SITE) is None
    assert same_site_url("http://127.0.0.1:8001/", "http://127.0.0.1:8000") is None
    assert same_site_url("https://user@acme.example/", SITE) is None
    assert same_site_url("ftp://acme.example/", SITE) is None


def test_origins_and_keys() -> None:
    assert origin_of("HTTPS://Acme.Example:443/x?y") == "https://acme.example"
    assert origin_of("http://127.0.0.1:8080/x") == "http://127.0.0.1:8080"
    assert origin_of("http://[::1]:8080/") == "http://[::1]:8080"
    assert origin_of("mailto:x@y") == ""
    assert page_key("https://acme.example/about/?a=1") == page_key("http://acme.example/about")
    assert page_key("https://acme.example/docs/index.html") == page_key("https://acme.example/docs/")
    assert page_key("https://acme.example/a") != page_key("https://acme.example/b")
    assert is_asset("https://acme.example/x.JPG") and is_asset("https://acme.example/feed.xml")
    assert not is_asset("https://acme.example/pricing") and not is_asset("https://acme.example/v1.2/docs")


def test_a_blogs_founding_story_is_worth_following_from_a_page_that_links_it() -> None:
    from workers.adapters.websites.crawler import SECOND_LEVEL_SCORE

    assert score("https://acme.example/blogs/news/our-story", "Why we built Acme") >= SECOND_LEVEL_SCORE
    assert score("https://acme.example/blogs/news/spring-sale", "Spring sale") < SECOND_LEVEL_SCORE


def test_a_page_below_the_root_was_submitted_so_the_root_is_read_first() -> None:
    links = [("https://acme.example/pricing", "Pricing"), ("https://acme.example/", "Home")]
    ranked = rank_candidates(links, [], site=SITE, homepage_url="https://acme.example/about")
    assert [c.url for c in ranked] == ["https://acme.example/", "https://acme.example/pricing"]  # once, first
    unlinked = rank_candidates([], [], site=SITE, homepage_url="https://acme.example/about")
    assert [c.url for c in unlinked] == ["https://acme.example/"]  # whether or not the page links it
