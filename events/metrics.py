"""Events of the non-community rankings: Domain Rating, revenue, and the paid billboard."""

from __future__ import annotations

from dataclasses import dataclass

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class DomainRatingRecorded(Event):
    listing_id: int
    value: int  # 0..100
    source: str  # "staff" or the SEO provider's name
    measured_on: str  # YYYY-MM-DD


@dataclass(frozen=True, kw_only=True)
class RevenueRecorded(Event):
    listing_id: int
    amount_cents: int  # monthly recurring or monthly revenue, USD cents
    period: str  # YYYY-MM
    source: str  # "verified" | "self_reported"


@dataclass(frozen=True, kw_only=True)
class BillboardContributed(Event):
    listing_id: int
    amount_cents: int
    order_number: str | None
