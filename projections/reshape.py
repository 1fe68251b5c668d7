"""A projection whose stored shape is behind its code rebuilds itself, in the process that runs it.

`Projection.shape` numbers what a projection's tables hold, and each generation
records the shape of the code that created it (`launchdir_projections.shape`;
rows from before the column count as 1). When a deploy brings code with a
higher shape than the active generation's, the runner holding the projection's
lease (`projections/leases.py`) starts the same rebuild as `launchdir
projections rebuild NAME` on a thread of its own, while the old generation
keeps serving; without it, reads would answer from tables the old code built
until someone remembered to run the command.

The rebuild's advisory lock (`REBUILD_LOCK`) makes it the work of one process:
one that tries while another rebuilds (the lease moved, a rebuild by hand) is
refused, leaves it quietly and looks again later, so it takes over a rebuild
whose process died. An interrupted one is resumed by the same path as by hand
(same code and shape) or begun again. A stored shape *higher* than the code's
(an older process during a rolling deploy) starts nothing: only a lower one
does, so an old and a new process never rebuild in turns. One-shot commands
never start a rebuild: only runners (`launchdir serve` with the projections in
process, `launchdir projector`) do.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import Protocol

import psycopg
from psycopg_pool import ConnectionPool

from events.errors import Conflict
from projections.base import Projection
from projections.failures import META
from projections.generations import STORED_SHAPE
from projections.rebuild import RebuildBlocked, Reporter
from projections.repairs import Status

log = logging.getLogger(__name__)

RECHECK = 30.0
"""Seconds before a projection another process was rebuilding is looked at again (that process may have died)."""


class Stopping(Exception):
    """The process is stopping: its rebuild ends here, and the next start resumes it."""


class Rebuilds(Protocol):
    """What the reshaper needs of the runtime: its database, its projections, and the rebuild."""

    @property
    def pool(self) -> ConnectionPool: ...

    @property
    def projections(self) -> Mapping[str, Projection]: ...

    def rebuild(self, name: str, progress: Reporter | None = None, restart: bool = False) -> Status: ...


def behind(pool: ConnectionPool, projections: Mapping[str, Projection]) -> dict[str, tuple[int, int]]:
    """The projections whose active generation holds a lower shape than their code: name -> (stored, code)."""
    if not projections:
        return {}
    with pool.connection() as conn:
        rows = conn.execute(
            f"SELECT name, {STORED_SHAPE} FROM {META} WHERE status='active' AND name = ANY(%s)", (list(projections),)
        ).fetchall()
    return {str(name): (int(stored), projections[name].shape) for name, stored in rows
            if int(stored) < projections[name].shape}


def why(stored: int, code: int) -> str:
    """What the logs and the status command say of such a projection."""
    return f"stored shape {stored}, code shape {code}"


class Reshaper:
    """The rebuilds one runner starts for the projections it holds whose stored shape is behind the code.

    The runner calls `held` after each round of leases; a projection is looked
    at when its lease is taken (at start, or taken over from a process that
    died) and, after a rebuild that did not finish, again a while later.
    """

    def __init__(self, rt: Rebuilds, stop: threading.Event, retry_after: float, recheck: float = RECHECK) -> None:
        """`retry_after`: seconds before a rebuild that failed or stopped at an event is tried again."""
        self._rt = rt
        self._stop = stop
        self._retry_after = retry_after
        self._recheck = recheck
        self._looked: set[str] = set()  # the held projections already looked at
        self._due: dict[str, float] = {}  # name -> when (monotonic) to look again, after a rebuild that did not finish
        self._threads: dict[str, threading.Thread] = {}

    def held(self, names: set[str]) -> None:
        """Look at the projections newly held (or due again) and start a rebuild of each one behind its code."""
        now = time.monotonic()
        look = {n for n in names if n not in self._looked or self._due.get(n, now + 1) <= now}
        look -= {n for n, t in self._threads.items() if t.is_alive()}
        self._looked = set(names)  # a lease given up and taken again is looked at again
        if not look:
            return
        try:
            lower = behind(self._rt.pool, {n: self._rt.projections[n] for n in look})
        except psycopg.Error:
            log.warning("could not read the stored shapes of %s; looking again next round", ", ".join(sorted(look)),
                        exc_info=True)
            self._looked -= look
            return
        for name in look:
            self._due.pop(name, None)
        for name, (stored, code) in sorted(lower.items()):
            thread = threading.Thread(target=self._rebuild, args=(name, stored, code), name=f"reshape-{name}",
                                      daemon=True)
            self._threads[name] = thread
            thread.start()

    def retry_now(self, name: str) -> None:
        """Staff skipped an event or asked for a retry (`retry` on the channel): a rebuild that stopped is due now.

        A shape rebuild stopped at an event it could not apply waits
        `retry_after` before its next try; after the skip that unblocks it,
        waiting out the rest of that would only keep the old shape serving.
        """
        if name in self._due:
            self._due[name] = time.monotonic()

    def close(self, timeout: float = 5.0) -> None:
        """Wait a little for the rebuilds to stop (the stop event is set); one still running is resumed next start."""
        deadline = time.monotonic() + timeout
        for thread in self._threads.values():
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        self._threads.clear()

    def _rebuild(self, name: str, stored: int, code: int) -> None:
        log.info("projection %s: %s, so it is rebuilt while its current generation serves", name, why(stored, code))
        try:
            self._rt.rebuild(name, self._progress)
        except Conflict:  # another process rebuilds it (a rebuild by hand, or the lease moved): its work, not ours
            log.debug("projection %s: another process is rebuilding it; looking again in %.0f s", name, self._recheck)
            self._again(name, self._recheck)
        except Stopping:
            log.info("projection %s: the rebuild stops with the process; the next start resumes it", name)
        except RebuildBlocked as exc:
            log.error("%s (tried again in %.0f s)", exc, self._retry_after)
            self._again(name, self._retry_after)
        except Exception:
            if self._stop.is_set():  # the process is closing under it (its pool closed)
                log.info("projection %s: the rebuild stops with the process; the next start resumes it", name)
                return
            log.exception("projection %s: the rebuild failed; tried again in %.0f s", name, self._retry_after)
            self._again(name, self._retry_after)

    def _progress(self, _position: int, _target: int) -> None:
        if self._stop.is_set():
            raise Stopping

    def _again(self, name: str, after: float) -> None:
        self._due[name] = time.monotonic() + after


def note_elsewhere(pool: ConnectionPool, projections: Mapping[str, Projection]) -> None:
    """Log, in a process that serves without running projections, those another process will rebuild."""
    try:
        lower = behind(pool, projections)
    except psycopg.Error:
        return  # only a note: the runner's own look is what counts
    for name, (stored, code) in sorted(lower.items()):
        log.info("projection %s: %s; the process that runs the projections (`launchdir projector`) rebuilds it, "
                 "and this one reads the current generation until the switch", name, why(stored, code))
