"""The Claim decider and the claim -> listing move, given/when/then with no database; and the domain rules."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from uuid import uuid4

import pytest
from pydantic import ValidationError

from aggregates import claim, listing, mail
from aggregates.base import Meta
from aggregates.claim import ClaimState
from aggregates.listing import ListingState
from commands.claim_inputs import ClaimListing, check_address, on_domain, registrable_domain
from events.claim import (
    ClaimAttemptsUsedUp,
    ClaimCheckFailed,
    ClaimExpired,
    ClaimKeyTaken,
    ClaimStarted,
    ClaimVerified,
)
from events.errors import Conflict, InvalidInput, NotFound
from events.listing import ListingOwnerAdded, ListingVerified
from events.mail import EmailQueued

AT = datetime(2026, 11, 18, 12, 0, tzinfo=timezone.utc)
META = Meta(at=AT, actor="account:claimant", channel="rest", via="api_key:k1")


def fold(state, events):  # type: ignore[no-untyped-def]
    for e in events:
        state = claim.evolve(e, state)
    return state


def started(method: str = "dns", claim_id: int = 7, at: datetime = AT) -> ClaimState:
    fresh = claim.initial(claim.claim_stream(claim_id))
    key = claim.initial_key(claim.key_stream("claimant", 3, method))
    email = method == "email"
    events = claim.decide_start(
        fresh, key, claim_id=claim_id, listing_id=3, slug="acme", account_id="claimant", method=method,
        domain="acme.com", website_url="https://www.acme.com/", token="" if email else "tok",
        token_hash="h" * 64 if email else "", email="ceo@acme.com" if email else "", expires_at=at + claim.TTL,
        meta=Meta(at=at, actor="account:claimant", channel="rest"))
    return fold(fresh, [e for e in events if e.originator_id == fresh.id])


def live_listing(owners: tuple[str, ...] = (), verified: bool = False, status: str = "live") -> ListingState:
    return ListingState(id=listing.listing_stream(3), version=4, listing_id=3, slug="acme", owner_ids=owners,
                        status=status, verified=verified, profile={"name": "Acme", "website_url": "https://acme.com"})


def test_a_claim_starts_on_its_stream_and_takes_its_key() -> None:
    fresh = claim.initial(claim.claim_stream(7))
    key = claim.initial_key(claim.key_stream("claimant", 3, "dns"))
    events = claim.decide_start(
        fresh, key, claim_id=7, listing_id=3, slug="acme", account_id="claimant", method="dns", domain="acme.com",
        website_url="https://acme.com/", token="tok", token_hash="", email="", expires_at=AT + claim.TTL, meta=META)
    taken, begun = events
    assert isinstance(taken, ClaimKeyTaken) and taken.originator_id == key.id and taken.claim_id == 7
    assert isinstance(begun, ClaimStarted) and begun.originator_id == fresh.id and begun.originator_version == 1
    state = claim.evolve(begun, fresh)
    assert state.status == "pending" and state.is_open(AT) and not state.is_open(AT + claim.TTL)
    with pytest.raises(Conflict):
        claim.decide_start(state, key, claim_id=7, listing_id=3, slug="acme", account_id="claimant", method="dns",
                           domain="acme.com", website_url="https://acme.com/", token="tok", token_hash="", email="",
                           expires_at=AT, meta=META)


def test_an_email_claim_keeps_only_the_hash_of_its_link() -> None:
    state = started("email")
    assert state.token == "" and state.token_hash == "h" * 64 and state.email == "ceo@acme.com"
    claim.check_link(state, "h" * 64)
    with pytest.raises(NotFound):
        claim.check_link(state, "x" * 64)
    with pytest.raises(NotFound):
        claim.check_link(started("dns"), "")


def test_failed_checks_count_and_the_last_one_closes_the_claim() -> None:
    state = started()
    for n in range(1, claim.MAX_ATTEMPTS):
        events = claim.decide_check_failed(state, "record_not_found", "no TXT", META)
        assert [type(e) for e in events] == [ClaimCheckFailed] and events[0].attempt == n  # type: ignore[attr-defined]
        state = fold(state, events)
    last = claim.decide_check_failed(state, "wrong_value", "other value", META)
    assert [type(e) for e in last] == [ClaimCheckFailed, ClaimAttemptsUsedUp]
    state = fold(state, last)
    assert state.status == "failed" and state.attempts_left == 0
    with pytest.raises(Conflict):
        claim.decide_check_failed(state, "wrong_value", "again", META)


def test_an_expired_claim_is_closed_instead_of_checked_or_verified() -> None:
    state = started()
    late = Meta(at=AT + claim.TTL + timedelta(seconds=1), actor="account:claimant", channel="rest")
    assert claim.decide_expire(state, META) == []
    (expired,) = claim.decide_check_failed(state, "wrong_value", "x", late)
    assert isinstance(expired, ClaimExpired)
    with pytest.raises(Conflict):
        claim.decide_verified(state, late)
    closed = fold(state, [expired])
    assert closed.status == "expired" and claim.decide_expire(closed, late) == []


def test_verification_makes_the_claimant_an_owner_of_a_verified_listing_and_tells_the_owners() -> None:
    state = started()
    owned = live_listing(owners=("first-owner",))
    box = mail.initial(mail.message_id("claim-owner-notice:7:first-owner"))
    notice = claim.Notice(box, "first-owner", "first@acme.com", "Another owner", "text")
    events = claim.decide_verification(state, owned, "acme.com", [notice], META)
    assert [type(e) for e in events] == [ClaimVerified, ListingOwnerAdded, ListingVerified, EmailQueued]
    verified, added, badge, queued = events
    assert verified.claim_id == 7 and verified.account_id == "claimant"  # type: ignore[attr-defined]
    assert (added.originator_version, badge.originator_version) == (5, 6)
    assert added.account_id == "claimant" and badge.method == "dns"  # type: ignore[attr-defined]
    assert queued.to == "first@acme.com" and queued.account_id == "first-owner"  # type: ignore[attr-defined]
    assert all(e.actor == "account:claimant" and e.via == "api_key:k1" for e in events)


def test_verification_adds_nothing_twice() -> None:
    events = claim.decide_verification(started(), live_listing(owners=("claimant",), verified=True), "acme.com", [], META)
    assert [type(e) for e in events] == [ClaimVerified]


def test_verification_refuses_a_taken_down_listing_or_one_that_moved_domains() -> None:
    with pytest.raises(Conflict):
        claim.decide_verification(started(), live_listing(status="unpublished"), "acme.com", [], META)
    with pytest.raises(Conflict):
        claim.decide_verification(started(), live_listing(), "other.com", [], META)


def test_someone_elses_claim_is_not_found() -> None:
    with pytest.raises(NotFound):
        claim.require_mine(started(), "stranger")
    with pytest.raises(NotFound):
        claim.require_mine(claim.initial(uuid4()), "claimant")
    claim.require_mine(started(), "claimant")


@pytest.mark.parametrize(("url", "domain"), [
    ("https://www.acme.co.uk/pricing", "acme.co.uk"),
    ("https://app.acme.com", "acme.com"),
    ("https://ACME.com./", "acme.com"),
    ("https://acme.github.io/", "acme.github.io"),  # a private suffix: the user's own domain, not GitHub's
    ("http://127.0.0.1:8123/", "127.0.0.1"),
    ("http://localhost:8000/", ""),
    ("not a url", ""),
])
def test_registrable_domains_follow_the_bundled_public_suffix_list(url: str, domain: str) -> None:
    assert registrable_domain(url) == domain


def test_an_email_claim_needs_an_address_at_the_domain() -> None:
    check_address("ceo@acme.com", "acme.com")
    check_address("ceo@mail.acme.com", "acme.com")
    for wrong in ("ceo@notacme.com", "ceo@acme.com.evil.io", "ceo@acme.co"):
        with pytest.raises(InvalidInput) as refused:
            check_address(wrong, "acme.com")
        assert refused.value.problems[0].field == "email" and refused.value.problems[0].rule == "domain"
    assert on_domain("127.0.0.1", "127.0.0.1") and not on_domain("x.127.0.0.1", "127.0.0.1")


def test_claim_inputs_keep_the_spec_bounds() -> None:
    assert ClaimListing(slug="acme", method="email", email=" CEO@Acme.com ").address() == "ceo@acme.com"
    assert ClaimListing(slug="acme", method="dns").address() == ""
    with pytest.raises(InvalidInput):
        ClaimListing(slug="acme", method="email").address()
    with pytest.raises(InvalidInput):
        ClaimListing(slug="acme", method="meta", email="a@acme.com").address()
    for bad in ({"slug": "a" * 221, "method": "dns"}, {"slug": "acme", "method": "phone"},
                {"slug": "acme", "method": "email", "email": "x" * 250 + "@a.io"}, {"slug": "Acme", "method": "dns"},
                {"slug": "acme", "method": "dns", "extra": 1}):
        with pytest.raises(ValidationError):
            ClaimListing(**bad)  # type: ignore[arg-type]
