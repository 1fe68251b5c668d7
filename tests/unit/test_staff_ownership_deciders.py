"""Staff putting ownership right, given/when/then with no database: voiding a claim, removing an owner, and the
price rule staff set prices by."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aggregates import claim, listing, mail
from aggregates.base import Meta
from aggregates.claim import ClaimState
from commands.catalog import price_from_cents, price_from_dollars
from events.claim import ClaimVoided
from events.errors import Conflict, InvalidInput, NotFound
from events.listing import ListingOwnerRemoved, ListingVerificationWithdrawn
from events.mail import EmailQueued
from tests.unit.test_claims_decider import AT, live_listing, started

STAFF = Meta(at=AT, actor="staff:ops@example.com", channel="web", via="session")


def verified(claim_id: int = 7, account: str = "claimant") -> ClaimState:
    return replace(started(claim_id=claim_id), status="verified", account_id=account, version=2)


def notice(to: str) -> claim.Notice:
    return claim.Notice(mail.initial(mail.message_id(f"n:{to}")), to, f"{to}@example.com", "Voided", "Text")


def test_voiding_takes_the_claimant_off_and_the_verified_mark_with_it() -> None:
    owned = live_listing(owners=("first", "claimant"), verified=True)
    events = claim.decide_voiding(verified(), owned, " The record   was left behind ", [], [notice("first")], STAFF)
    voided, removed, withdrawn, mailed = events
    assert isinstance(voided, ClaimVoided) and voided.reason == "The record was left behind"
    assert (voided.claim_id, voided.account_id, voided.actor) == (7, "claimant", "staff:ops@example.com")
    assert isinstance(removed, ListingOwnerRemoved) and removed.account_id == "claimant"
    assert removed.reason == "claim 7 voided: The record was left behind" and removed.originator_version == 5
    assert isinstance(withdrawn, ListingVerificationWithdrawn) and withdrawn.originator_version == 6
    assert isinstance(mailed, EmailQueued)
    after = owned
    for e in (removed, withdrawn):
        after = listing.evolve(e, after)
    assert after.owner_ids == ("first",) and after.verified is False  # the owner from before is still there
    assert claim.evolve(voided, verified()).status == "voided"


def test_another_standing_claim_keeps_the_mark_but_not_one_whose_claimant_left() -> None:
    owned = live_listing(owners=("claimant", "second"), verified=True)
    standing = verified(claim_id=8, account="second")
    kept = claim.decide_voiding(verified(), owned, "Wrong record", [standing], [], STAFF)
    assert not any(isinstance(e, ListingVerificationWithdrawn) for e in kept)
    gone = claim.decide_voiding(verified(), live_listing(owners=("claimant",), verified=True), "Wrong record",
                                [standing], [], STAFF)  # the other claimant is no longer an owner
    assert any(isinstance(e, ListingVerificationWithdrawn) for e in gone)


def test_only_a_verified_claim_is_voided_and_only_once() -> None:
    owned = live_listing(owners=("claimant",), verified=True)
    with pytest.raises(Conflict, match="is pending, not verified"):
        claim.decide_voiding(started(), owned, "Wrong record", [], [], STAFF)
    voided = claim.evolve(claim.decide_void(verified(), "Wrong record", STAFF)[0], verified())
    with pytest.raises(Conflict, match="voided already"):
        claim.decide_void(voided, "Again", STAFF)
    with pytest.raises(NotFound):
        claim.decide_void(claim.initial(claim.claim_stream(99)), "Wrong record", STAFF)
    with pytest.raises(InvalidInput) as short:
        claim.decide_void(verified(), " x ", STAFF)
    assert short.value.problems[0].field == "reason" and short.value.problems[0].rule == "length"


def test_a_claimant_no_longer_an_owner_is_not_removed_twice() -> None:
    events = claim.decide_voiding(verified(), live_listing(owners=("first",), verified=True), "Wrong record", [], [],
                                  STAFF)
    assert [type(e) for e in events] == [ClaimVoided, ListingVerificationWithdrawn]


def test_removing_an_owner_by_hand() -> None:
    owned = live_listing(owners=("first", "second"))
    [removed] = listing.decide_remove_owner(owned, "second", "Left the company", STAFF, open_orders=["LD-1"])
    assert (removed.account_id, removed.reason) == ("second", "Left the company")  # not the last: the order stays
    with pytest.raises(Conflict, match="not an owner"):
        listing.decide_remove_owner(owned, "stranger", "Left the company", STAFF)
    alone = live_listing(owners=("first",))
    with pytest.raises(Conflict, match="last owner and order LD-1"):
        listing.decide_remove_owner(alone, "first", "Left the company", STAFF, open_orders=["LD-1"])
    assert listing.decide_remove_owner(alone, "first", "Left the company", STAFF)  # no open order: allowed
    with pytest.raises(InvalidInput):
        listing.decide_remove_owner(owned, "second", "", STAFF)


@pytest.mark.parametrize("typed", ["0", "0.99", "１２", "12.345", "-3", "1e3", "1,000", " ", "٣"])
def test_a_typed_price_is_ascii_digits_at_least_the_lowest_price(typed: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        price_from_dollars(typed)
    assert refused.value.problems[0].field == "price" and "\n" not in refused.value.problems[0].message


def test_prices_in_dollars_and_in_cents() -> None:
    assert [price_from_dollars(t) for t in ("1", "49", "49.5", "49.50")] == [100, 4900, 4950, 4950]
    assert price_from_cents("4900") == 4900
    for typed in ("99", "0", "49.00", "４９００"):
        with pytest.raises(InvalidInput):
            price_from_cents(typed)
