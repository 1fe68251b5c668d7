"""Claim commands and the claims view against real PostgreSQL, checked against a local DNS server and website.

Listings are made the staff's way (create_listing, staff_publish); the checks are
the real `ClaimChecker` the server wires, pointed at servers on 127.0.0.1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any
from uuid import uuid4

import pytest

from aggregates import claim, listing
from aggregates.base import Meta
from commands import account as account_cmd
from commands import claims as claims_cmd
from commands import listing as listing_cmd
from commands import my_listings as my_cmd
from commands.claim_inputs import ClaimListing, VerifyClaim
from commands.my_listing_inputs import UpdateMyListing
from events.claim import ClaimCheckFailed, ClaimVerified
from events.errors import Conflict, InvalidInput, NotFound
from events.listing import ListingOwnerAdded, ListingVerified
from queries import claims as claims_q
from queries import mail as mail_q
from queries.paging import Paging
from tests.conftest import Databases
from tests.conftest import test_settings as settings_for
from tests.fixtures.dns_server import LocalDns
from tests.fixtures.sites.server import Body, FixtureServer

STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli", via="staff")
VIEWS = ["claims_view", "listing_view", "mail_view", "accounts_view"]


@pytest.fixture(scope="module")
def dns_server() -> Iterator[LocalDns]:
    with LocalDns() as server:
        yield server


@pytest.fixture(scope="module")
def c(databases: Databases, dns_server: LocalDns) -> Iterator[Any]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    container = bootstrap(settings_for(databases.create(), crawl_allow_loopback=True,
                                        dns_nameservers=[dns_server.nameserver]))
    ensure_catalog(container)
    yield container
    container.close()


def meta(account_id: str, at: datetime | None = None) -> Meta:
    return Meta(at=at or datetime.now(timezone.utc), actor=f"account:{account_id}", channel="rest", via="api_key:test")


def person(c: Any) -> tuple[str, str]:
    email = f"p-{uuid4().hex[:10]}@example.com"
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=None, verified=True), STAFF, None)
    assert reg.account_id is not None
    return reg.account_id, email


def live_listing(c: Any, website: str, owners: list[str] | None = None, publish: bool = True) -> tuple[int, str]:
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": f"Acme {uuid4().hex[:6]}", "tagline": "Notes", "website_url": website},
        categories=["productivity"], owner_ids=owners or []), STAFF)
    if publish:
        listing_cmd.staff_publish(c.store, made.listing_id, STAFF)
    return made.listing_id, made.slug


def caught_up(c: Any) -> None:
    for name in VIEWS:
        c.runtime.catch_up(name)


def mine(c: Any, claim_id: int, account_id: str) -> dict[str, Any]:
    caught_up(c)
    return claims_q.get_claim(c.services.reads, claim_id, account_id, c.services.now())


def verify(c: Any, claim_id: int, account_id: str, at: datetime | None = None) -> claims_cmd.Checked:
    return claims_cmd.verify_claim(c.store, VerifyClaim(claim_id=claim_id), account_id, meta(account_id, at),
                                   c.services.claim_checks)


def test_a_dns_claim_verifies_and_the_claimant_becomes_an_owner(c: Any, dns_server: LocalDns) -> None:
    first, first_email = person(c)
    claimant, _ = person(c)
    domain = f"acme-{uuid4().hex[:8]}.com"
    listing_id, slug = live_listing(c, f"https://www.{domain}/", owners=[first])
    started = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant),
                                       website="http://site.test/")
    again = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant),
                                     website="http://site.test/")
    assert (again.claim_id, again.repeated, started.repeated) == (started.claim_id, True, False)
    doc = mine(c, started.claim_id, claimant)
    record = doc["instructions"]["dns"]
    assert doc["status"] == "pending" and doc["domain"] == domain and record["name"] == f"_launchdir-challenge.{domain}"
    assert len(record["value"]) >= 32 and record["value"] in doc["instructions"]["summary"]

    missing = verify(c, started.claim_id, claimant)
    assert missing.outcome is not None and missing.outcome.reason == "record_not_found"
    assert mine(c, started.claim_id, claimant)["attempts"] == 1
    dns_server.set_txt(f"_launchdir-challenge.{domain}", record["value"])
    done = verify(c, started.claim_id, claimant)
    assert done.outcome is not None and done.outcome.ok
    doc = mine(c, started.claim_id, claimant)
    assert doc["status"] == "verified" and doc["reason"] is None and doc["verified_at"] is not None

    state = listing_cmd.load(c.store, listing_id)
    assert state.owner_ids == (first, claimant) and state.verified
    tail = c.store.stream(listing.listing_stream(listing_id))[-2:]
    assert [type(e) for e in tail] == [ListingOwnerAdded, ListingVerified] and tail[0].actor == f"account:{claimant}"
    (verified,) = [e for e in c.store.stream(claim.claim_stream(started.claim_id)) if isinstance(e, ClaimVerified)]
    assert verified.timestamp == tail[0].timestamp  # one decision, one append
    [notice] = mail_q.outbox(c.services.reads, to=first_email)
    assert notice["kind"] == "claim_owner_notice" and "keep your access" in notice["text"]

    updated = my_cmd.update_my_listing(c.store, UpdateMyListing.model_validate(
        {"listing_id": listing_id, "fields": {"tagline": "Claimed and edited"}}), claimant, meta(claimant))
    assert updated.changed == ("tagline",)
    with pytest.raises(Conflict):  # an owner has nothing to claim
        claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="meta"), claimant, meta(claimant), website="")


def test_claims_of_unknown_unpublished_or_unsuitable_listings(c: Any) -> None:
    claimant, _ = person(c)
    owner, _ = person(c)
    _, saved = live_listing(c, "https://saved-only.com/", publish=False)
    _, owned = live_listing(c, "https://owned.com/", owners=[owner])
    _, on_ip = live_listing(c, "http://127.0.0.1:8123/")
    _, no_site = live_listing(c, "")
    for slug in ("no-such-listing", saved):
        with pytest.raises(NotFound):
            claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant), website="")
    with pytest.raises(Conflict):
        claims_cmd.claim_listing(c.store, ClaimListing(slug=owned, method="dns"), owner, meta(owner), website="")
    with pytest.raises(Conflict):
        claims_cmd.claim_listing(c.store, ClaimListing(slug=on_ip, method="dns"), claimant, meta(claimant), website="")
    with pytest.raises(Conflict):
        claims_cmd.claim_listing(c.store, ClaimListing(slug=no_site, method="meta"), claimant, meta(claimant), website="")


def test_someone_elses_claim_is_not_found(c: Any) -> None:
    claimant, _ = person(c)
    stranger, _ = person(c)
    _, slug = live_listing(c, f"https://other-{uuid4().hex[:6]}.com/")
    started = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant),
                                       website="")
    with pytest.raises(NotFound):
        verify(c, started.claim_id, stranger)
    with pytest.raises(NotFound):
        mine(c, started.claim_id, stranger)
    with pytest.raises(NotFound):
        verify(c, 987654321, claimant)


def test_checks_are_limited_and_a_used_up_claim_makes_room_for_a_new_one(c: Any, dns_server: LocalDns) -> None:
    claimant, _ = person(c)
    domain = f"limit-{uuid4().hex[:8]}.com"
    _, slug = live_listing(c, f"https://{domain}/")
    dns_server.set_txt(f"_launchdir-challenge.{domain}", "not-the-token")
    started = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant),
                                       website="")
    for _ in range(claim.MAX_ATTEMPTS):
        checked = verify(c, started.claim_id, claimant)
        assert checked.outcome is not None and checked.outcome.reason == "wrong_value"
    doc = mine(c, started.claim_id, claimant)
    assert (doc["status"], doc["reason"], doc["attempts"], doc["attempts_left"]) == ("failed", "too_many_attempts", 20, 0)
    with pytest.raises(Conflict):
        verify(c, started.claim_id, claimant)
    fails = [e for e in c.store.stream(claim.claim_stream(started.claim_id)) if isinstance(e, ClaimCheckFailed)]
    assert len(fails) == claim.MAX_ATTEMPTS
    fresh = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant), website="")
    assert fresh.claim_id != started.claim_id and not fresh.repeated


def test_an_expired_claim_is_closed_when_checked_and_a_new_one_can_start(c: Any, dns_server: LocalDns) -> None:
    claimant, _ = person(c)
    domain = f"late-{uuid4().hex[:8]}.com"
    _, slug = live_listing(c, f"https://{domain}/")
    started = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant),
                                       website="")
    token = mine(c, started.claim_id, claimant)["instructions"]["dns"]["value"]
    dns_server.set_txt(f"_launchdir-challenge.{domain}", token)
    later = datetime.now(timezone.utc) + claim.TTL + timedelta(minutes=1)
    assert claims_q.get_claim(c.services.reads, started.claim_id, claimant, later)["status"] == "expired"
    checked = verify(c, started.claim_id, claimant, at=later)
    assert checked.outcome is None
    doc = mine(c, started.claim_id, claimant)
    assert (doc["status"], doc["reason"]) == ("expired", "expired")
    again = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="dns"), claimant, meta(claimant, later),
                                     website="")
    assert again.claim_id != started.claim_id


def test_meta_and_file_claims_against_a_local_site(c: Any) -> None:
    claimant, _ = person(c)
    with FixtureServer() as site:
        listing_id, slug = live_listing(c, site.url("/"))
        meta_claim = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="meta"), claimant,
                                              meta(claimant), website="")
        file_claim = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="file"), claimant,
                                              meta(claimant), website="")
        file_doc = mine(c, file_claim.claim_id, claimant)["instructions"]["file"]
        assert file_doc["url"] == site.url("/.well-known/launchdir-verification.txt")
        site.routes["/.well-known/launchdir-verification.txt"] = Body(file_doc["content"].encode(), "text/plain")
        assert verify(c, file_claim.claim_id, claimant).outcome.ok  # type: ignore[union-attr]
        tag = mine(c, meta_claim.claim_id, claimant)["instructions"]["meta"]["tag"]
        site.routes["/"] = Body(f"<html><head>{tag}</head></html>".encode())
        assert verify(c, meta_claim.claim_id, claimant).outcome.ok  # type: ignore[union-attr]
    assert listing_cmd.load(c.store, listing_id).owner_ids == (claimant,)
    caught_up(c)
    page = claims_q.list_my_claims(c.services.reads, claimant, Paging(), c.services.now())
    assert [i["claim_id"] for i in page["items"]] == [file_claim.claim_id, meta_claim.claim_id]
    assert [i["status"] for i in page["items"]] == ["verified", "verified"]


def test_an_email_claim_verifies_by_its_link_once(c: Any) -> None:
    claimant, _ = person(c)
    domain = f"mail-{uuid4().hex[:8]}.com"
    listing_id, slug = live_listing(c, f"https://{domain}/")
    with pytest.raises(InvalidInput) as refused:
        claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="email", email="me@gmail.com"), claimant,
                                 meta(claimant), website="http://site.test/")
    assert refused.value.problems[0].rule == "domain"
    address = f"ceo@eu.{domain}"
    started = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="email", email=address), claimant,
                                       meta(claimant), website="http://site.test/")
    caught_up(c)
    [message] = mail_q.outbox(c.services.reads, to=address)
    link = re.search(r"http://site\.test/claims/confirm\?claim=(\d+)&token=(\S+)", message["text"])
    assert link is not None and int(link.group(1)) == started.claim_id
    secret = link.group(2)
    state = claims_cmd.load(c.store, started.claim_id)
    assert state.token == "" and secret not in repr(c.store.stream(state.id))
    assert mine(c, started.claim_id, claimant)["instructions"]["email"] == {"sent_to": address}
    assert verify(c, started.claim_id, claimant).outcome is None  # nothing to check: the link verifies
    with pytest.raises(NotFound):
        claims_cmd.confirm_claim_link(c.store, started.claim_id, secret + "x", meta(claimant))
    web = Meta(at=datetime.now(timezone.utc), actor="anonymous", channel="web", via=f"claim_link:{started.claim_id}")
    done = claims_cmd.confirm_claim_link(c.store, started.claim_id, secret, web)
    assert (done.status, done.listing_id) == ("verified", listing_id)
    again = claims_cmd.confirm_claim_link(c.store, started.claim_id, secret, web)
    assert again.status == "verified" and again.position >= done.position
    assert listing_cmd.load(c.store, listing_id).owner_ids == (claimant,)


def test_an_expired_link_closes_its_claim(c: Any) -> None:
    claimant, _ = person(c)
    domain = f"oldmail-{uuid4().hex[:8]}.com"
    listing_id, slug = live_listing(c, f"https://{domain}/")
    started = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="email", email=f"a@{domain}"),
                                       claimant, meta(claimant), website="http://site.test/")
    caught_up(c)
    [message] = mail_q.outbox(c.services.reads, to=f"a@{domain}")
    secret = message["text"].split("token=", 1)[1].split()[0]
    late = Meta(at=datetime.now(timezone.utc) + claim.TTL + timedelta(hours=1), actor="anonymous", channel="web")
    assert claims_cmd.confirm_claim_link(c.store, started.claim_id, secret, late).status == "expired"
    assert listing_cmd.load(c.store, listing_id).owner_ids == ()
