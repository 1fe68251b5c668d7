"""The orders table: every order as a document shaped for get_order, plus the columns lists and workers filter on.

list_my_orders and get_order (`queries/orders.py`), the checkout page's
receipt, the fulfilment process manager (paid orders with open lines), the
expiry sweep (pending orders past `expires_at`), `launchdir staff orders` and
`staff tasks` read it. The document keeps the checkout token: the owner's
link to pay while pending, and to the receipt and invoice once paid.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.order import (
    OrderBillingSet,
    OrderExpired,
    OrderLineFulfilled,
    OrderLineNotFulfilled,
    OrderPaid,
    OrderPaymentStarted,
    OrderPlaced,
    OrderRefunded,
    OrderStaffTaskOpened,
)
from projections.base import Projection, Tables, handles


def _status(doc: dict[str, Any]) -> str:
    if doc["status"] == "paid" and all(line["fulfilled"] for line in doc["lines"]):
        return "fulfilled"
    return str(doc["status"])


def _open_work(doc: dict[str, Any]) -> tuple[int, int]:
    """(lines fulfilment still has to apply, open staff tasks) of a paid order."""
    if doc["status"] != "paid":
        return 0, sum(1 for line in doc["lines"] if line["task"] and not line["fulfilled"])
    todo = sum(1 for line in doc["lines"] if not (line["fulfilled"] or line["task"] or line["not_fulfilled"]))
    tasks = sum(1 for line in doc["lines"] if line["task"] and not line["fulfilled"])
    return todo, tasks


class OrdersView(Projection):
    name = "orders_view"
    tables = ("orders",)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        cur.execute(
            f"""CREATE TABLE {t['orders']} (
                number text PRIMARY KEY, seq bigserial, stream_id uuid NOT NULL UNIQUE, account_id text NOT NULL,
                status text NOT NULL, placed_at timestamptz NOT NULL, expires_at timestamptz NOT NULL,
                paid_at timestamptz, open_lines int NOT NULL DEFAULT 0, open_tasks int NOT NULL DEFAULT 0,
                doc jsonb NOT NULL)"""
        )
        cur.execute(f"CREATE INDEX ON {t['orders']} (account_id, seq DESC)")
        cur.execute(f"CREATE INDEX ON {t['orders']} (expires_at) WHERE status = 'pending'")
        cur.execute(f"CREATE INDEX ON {t['orders']} (seq) WHERE open_lines > 0")
        cur.execute(f"CREATE INDEX ON {t['orders']} (seq) WHERE open_tasks > 0")

    def _change(self, cur: Cursor[Any], t: Tables, stream_id: Any, change: Callable[[dict[str, Any]], None]) -> None:
        row = cur.execute(f"SELECT doc FROM {t['orders']} WHERE stream_id = %s FOR UPDATE", (stream_id,)).fetchone()
        if row is None:
            return
        doc: dict[str, Any] = row[0]
        change(doc)
        doc["status"] = _status(doc)
        todo, tasks = _open_work(doc)
        cur.execute(
            f"UPDATE {t['orders']} SET status = %s, paid_at = %s, open_lines = %s, open_tasks = %s, doc = %s "
            "WHERE stream_id = %s",
            (doc["status"], doc["paid_at"], todo, tasks, Jsonb(doc), stream_id),
        )

    @handles(OrderPlaced)
    def _placed(self, cur: Cursor[Any], t: Tables, e: OrderPlaced) -> None:
        lines = [{**line, "fulfilled": False, "fulfilled_at": None, "detail": None, "result": None,
                  "not_fulfilled": None, "task": None} for line in e.lines]
        doc = {
            "number": e.number, "status": "pending", "account_id": e.account_id, "lines": lines,
            "subtotal_cents": e.subtotal_cents, "vat": {**e.vat, "amount_cents": e.vat_cents},
            "total_cents": e.total_cents, "currency": e.currency, "created_at": e.timestamp.isoformat(),
            "expires_at": e.expires_at.isoformat(), "paid_at": None, "token": e.token, "billing": None,
            "provider": None, "reference": None, "invoice_number": None, "refunded_cents": 0, "refunded_at": None,
        }
        cur.execute(
            f"INSERT INTO {t['orders']} (number, stream_id, account_id, status, placed_at, expires_at, doc) "
            "VALUES (%s, %s, %s, 'pending', %s, %s, %s) ON CONFLICT (number) DO NOTHING",
            (e.number, e.originator_id, e.account_id, e.timestamp, e.expires_at, Jsonb(doc)),
        )

    @handles(OrderBillingSet)
    def _billing(self, cur: Cursor[Any], t: Tables, e: OrderBillingSet) -> None:
        def change(doc: dict[str, Any]) -> None:
            doc["billing"] = {"name": e.name, "country": e.country, "address": e.address, "vat_number": e.vat_number}
            doc["vat"] = {**e.vat, "amount_cents": e.vat_cents}
            doc["total_cents"] = e.total_cents

        self._change(cur, t, e.originator_id, change)

    @handles(OrderPaymentStarted)
    def _started(self, cur: Cursor[Any], t: Tables, e: OrderPaymentStarted) -> None:
        self._change(cur, t, e.originator_id, lambda d: d.update(provider=e.provider, reference=e.reference))

    @handles(OrderPaid)
    def _paid(self, cur: Cursor[Any], t: Tables, e: OrderPaid) -> None:
        self._change(cur, t, e.originator_id, lambda d: d.update(
            status="paid", paid_at=e.timestamp.isoformat(), provider=e.provider, reference=e.reference,
            invoice_number=e.invoice_number))

    def _line(self, cur: Cursor[Any], t: Tables, stream_id: Any, index: int, **values: Any) -> None:
        def change(doc: dict[str, Any]) -> None:
            for line in doc["lines"]:
                if line["index"] == index:
                    line.update(values)

        self._change(cur, t, stream_id, change)

    @handles(OrderLineFulfilled)
    def _fulfilled(self, cur: Cursor[Any], t: Tables, e: OrderLineFulfilled) -> None:
        self._line(cur, t, e.originator_id, e.line, fulfilled=True, fulfilled_at=e.timestamp.isoformat(),
                   detail=e.detail, result=e.result)

    @handles(OrderLineNotFulfilled)
    def _not_fulfilled(self, cur: Cursor[Any], t: Tables, e: OrderLineNotFulfilled) -> None:
        self._line(cur, t, e.originator_id, e.line, not_fulfilled=e.reason, detail=e.detail)

    @handles(OrderStaffTaskOpened)
    def _task(self, cur: Cursor[Any], t: Tables, e: OrderStaffTaskOpened) -> None:
        self._line(cur, t, e.originator_id, e.line, task=e.task, detail=f"staff task: {e.task}")

    @handles(OrderExpired)
    def _expired(self, cur: Cursor[Any], t: Tables, e: OrderExpired) -> None:
        self._change(cur, t, e.originator_id, lambda d: d.update(status="expired"))

    @handles(OrderRefunded)
    def _refunded(self, cur: Cursor[Any], t: Tables, e: OrderRefunded) -> None:
        self._change(cur, t, e.originator_id, lambda d: d.update(
            status="refunded", refunded_cents=e.amount_cents, refunded_at=e.timestamp.isoformat()))
