"""What the signed-in operations' adapters share: who calls, and waiting for a write to show (read-your-writes)."""

from __future__ import annotations

from api.services import Call, Services
from events.errors import Unauthorized

WAIT = 2.0


def account_of(c: Call) -> str:
    """The caller's account id (the executor refuses anonymous calls first; kept for direct callers)."""
    if c.principal is None:
        raise Unauthorized("this operation needs credentials")
    return c.principal.account_id


def wait_for(s: Services, position: int, views: tuple[str, ...]) -> None:
    """Wait, bounded, until `views` have applied `position`; a 503 saying the read model is behind otherwise."""
    s.runtime.require([v for v in views if v in s.runtime.projections], position, WAIT)
