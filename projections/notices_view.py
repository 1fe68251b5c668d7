"""The owners' notices: what happened to a listing or an order that its founders should hear of by mail.

One table per generation, `notices`: one row per notice, named by the event
that made it (`<kind>:<stream>:<version>`), with what its email needs that the
event carries. Kinds:

- `scheduled` (`ListingScheduled`): the listing has its launch week;
- `live` (`ListingLaunched`): the listing went live, at its week's start or at once;
- `badge_lost` (`ListingBadgeLost`): a free listing's week began without our
  badge on its homepage, so it waits for a later check;
- `unpublished` (`ListingUnpublished`): staff took the listing down, saying why;
- `paid` (`OrderPaid`): the payment of an order is confirmed;
- `refunded` (`OrderRefunded`): staff refunded an order, saying why.

`mailed_at` is set by the notice's marker (`NoticeMailed`), so the process
manager (`workers/notices.py`) reads only what is left to do. Listings put live
by staff (`ListingPublishedByStaff`: demo data, done-for-you work) make no
notice. New rows are kept in memory and written at `flush`, one statement a
batch (`projections/bulk.py`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Cursor

from events.listing import ListingBadgeLost, ListingLaunched, ListingScheduled, ListingUnpublished
from events.notices import NoticeMailed
from events.order import OrderPaid, OrderRefunded
from projections import bulk
from projections.base import Projection, Tables, handles

NAME = "notices_view"
COLUMNS = (("key", "text"), ("kind", "text"), ("stream_id", "uuid"), ("week", "text"), ("plan", "text"),
           ("checked_url", "text"), ("reason", "text"), ("happened_at", "timestamptz"))
Row = tuple[str, str, UUID, str | None, str | None, str | None, str | None, datetime]


def notice_key(kind: str, stream_id: UUID, version: int) -> str:
    return f"{kind}:{stream_id}:{version}"


class NoticesView(Projection):
    name = NAME
    tables = ("notices",)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['notices']} (key text PRIMARY KEY, kind text NOT NULL, stream_id uuid NOT NULL,
                week text, plan text, checked_url text, reason text, happened_at timestamptz NOT NULL,
                mailed_at timestamptz, recipients int)"""
        )
        cur.execute(f"CREATE INDEX ON {t['notices']} (happened_at) WHERE mailed_at IS NULL")

    @handles(ListingScheduled)
    def _scheduled(self, cur: Cursor[Any], t: Tables, e: ListingScheduled) -> None:
        self._add(cur, "scheduled", e, week=e.week, plan=e.plan)

    @handles(ListingLaunched)
    def _launched(self, cur: Cursor[Any], t: Tables, e: ListingLaunched) -> None:
        self._add(cur, "live", e, week=e.week, plan=e.plan)

    @handles(ListingBadgeLost)
    def _badge_lost(self, cur: Cursor[Any], t: Tables, e: ListingBadgeLost) -> None:
        self._add(cur, "badge_lost", e, checked_url=e.checked_url, reason=e.reason)

    @handles(ListingUnpublished)
    def _unpublished(self, cur: Cursor[Any], t: Tables, e: ListingUnpublished) -> None:
        self._add(cur, "unpublished", e, reason=e.reason)

    @handles(OrderPaid)
    def _paid(self, cur: Cursor[Any], t: Tables, e: OrderPaid) -> None:
        self._add(cur, "paid", e)

    @handles(OrderRefunded)
    def _refunded(self, cur: Cursor[Any], t: Tables, e: OrderRefunded) -> None:
        self._add(cur, "refunded", e, reason=e.reason)

    @handles(NoticeMailed)
    def _mailed(self, cur: Cursor[Any], t: Tables, e: NoticeMailed) -> None:
        self.flush(cur, t)
        cur.execute(f"UPDATE {t['notices']} SET mailed_at = %s, recipients = %s WHERE key = %s",
                    (e.timestamp, e.recipients, e.key))

    # ------------------------------------------------------------ batch memory
    # The rows belong to the batch's cursor (one transaction): a new cursor forgets them.

    _batch_cursor: Any = None
    _rows: list[Row] = []

    def _add(self, cur: Cursor[Any], kind: str, e: Any, week: str | None = None, plan: str | None = None,
             checked_url: str | None = None, reason: str | None = None) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._rows = cur, []
        key = notice_key(kind, e.originator_id, e.originator_version)
        self._rows.append((key, kind, e.originator_id, week, plan, checked_url, reason, e.timestamp))

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the notices kept back: one statement."""
        rows = self._rows if self._batch_cursor is cur else []
        self._rows = []
        bulk.insert(cur, t["notices"], COLUMNS, rows, "ON CONFLICT (key) DO NOTHING")
