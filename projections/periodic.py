"""One background loop shape: do a piece of work every so often, and once more on the way out.

View tallies, API key usage, the outbox sender, the draft sweeper, the launch
scheduler and the search indexer all run like this. It lives beside the
projection runtime because that is the lowest layer that runs threads and
every layer that needs one (projections, workers, api) may import it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class Periodic:
    """Runs `tick` every `interval` seconds on a daemon thread until stopped.

    A failing tick is logged and tried again at the next interval, so an
    unreachable database or service never ends the loop. `final`, when given,
    runs once after the thread has stopped (a last flush of what is pending).
    `wake()` runs the next tick at once. `until_due`, when given, says how many
    seconds remain until a moment the next tick must not miss (a week's start):
    the loop then waits the shorter of that and `interval`.
    """

    def __init__(self, name: str, interval: float, tick: Callable[[], object],
                 final: Callable[[], object] | None = None, *, at_start: bool = False,
                 until_due: Callable[[], float] | None = None) -> None:
        """`at_start`: run the first tick as soon as the thread starts instead of after one interval."""
        self.name = name
        self._until_due = until_due
        self._at_start = at_start
        self.interval = interval
        self._tick = tick
        self._final = final
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def _run(self) -> None:
        waits = not self._at_start
        while not self._stop.is_set():
            if waits:
                self._wake.wait(self._next_wait())
                self._wake.clear()
                if self._stop.is_set():
                    return
            waits = True
            try:
                self._tick()
            except Exception:  # noqa: BLE001 - the next interval tries again
                log.exception("%s failed; will retry", self.name)

    def _next_wait(self) -> float:
        if self._until_due is None:
            return self.interval
        try:
            return max(0.05, min(self.interval, self._until_due()))
        except Exception:  # noqa: BLE001 - a clock that cannot answer: the plain interval
            log.exception("%s: computing the next due time failed", self.name)
            return self.interval

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the thread (waiting up to `timeout` for a running tick), then run `final` once."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            self._thread = None
        if self._final is not None:
            try:
                self._final()
            except Exception:  # noqa: BLE001 - shutting down: say so and go on
                log.exception("%s: the last run on stopping failed", self.name)


class ViewLoop:
    """The loop of a process manager that follows one projection: `run_once` at start, every `interval`
    seconds, and at once whenever that projection moves (`on_move`, a listener of the runtime).

    The outbox sender, order fulfilment, the badge watch and the mails of updates and notices are
    each one of these: a subclass sets its own state, calls `super().__init__` and defines
    `run_once`; starting, stopping and waking are here once.
    """

    def __init__(self, name: str, view: str, interval: float) -> None:
        self._view = view
        self._loop = Periodic(name, interval, self.run_once, at_start=True)

    def run_once(self) -> object:
        raise NotImplementedError

    def on_move(self, projection: str, _position: int) -> None:
        """Projection listener: the followed view moved, so there may be work now."""
        if projection == self._view:
            self._loop.wake()

    def wake(self) -> None:
        self._loop.wake()

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        self._loop.stop()
