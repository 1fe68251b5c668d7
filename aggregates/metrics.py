"""Deciders for the metrics of the non-community rankings: Domain Rating, revenue, billboard money."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from aggregates.base import Meta, one
from events.base import Event
from events.errors import FieldProblem, InvalidInput
from events.metrics import BillboardContributed, DomainRatingRecorded, RevenueRecorded

REVENUE_SOURCES = ("verified", "self_reported")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
PERIOD = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def metrics_stream(listing_id: int) -> UUID:
    return uuid5(NAMESPACE_URL, f"launchdir:metrics:{listing_id}")


@dataclass(frozen=True)
class MetricsState:
    id: UUID
    version: int = 0


def initial(stream_id: UUID) -> MetricsState:
    return MetricsState(id=stream_id)


def evolve(event: Event, state: Any) -> Any:
    return replace(state, version=event.originator_version)


def decide_domain_rating(state: MetricsState, listing_id: int, value: int, source: str, measured_on: str, meta: Meta) -> list[Event]:
    if not 0 <= value <= 100:
        raise InvalidInput("Domain Rating is 0..100", [FieldProblem("value", "range", "0..100")])
    if not DATE.match(measured_on):
        raise InvalidInput("bad date", [FieldProblem("measured_on", "format_date", "YYYY-MM-DD")])
    return one(state, meta, DomainRatingRecorded, listing_id=listing_id, value=value, source=source,
               measured_on=measured_on)


def decide_revenue(state: MetricsState, listing_id: int, amount_cents: int, period: str, source: str, meta: Meta) -> list[Event]:
    if source not in REVENUE_SOURCES:
        raise InvalidInput("revenue source", [FieldProblem("source", "enum", ", ".join(REVENUE_SOURCES))])
    if amount_cents < 0:
        raise InvalidInput("revenue cannot be negative", [FieldProblem("amount_cents", "minimum", ">= 0")])
    if not PERIOD.match(period):
        raise InvalidInput("bad period", [FieldProblem("period", "format", "YYYY-MM")])
    return one(state, meta, RevenueRecorded, listing_id=listing_id, amount_cents=amount_cents, period=period,
               source=source)


def decide_billboard(state: MetricsState, listing_id: int, amount_cents: int, order_number: str | None, meta: Meta) -> list[Event]:
    if not 1 <= amount_cents <= 100_000_000:
        raise InvalidInput("amount out of range", [FieldProblem("amount_cents", "range", "1..100000000")])
    return one(state, meta, BillboardContributed, listing_id=listing_id, amount_cents=amount_cents,
               order_number=order_number)
