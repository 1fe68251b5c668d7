"""Removing an owner by hand never leaves the Verified mark without the owner whose claim earned it: the claimant is
refused (void the claim instead), on the website and the command line, and nothing is recorded; another owner goes
and the mark stays, since the claimant still speaks for the listing; voiding the claim then takes the mark away.
Against the running server with a local DNS server, as the claim tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from typing import Any
from uuid import uuid4

import pytest
from click.testing import CliRunner

from aggregates import listing
from events.listing import ListingOwnerRemoved, ListingVerificationWithdrawn
from launchdir.cli import main
from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.founder_support_listings import signed_in_client
from tests.e2e.submission_support import person
from tests.e2e.test_staff_claims_void_web import CSRF, PASSWORD, VIEWS, owns, public, staffer, verified_claim


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


def _cli(world: ClaimWorld, *args: str) -> Any:
    return CliRunner().invoke(main, ["staff", *args, "--actor", "ops"], obj=world.container)


def test_the_owner_whose_claim_earned_the_mark_is_not_removed_by_hand(world: ClaimWorld) -> None:
    c = world.container
    earlier, claimant, staff = person(world.server), person(world.server), staffer(world)
    listing_id, slug = live_listing(world, f"https://www.{uuid4().hex[:8]}-mark.io/", owners=[earlier.account_id])
    claim_id = verified_claim(world, claimant, slug)
    assert public(world, slug)["verified"] is True
    stream = listing.listing_stream(listing_id)
    before = len(c.store.stream(stream))

    by_cli = _cli(world, "remove-owner", slug, claimant.email, "--reason", "Removed by hand")
    assert by_cli.exit_code == 1 and f"this owner came by claim {claim_id}: void that claim instead" in by_cli.output
    with closing(signed_in_client(world.server.url, staff.email, PASSWORD)) as web:
        token = CSRF.search(web.get(f"/staff/listings/{slug}/history").text).group(1)  # type: ignore[union-attr]
        by_web = web.post(f"/staff/listings/{slug}/owners/remove",
                          data={"csrf_token": token, "account_id": claimant.account_id, "reason": "Removed by hand"})
        assert by_web.status_code == 409 and f"this owner came by claim {claim_id}" in by_web.text
    assert len(c.store.stream(stream)) == before  # nothing recorded
    assert owns(world, claimant, listing_id) and public(world, slug)["verified"] is True

    other = _cli(world, "remove-owner", slug, earlier.email, "--reason", "Left the company")
    assert other.exit_code == 0, other.output
    assert c.runtime.wait_for(VIEWS, c.store.position(), timeout=10)
    assert not owns(world, earlier, listing_id) and owns(world, claimant, listing_id)
    assert public(world, slug)["verified"] is True  # the claimant, still an owner, still speaks for the listing
    assert not any(isinstance(e, ListingVerificationWithdrawn) for e in c.store.stream(stream))

    voided = _cli(world, "void-claim", str(claim_id), "--reason", "Record of a previous owner")
    assert voided.exit_code == 0, voided.output
    assert c.runtime.wait_for(VIEWS, c.store.position(), timeout=10)
    assert public(world, slug)["verified"] is False  # no verified owner left: the mark went with the claim
    after = c.store.stream(stream)
    assert [e.account_id for e in after if isinstance(e, ListingOwnerRemoved)] == [earlier.account_id,
                                                                                  claimant.account_id]
    assert any(isinstance(e, ListingVerificationWithdrawn) for e in after)
