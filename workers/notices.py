"""The owners' notices: a process manager that mails founders what happened to their listing or order.

It follows `notices_view` (a listing scheduled, live, held back for a
missing badge, taken down by staff or put back; an order paid or refunded). For each notice made within `MAX_AGE` and not
mailed yet, it reads the listing (slug, name, owners) or the order, the
recipients' confirmed addresses, and runs `commands.notices.mail_notice`, which
queues the emails and the notice's marker in one append. The outbox dedupes
by `notice:<notice>:<account>`, so a retry, a restart, or two servers running
this at once never mail anyone twice. A notice whose listing or order a view
has not met yet waits for the next run. A notice older than `MAX_AGE` (the
service was down for days, or a projection was rebuilt over an old history)
is not mailed at all: by then it is old news.

`launchdir serve` runs it (`launchdir/notices.py`): woken when
`notices_view` moves, and every `interval` seconds in any case. `run_once` is
for tests.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from aggregates.base import Meta
from commands import notices as notices_cmd
from commands.store import EventStore
from projections.periodic import ViewLoop
from projections.reads import ReadStore
from queries import notices as notices_q
from queries import updates as updates_q

log = logging.getLogger(__name__)
ACTOR = "system:notices"
MAX_AGE = timedelta(days=2)
DEFAULT_INTERVAL = 30.0
BATCH = 50  # notices per run


class OwnerNotices(ViewLoop):
    """Mails the pending notices; `run_once` for tests and the CLI, `start` for a server thread."""

    def __init__(self, store: EventStore, reads: ReadStore, website: str, clock: Callable[[], datetime],
                 interval: float = DEFAULT_INTERVAL) -> None:
        self.store = store
        self.reads = reads
        self.website = website
        self.clock = clock
        self._lock = threading.Lock()
        super().__init__("owner-notices", notices_q.VIEW, interval)

    def run_once(self) -> int:
        """Mail the pending notices (a batch); returns how many emails were queued now.

        The markers it appends move `notices_view`, which wakes the loop again for the next batch.
        """
        with self._lock:
            pending = notices_q.pending(self.reads, self.clock() - MAX_AGE, limit=BATCH)
            return sum(self._mail(item) for item in pending)

    def _mail(self, item: dict[str, Any]) -> int:
        notice = self._notice(item)
        if notice is None:
            return 0
        recipients = [notices_cmd.Recipient(a, e) for a, e in notices_q.addresses(self.reads, notice.account_ids())]
        meta = Meta(at=self.clock(), actor=ACTOR, channel="system")
        try:
            queued = notices_cmd.mail_notice(self.store, notice, recipients, self.website, meta)
        except Exception:
            log.exception("mailing notice %s failed; the next run retries", notice.key)
            return 0
        if queued:
            log.info("notice %s: %d emails queued", notice.key, queued)
        return queued

    def _notice(self, item: dict[str, Any]) -> notices_cmd.Notice | None:
        """The notice with its listing or order, or None while a view has not met it."""
        common = {k: item[k] for k in ("key", "kind", "week", "plan", "checked_url", "reason")}
        if item["kind"] in notices_q.ORDER_KINDS:
            order = notices_q.order_of(self.reads, item["stream_id"])
            if order is None or (item["kind"] == "refunded" and not order.get("refunded_at")):
                return None
            ids = {int(line["listing_id"]) for line in order.get("lines") or [] if line.get("listing_id") is not None}
            names = updates_q.listing_names(self.reads, ids) if ids else {}
            return notices_cmd.Notice(**common, order=order, listing_names=names)
        listing = notices_q.listing_of(self.reads, item["stream_id"])
        if listing is None:
            return None
        contact = notices_q.contact_address(self.reads) if item["kind"] == "unpublished" else None
        return notices_cmd.Notice(**common, listing=listing, contact=contact)
