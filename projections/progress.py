"""What this process knows of each projection's progress, and read-your-writes waits on it.

The runtime's runners, its listener (moves announced by other processes) and
polls of the database all report here: the position each active generation
reached and the event a failing one is stopped at. A handler waits here until
the projections it reads have processed its write; a wait on a projection
that is failing at or before that write ends at once, since waiting cannot get
it there (`ReadModelBehind`, a 503 with Retry-After).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from events.errors import Unavailable
from projections.failures import Failure

BEHIND_RETRY = 1  # Retry-After (s) when a projection is only slower than the write
STUCK_RETRY = 60  # Retry-After (s) when it is stopped at an event it cannot apply


class ReadModelBehind(Unavailable):
    """A handler's answer depends on a projection that has not reached the write (a 503 with Retry-After)."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


@dataclass(eq=False)
class _LoopWaiter:
    """One wait on the event loop: woken from the thread that learns of the move, through the loop."""

    names: list[str]
    position: int
    loop: asyncio.AbstractEventLoop
    over: asyncio.Event
    seq: int = 0  # order of arrival: ties in a queue's heap never compare waiters


class _Queue:
    """The event-loop waits on one set of projections, lowest position first.

    Under a burst of votes a hundred answers wait on the same views and every
    runner round moves a dozen projections; checking every wait on every move
    was a twentieth of the interpreter's time. A queue only looks at the waits
    its slowest projection has now passed.
    """

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.heap: list[tuple[int, int, _LoopWaiter]] = []

    def push(self, waiter: _LoopWaiter) -> None:
        heapq.heappush(self.heap, (waiter.position, waiter.seq, waiter))

    def pop_reached(self, positions: dict[str, int]) -> list[_LoopWaiter]:
        reached = min(positions.get(n, 0) for n in self.names)
        out: list[_LoopWaiter] = []
        while self.heap and self.heap[0][0] <= reached:
            out.append(heapq.heappop(self.heap)[2])
        return out


class Progress:
    """Positions and failing events of the active generations, as this process last learnt them."""

    def __init__(self) -> None:
        self.positions: dict[str, int] = {}
        self.stuck: dict[str, int] = {}  # failing active generations: name -> the event they are stopped at
        self._moved = threading.Condition()
        self._listeners: list[Callable[[str, int], None]] = []
        self._loop_waiters: set[_LoopWaiter] = set()  # the waits not over yet; each is also in its queue
        self._queues: dict[tuple[str, ...], _Queue] = {}
        self._arrivals = itertools.count()

    def on_move(self, listener: Callable[[str, int], None]) -> None:
        """Call `listener(name, position)` whenever a projection moves (cache invalidation)."""
        self._listeners.append(listener)

    def moved_to(self, name: str, position: int) -> None:
        """`name` reached `position` (never moves back); a failure at or before it is over."""
        with self._moved:
            if position > self.positions.get(name, 0):
                self.positions[name] = position
            if self.stuck.get(name, position + 1) <= position:
                del self.stuck[name]
            self._moved.notify_all()
            self._settle(name)
        for listener in self._listeners:
            listener(name, position)

    def switched(self, name: str, position: int) -> None:
        """Reads of `name` use another generation now, at `position` (which may be behind the old one)."""
        with self._moved:
            self.positions[name] = position
            self._moved.notify_all()
            self._settle()
        for listener in self._listeners:
            listener(name, position)

    def set_stuck(self, name: str, failure: Failure | None) -> None:
        """Remember whether the active generation of `name` is failing (waits on it then end at once)."""
        with self._moved:
            if failure is not None and failure.failing:
                self.stuck[name] = failure.event_id
            else:
                self.stuck.pop(name, None)
            self._moved.notify_all()
            self._settle()

    def failing_at(self, name: str, event_id: int) -> None:
        """Another process found the active generation of `name` failing at `event_id`."""
        with self._moved:
            self.stuck[name] = event_id
            self._moved.notify_all()
            self._settle()

    def wait(self, names: list[str], position: int, timeout: float, threaded: Callable[[], bool],
             poll: Callable[[str], None]) -> bool:
        """Block until every named projection has processed `position` (bounded); True if it did.

        Returns False at once when one of them is failing at an event at or
        before `position`. While `threaded()` (runners or a listener report
        here) the wait is on a condition; otherwise `poll(name)` asks the
        database each round.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._moved:
                if all(self.positions.get(n, 0) >= position for n in names):
                    return True
                if self._stuck_at(names, position):
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                if threaded():
                    self._moved.wait(min(left, 0.05))
                    continue
            for n in names:
                poll(n)
            time.sleep(0.02)

    async def wait_async(self, names: list[str], position: int, timeout: float) -> bool:
        """`wait` on the event loop, for a process whose runners or listener report here: no thread is held.

        The same answer as `wait`: True once every named projection has
        processed `position`, False at once when one is failing at or before
        it, False after `timeout` seconds.
        """
        waiter = _LoopWaiter(names, position, asyncio.get_running_loop(), asyncio.Event(), next(self._arrivals))
        with self._moved:
            if self._over(names, position):
                return self._reached(names, position)
            self._loop_waiters.add(waiter)
            key = tuple(names)
            queue = self._queues.get(key)
            if queue is None:
                queue = self._queues[key] = _Queue(key)
            queue.push(waiter)
        try:
            await asyncio.wait_for(waiter.over.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._moved:
                self._loop_waiters.discard(waiter)
        with self._moved:
            return self._reached(names, position)

    def _settle(self, moved: str | None = None) -> None:
        """Wake the event-loop waits that are over (called with the condition held, after every change).

        `moved`: the one projection that moved forward, so only the queues that
        wait on it can have a wait over. A wait that ended on its own (timeout)
        stays in its queue until passed, then is skipped. While a projection is
        failing, every wait is checked, since failing ends a wait at once.
        """
        if self.stuck:
            for waiter in [w for w in self._loop_waiters if self._over(w.names, w.position)]:
                self._wake(waiter)
        for queue in self._queues.values():
            if moved is None or moved in queue.names:
                for waiter in queue.pop_reached(self.positions):
                    if waiter in self._loop_waiters:
                        self._wake(waiter)

    def _wake(self, waiter: _LoopWaiter) -> None:
        self._loop_waiters.discard(waiter)
        try:
            waiter.loop.call_soon_threadsafe(waiter.over.set)
        except RuntimeError:  # its loop is closed: nobody waits any more
            pass

    def _reached(self, names: list[str], position: int) -> bool:
        return all(self.positions.get(n, 0) >= position for n in names)

    def _over(self, names: list[str], position: int) -> bool:
        return self._reached(names, position) or bool(self._stuck_at(names, position))

    def behind(self, names: list[str], position: int) -> ReadModelBehind:
        """The 503 for a wait that ended without `position`: stopped at an event, or only slower than the write."""
        with self._moved:
            stuck = self._stuck_at(names, position)
        if stuck:
            which = ", ".join(f"{n} (at event {e})" for n, e in stuck.items())
            return ReadModelBehind(
                f"the change is saved, but the read model is stopped at an event it cannot apply: {which}; "
                "the answer cannot show the change until that is repaired, retry later", STUCK_RETRY)
        behind = ", ".join(n for n in names if self.positions.get(n, 0) < position)
        return ReadModelBehind(
            f"the change is saved, but the read model ({behind}) has not caught up with it yet; retry in a moment",
            BEHIND_RETRY)

    def _stuck_at(self, names: list[str], position: int) -> dict[str, int]:
        return {n: self.stuck[n] for n in names if self.stuck.get(n, position + 1) <= position}
