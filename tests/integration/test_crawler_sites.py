"""Crawl real fixture websites served over HTTP on 127.0.0.1.

Each test starts a threaded HTTP server (see ``tests/fixtures/sites/server.py``)
and crawls it with ``allow_loopback=True`` — the only address class that
setting unlocks.  The server's request log proves what was, and what was
never, fetched; a spy on ``socket.create_connection`` proves that refused
addresses are never connected to.
"""

from __future__ import annotations

import gzip
import json
import socket
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest

from tests.fixtures.sites.server import Body, FixtureServer, Gzipped, Huge, Redirect, free_port_without_listener
from workers.adapters.websites import (
    BlockedAddress,
    CrawlResult,
    CrawlSettings,
    HttpStatusError,
    NotHtml,
    RobotsForbidden,
    SiteUnreachable,
    TooLarge,
    TooManyRedirects,
    check_url,
    crawl_site,
)
from workers.adapters.websites.transport import GuardedTransport

LOCAL = CrawlSettings(allow_loopback=True, request_timeout=3.0, total_timeout=15.0)
NO_ROBOTS = {"/robots.txt": Body(b"not found", "text/plain", status=404)}


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Record every TCP connection the process opens."""
    seen: list[tuple[str, int]] = []
    real = socket.create_connection

    def spy(address: tuple[str, int], *args: object, **kwargs: object) -> socket.socket:
        seen.append((str(address[0]), int(address[1])))
        return real(address, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "create_connection", spy)
    yield seen


def html(body: str, title: str = "Page") -> bytes:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>".encode()


def paths_of(result: CrawlResult, base: str) -> list[str]:
    return [page.url.removeprefix(base) for page in result.pages]


# --- (a) a SaaS site with rich metadata and a sitemap -----------------------------------------


def test_saas_site_yields_homepage_metadata_and_descriptive_pages() -> None:
    with FixtureServer("saas") as server:
        result = crawl_site(server.url("/"), LOCAL)
        requests = server.paths()
        agents = set(server.user_agents)

    base = server.base
    assert result.site == base
    assert result.final_url == base + "/"
    assert result.robots_found is True
    assert result.robots_txt_url == base + "/robots.txt"
    assert len(result.pages) == LOCAL.max_pages == 11
    assert paths_of(result, base)[:3] == ["/", "/about", "/pricing"]
    for path in ("/faq", "/team", "/contact", "/blog", "/features", "/customers", "/changelog"):
        assert result.page(base + path) is not None, path
    assert result.skipped == []

    # Assets, off-site links, the query-string duplicate and the lowest-ranked pages are never requested.
    for path in ("/assets/logo.png", "/brochure.pdf", "/assets/whitepaper.pdf", "/privacy", "/docs/getting-started",
                 "/offsite", "/pricing?ref=nav"):
        assert path not in requests, path
    assert len(requests) == len(set(requests)), "no page is fetched twice"
    assert requests[:2] == ["/robots.txt", "/"], "robots.txt comes before anything else"
    assert "/sitemap.xml" in requests
    assert agents == {LOCAL.user_agent}

    home = result.homepage
    assert home is not None
    assert home.title == "Acme Flow — Workflow automation for small teams"
    assert home.status == 200 and home.robots_allowed and not home.truncated
    assert home.content_type.startswith("text/html")
    assert home.fetched_at.endswith("Z") and home.fetched_at[:2] == "20"
    assert "Trusted by 1,200 teams in 30 countries." in home.text.splitlines()
    assert "analyticsKey" not in home.text
    json_ld_types = {item["@type"] for item in home.structured["json-ld"]}
    assert json_ld_types == {"Organization", "SoftwareApplication"}
    organization = next(i for i in home.structured["json-ld"] if i["@type"] == "Organization")
    assert organization["name"] == "Acme Flow Ltd" and organization["foundingDate"] == "2021"
    assert home.structured["opengraph"][0]["og:title"] == "Acme Flow"
    meta = home.structured["meta"]
    assert meta["description"].startswith("Acme Flow automates repetitive workflows")
    assert meta["og:image"] == base + "/assets/og-card.png"
    assert meta["twitter:site"] == "@acmeflow"
    assert home.structured["icons"] == [base + "/favicon.ico", base + "/assets/touch-icon.png"]
    assert base + "/about" in home.links and "https://twitter.example/acmeflow" in home.links

    pricing = result.page(base + "/pricing")
    assert pricing is not None and "Starter 19 EUR per month" in pricing.text
    faq = result.page(base + "/faq")
    assert faq is not None and faq.structured["microdata"][0]["@type"] == "FAQPage"

    stored = json.loads(json.dumps(result.to_dict()))
    assert CrawlResult.from_dict(stored) == result


def test_page_limit_keeps_the_most_descriptive_pages() -> None:
    with FixtureServer("saas") as server:
        result = crawl_site(server.url("/"), replace(LOCAL, max_pages=3))
        requests = server.paths()
    assert paths_of(result, server.base) == ["/", "/about", "/pricing"]
    assert "/faq" not in requests and "/terms" not in requests


# --- (b) robots.txt disallows some pages for launchdirbot ---------------------------------------


def test_pages_disallowed_by_robots_are_skipped_and_never_requested() -> None:
    with FixtureServer("polite") as server:
        result = crawl_site(server.url("/"), LOCAL)
        requests = server.paths()

    base = server.base
    assert result.robots_found is True
    skipped = {s.url.removeprefix(base): s.reason for s in result.skipped}
    assert skipped == {"/pricing": "robots_disallowed", "/team": "robots_disallowed",
                       "/pricing/enterprise": "robots_disallowed"}
    for path in ("/team", "/pricing", "/pricing/enterprise"):
        assert not any(r.split("?")[0] == path for r in requests), path
    # The "User-agent: *" group disallows /about, but our own group takes precedence (RFC 9309).
    assert sorted(paths_of(result, base)) == ["/", "/about", "/features"]
    assert all("SECRET" not in page.text for page in result.pages)


# --- (c) traps: facts that are not visible must not reach the text -------------------------------


def test_hidden_comment_and_script_content_never_reaches_the_text() -> None:
    with FixtureServer("traps") as server:
        result = crawl_site(server.url("/"), LOCAL)
        requests = server.paths()

    assert result.robots_found is False, "no robots.txt (404) means everything is allowed"
    assert paths_of(result, server.base) == ["/", "/about"]
    for page in result.pages:
        assert "TRAP" not in page.text, page.url
        assert "TRAP" not in page.title
    home, about = result.pages
    assert home.text.splitlines() == [
        "Lumen Notes",
        "Lumen Notes links your reading notes to their sources.",
        "Visible tail after traps: used by 300 labs.",
        "Split inline words",
        "and a line break.",
        "About Lumen",
    ]
    assert "Unclosed paragraph bold italic" in about.text
    assert home.structured["meta"]["description"] == "Lumen Notes is a note-taking app for researchers."
    assert "/secret-offer" not in requests, "links inside hidden elements are not followed"


# --- (d) robots.txt disallows everything ----------------------------------------------------------


def test_site_disallowing_everything_raises_robots_forbidden() -> None:
    with FixtureServer("closed") as server:
        with pytest.raises(RobotsForbidden) as caught:
            crawl_site(server.url("/"), LOCAL)
        assert server.paths() == ["/robots.txt"]
    assert caught.value.kind == "robots_disallowed"
    assert caught.value.reason == "robots_disallowed"


@pytest.mark.parametrize("status", [500, 503, 429])
def test_robots_server_error_means_full_disallow(status: int) -> None:
    routes = {"/robots.txt": Body(b"busy", "text/plain", status=status)}
    with FixtureServer("saas", routes=routes) as server:
        with pytest.raises(RobotsForbidden) as caught:
            crawl_site(server.url("/"), LOCAL)
        assert server.paths() == ["/robots.txt"]
    assert caught.value.reason == "robots_unreachable"
    assert str(status) in caught.value.detail


def test_robots_redirect_is_followed() -> None:
    routes = {
        "/robots.txt": Redirect("/real-robots.txt", 301),
        "/real-robots.txt": Body(b"User-agent: launchdirbot\nDisallow: /\n", "text/plain"),
    }
    with FixtureServer("saas", routes=routes) as server:
        with pytest.raises(RobotsForbidden):
            crawl_site(server.url("/"), LOCAL)
        assert server.paths() == ["/robots.txt", "/real-robots.txt"]


# --- redirects ------------------------------------------------------------------------------------


def redirect_chain(length: int) -> dict[str, Redirect]:
    """/hop/1 -> /hop/2 -> ... -> /hop/<length> -> /"""
    routes = {f"/hop/{i}": Redirect(f"/hop/{i + 1}") for i in range(1, length)}
    routes[f"/hop/{length}"] = Redirect("{{BASE}}/")
    return routes


def test_redirect_chain_longer_than_the_limit_fails() -> None:
    with FixtureServer("saas", routes=redirect_chain(6)) as server:
        with pytest.raises(TooManyRedirects) as caught:
            crawl_site(server.url("/hop/1"), LOCAL)
        requests = server.paths()
    assert isinstance(caught.value, SiteUnreachable)
    assert requests == ["/robots.txt"] + [f"/hop/{i}" for i in range(1, 7)]


def test_redirect_chain_within_the_limit_is_followed() -> None:
    with FixtureServer("saas", routes=redirect_chain(5)) as server:
        result = crawl_site(server.url("/hop/1"), replace(LOCAL, max_pages=1))
    assert result.start_url == server.url("/hop/1")
    assert result.final_url == server.url("/")
    assert result.homepage is not None and result.homepage.requested_url == server.url("/hop/1")


@pytest.mark.parametrize(
    "target", ["http://10.0.0.1/admin", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:10.0.0.1]/",
               "http://192.168.1.1:8080/", "http://internal.example/"]
)
def test_homepage_redirect_to_a_private_address_is_blocked_without_connecting(
    target: str, connections: list[tuple[str, int]]
) -> None:
    resolved: list[str] = []

    def resolver(host: str) -> list[str]:
        resolved.append(host)
        return ["10.20.30.40"]

    with FixtureServer("saas", routes={"/": Redirect(target)}) as server:
        with pytest.raises(BlockedAddress):
            crawl_site(server.url("/"), LOCAL, resolver=resolver)
        assert server.paths() == ["/robots.txt", "/"]
    assert {host for host, _ in connections} == {"127.0.0.1"}
    assert resolved in ([], ["internal.example"])


def test_homepage_redirect_to_another_origin_obeys_that_origins_robots() -> None:
    with FixtureServer("closed") as closed, FixtureServer("saas", routes={"/": Redirect(closed.url("/"))}) as entry:
        with pytest.raises(RobotsForbidden):
            crawl_site(entry.url("/"), LOCAL)
        assert closed.paths() == ["/robots.txt"], "the other origin's homepage is never fetched"


def test_homepage_redirect_to_another_origin_crawls_that_site() -> None:
    with FixtureServer("polite") as target:
        entry_routes = {**NO_ROBOTS, "/": Redirect(target.url("/"))}
        with FixtureServer(None, routes=entry_routes) as entry:
            result = crawl_site(entry.url("/"), LOCAL)
    assert result.start_url == entry.url("/")
    assert result.site == target.base
    assert result.robots_txt_url == target.url("/robots.txt")
    assert {s.url for s in result.skipped} >= {target.url("/team"), target.url("/pricing")}
    assert entry.paths() == ["/robots.txt", "/"]


def test_failures_on_other_pages_are_skipped_not_raised(connections: list[tuple[str, int]]) -> None:
    homepage = html(
        '<a href="/about">About</a><a href="/pricing">Pricing</a><a href="/features">Features</a>'
        '<a href="/faq">FAQ</a><a href="/team">Team</a><a href="/contact">Contact</a>'
        '<a href="/customers">Customers</a><a href="/blog">Blog</a><a href="/product">Product</a>',
        "Skips",
    )
    routes = {
        **NO_ROBOTS,
        "/": Body(homepage),
        "/about": Redirect("http://10.0.0.1/about"),
        "/pricing": Redirect("http://localhost:{{PORT}}/pricing"),
        "/features": Redirect("/features-2"),
        "/features-2": Redirect("/features"),
        "/faq": Body(b"missing", status=404),
        "/team": Body(b"%PDF-1.7 binary", "application/pdf"),
        "/contact": Body(html("slow"), delay=2.0),
        "/customers": Huge(500_000, unit=b" " * 1024, prefix=b""),
        "/blog": Redirect("/"),
        "/product": Body(html("<p>The product page.</p>", "Product")),
    }
    settings = replace(LOCAL, request_timeout=0.5, max_page_bytes=100_000)
    with FixtureServer(None, routes=routes) as server:
        result = crawl_site(server.url("/"), settings)
        requests = server.paths()

    skipped = {s.url.removeprefix(server.base): s.reason for s in result.skipped}
    assert skipped == {
        "/about": "blocked_address",
        "/pricing": "off_site",
        "/features": "too_many_redirects",
        "/faq": "http_error",
        "/team": "not_html",
        "/contact": "error",
        "/customers": "too_large",
        "/blog": "duplicate",
    }
    assert paths_of(result, server.base) == ["/", "/product"]
    assert {host for host, _ in connections} == {"127.0.0.1"}, "no connection to 10.0.0.1 or localhost"
    assert "/pricing" in requests and requests.count("/pricing") == 1


# --- size, type and availability of the homepage ------------------------------------------------------


def test_huge_homepage_is_cut_at_the_cap() -> None:
    with FixtureServer(None, routes={**NO_ROBOTS, "/": Huge(20_000_000)}) as server:
        result = crawl_site(server.url("/"), replace(LOCAL, max_pages=1))
    home = result.homepage
    assert home is not None
    assert home.truncated is True
    assert home.bytes == LOCAL.max_page_bytes == 2_000_000
    assert home.title == "Huge page"
    assert home.text.startswith("Filler paragraph with visible words.")


def test_homepage_without_usable_html_before_the_cap_is_too_large() -> None:
    routes = {**NO_ROBOTS, "/": Huge(5_000_000, unit=b" \n" * 512, prefix=b"")}
    with FixtureServer(None, routes=routes) as server:
        with pytest.raises(TooLarge):
            crawl_site(server.url("/"), replace(LOCAL, max_page_bytes=100_000))


def test_gzip_bomb_is_decoded_only_up_to_the_cap() -> None:
    bomb = b"<!doctype html><html><head><title>Bomb</title></head><body><p>Compressed hello.</p>" + b" " * 30_000_000
    with FixtureServer(None, routes={**NO_ROBOTS, "/": Gzipped(bomb)}) as server:
        result = crawl_site(server.url("/"), replace(LOCAL, max_pages=1, max_page_bytes=200_000))
    home = result.homepage
    assert home is not None and home.truncated and home.bytes == 200_000
    assert home.title == "Bomb" and home.text == "Compressed hello."
    assert len(gzip.compress(bomb[:1000])) < 1000


@pytest.mark.parametrize(
    ("content", "content_type"),
    [(b"%PDF-1.7 ...", "application/pdf"), (b'{"name": "acme"}', "application/json"),
     (b"\x89PNG\r\n\x1a\n....", "image/png"), (b"\x00\x01binary", "")],
)
def test_non_html_homepage_raises_not_html(content: bytes, content_type: str) -> None:
    with FixtureServer(None, routes={**NO_ROBOTS, "/": Body(content, content_type)}) as server:
        with pytest.raises(NotHtml):
            crawl_site(server.url("/"), LOCAL)


def test_homepage_without_content_type_is_sniffed() -> None:
    with FixtureServer(None, routes={**NO_ROBOTS, "/": Body(html("<p>Sniffed.</p>"), "")}) as server:
        result = crawl_site(server.url("/"), LOCAL)
    assert result.homepage is not None and result.homepage.text == "Sniffed."


def test_homepage_http_error_raises() -> None:
    with FixtureServer(None, routes={**NO_ROBOTS, "/": Body(b"boom", status=500)}) as server:
        with pytest.raises(HttpStatusError) as caught:
            crawl_site(server.url("/"), LOCAL)
    assert caught.value.status == 500 and isinstance(caught.value, SiteUnreachable)


def test_connection_refused_means_unreachable() -> None:
    port = free_port_without_listener()
    with pytest.raises(SiteUnreachable):
        crawl_site(f"http://127.0.0.1:{port}/", LOCAL)


def test_slow_homepage_times_out() -> None:
    with FixtureServer(None, routes={**NO_ROBOTS, "/": Body(html("late"), delay=2.0)}) as server:
        with pytest.raises(SiteUnreachable) as caught:
            crawl_site(server.url("/"), replace(LOCAL, request_timeout=0.4))
    assert caught.value.reason == "timeout"


def test_loopback_is_refused_unless_explicitly_allowed() -> None:
    with FixtureServer("saas") as server:
        with pytest.raises(BlockedAddress) as caught:
            crawl_site(server.url("/"), CrawlSettings())
        assert server.paths() == []
    assert caught.value.reason == "loopback_address"


# --- budgets ------------------------------------------------------------------------------------


def test_total_timeout_stops_the_crawl_and_keeps_what_it_has() -> None:
    names = ["about", "pricing", "features", "faq", "team", "contact"]
    routes = {**NO_ROBOTS, "/": Body(html("".join(f'<a href="/{n}">{n}</a>' for n in names)))}
    routes.update({f"/{n}": Body(html(f"<p>{n} page</p>", n), delay=0.35) for n in names})
    with FixtureServer(None, routes=routes) as server:
        result = crawl_site(server.url("/"), replace(LOCAL, total_timeout=1.0))
    assert 1 <= len(result.pages) < 1 + len(names)
    reasons = {s.reason for s in result.skipped}
    assert reasons <= {"budget_exhausted", "error"} and "budget_exhausted" in reasons


def test_total_byte_budget_stops_the_crawl() -> None:
    names = ["about", "pricing", "features", "faq", "team"]
    filler = "<p>" + "word " * 6_000 + "</p>"
    routes = {**NO_ROBOTS, "/": Body(html("".join(f'<a href="/{n}">{n}</a>' for n in names)))}
    routes.update({f"/{n}": Body(html(filler, n)) for n in names})
    with FixtureServer(None, routes=routes) as server:
        result = crawl_site(server.url("/"), replace(LOCAL, max_total_bytes=80_000))
        requests = server.paths()
    assert sum(page.bytes for page in result.pages) == 80_000
    assert paths_of(result, server.base) == ["/", "/about", "/pricing", "/features"]
    assert [page.truncated for page in result.pages] == [False, False, False, True]
    assert {s.url.removeprefix(server.base): s.reason for s in result.skipped} == {
        "/faq": "budget_exhausted", "/team": "budget_exhausted"}
    assert "/faq" not in requests and "/team" not in requests


# --- DNS rebinding ------------------------------------------------------------------------------


def test_connect_time_guard_stops_dns_rebinding(connections: list[tuple[str, int]]) -> None:
    """The name passes the check with a public address, then resolves to loopback when connecting."""
    answers = iter([["93.184.216.34"], ["127.0.0.1"]])

    def rebinding_resolver(host: str) -> list[str]:
        return next(answers, ["127.0.0.1"])

    with FixtureServer("saas") as server:
        url = f"http://rebind.example:{server.url('/').split(':')[2]}"
        check_url(url, resolver=rebinding_resolver)  # first answer: public, passes
        with httpx.Client(transport=GuardedTransport(resolver=rebinding_resolver)) as client:
            with pytest.raises(BlockedAddress):
                client.get(url)
        assert server.paths() == []
    assert connections == []


def test_connect_time_guard_connects_to_the_vetted_address(connections: list[tuple[str, int]]) -> None:
    with FixtureServer("saas") as server:
        port = int(server.base.rsplit(":", 1)[1])
        transport = GuardedTransport(allow_loopback=True, resolver=lambda host: ["127.0.0.1"])
        with httpx.Client(transport=transport) as client:
            response = client.get(f"http://acme-flow.example:{port}/about")
        assert server.paths() == ["/about"]
    assert response.status_code == 200 and b"About us" in response.content
    assert connections == [("127.0.0.1", port)]
