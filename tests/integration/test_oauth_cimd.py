"""The client ID metadata document fetcher against local https servers: cache, limits, address guard, TLS."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import orjson
import pytest

from tests.e2e.oauth_support import DocumentServer, Reply, Tls, make_tls
from workers.adapters.client_metadata import CimdError, CimdFetcher

CALLBACK = "http://127.0.0.1:9/cb"


@pytest.fixture(scope="module")
def tls() -> Tls:
    made = make_tls(tempfile.mkdtemp(prefix="launchdir-tls-"))
    if made is None:
        pytest.skip("the openssl command is needed to make a test certificate")
    return made


@pytest.fixture(scope="module")
def site(tls: Tls) -> Iterator[DocumentServer]:
    server = DocumentServer(tls)
    yield server
    server.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _serve(site: DocumentServer, path: str, cache_control: str | None, name: str = "App") -> str:
    url = site.url + path
    headers = {"content-type": "application/json"}
    if cache_control:
        headers["cache-control"] = cache_control
    body = orjson.dumps({"client_id": url, "client_name": name, "redirect_uris": [CALLBACK]})
    site.serve(path, Reply(body, headers=headers))
    return url


def test_documents_are_kept_as_long_as_cache_control_says_within_bounds(site: DocumentServer, tls: Tls) -> None:
    clock = Clock()
    fetcher = CimdFetcher(allow_loopback=True, ca_file=tls.ca, clock=clock)
    kept = _serve(site, "/kept.json", "public, max-age=120")
    assert fetcher.get(kept).client_name == "App"
    _serve(site, "/kept.json", "max-age=120", name="App v2")
    clock.now += 100
    assert fetcher.get(kept).client_name == "App" and site.hits["/kept.json"] == 1
    clock.now += 30
    assert fetcher.get(kept).client_name == "App v2" and site.hits["/kept.json"] == 2
    never = _serve(site, "/never.json", "no-store")
    fetcher.get(never)
    fetcher.get(never)
    assert site.hits["/never.json"] == 2
    short = _serve(site, "/short.json", "max-age=1")  # raised to the 60 s floor
    fetcher.get(short)
    clock.now += 59
    fetcher.get(short)
    assert site.hits["/short.json"] == 1


def test_the_cache_is_bounded(site: DocumentServer, tls: Tls) -> None:
    fetcher = CimdFetcher(allow_loopback=True, ca_file=tls.ca, max_entries=2)
    urls = [_serve(site, f"/lru-{i}.json", "max-age=600") for i in range(3)]
    for url in urls:
        fetcher.get(url)
    fetcher.get(urls[0])  # evicted by the third: fetched again
    assert site.hits["/lru-0.json"] == 2 and site.hits["/lru-2.json"] == 1


def test_loopback_needs_the_test_setting(site: DocumentServer, tls: Tls) -> None:
    url = _serve(site, "/guarded.json", None)
    with pytest.raises(CimdError, match="not allowed.*127.0.0.1"):
        CimdFetcher(allow_loopback=False, ca_file=tls.ca).get(url)
    assert "/guarded.json" not in site.hits  # refused before connecting


def test_an_untrusted_certificate_fails_tls(site: DocumentServer) -> None:
    url = _serve(site, "/tls.json", None)
    with pytest.raises(CimdError, match="TLS failed"):
        CimdFetcher(allow_loopback=True).get(url)


def test_time_and_size_limits(site: DocumentServer, tls: Tls) -> None:
    url = site.url + "/slow.json"
    site.serve("/slow.json", Reply(orjson.dumps({"client_id": url}), delay=1.5))
    with pytest.raises(CimdError, match="took longer than 0.5 s"):
        CimdFetcher(allow_loopback=True, ca_file=tls.ca, timeout=0.5).get(url)
    big = site.serve("/big.json", Reply(b" " * 2000 + b"{}"))
    with pytest.raises(CimdError, match="larger than 1024 bytes"):
        CimdFetcher(allow_loopback=True, ca_file=tls.ca, max_bytes=1024).get(big)
