"""Staff commands on the catalogue: load the catalogue file, set prices, change site settings."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from aggregates import catalog
from aggregates.base import Meta
from commands.store import Appended, EventStore
from events.base import Event
from events.errors import FieldProblem, InvalidInput

DOLLARS = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,2})?", re.ASCII)  # "49", "49.5", "49.50": what people type
CENTS = re.compile(r"[0-9]{1,11}", re.ASCII)  # the command line's whole cents: "4900"


class LoadCatalog(BaseModel):
    """Load the catalogue file: add what is missing; with `update`, also apply changed entries."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    spec: dict[str, Any]
    update: bool = False


class SetProductPrice(BaseModel):
    """Set a product's price in USD cents, excluding VAT."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    code: str = Field(max_length=60)
    price_cents: int = Field(ge=catalog.MIN_PRICE_CENTS, le=catalog.MAX_PRICE_CENTS)


class ChangeSiteSettings(BaseModel):
    """Change site settings such as the name, purpose, public URLs or free-queue weeks."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    changes: dict[str, Any]


def price_from_dollars(text: str, field: str = "price") -> int:
    """Dollars as staff type them (ASCII digits, optional .cents) in cents, within the price rule; else a 400."""
    value = text.strip()
    if not DOLLARS.fullmatch(value):
        raise InvalidInput("not a price", [FieldProblem(
            field, "format", "Enter the price in dollars with the digits 0-9 and an optional .cents, like 49 or 49.50.")])
    whole, _, part = value.partition(".")
    return _in_range(int(whole) * 100 + int(part.ljust(2, "0") or 0), field)


def price_from_cents(text: str, field: str = "cents") -> int:
    """Whole cents as the command line takes them (ASCII digits only), within the price rule; else a 400."""
    value = text.strip()
    if not CENTS.fullmatch(value):
        raise InvalidInput("not a price", [FieldProblem(
            field, "format", "Give the price in whole cents with the digits 0-9, like 4900 for $49.00.")])
    return _in_range(int(value), field)


def _in_range(cents: int, field: str) -> int:
    if not catalog.MIN_PRICE_CENTS <= cents <= catalog.MAX_PRICE_CENTS:
        raise InvalidInput("price out of range", [FieldProblem(field, "range", catalog.price_rule())])
    return cents


def load_catalog(store: EventStore, cmd: LoadCatalog, meta: Meta) -> int:
    """Returns the notification position to wait for.

    All or nothing: the decider checks the whole file (every product's price
    against the price rule first) before it decides anything, and what it
    decides is one append, so a refused file leaves the catalogue as it was.
    """
    return _decide(store, lambda s: catalog.decide_load(s, cmd.spec, meta, update=cmd.update))


def set_product_price(store: EventStore, cmd: SetProductPrice, meta: Meta) -> int:
    return set_price(store, cmd, meta).position


def set_price(store: EventStore, cmd: SetProductPrice, meta: Meta) -> Appended:
    """Set a product's price; no events when it has that price already (staff are told nothing changed)."""
    return store.decide(catalog.CATALOG_ID, catalog, lambda s: catalog.decide_set_price(s, cmd.code, cmd.price_cents, meta))


def change_site_settings(store: EventStore, cmd: ChangeSiteSettings, meta: Meta) -> Appended:
    """Change site settings; no events when each already has the value sent (staff are told nothing changed)."""
    return store.decide(catalog.CATALOG_ID, catalog, lambda s: catalog.decide_change_site(s, cmd.changes, meta))


def current_catalog(store: EventStore) -> catalog.CatalogState:
    """The catalogue as the write side sees it (for staff tools and price checks)."""
    state: catalog.CatalogState = store.load(catalog.CATALOG_ID, catalog)
    return state


def _decide(store: EventStore, decision: Callable[[catalog.CatalogState], Sequence[Event]]) -> int:
    return store.decide(catalog.CATALOG_ID, catalog, decision).position
