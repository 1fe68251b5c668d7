"""Contracts every mutating operation keeps over real HTTP: Idempotency-Key replay, conflict and
concurrency, and malformed bodies as 400 problems (checked on submit_listing, POST /drafts)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import RunningServer
from tests.e2e.submission_support import person
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import FixtureServer


@pytest.fixture(scope="module")
def site() -> Iterator[FixtureServer]:
    with serve("saas") as server:
        yield server


def _drafts(live: RunningServer, headers: dict[str, str]) -> int:
    r = httpx.get(live.url + "/api/v1/drafts", headers=headers, params={"per_page": 100})
    assert r.status_code == 200, r.text
    return int(r.json()["total"])


def test_same_key_same_body_replays_and_another_body_is_refused(live: RunningServer, site: FixtureServer) -> None:
    who = person(live)
    key = "contract-" + uuid.uuid4().hex
    body = {"url": site.url("/")}
    first = httpx.post(live.url + "/api/v1/drafts", json=body, headers=who.headers(**{"Idempotency-Key": key}))
    again = httpx.post(live.url + "/api/v1/drafts", json=body, headers=who.headers(**{"Idempotency-Key": key}))
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again.headers.get("idempotent-replayed") == "true"
    other = httpx.post(live.url + "/api/v1/drafts", json={"url": site.url("/pricing")},
                       headers=who.headers(**{"Idempotency-Key": key}))
    assert other.status_code == 409 and other.headers["content-type"] == "application/problem+json"
    assert _drafts(live, who.headers()) == 1


def test_twenty_concurrent_requests_with_one_key_make_one_draft(live: RunningServer, site: FixtureServer) -> None:
    who = person(live)
    headers = who.headers(**{"Idempotency-Key": "contract-" + uuid.uuid4().hex})

    def submit(_: int) -> httpx.Response:
        return httpx.post(live.url + "/api/v1/drafts", json={"url": site.url("/")}, headers=headers, timeout=30)

    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(submit, range(20)))
    assert {r.status_code for r in answers} == {201}
    assert len({r.content for r in answers}) == 1
    assert _drafts(live, who.headers()) == 1


@pytest.mark.parametrize(
    ("content", "content_type", "rule"),
    [
        (b'{"url": ', "application/json", "json"),
        (b'["https://example.com/"]', "application/json", "type_object"),
        (b"url=https://example.com/", "application/x-www-form-urlencoded", "content_type"),
        (b'{"url": "https://example.com/", "colour": "red"}', "application/json", "unknown_field"),
        (b'{"url": 42}', "application/json", "type_string"),
        (b"{}", "application/json", "required"),
    ],
)
def test_malformed_bodies_are_400_problems(live: RunningServer, content: bytes, content_type: str, rule: str) -> None:
    who = person(live)
    r = httpx.post(live.url + "/api/v1/drafts", content=content,
                   headers=who.headers(**{"Content-Type": content_type, "Idempotency-Key": "c-" + uuid.uuid4().hex}))
    assert r.status_code == 400, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["errors"][0]["rule"] == rule
    assert _drafts(live, who.headers()) == 0
