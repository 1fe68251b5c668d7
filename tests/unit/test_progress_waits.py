"""Read-your-writes waits on the event loop end when their projections pass the write, and only then."""

from __future__ import annotations

import asyncio
import threading

from projections.failures import Failure
from projections.progress import Progress

VIEWS = ["launches_view", "listing_view"]


def failing_at(event_id: int) -> Failure:
    return Failure(event_id=event_id, topic="t", error="boom", since=None, attempts=1, retry_at=None, failing=True)


async def test_each_wait_ends_once_every_named_projection_passed_its_position() -> None:
    progress = Progress()
    waits = {p: asyncio.create_task(progress.wait_async(VIEWS, p, 5)) for p in (3, 5, 8)}
    other = asyncio.create_task(progress.wait_async(["updates_view"], 4, 5))
    await asyncio.sleep(0.01)
    progress.moved_to("launches_view", 6)  # only one of the two views: nothing is over
    await asyncio.sleep(0.01)
    assert not any(t.done() for t in waits.values())
    progress.moved_to("listing_view", 5)
    await asyncio.sleep(0.01)
    assert waits[3].done() and waits[5].done() and not waits[8].done() and not other.done()
    assert waits[3].result() is True and waits[5].result() is True
    progress.moved_to("updates_view", 4)
    await asyncio.sleep(0.01)
    assert other.done() and other.result() is True and not waits[8].done()
    progress.moved_to("listing_view", 9)
    progress.moved_to("launches_view", 9)
    assert await waits[8] is True


async def test_a_wait_already_passed_returns_at_once() -> None:
    progress = Progress()
    progress.moved_to("launches_view", 10)
    progress.moved_to("listing_view", 10)
    assert await asyncio.wait_for(progress.wait_async(VIEWS, 7, 5), 1) is True


async def test_a_wait_that_times_out_answers_false_and_later_moves_skip_it() -> None:
    progress = Progress()
    assert await progress.wait_async(VIEWS, 4, 0.05) is False
    progress.moved_to("launches_view", 5)
    progress.moved_to("listing_view", 5)  # the timed-out wait is passed now: skipped, not woken
    assert not progress._loop_waiters
    assert all(not q.heap for q in progress._queues.values())


async def test_a_failing_projection_ends_a_wait_at_or_after_its_event_at_once() -> None:
    progress = Progress()
    behind = asyncio.create_task(progress.wait_async(VIEWS, 6, 5))
    before = asyncio.create_task(progress.wait_async(VIEWS, 2, 5))
    await asyncio.sleep(0.01)
    progress.set_stuck("listing_view", failing_at(3))
    assert await asyncio.wait_for(behind, 1) is False
    assert not before.done()
    progress.moved_to("launches_view", 2)
    progress.moved_to("listing_view", 2)
    assert await asyncio.wait_for(before, 1) is True


async def test_moves_reported_from_another_thread_wake_the_loop() -> None:
    progress = Progress()
    wait = asyncio.create_task(progress.wait_async(VIEWS, 100, 5))
    await asyncio.sleep(0.01)

    def runner() -> None:
        for position in range(1, 101):
            progress.moved_to("launches_view", position)
            progress.moved_to("listing_view", position)

    thread = threading.Thread(target=runner)
    thread.start()
    assert await asyncio.wait_for(wait, 2) is True
    thread.join()
