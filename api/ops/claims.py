"""Claim operations (SPEC §4.6): claim a listing, verify the claim, list your claims.

Writes answer with the claim as `claims_view` shows it after the write
(read-your-writes: the adapter waits, bounded, for the view; a verification
also waits for `listing_view`, so get_my_listing and get_listing show the new
owner and the Verified mark at once). The checks go through the `claim_checks`
port of the services (`workers/claim_check.py`, wired in `launchdir/bootstrap.py`).
"""

from __future__ import annotations

from typing import Any

from api.ops.caller import account_of, naming, wait_for
from api.registry import Operation
from api.services import Call, Services
from commands import claims as cmd
from commands.claim_inputs import ClaimListing, VerifyClaim
from events.errors import Unavailable
from queries import claims as q
from queries.paging import Paging

VIEWS = ("claims_view",)
VERIFIED_VIEWS = ("claims_view", "listing_view", "launches_view")  # profile and badges
TAG = "claims"


def _claim(s: Services, i: ClaimListing, c: Call) -> dict[str, Any]:
    account = account_of(c)
    started = cmd.claim_listing(s.store, i, account, c.meta(), website=s.links["website"])
    wait_for(s, started.position, VIEWS)
    return {**q.get_claim(s.reads, started.claim_id, account, s.now()), "repeated": started.repeated}


def _verify(s: Services, i: VerifyClaim, c: Call) -> dict[str, Any]:
    if s.claim_checks is None:
        raise Unavailable("claim checks are not configured on this server")
    account = account_of(c)
    checked = cmd.verify_claim(s.store, i, account, c.meta(), s.claim_checks)
    wait_for(s, checked.position, VERIFIED_VIEWS if checked.outcome and checked.outcome.ok else VIEWS)
    return {**q.get_claim(s.reads, i.claim_id, account, s.now()), "checked": checked.outcome is not None}


def _list(s: Services, i: q.ListMyClaims, c: Call) -> dict[str, Any]:
    return q.list_my_claims(s.reads, account_of(c), Paging(page=i.page, per_page=i.per_page), s.now())


def operations() -> list[Operation]:
    """The claim rows of the operation table."""
    return [
        Operation("claim_listing", "POST", "/claims", ClaimListing, q.StartedClaim, naming("slug", _claim),
                  scope="listings:write", idempotency_key=True, success_status=201, may_not_find=True, tag=TAG),
        Operation("list_my_claims", "GET", "/claims", q.ListMyClaims, q.ClaimPage, _list, scope="account:read", tag=TAG),
        Operation("verify_claim", "POST", "/claims/{claim_id}/verify", VerifyClaim, q.CheckedClaim, naming("claim_id", _verify),
                  scope="listings:write", idempotency_key=True, tag=TAG),
    ]
