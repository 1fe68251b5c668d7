"""`Allow` lists every method of a REST path: OPTIONS answers 204 with it, a method the path does not serve
is a 405 problem with it (one route per path, whatever the number of operations on it)."""

from __future__ import annotations

import re
from collections import defaultdict

import httpx
import pytest

from api.ops import build_registry
from tests.conftest import RunningServer

ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def _paths() -> dict[str, set[str]]:
    methods: dict[str, set[str]] = defaultdict(set)
    for op in build_registry():
        methods[op.path].add(op.method)
    return methods


def _expected(methods: set[str]) -> list[str]:
    allowed = methods | {"OPTIONS"} | ({"HEAD"} if "GET" in methods else set())
    return [m for m in ORDER if m in allowed]


def _concrete(path: str) -> str:
    return "/api/v1" + re.sub(r"{[a-z_]+}", "00000000-0000-4000-8000-000000000000", path)


def _allow(r: httpx.Response) -> list[str]:
    return [m.strip() for m in r.headers["allow"].split(",")]


def test_options_and_a_wrong_method_on_a_draft_list_get_and_patch(server: RunningServer) -> None:
    url = server.url + "/api/v1/drafts/00000000-0000-4000-8000-000000000000"
    options = httpx.options(url, timeout=10)
    assert options.status_code == 204 and options.content == b""
    assert _allow(options) == ["GET", "HEAD", "PATCH", "OPTIONS"]
    for method in ("DELETE", "PUT", "POST"):
        r = httpx.request(method, url, timeout=10)
        assert r.status_code == 405, method
        assert r.headers["content-type"] == "application/problem+json"
        assert _allow(r) == ["GET", "HEAD", "PATCH", "OPTIONS"]
        problem = r.json()
        assert problem["status"] == 405 and problem["type"].endswith("/problems/method-not-allowed")
        assert method in problem["detail"]
    assert httpx.get(url, timeout=10).status_code == 401  # one route, each method still reaches its operation
    assert httpx.patch(url, json={"fields": {}}, timeout=10).status_code == 401
    assert httpx.head(server.url + "/api/v1/site", timeout=10).status_code == 200


def test_a_collection_with_get_and_post_lists_both(server: RunningServer) -> None:
    r = httpx.options(server.url + "/api/v1/drafts", timeout=10)
    assert r.status_code == 204 and _allow(r) == ["GET", "HEAD", "POST", "OPTIONS"]
    r = httpx.delete(server.url + "/api/v1/drafts", timeout=10)
    assert r.status_code == 405 and _allow(r) == ["GET", "HEAD", "POST", "OPTIONS"]


@pytest.mark.parametrize("path, methods", sorted(_paths().items()))
def test_every_path_lists_exactly_its_methods(server: RunningServer, path: str, methods: set[str]) -> None:
    r = httpx.options(server.url + _concrete(path), timeout=10)
    assert r.status_code == 204 and _allow(r) == _expected(methods)
    missing = next(m for m in ("DELETE", "PUT", "PATCH", "POST") if m not in methods)
    wrong = httpx.request(missing, server.url + _concrete(path), timeout=10)
    assert wrong.status_code == 405 and _allow(wrong) == _expected(methods)

