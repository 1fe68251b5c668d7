"""Claims over real HTTP (REST) with API keys, verified for real against a DNS server and a website on 127.0.0.1.

Every method makes its claimant an owner who can then edit the listing; the
listing shows as verified with its Verified badge. Negative cases: wrong token,
expired claim, someone else's claim, an address off the domain, a redirect to a
private address during the meta check, too many checks; and the bounds of SPEC §4.6.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest

from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing, problem
from tests.e2e.submission_support import Person, ik, person
from tests.fixtures.sites.server import Body, FixtureServer, Redirect

API = "/api/v1"


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


@pytest.fixture(scope="module")
def http(world: ClaimWorld) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=world.server.url + API, timeout=30) as client:
        yield client


def claim(http: httpx.Client, who: Person, slug: str, method: str, **extra: Any) -> dict[str, Any]:
    r = http.post("/claims", json={"slug": slug, "method": method, **extra}, headers=who.headers(**ik()))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def verify(http: httpx.Client, who: Person, claim_id: int) -> dict[str, Any]:
    r = http.post(f"/claims/{claim_id}/verify", headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def owner_can_edit(http: httpx.Client, who: Person, listing_id: int, slug: str) -> None:
    r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"tagline": "Edited by its verified owner"}},
                   headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    assert r.json()["tagline"] == "Edited by its verified owner"
    public = http.get(f"/listings/{slug}")
    assert public.status_code == 200 and public.json()["verified"] is True


def test_dns_claim_end_to_end(world: ClaimWorld, http: httpx.Client) -> None:
    first = person(world.server)
    claimant = person(world.server)
    domain = "dns-e2e.example-claims.com"
    listing_id, slug = live_listing(world, f"https://www.{domain}/", owners=[first.account_id])
    assert "verified" not in [b["kind"] for b in http.get(f"/listings/{slug}/badges").json()["badges"]]
    started = claim(http, claimant, slug, "dns")
    assert started["status"] == "pending" and started["repeated"] is False and started["domain"] == "example-claims.com"
    record = started["instructions"]["dns"]
    assert record["type"] == "TXT" and record["name"] == "_launchdir-challenge.example-claims.com"
    assert len(record["value"]) >= 32 and record["name"] in started["instructions"]["summary"]
    repeated = claim(http, claimant, slug, "dns")
    assert (repeated["claim_id"], repeated["repeated"]) == (started["claim_id"], True)

    missing = verify(http, claimant, started["claim_id"])
    assert (missing["status"], missing["reason"], missing["checked"]) == ("pending", "record_not_found", True)
    world.dns.set_txt(record["name"], "a-wrong-token")
    wrong = verify(http, claimant, started["claim_id"])
    assert (wrong["reason"], wrong["attempts"], wrong["attempts_left"]) == ("wrong_value", 2, 18)
    world.dns.set_txt(record["name"], record["value"])
    done = verify(http, claimant, started["claim_id"])
    assert (done["status"], done["reason"]) == ("verified", None)

    mine = http.get("/me/listings", headers=claimant.headers()).json()
    assert [i["listing_id"] for i in mine["items"]] == [listing_id]
    assert "verified" in [b["kind"] for b in http.get(f"/listings/{slug}/badges").json()["badges"]]
    owner_can_edit(http, claimant, listing_id, slug)
    [notice] = world.smtp.wait_for(first.email)
    assert "Another owner" in notice["Subject"]
    assert http.get("/me/listings", headers=first.headers()).json()["items"][0]["listing_id"] == listing_id
    again = verify(http, claimant, started["claim_id"])
    assert (again["status"], again["checked"]) == ("verified", False)
    r = http.post("/claims", json={"slug": slug, "method": "meta"}, headers=claimant.headers(**ik()))
    assert problem(r, 409) == (None, None)


def test_meta_claim_end_to_end_after_a_wrong_token(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    with FixtureServer() as site:
        listing_id, slug = live_listing(world, site.url("/"))
        started = claim(http, claimant, slug, "meta")
        meta = started["instructions"]["meta"]
        assert meta["page"] == site.url("/") and meta["tag"].startswith('<meta name="launchdir-verification"')
        site.routes["/"] = Body(b'<html><head><meta name="launchdir-verification" content="not-it"></head></html>')
        assert verify(http, claimant, started["claim_id"])["reason"] == "wrong_value"
        site.routes["/"] = Body(f"<html><head><title>Hi</title>{meta['tag']}</head><body>Hi</body></html>".encode())
        assert verify(http, claimant, started["claim_id"])["status"] == "verified"
    owner_can_edit(http, claimant, listing_id, slug)


def test_file_claim_end_to_end(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    with FixtureServer() as site:
        listing_id, slug = live_listing(world, site.url("/"))
        started = claim(http, claimant, slug, "file")
        file = started["instructions"]["file"]
        assert file["url"] == site.url("/.well-known/launchdir-verification.txt")
        assert verify(http, claimant, started["claim_id"])["reason"] == "record_not_found"
        site.routes["/.well-known/launchdir-verification.txt"] = Body(file["content"].encode() + b"\n", "text/plain")
        assert verify(http, claimant, started["claim_id"])["status"] == "verified"
    owner_can_edit(http, claimant, listing_id, slug)


def test_a_redirect_to_a_private_address_during_the_meta_check_is_blocked(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    with FixtureServer() as site:
        _, slug = live_listing(world, site.url("/"))
        site.routes["/"] = Redirect("http://192.168.1.10/admin")
        started = claim(http, claimant, slug, "meta")
        checked = verify(http, claimant, started["claim_id"])
        assert (checked["status"], checked["reason"]) == ("pending", "blocked")
        assert "192.168.1.10" in checked["reason_detail"] and site.paths() == ["/robots.txt", "/"]


def test_checks_are_limited_per_claim(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    _, slug = live_listing(world, "https://limits.claims-limit.net/")
    started = claim(http, claimant, slug, "dns")
    for n in range(1, 21):
        answer = verify(http, claimant, started["claim_id"])
        assert answer["attempts"] == n
    assert (answer["status"], answer["reason"], answer["attempts_left"]) == ("failed", "too_many_attempts", 0)
    r = http.post(f"/claims/{started['claim_id']}/verify", headers=claimant.headers(**ik()))
    assert problem(r, 409) == (None, None) and "20 checks" in r.json()["detail"]
    assert claim(http, claimant, slug, "dns")["claim_id"] != started["claim_id"]


def test_an_expired_claim_is_answered_as_expired(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    _, slug = live_listing(world, "https://expiry.claims-expire.org/")
    started = claim(http, claimant, slug, "dns")
    world.dns.set_txt("_launchdir-challenge.claims-expire.org", started["instructions"]["dns"]["value"])
    with world.later(timedelta(days=8)):
        late = verify(http, claimant, started["claim_id"])
        assert (late["status"], late["reason"], late["checked"]) == ("expired", "expired", False)
        fresh = claim(http, claimant, slug, "dns")
    assert fresh["claim_id"] != started["claim_id"] and fresh["instructions"]["dns"]["value"] != \
        started["instructions"]["dns"]["value"]


def test_someone_elses_claim_and_unknown_listings_are_404(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    stranger = person(world.server)
    _, slug = live_listing(world, "https://mine.claims-404.com/")
    started = claim(http, claimant, slug, "dns")
    assert problem(http.post(f"/claims/{started['claim_id']}/verify", headers=stranger.headers(**ik())), 404)
    assert started["claim_id"] not in [i["claim_id"] for i in http.get("/claims", headers=stranger.headers()).json()["items"]]
    assert problem(http.post("/claims/999999/verify", headers=claimant.headers(**ik())), 404)
    r = http.post("/claims", json={"slug": "no-such-listing-here", "method": "dns"}, headers=claimant.headers(**ik()))
    assert problem(r, 404)


def test_email_claims_must_use_an_address_at_the_domain(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    _, slug = live_listing(world, "https://www.claims-mail.io/")
    def post(body: dict[str, Any]) -> httpx.Response:
        return http.post("/claims", json=body, headers=claimant.headers(**ik()))

    assert problem(post({"slug": slug, "method": "email", "email": "me@gmail.com"})) == ("email", "domain")
    assert problem(post({"slug": slug, "method": "email"})) == ("email", "required")
    assert problem(post({"slug": slug, "method": "dns", "email": "a@claims-mail.io"})) == ("email", "not_allowed")
    started = claim(http, claimant, slug, "email", email="Founder@EU.claims-mail.io")
    assert started["instructions"]["email"] == {"sent_to": "founder@eu.claims-mail.io"}
    checked = verify(http, claimant, started["claim_id"])
    assert (checked["status"], checked["checked"]) == ("pending", False)


def test_bounds_and_auth_of_spec_4_6(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    reader = person(world.server, scopes=("account:read",))
    h = claimant.headers(**ik())
    assert problem(http.post("/claims", json={"slug": "x" * 221, "method": "dns"}, headers=h))[0] == "slug"
    assert problem(http.post("/claims", json={"slug": "ok", "method": "carrier-pigeon"}, headers=h))[0] == "method"
    assert problem(http.post("/claims", json={"method": "dns"}, headers=h))[0] == "slug"
    assert problem(http.post("/claims", json={"slug": "ok", "method": "email", "email": "x" * 250 + "@a.io"},
                             headers=h))[0] == "email"
    assert problem(http.post("/claims", json={"slug": "ok", "method": "dns", "extra": 1}, headers=h))[0] == "extra"
    assert problem(http.post("/claims/0/verify", headers=h))[0] == "claim_id"
    assert problem(http.get("/claims?per_page=101", headers=h))[0] == "per_page"
    assert http.post("/claims", json={"slug": "ok", "method": "dns"}).status_code == 401
    assert http.post("/claims", json={"slug": "ok", "method": "dns"}, headers=reader.headers()).status_code == 403
    assert http.get("/claims", headers=reader.headers()).status_code == 200


def test_list_my_claims_newest_first_and_idempotent_retries(world: ClaimWorld, http: httpx.Client) -> None:
    claimant = person(world.server)
    _, a = live_listing(world, "https://a.claims-list.com/")
    _, b = live_listing(world, "https://b.claims-list-two.com/")
    key = ik()
    first = http.post("/claims", json={"slug": a, "method": "dns"}, headers=claimant.headers(**key))
    replay = http.post("/claims", json={"slug": a, "method": "dns"}, headers=claimant.headers(**key))
    assert first.status_code == replay.status_code == 201 and first.json() == replay.json()
    second = claim(http, claimant, b, "file")
    page = http.get("/claims", headers=claimant.headers()).json()
    assert [i["claim_id"] for i in page["items"]] == [second["claim_id"], first.json()["claim_id"]]
    assert page["items"][0]["instructions"]["file"]["url"] == "https://b.claims-list-two.com/.well-known/launchdir-verification.txt"
    assert page["total"] == 2 and page["has_more"] is False
