"""The Order decider: quotes with EU VAT, a pending checkout, payment, fulfilment of each line, expiry, refund.

Statuses: `pending`, `paid`, `fulfilled`, `expired`, `refunded` (see
`lifecycle`). The package: `state` (state, stream id, limits), `vat` (the VAT
treatment and rates), `pricing` (the order body's rules against the
catalogue and the caller's listings), `lifecycle` (one order's decisions),
`fulfil` (one paid line applied across streams), `review` (the rule-based
profile review) and `evolve`. The package itself is the decider of order
streams (`initial`, `evolve`).
"""

from __future__ import annotations

from aggregates.order.evolve import evolve
from aggregates.order.fulfil import decide_line
from aggregates.order.lifecycle import (
    decide_billing,
    decide_expire,
    decide_paid,
    decide_payment_started,
    decide_place,
    decide_refund,
    decide_task_closed,
    require_payable,
)
from aggregates.order.pricing import Quote, offered_weeks, price_items
from aggregates.order.state import (
    MAX_ITEMS,
    NUMBER_ALPHABET,
    NUMBER_MAX,
    TTL,
    OrderState,
    initial,
    line_of,
    order_stream,
    require_mine,
)
from aggregates.order.vat import RATES_VALID_FROM, STANDARD_RATES_BP, VatDecision, check_number, decide_vat, vat_cents

__all__ = [
    "MAX_ITEMS", "NUMBER_ALPHABET", "NUMBER_MAX", "RATES_VALID_FROM", "STANDARD_RATES_BP", "TTL", "OrderState",
    "Quote", "VatDecision", "check_number", "decide_billing", "decide_expire", "decide_line", "decide_paid",
    "decide_payment_started", "decide_place", "decide_refund", "decide_task_closed", "decide_vat", "evolve",
    "initial", "line_of", "offered_weeks", "order_stream", "price_items", "require_mine", "require_payable",
    "vat_cents",
]
