"""The claim checks against real local servers: a DNS server and a website on 127.0.0.1.

The DNS check asks `tests/fixtures/dns_server.py` through dnspython; the meta
and file checks fetch from the crawler tests' fixture server through the
crawler's guarded fetch (loopback allowed, as for every crawler test).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixtures.dns_server import LocalDns
from tests.fixtures.sites.server import Body, FixtureServer, Redirect
from workers.adapters.dns import TxtLookup, parse_nameserver
from workers.adapters.websites import CrawlSettings
from workers.claim_check import ClaimChecker, claim_crawl_settings

TOKEN = "tok-0123456789abcdefghijklmnopqrstuv"


@pytest.fixture(scope="module")
def dns_server() -> Iterator[LocalDns]:
    with LocalDns() as server:
        yield server


@pytest.fixture
def site() -> Iterator[FixtureServer]:
    with FixtureServer() as server:
        yield server


def checker(dns_server: LocalDns, **crawl: float) -> ClaimChecker:
    settings = CrawlSettings(**{**vars(claim_crawl_settings(allow_loopback=True)), **crawl})  # type: ignore[arg-type]
    return ClaimChecker(TxtLookup([dns_server.nameserver], timeout=1.0), settings)


def page(*head: str) -> Body:
    return Body(("<!doctype html><html><head><title>Acme</title>" + "".join(head) + "</head><body>Hi</body></html>").encode())


def test_nameserver_entries_parse() -> None:
    assert parse_nameserver("127.0.0.1:5353") == ("127.0.0.1", 5353)
    assert parse_nameserver("10.0.0.1") == ("10.0.0.1", 53)
    assert parse_nameserver("[::1]:5353") == ("::1", 5353)
    assert parse_nameserver("::1") == ("::1", 53)


def test_dns_finds_the_token_among_the_txt_records(dns_server: LocalDns) -> None:
    dns_server.set_txt("_launchdir-challenge.acme-dns.com", "v=spf1 -all", TOKEN)
    outcome = checker(dns_server).check("dns", "acme-dns.com", "https://acme-dns.com/", TOKEN)
    assert outcome.ok, outcome
    assert "_launchdir-challenge.acme-dns.com" in dns_server.queries


def test_dns_says_why_it_did_not_verify(dns_server: LocalDns) -> None:
    dns_server.set_txt("_launchdir-challenge.wrong-dns.com", "someone-elses-token")
    dns_server.empty.add("_launchdir-challenge.empty-dns.com")
    dns_server.silent.add("_launchdir-challenge.slow-dns.com")
    c = checker(dns_server)
    wrong = c.check("dns", "wrong-dns.com", "", TOKEN)
    assert (wrong.ok, wrong.reason) == (False, "wrong_value") and "someone-elses-token" in wrong.detail
    assert c.check("dns", "missing-dns.com", "", TOKEN).reason == "record_not_found"
    assert c.check("dns", "empty-dns.com", "", TOKEN).reason == "record_not_found"
    assert c.check("dns", "slow-dns.com", "", TOKEN).reason == "timeout"


def test_meta_tag_on_the_homepage(dns_server: LocalDns, site: FixtureServer) -> None:
    site.routes["/"] = page('<meta name="description" content="x">', f'<META NAME="launchdir-verification" content=" {TOKEN} ">')
    assert checker(dns_server).check("meta", "127.0.0.1", site.url("/"), TOKEN).ok
    assert site.requested("/robots.txt"), "robots.txt is read before the homepage"


def test_meta_tag_missing_or_wrong(dns_server: LocalDns, site: FixtureServer) -> None:
    c = checker(dns_server)
    site.routes["/"] = page()
    assert c.check("meta", "127.0.0.1", site.url("/"), TOKEN).reason == "record_not_found"
    site.routes["/"] = page('<meta name="launchdir-verification" content="another-token">')
    assert c.check("meta", "127.0.0.1", site.url("/"), TOKEN).reason == "wrong_value"
    site.routes["/"] = Body(b"oops", status=500)
    assert c.check("meta", "127.0.0.1", site.url("/"), TOKEN).reason == "unreachable"


def test_a_redirect_to_a_private_address_is_blocked_before_any_connection(dns_server: LocalDns,
                                                                          site: FixtureServer) -> None:
    site.routes["/"] = Redirect("http://10.20.30.40/")
    outcome = checker(dns_server).check("meta", "127.0.0.1", site.url("/"), TOKEN)
    assert (outcome.ok, outcome.reason) == (False, "blocked") and "10.20.30.40" in outcome.detail


def test_a_redirect_off_the_domain_is_blocked(dns_server: LocalDns, site: FixtureServer) -> None:
    site.routes["/"] = Redirect("http://127.0.0.2:{{PORT}}/")
    outcome = checker(dns_server).check("meta", "127.0.0.1", site.url("/"), TOKEN)
    assert outcome.reason == "blocked" and "not on 127.0.0.1" in outcome.detail


def test_robots_txt_that_forbids_us_blocks_the_check(dns_server: LocalDns, site: FixtureServer) -> None:
    site.routes["/robots.txt"] = Body(b"User-agent: launchdirbot\nDisallow: /\n", "text/plain")
    site.routes["/"] = page(f'<meta name="launchdir-verification" content="{TOKEN}">')
    outcome = checker(dns_server).check("meta", "127.0.0.1", site.url("/"), TOKEN)
    assert outcome.reason == "blocked" and not site.requested("/")


def test_a_slow_or_absent_site(dns_server: LocalDns, site: FixtureServer) -> None:
    site.routes["/"] = Body(b"<html></html>", delay=2.5)
    slow = checker(dns_server, request_timeout=1.0, total_timeout=2.0).check("meta", "127.0.0.1", site.url("/"), TOKEN)
    assert slow.reason == "timeout"
    closed = checker(dns_server).check("meta", "127.0.0.1", "http://127.0.0.1:9/", TOKEN)
    assert closed.reason == "unreachable"


def test_the_file_under_well_known(dns_server: LocalDns, site: FixtureServer) -> None:
    c = checker(dns_server)
    url = site.url("/about")  # the file is looked for at the website's origin
    assert c.check("file", "127.0.0.1", url, TOKEN).reason == "record_not_found"
    site.routes["/.well-known/launchdir-verification.txt"] = Body(b"other\n", "text/plain")
    assert c.check("file", "127.0.0.1", url, TOKEN).reason == "wrong_value"
    site.routes["/.well-known/launchdir-verification.txt"] = Body(f"\ufeff{TOKEN}\n".encode(), "text/plain")
    assert c.check("file", "127.0.0.1", url, TOKEN).ok
    assert site.requested("/.well-known/launchdir-verification.txt")
