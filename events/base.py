"""The fields every stored event carries: which stream, which version, when, who, how."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of all launchdir events.

    `actor` says who caused the change (``account:<id>``, ``staff:<email>``,
    ``system``) and `channel` through which door (``rest``, ``mcp``, ``web``,
    ``cli``, ``system``), so version history and audit need no extra table.
    `via` names the credential behind a call (``api_key:<key id>``,
    ``oauth:<client id>``, ``session``, ``staff``; empty for the system and for
    events stored before it was recorded), so history can say "through what".
    """

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str
    channel: str
    via: str = ""
