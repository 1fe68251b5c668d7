"""How many HTTP requests this process is answering right now, and whether that makes it busy.

Under a burst (a launch day's votes) every vote moves the rankings, so a page
kept until its projections move is rendered again for nearly every visitor,
and those renders queue behind the votes for the one interpreter lock. A
process that knows it is busy can let signed-out visitors share a page a
fraction of a second old instead (`api/web_page_cache.py`); a quiet process
keeps every page exact. Counted on the event loop (one thread), so no lock.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

BUSY_REQUESTS = 16  # requests in flight from which the process counts as busy (LAUNCHDIR_BUSY_REQUESTS)
"""16, not 32: with two server processes behind one port each holds half of a burst's requests in flight (about 30
at 200 votes/s answered in 0.3 s), often under 32, and renders queued behind the votes again; the week's board p99
was 42-47 ms at 16 against 49 ms at 32 (docs/performance.md, "Kept pages renewed in the background")."""


class InFlight:
    """The count of HTTP requests in flight in this process."""

    def __init__(self, busy_at: int = BUSY_REQUESTS) -> None:
        self.count = 0
        self.busy_at = busy_at

    def busy(self) -> bool:
        """True while at least `busy_at` requests are being answered (this one included)."""
        return self.count >= self.busy_at


class CountInFlight:
    """ASGI middleware: counts each HTTP request from its start until its answer is sent (or it failed)."""

    def __init__(self, app: ASGIApp, in_flight: InFlight) -> None:
        self.app = app
        self.in_flight = in_flight

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.in_flight.count += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight.count -= 1
