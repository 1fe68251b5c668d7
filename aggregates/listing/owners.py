"""Staff putting a listing's ownership right: removing one owner with a reason, withdrawing the verified mark.

Claims only ever add owners (docs/claims.md); these decisions are how staff
undo one that should not stand, or take away an owner where no claim is
involved (docs/claims.md, "Staff put ownership right").
"""

from __future__ import annotations

from collections.abc import Sequence

from aggregates.base import Meta, one
from aggregates.listing.state import ListingState, require_listing
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput
from events.listing import ListingOwnerRemoved, ListingVerificationWithdrawn

OWNER_REASON = (3, 500)  # characters; the people concerned are mailed it


def staff_reason(reason: str, field: str = "reason") -> str:
    """The staff's reason on one line, or a 400 naming the field and the rule."""
    why = " ".join((reason or "").split())
    low, high = OWNER_REASON
    if not low <= len(why) <= high:
        rule = f"Give a reason of {low} to {high} characters: the people concerned are mailed it."
        raise InvalidInput(f"say why. {rule}", [FieldProblem(field, "length", rule)])
    return why


def decide_remove_owner(state: ListingState, account_id: str, reason: str, meta: Meta,
                        open_orders: Sequence[str] = ()) -> list[Event]:
    """Staff remove `account_id` from the owners, saying why.

    Someone who is not an owner is a 409 (nothing to remove). The last owner of
    a listing with an order still open (`open_orders`: awaiting payment, or paid
    and not yet fulfilled) stays: removing them would leave that order for a
    listing nobody owns (409 naming the orders).
    """
    require_listing(state)
    why = staff_reason(reason)
    if account_id not in state.owner_ids:
        raise Conflict("this account is not an owner of the listing: nothing to remove")
    if len(state.owner_ids) == 1 and open_orders:
        raise Conflict(f"this is the listing's last owner and order {', '.join(open_orders)} for it is still open; "
                       "settle or refund the order first")
    return one(state, meta, ListingOwnerRemoved, account_id=account_id, reason=why)


def decide_withdraw_verification(state: ListingState, reason: str, meta: Meta) -> list[Event]:
    """The listing is no longer marked verified (nothing when it is not)."""
    require_listing(state)
    if not state.verified:
        return []
    return one(state, meta, ListingVerificationWithdrawn, reason=reason)
