"""Staff tidy after accounts closed before closing ended follows and withdrew verified marks.

Such an account is closed here as closing did before: the person leaves the owners of the listing
they claimed, but keeps following two listings and the listing keeps its verified mark, which
only that person's claim stood for. `launchdir staff tidy-closed-accounts` ends the follows
(the public follower counts drop) and withdraws the mark with the reason closing gives; a
listing another owner's verified claim stands for keeps its mark; a second run changes nothing
and exits 3.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any
from uuid import UUID, uuid4

import pytest
from click.testing import CliRunner

from aggregates import account, community, listing
from aggregates.base import Meta
from aggregates.listing.leaving import decide_owner_leaves
from commands import account_closure as closure_cmd
from commands import community as community_cmd
from commands.account import AccountLinks
from events.community import ListingUnfollowed
from events.listing import ListingVerificationWithdrawn
from launchdir.cli import main
from tests.conftest import Databases
from tests.e2e.claims_support import ClaimWorld, claims_world, live_listing
from tests.e2e.submission_support import Person, person
from tests.e2e.test_staff_claims_void_web import public, verified_claim

PASSWORD = "a good long password"
VIEWS = ["claims_view", "listing_view", "updates_view"]


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[ClaimWorld]:
    yield from claims_world(databases)


def _followers(world: ClaimWorld, slug: str) -> int:
    return int(public(world, slug)["community"]["followers"])


def _close_as_before(world: ClaimWorld, who: Person, owned: list[int]) -> None:
    """Close the account as closing did before it ended follows and withdrew marks: the account closes, the
    address is released and the person leaves the owners, nothing more."""
    c = world.container
    meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{who.account_id}", channel="web")

    def decision(load: Any) -> list[Any]:
        me = load(UUID(who.account_id), account)
        events = account.decide_close_account(me, uuid4().hex, meta, staff_accounts=0)
        events += account.decide_release_email(load(account.email_stream_id(me.email), account.EMAIL_CLAIM),
                                               me.email, who.account_id, meta)
        for listing_id in owned:
            state = load(listing.listing_stream(listing_id), listing)
            events += decide_owner_leaves(state, who.account_id, closure_cmd.REASON, meta)
        return events

    closed = c.store.decide_across(decision)
    assert c.runtime.wait_for(VIEWS, closed.position, timeout=10)


def test_staff_tidy_the_follows_and_marks_an_old_closing_left(world: ClaimWorld) -> None:
    c = world.container
    owner, leaver, other = person(world.server), person(world.server, password=PASSWORD), person(world.server)
    claimed_id, claimed = live_listing(world, f"https://www.tidy-{uuid4().hex[:8]}.com/", owners=[owner.account_id])
    verified_claim(world, leaver, claimed)
    kept_id, kept = live_listing(world, f"https://www.kept-{uuid4().hex[:8]}.com/", owners=[owner.account_id])
    verified_claim(world, leaver, kept)
    verified_claim(world, other, kept)  # another owner's proof stands for this one
    followed_id, followed = live_listing(world, f"https://www.follow-{uuid4().hex[:8]}.com/")
    meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{leaver.account_id}", channel="web")
    for listing_id in (claimed_id, followed_id):
        community_cmd.follow(c.store, listing_id, leaver.account_id, meta)
    community_cmd.follow(c.store, followed_id, other.account_id, meta.__class__(
        at=meta.at, actor=f"account:{other.account_id}", channel="web"))
    assert c.runtime.wait_for(VIEWS, c.store.position(), timeout=10)
    assert (_followers(world, claimed), _followers(world, followed)) == (1, 2)

    _close_as_before(world, leaver, [claimed_id, kept_id])
    assert public(world, claimed)["verified"] is True  # what the old closing left behind
    assert (_followers(world, claimed), _followers(world, followed)) == (1, 2)

    runner = CliRunner()
    done = runner.invoke(main, ["staff", "tidy-closed-accounts", "--actor", "ops"], obj=c)
    assert done.exit_code == 0, done.output
    assert f"account {leaver.account_id}: 2 follow(s) ended, verified mark withdrawn from 1 listing(s)" in done.stdout
    assert c.runtime.wait_for(VIEWS, c.store.position(), timeout=10)
    assert (_followers(world, claimed), _followers(world, followed)) == (0, 1)  # the other person still follows
    assert public(world, claimed)["verified"] is False
    assert public(world, kept)["verified"] is True
    [withdrawn] = [e for e in c.store.stream(listing.listing_stream(claimed_id))
                   if isinstance(e, ListingVerificationWithdrawn)]
    assert (withdrawn.reason, withdrawn.actor) == ("account_closed", "staff:ops")
    assert not [e for e in c.store.stream(listing.listing_stream(kept_id)) if isinstance(e, ListingVerificationWithdrawn)]

    again = runner.invoke(main, ["staff", "tidy-closed-accounts"], obj=c)
    assert again.exit_code == 3, again.output
    assert "nothing changed: no closed account still follows a listing or holds up a verified mark" in again.output


def test_an_account_closed_now_leaves_nothing_to_tidy(world: ClaimWorld) -> None:
    """Closing ends follows and withdraws marks itself: the tidy finds none of its work left (exit 3)."""
    c = world.container
    leaver = person(world.server, password=PASSWORD)
    followed_id, _ = live_listing(world, f"https://www.now-{uuid4().hex[:8]}.com/")
    meta = Meta(at=datetime.now(timezone.utc), actor=f"account:{leaver.account_id}", channel="web")
    community_cmd.follow(c.store, followed_id, leaver.account_id, meta)
    cmd = closure_cmd.CloseAccount(account_id=UUID(leaver.account_id), email=leaver.email,
                                   password=PASSWORD)  # type: ignore[arg-type]
    closed = closure_cmd.close_account(c.store, cmd, closure_cmd.ClosureScope(followed_ids=(followed_id,)), meta,
                                       AccountLinks(b"k" * 32, world.server.url))
    assert c.runtime.wait_for(VIEWS, closed.position, timeout=10)
    runner = CliRunner()
    runner.invoke(main, ["staff", "tidy-closed-accounts"], obj=c)  # whatever the other test left
    again = runner.invoke(main, ["staff", "tidy-closed-accounts"], obj=c)
    assert again.exit_code == 3, again.output
    unfollowed = [e for e in c.store.stream(community.follow_stream(followed_id, leaver.account_id))
                  if isinstance(e, ListingUnfollowed)]
    assert len(unfollowed) == 1  # the closing's own, not a second one
