"""A draft is thrown away (its submitter closes their account).

Only drafts not yet saved as a listing are discarded: a saved draft is the history of its listing,
which the listing's own rules look after (`aggregates/listing/leaving.py`).
"""

from __future__ import annotations

from aggregates.base import Meta, one
from aggregates.draft.state import DraftState
from events.base import Event
from events.draft import DraftDiscarded
from events.errors import NotFound


def decide_discard(state: DraftState, account_id: str, reason: str, meta: Meta) -> list[Event]:
    """Discard the submitter's draft; nothing for a draft already saved as a listing or discarded before."""
    if not state.exists or state.account_id != account_id:
        raise NotFound("no such draft among yours")
    if state.listing_id is not None or state.status == "discarded":
        return []
    return one(state, meta, DraftDiscarded, reason=reason)
