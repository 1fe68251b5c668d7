"""Events of the Catalog aggregate: categories, products, prices, interview questions, site settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.base import Event


@dataclass(frozen=True, kw_only=True)
class CategoryAdded(Event):
    slug: str
    name: str
    parent_slug: str | None
    description: str
    faqs: list[dict[str, str]]
    attributes: list[str]
    position: int


@dataclass(frozen=True, kw_only=True)
class CategoryChanged(Event):
    slug: str
    changes: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class InterviewQuestionAdded(Event):
    question_id: int
    text: str
    position: int


@dataclass(frozen=True, kw_only=True)
class InterviewQuestionChanged(Event):
    question_id: int
    text: str


@dataclass(frozen=True, kw_only=True)
class ProductAdded(Event):
    code: str
    name: str
    description: str
    price_cents: int
    needs_listing: bool
    options: dict[str, Any] | None
    week_window: list[int] | None
    position: int


@dataclass(frozen=True, kw_only=True)
class ProductChanged(Event):
    code: str
    changes: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class ProductPriceSet(Event):
    code: str
    price_cents: int
    previous_cents: int


@dataclass(frozen=True, kw_only=True)
class SiteSettingsChanged(Event):
    changes: dict[str, Any]
