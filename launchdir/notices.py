"""Wiring of the owners' notices for `launchdir serve`: the loop that mails founders what happened."""

from __future__ import annotations

from api.app import WebConfig
from api.services import Services
from workers.notices import OwnerNotices


def wire_notices(config: WebConfig, services: Services) -> OwnerNotices:
    """Start and stop the notices loop with the server; it wakes whenever `notices_view` moves."""
    loop = OwnerNotices(services.store, services.reads, services.links["website"], services.clock)
    services.runtime.on_move(loop.on_move)
    config.on_startup.append(loop.start)
    config.on_shutdown.insert(0, loop.stop)
    return loop
