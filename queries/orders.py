"""Order reads: list_my_orders, get_order, the quote's answer, and the lists staff and workers use.

Amounts are integer USD cents; `vat.rate_bp` is the rate in basis points
(1900 = 19 %). A pending order past `expires_at` reads as `expired` before the
sweep records it. The checkout link shows while the order is payable; the
invoice link once it is paid.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict, Field

from events.errors import NotFound
from projections.reads import ReadStore
from queries.paging import PageInfo, Paging, page_of

VIEW = "orders_view"


class ListMyOrders(Paging):
    """Your orders, newest first, with their status and totals."""


class GetOrder(BaseModel):
    """One of your orders: status, totals with VAT, lines and whether each was fulfilled, checkout or invoice link."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    number: str = Field(min_length=1, max_length=32, description="The order number (from create_checkout).")


class Vat(BaseModel):
    treatment: str = Field(description="`standard`, `reverse_charge`, `outside_scope` or `not_determined` "
                                       "(no billing country yet).")
    country: str = Field(description="The billing country the treatment follows (\"\" when not known).")
    rate_bp: int = Field(description="The rate in basis points: 1900 is 19 %.")
    rate_percent: str = Field(description="The rate for people, e.g. `19` or `25.5`.")
    amount_cents: int
    check: str = Field(description="What was checked of the VAT number: `none`, `format` (format and check "
                                   "digits) or `vies` (also registered in VIES).")
    vat_number: str
    note: str
    rates_valid_from: str | None = None


class QuoteLine(BaseModel):
    index: int
    product: str
    name: str
    listing_id: int | None
    week: str | None
    amount_cents: int | None
    categories: list[str] | None
    options: dict[str, Any] | None
    unit_cents: int
    net_cents: int


class Quote(BaseModel):
    lines: list[QuoteLine]
    subtotal_cents: int = Field(description="Sum of the lines, excluding VAT.")
    vat: Vat
    total_cents: int = Field(description="Subtotal plus VAT.")
    currency: str


class OrderLine(QuoteLine):
    fulfilled: bool
    fulfilled_at: datetime | None
    detail: str | None = Field(description="What fulfilment did, or why it could not (staff then decide).")
    result: dict[str, Any] | None = Field(description="What the line made, e.g. the review's text.")
    not_fulfilled: str | None = Field(description="Why the line could not be applied (a code), else null.")
    task: str | None = Field(description="Work the site team does by hand for this line, else null.")


class Order(BaseModel):
    number: str
    status: str = Field(description="`pending` (waiting for payment), `paid` (fulfilment applying the lines), "
                                    "`fulfilled`, `expired` (not paid in time) or `refunded`.")
    lines: list[OrderLine]
    subtotal_cents: int
    vat: Vat
    total_cents: int
    currency: str
    created_at: datetime
    expires_at: datetime
    paid_at: datetime | None
    checkout_url: str | None = Field(description="Where the person pays, while the order is pending.")
    invoice_url: str | None = Field(description="The invoice (PDF), once paid.")
    invoice_number: str | None
    refunded_cents: int


class OrderPage(PageInfo):
    items: list[Order]


class Checkout(Order):
    """create_checkout's answer: the order, with `checkout_url` to give to the person."""


def rate_percent(rate_bp: int) -> str:
    whole, rest = divmod(int(rate_bp), 100)
    return str(whole) if rest == 0 else f"{whole}.{rest:02d}".rstrip("0")


def vat_doc(vat: dict[str, Any], amount_cents: int) -> dict[str, Any]:
    return {"treatment": vat["treatment"], "country": vat["country"], "rate_bp": vat["rate_bp"],
            "rate_percent": rate_percent(vat["rate_bp"]), "amount_cents": amount_cents, "check": vat["check"],
            "vat_number": vat["vat_number"], "note": vat["note"], "rates_valid_from": vat.get("rates_valid_from")}


def quote_doc(lines: list[dict[str, Any]], subtotal: int, vat: dict[str, Any], vat_cents: int, total: int,
              rates_valid_from: str) -> dict[str, Any]:
    return {"lines": lines, "subtotal_cents": subtotal, "vat": vat_doc({**vat, "rates_valid_from": rates_valid_from},
                                                                         vat_cents),
            "total_cents": total, "currency": "USD"}  # ISO 4217, as list_products and the leaderboards write it


def order_doc(doc: dict[str, Any], links: dict[str, str], now: datetime) -> dict[str, Any]:
    """The stored document as the operations answer it (links made absolute, expiry read at `now`)."""
    site = links["website"].rstrip("/")
    status = doc["status"]
    expires_at = datetime.fromisoformat(doc["expires_at"])
    if status == "pending" and now >= expires_at:
        status = "expired"
    out = {k: v for k, v in doc.items() if k not in ("token", "account_id", "billing", "provider", "reference",
                                                      "refunded_at")}
    out["status"] = status
    out["currency"] = str(doc.get("currency") or "usd").upper()  # recorded as the payment provider writes it
    out["vat"] = vat_doc(doc["vat"], doc["vat"]["amount_cents"])
    out["checkout_url"] = f"{site}/checkout/{doc['token']}" if status == "pending" and doc.get("token") else None
    paid = doc.get("paid_at") is not None
    out["invoice_url"] = f"{site}/checkout/{doc['token']}/invoice.pdf" if paid else None
    return out


def _row(reads: ReadStore, number: str) -> dict[str, Any] | None:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        row = conn.execute(f"SELECT doc FROM {t['orders']} WHERE number = %s", (number,)).fetchone()
    return None if row is None else dict(row[0])


def get_order(reads: ReadStore, account_id: str, number: str, links: dict[str, str], now: datetime) -> dict[str, Any]:
    doc = _row(reads, number)
    if doc is None or doc["account_id"] != account_id:
        raise NotFound("no such order among yours")
    return order_doc(doc, links, now)


def stored(reads: ReadStore, number: str) -> dict[str, Any] | None:
    """The stored document, token and billing included (the checkout page, invoices, staff)."""
    return _row(reads, number)


def list_my_orders(reads: ReadStore, account_id: str, paging: Paging, links: dict[str, str],
                   now: datetime) -> dict[str, Any]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        total = conn.execute(f"SELECT count(*) FROM {t['orders']} WHERE account_id = %s", (account_id,)).fetchone()
        rows = conn.execute(
            f"SELECT doc FROM {t['orders']} WHERE account_id = %s ORDER BY seq DESC LIMIT %s OFFSET %s",
            (account_id, paging.per_page, paging.offset)).fetchall()
    return page_of([order_doc(r[0], links, now) for r in rows], paging, int(total[0]) if total else 0)


def with_open_lines(reads: ReadStore, current_week: str = "9999-12-31", limit: int = 100) -> list[str]:
    """Paid orders with a line fulfilment can apply now, oldest first.

    A relaunch line waits for its week: an order whose only open lines are
    relaunches of a later week than `current_week` is not listed, so waiting
    relaunches never crowd out newly paid orders.
    """
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(
            f"""SELECT number FROM {t['orders']} WHERE open_lines > 0 AND EXISTS (
                    SELECT 1 FROM jsonb_array_elements(doc->'lines') l
                    WHERE NOT (l->>'fulfilled')::boolean AND l->>'task' IS NULL AND l->>'not_fulfilled' IS NULL
                      AND NOT (l->>'product' = 'relaunch' AND l->>'week' > %s))
                ORDER BY seq LIMIT %s""",
            (current_week, limit)).fetchall()
    return [r[0] for r in rows]


class ProfileReview(BaseModel):
    """The latest review bought with `ai_review` (create_checkout), as emailed to the owners."""

    text: str
    written_at: datetime = Field(description="When the review was written and emailed.")
    made_by: str = Field(description="How it was made: `rules` (the documented rule-based review) or "
                                     "`anthropic:<model>` (written by the model).")
    order_number: str


def latest_review(reads: ReadStore, listing_id: int) -> dict[str, Any] | None:
    """The newest delivered `ai_review` of a listing, or None (get_my_listing's `profile_review`)."""
    t = reads.tables(VIEW)
    wanted = Jsonb([{"product": "ai_review", "listing_id": listing_id, "fulfilled": True}])
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT doc FROM {t['orders']} WHERE paid_at IS NOT NULL AND doc->'lines' @> %s "
                            "ORDER BY paid_at DESC, seq DESC LIMIT 1", (wanted,)).fetchall()
    if not rows:
        return None
    doc = rows[0][0]
    lines = [line for line in doc["lines"] if line["product"] == "ai_review" and line["listing_id"] == listing_id
             and line["fulfilled"] and isinstance(line.get("result"), dict)]
    if not lines:
        return None
    line = max(lines, key=lambda x: str(x["fulfilled_at"]))
    result = line["result"]
    return {"text": str(result.get("review") or ""), "written_at": line["fulfilled_at"],
            "made_by": str(result.get("made_by") or "rules"), "order_number": doc["number"]}


def due_to_expire(reads: ReadStore, now: datetime, limit: int = 500) -> list[str]:
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT number FROM {t['orders']} WHERE status = 'pending' AND expires_at <= %s "
                            "ORDER BY expires_at LIMIT %s", (now, limit)).fetchall()
    return [r[0] for r in rows]


def recent(reads: ReadStore, limit: int = 50) -> list[dict[str, Any]]:
    """The newest orders, stored documents (staff)."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT doc FROM {t['orders']} ORDER BY seq DESC LIMIT %s", (limit,)).fetchall()
    return [dict(r[0]) for r in rows]


def open_tasks(reads: ReadStore, limit: int = 200) -> list[dict[str, Any]]:
    """Staff tasks not yet done: (number, line, product and its name, listing, task), oldest first."""
    t = reads.tables(VIEW)
    with reads.pool.connection() as conn:
        rows = conn.execute(f"SELECT doc FROM {t['orders']} WHERE open_tasks > 0 ORDER BY seq LIMIT %s",
                            (limit,)).fetchall()
    return [{"number": r[0]["number"], "line": line["index"], "product": line["product"],
             "name": line.get("name") or line["product"],
             "listing_id": line["listing_id"], "task": line["task"], "paid_at": r[0]["paid_at"]}
            for r in rows for line in r[0]["lines"] if line["task"] and not line["fulfilled"]]
