"""Client ID metadata documents without a network: URL rules, document validation, cache lifetimes."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from api.oauth.clients import looks_like_url
from workers.adapters.client_metadata import CimdError, cache_seconds, client_id_url_problem, parse_document

URL = "https://app.example/oauth/client.json"


def doc(**overrides: Any) -> bytes:
    base: dict[str, Any] = {"client_id": URL, "client_name": "App", "redirect_uris": ["http://127.0.0.1:3000/cb"]}
    base.update(overrides)
    return orjson.dumps({k: v for k, v in base.items() if v is not ...})


def test_a_valid_document() -> None:
    md = parse_document(URL, doc(grant_types=["authorization_code", "refresh_token"], scope="account:read"))
    assert md.client_name == "App" and md.redirect_uris == ("http://127.0.0.1:3000/cb",)
    assert md.host == "app.example" and md.grant_types == ("authorization_code", "refresh_token")
    assert parse_document(URL, doc()).grant_types == ("authorization_code",)  # RFC 7591's default


@pytest.mark.parametrize("body, words", [
    (b"[1, 2]", "JSON object"),
    (b"{", "not valid JSON"),
    (doc(client_id="https://app.example/other.json"), "is not the URL it was fetched from"),
    (doc(client_id=URL + "/"), "is not the URL it was fetched from"),
    (doc(client_name=...), "client_name is required"),
    (doc(client_name="  "), "client_name is required"),
    (doc(redirect_uris=...), "redirect_uris is required"),
    (doc(redirect_uris=[]), "redirect_uris is required"),
    (doc(redirect_uris=["http://evil.example/cb"]), "only for loopback"),
    (doc(client_secret="x"), "must not contain a client_secret"),
    (doc(token_endpoint_auth_method="client_secret_basic"), "use none"),
    (doc(token_endpoint_auth_method="private_key_jwt"), "use none"),
    (doc(grant_types=["client_credentials"]), "grant_types"),
    (doc(response_types=["token"]), "response_types"),
    (doc(scope="everything"), "unknown scope"),
    (doc(logo_uri=5), "logo_uri"),
])
def test_documents_that_are_refused(body: bytes, words: str) -> None:
    with pytest.raises(CimdError) as refused:
        parse_document(URL, body)
    assert words in str(refused.value)


@pytest.mark.parametrize("url, words", [
    ("http://app.example/client.json", "https"),
    ("https://app.example", "must have a path"),
    ("https://app.example/", "must have a path"),
    ("https://app.example/a/../client.json", ". or .. path segments"),
    ("https://user:pw@app.example/client.json", "user name"),
    ("https://app.example/client.json#x", "fragment"),
    ("https://app.example:99999/client.json", "cannot be parsed"),
])
def test_client_id_urls_that_are_refused(url: str, words: str) -> None:
    problem = client_id_url_problem(url)
    assert problem is not None and words in problem


def test_client_id_urls_that_are_fine() -> None:
    assert client_id_url_problem(URL) is None
    assert client_id_url_problem("https://app.example/client?v=2") is None
    assert looks_like_url(URL) and not looks_like_url("8f6c0c36-6a3b-4a8e-9c39-1f0f7b0a8a11")


@pytest.mark.parametrize("header, seconds", [
    (None, 300), ("max-age=600", 600), ("public, max-age=5", 60), ("max-age=999999", 86400),
    ("no-store", 0), ("no-cache", 0), ('max-age="120"', 120), ("private", 300),
])
def test_cache_lifetimes_follow_cache_control_within_bounds(header: str | None, seconds: float) -> None:
    assert cache_seconds(header, default=300, low=60, high=86400) == seconds
