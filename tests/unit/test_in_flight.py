"""The in-flight count behind "busy": each HTTP request counts from its start until its answer, failed or not."""

from __future__ import annotations

import asyncio

import pytest
from starlette.types import Receive, Scope, Send

from api.in_flight import CountInFlight, InFlight


def test_requests_count_while_answered_and_stop_counting_after_success_or_failure() -> None:
    in_flight = InFlight(busy_at=2)
    seen: list[tuple[int, bool]] = []
    release = asyncio.Event()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append((in_flight.count, in_flight.busy()))
        if scope["path"] == "/fails":
            raise RuntimeError("the route failed")
        await release.wait()

    counted = CountInFlight(app, in_flight)

    async def nothing() -> dict[str, object]:
        return {"type": "http.disconnect"}

    async def drop(message: dict[str, object]) -> None:
        return None

    async def run() -> None:
        first = asyncio.create_task(counted({"type": "http", "path": "/"}, nothing, drop))
        await asyncio.sleep(0)
        second = asyncio.create_task(counted({"type": "http", "path": "/"}, nothing, drop))
        await asyncio.sleep(0)
        assert in_flight.count == 2 and in_flight.busy()
        with pytest.raises(RuntimeError):
            await counted({"type": "http", "path": "/fails"}, nothing, drop)
        assert in_flight.count == 2  # the failed one no longer counts
        release.set()
        await asyncio.gather(first, second)
        await counted({"type": "lifespan", "path": "/"}, nothing, drop)  # not a request: not counted
        assert in_flight.count == 0 and not in_flight.busy()

    asyncio.run(run())
    assert seen == [(1, False), (2, True), (3, True), (0, False)]  # the lifespan call saw none in flight
