"""The owners' notices: what happened to a listing or an order that its founders should hear of by mail.

One table per generation, `notices`: one row per notice, named by the event
that made it (`<kind>:<stream>:<version>`), with what its email needs that the
event carries. Kinds:

- `scheduled` (`ListingScheduled`): the listing has its launch week;
- `live` (`ListingLaunched`): the listing went live, at its week's start or at once;
- `badge_lost` (`ListingBadgeLost`): a free listing's week began without our
  badge on its homepage, so it waits for a later check;
- `unpublished` (`ListingUnpublished`): staff took the listing down, saying why;
- `restored` (`ListingPublishedByStaff` after a `ListingUnpublished` of the same
  listing): staff put it back, live in its own week and plan;
- `paid` (`OrderPaid`): the payment of an order is confirmed;
- `refunded` (`OrderRefunded`): staff refunded an order, saying why.

`mailed_at` is set by the notice's marker (`NoticeMailed`), so the process
manager (`workers/notices.py`) reads only what is left to do. Listings put live
by staff that were never taken down (demo data, done-for-you work, imports)
make no notice: the owners did not wait for anything. New rows are kept in
memory and written at `flush`, one statement a batch (`projections/bulk.py`);
whether a staff launch is a put-back is settled there too, for the whole batch
in one statement.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Cursor

from events.listing import (ListingBadgeLost, ListingLaunched, ListingPublishedByStaff, ListingScheduled,
                            ListingUnpublished)
from events.notices import NoticeMailed
from events.order import OrderPaid, OrderRefunded
from projections import bulk, ddl
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
        self.upgrade(cur, t)

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        index = f"{t['notices']}_taken_down"  # is a staff launch a put-back? (`flush`)
        ddl.create_index(cur, index, f"CREATE INDEX IF NOT EXISTS {index} ON {t['notices']} (stream_id) "
                                     "WHERE kind = 'unpublished'")

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

    @handles(ListingPublishedByStaff)
    def _published_by_staff(self, cur: Cursor[Any], t: Tables, e: ListingPublishedByStaff) -> None:
        """A candidate `restored` notice: kept only if the listing was taken down before (`flush`)."""
        self._batch(cur)
        if e.originator_id in self._taken_down:  # taken down earlier in this batch
            self._add(cur, "restored", e, week=e.week, plan=e.plan)
        else:
            self._staff.append(self._row("restored", e, week=e.week, plan=e.plan))

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
    _staff: list[Row] = []  # staff launches of listings not taken down in this batch: put-backs?
    _taken_down: set[UUID] = set()  # listings taken down in this batch

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._rows, self._staff, self._taken_down = cur, [], [], set()

    @staticmethod
    def _row(kind: str, e: Any, week: str | None = None, plan: str | None = None, checked_url: str | None = None,
             reason: str | None = None) -> Row:
        key = notice_key(kind, e.originator_id, e.originator_version)
        return (key, kind, e.originator_id, week, plan, checked_url, reason, e.timestamp)

    def _add(self, cur: Cursor[Any], kind: str, e: Any, week: str | None = None, plan: str | None = None,
             checked_url: str | None = None, reason: str | None = None) -> None:
        self._batch(cur)
        self._rows.append(self._row(kind, e, week, plan, checked_url, reason))
        if kind == "unpublished":
            self._taken_down.add(e.originator_id)

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write the notices kept back, after keeping the staff launches that put back a listing taken down before."""
        mine = self._batch_cursor is cur
        rows, staff = (self._rows, self._staff) if mine else ([], [])
        self._rows, self._staff = [], []
        if staff:
            ids = list({row[2] for row in staff})
            cur.execute(f"SELECT DISTINCT stream_id FROM {t['notices']} WHERE kind = 'unpublished' "
                        "AND stream_id = ANY(%s)", (ids,))
            taken_down = {r[0] for r in cur.fetchall()}
            rows = rows + [row for row in staff if row[2] in taken_down]
        bulk.insert(cur, t["notices"], COLUMNS, rows, "ON CONFLICT (key) DO NOTHING")
