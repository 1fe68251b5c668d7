"""The follower fan-out of listing updates: a process manager that follows `updates_view`.

For each update posted while its listing was live and not told yet
(`queries.updates.pending_notifications`), it reads the listing's followers
with a confirmed address (`followers_to_tell`: the update's author left out)
and runs `commands.updates.notify_followers`, which queues one email per
follower through the outbox and appends the update's fan-out marker with the
last of them. The outbox dedupes by `listing-update:<listing>:<update>:<account>`,
so a retry, a restart, or two servers running this at once never mail anyone
twice. An update that could not be mailed within `MAX_AGE` of being posted
(the service was down for days) is not mailed at all: by then it is old news.

`launchdir serve` runs it (`launchdir/updates.py`): woken when `updates_view`
moves, and every `interval` seconds in any case. `run_once` is for tests.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from aggregates.base import Meta
from commands import updates as updates_cmd
from commands.store import EventStore
from projections.periodic import ViewLoop
from projections.reads import ReadStore
from queries import updates as updates_q

log = logging.getLogger(__name__)
ACTOR = "system:updates"
MAX_AGE = timedelta(days=2)
DEFAULT_INTERVAL = 30.0
BATCH = 50  # updates per run


class UpdateNotifier(ViewLoop):
    """Tells followers of new updates; `run_once` for tests and the CLI, `start` for a server thread."""

    def __init__(self, store: EventStore, reads: ReadStore, tokens: updates_cmd.UnsubscribeTokens,
                 website: str, clock: Callable[[], datetime], interval: float = DEFAULT_INTERVAL) -> None:
        self.store = store
        self.reads = reads
        self.tokens = tokens
        self.website = website
        self.clock = clock
        self._lock = threading.Lock()
        super().__init__("update-notifier", updates_q.VIEW, interval)

    def run_once(self) -> int:
        """Tell the followers of the pending updates (a batch); returns how many emails were queued now.

        The markers it appends move `updates_view`, which wakes the loop again for the next batch.
        """
        with self._lock:
            pending = updates_q.pending_notifications(self.reads, self.clock() - MAX_AGE, limit=BATCH)
            return sum(self._tell(item) for item in pending)

    def _tell(self, item: dict[str, Any]) -> int:
        update = updates_cmd.UpdateToTell(
            listing_id=int(item["listing_id"]), update_id=int(item["update_id"]), slug=str(item["slug"]),
            name=str(item["name"]), title=str(item["title"]), body=str(item["body"]))
        author = item["author"] if isinstance(item["author"], str) else None
        followers = [updates_cmd.Follower(a, e) for a, e in updates_q.followers_to_tell(self.reads, update.listing_id, author)]
        meta = Meta(at=self.clock(), actor=ACTOR, channel="system")
        try:
            queued = updates_cmd.notify_followers(self.store, update, followers, self.tokens, self.website, meta)
        except Exception:
            log.exception("telling the followers of update %s/%s failed; the next run retries",
                          update.listing_id, update.update_id)
            return 0
        if queued:
            log.info("update %s/%s: %d follower emails queued", update.listing_id, update.update_id, queued)
        return queued
