"""Order states: the order stream's state, its stream id, and the limits orders keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from events.errors import NotFound

TTL = timedelta(hours=24)  # a pending order (and its checkout link) can be paid for a day
NUMBER_MAX = 32
NUMBER_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud and typed without mistakes
MAX_ITEMS = 20
CURRENCY = "usd"
LAUNCH_SECTIONS = ("story", "milestones", "media")
"""The paid profile sections a paid launch (or a Launch bundle bought as an upgrade) unlocks."""


def order_stream(number: str) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:order:{number}")


@dataclass(frozen=True)
class OrderState:
    id: UUID
    version: int = 0
    number: str = ""
    account_id: str = ""
    status: str = "new"  # pending | paid | fulfilled | expired | refunded
    lines: tuple[dict[str, Any], ...] = ()
    subtotal_cents: int = 0
    vat: dict[str, Any] = field(default_factory=dict)
    vat_cents: int = 0
    total_cents: int = 0
    token: str = ""
    placed_at: datetime | None = None
    expires_at: datetime | None = None
    billing: dict[str, str] = field(default_factory=dict)
    provider: str = ""
    reference: str = ""
    paid_at: datetime | None = None
    invoice_number: str = ""
    fulfilled: dict[int, datetime] = field(default_factory=dict)
    not_fulfilled: dict[int, str] = field(default_factory=dict)
    tasks: dict[int, str] = field(default_factory=dict)  # open staff tasks: line -> task
    refunded_cents: int = 0

    @property
    def exists(self) -> bool:
        return self.version > 0

    @property
    def is_paid(self) -> bool:
        return self.status in ("paid", "fulfilled", "refunded") and self.paid_at is not None

    def is_due_to_expire(self, at: datetime) -> bool:
        return self.status == "pending" and self.expires_at is not None and at >= self.expires_at

    def is_payable(self, at: datetime) -> bool:
        """Pending and not expired: the checkout page may take billing details and a payment."""
        return self.status == "pending" and not self.is_due_to_expire(at)

    def open_lines(self) -> list[int]:
        """Lines of a paid order not yet applied, failed or handed to staff: what fulfilment still has to do."""
        if self.status != "paid":
            return []
        done = set(self.fulfilled) | set(self.not_fulfilled) | set(self.tasks)
        return [int(line["index"]) for line in self.lines if int(line["index"]) not in done]


def initial(stream_id: UUID) -> OrderState:
    return OrderState(id=stream_id)


def require_mine(state: OrderState, account_id: str) -> None:
    """Someone else's order, or none: 404 with the same words."""
    if not state.exists or state.account_id != account_id:
        raise NotFound("no such order among yours")


def line_of(state: OrderState, index: int) -> dict[str, Any]:
    for line in state.lines:
        if int(line["index"]) == index:
            return line
    raise NotFound(f"order {state.number} has no line {index}")
