"""The Claim decider: someone proves they run a listed product by DNS, meta tag, file or an emailed link.

Statuses: `pending` (started; checks may run until it expires), `verified`
(proven: the claimant became an owner in the same append), `expired` (its
week passed), `failed` (it used its last check). The package: `state`
(states, stream ids, limits), `decide` (one claim's decisions), `move` (the
verified claim -> listing owner move), `void` (staff undo that move) and `evolve`. The package itself is the
decider of claim streams (`initial`, `evolve`); `KEY` folds the key streams
that make a repeated claim answer the pending one.
"""

from __future__ import annotations

from aggregates.base import StreamKind
from aggregates.claim.decide import USED_UP, check_link, decide_check_failed, decide_expire, decide_start, decide_verified
from aggregates.claim.evolve import evolve
from aggregates.claim.move import NOTICE_KIND, Notice, decide_verification
from aggregates.claim.void import VOID_KIND, decide_mark_kept_or_withdrawn, decide_void, decide_voiding
from aggregates.claim.state import (
    MAX_ATTEMPTS,
    TTL,
    ClaimState,
    KeyState,
    claim_stream,
    initial,
    initial_key,
    key_stream,
    require_mine,
)

__all__ = [
    "KEY", "MAX_ATTEMPTS", "NOTICE_KIND", "TTL", "USED_UP", "ClaimState", "KeyState", "Notice",
    "check_link", "claim_stream", "decide_check_failed", "decide_expire", "decide_start", "decide_verification",
    "decide_verified", "decide_mark_kept_or_withdrawn", "decide_void", "decide_voiding", "VOID_KIND", "evolve", "initial", "initial_key", "key_stream", "require_mine",
]

KEY: StreamKind[KeyState] = StreamKind(initial_key, evolve)
"""The key streams (`key_stream(...)`): which claim an (account, listing, method[, address]) has."""
