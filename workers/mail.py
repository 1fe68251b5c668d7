"""Outgoing mail: the outbox sender and the deferred runner of sign-up and reset work.

Commands queue messages as `EmailQueued` events (the outbox); the
`OutboxSender` reads due messages from the `mail_view` projection, claims each
one with an event (so two senders never both send it), sends it through a
`Mailer` (the SMTP adapter, `workers/adapters/smtp.py`) and records
`EmailSent` or `EmailFailed` (retried with backoff, then given up).

Delivery is at least once: a sender that dies after the SMTP server accepted
a message but before `EmailSent` is stored sends it again once the claim is
stale (10 minutes).

Without `SMTP_URL` the sender delivers to the local mailbox (`workers/adapters/mailbox.py`); with that off
too, no sender runs and messages stay `queued` in the outbox.

`DeferredMail` runs, after the answer, the account commands whose mail would
otherwise show in the response time (sign-up, password reset requests): the
website hands it the same kind of work whether or not the address has an
account, so the answer cannot tell which.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Protocol

from aggregates import mail as mail_agg
from aggregates.base import Meta
from commands import mail as mail_cmd
from commands.site import site_of
from commands.store import EventStore
from events.errors import DomainError, Unavailable
from projections.periodic import ViewLoop
from projections.reads import ReadStore
from queries import mail as mail_q

log = logging.getLogger(__name__)
ACTOR = "system:mailer"


class Mailer(Protocol):
    """Sends one message (the SMTP adapter, `workers/adapters/smtp.py`); raises when it could not."""

    def send(self, to: str, subject: str, text: str, at: datetime, unsubscribe_url: str | None = None,
             sender_name: str | None = None) -> None: ...


class OutboxSender(ViewLoop):
    """Sends due outbox messages; `run_once` for tests and the CLI, `start` for a server thread."""

    def __init__(self, store: EventStore, reads: ReadStore, mailer: Mailer, clock: Callable[[], datetime],
                 poll_seconds: float = 2.0) -> None:
        self.store = store
        self.reads = reads
        self.mailer = mailer
        self.clock = clock
        self.poll_seconds = poll_seconds
        super().__init__("outbox-sender", mail_q.VIEW, poll_seconds)

    def run_once(self) -> int:
        """Send every message due now; return how many were sent."""
        now = self.clock()
        sent = 0
        name: str | None = None
        for message_id in mail_q.due(self.reads, now, now - mail_agg.STALE_CLAIM):
            meta = Meta(at=self.clock(), actor=ACTOR, channel="system")
            claimed = mail_cmd.claim_for_sending(self.store, message_id, meta)
            if claimed is None:
                continue
            state, attempt = claimed
            name = name or site_of(self.store.load).name  # read once a round, when there is mail
            try:
                self.mailer.send(state.to, state.subject, state.text, meta.at, state.unsubscribe_url, name)
            except Exception as exc:  # noqa: BLE001 - every failure is recorded and retried
                log.warning("sending %s to %s failed: %s", message_id, state.to, exc)
                mail_cmd.record_failed(self.store, message_id, attempt, f"{type(exc).__name__}: {exc}",
                                       Meta(at=self.clock(), actor=ACTOR, channel="system"))
            else:
                mail_cmd.record_sent(self.store, message_id, attempt, Meta(at=self.clock(), actor=ACTOR, channel="system"))
                sent += 1
        return sent


class DeferredMail:
    """Runs account work after the answer, one item at a time on one thread, in the order given.

    `submit` is all a request does (the same whatever the address), so sign-up
    and reset answers take the same time whether or not the address has an
    account; the lookups and appends happen here. Work that
    fails for a passing reason (the database away, `Unavailable`) is tried
    again after 1 and 5 s; a domain error is logged and dropped. At most
    `max_pending` items wait: beyond that `submit` raises `Unavailable` (a
    503), so a flood cannot grow memory without bound. `stop` runs what is
    still queued before returning; work queued when the process dies is lost
    (the person asks again).

    Work stays in this process: a sign-up carries the password's hash, which
    must not travel through an outside queue.
    """

    RETRY_AFTER = (1.0, 5.0)

    def __init__(self, max_pending: int = 1000) -> None:
        self.max_pending = max_pending
        self.submitted: Counter[str] = Counter()  # how many items of each name were handed over (for tests and logs)
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._pending: set[Future[None]] = set()

    def submit(self, name: str, work: Callable[[], object]) -> None:
        """Queue `work` (named for logs and counts); it runs after the caller has answered."""
        with self._lock:
            if len(self._pending) >= self.max_pending:
                raise Unavailable("too many requests are waiting to be processed; try again in a minute")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deferred-mail")
            future = self._pool.submit(self._run, name, work)
            self._pending.add(future)
            self.submitted[name] += 1
        future.add_done_callback(self._done)

    def _done(self, future: Future[None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def _run(self, name: str, work: Callable[[], object]) -> None:
        for delay in (*self.RETRY_AFTER, None):
            try:
                work()
                return
            except DomainError as exc:
                if not isinstance(exc, Unavailable):
                    log.warning("deferred %s refused: %s", name, exc.detail)
                    return
                failure: Exception = exc
            except Exception as exc:  # noqa: BLE001 - the database may be away for a moment
                failure = exc
            if delay is None:
                log.error("deferred %s gave up: %s", name, failure)
                return
            log.warning("deferred %s failed, retrying in %s s: %s", name, delay, failure)
            time.sleep(delay)

    def wait_idle(self, timeout: float) -> bool:
        """Block until everything submitted so far has run; False on timeout (tests, shutdown)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                if not self._pending:
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)

    def stop(self) -> None:
        """Run what is queued, then end the thread (a later `submit` starts a new one)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)
