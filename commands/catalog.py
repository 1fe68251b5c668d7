"""Staff commands on the catalogue: load the catalogue file, set prices, change site settings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from aggregates import catalog
from aggregates.base import Meta
from commands.store import EventStore
from events.base import Event


class LoadCatalog(BaseModel):
    """Load the catalogue file: add what is missing; with `update`, also apply changed entries."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    spec: dict[str, Any]
    update: bool = False


class SetProductPrice(BaseModel):
    """Set a product's price in USD cents, excluding VAT."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    code: str = Field(max_length=60)
    price_cents: int = Field(ge=0, le=catalog.MAX_PRICE_CENTS)


class ChangeSiteSettings(BaseModel):
    """Change site settings such as the name, purpose, public URLs or free-queue weeks."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    changes: dict[str, Any]


def load_catalog(store: EventStore, cmd: LoadCatalog, meta: Meta) -> int:
    """Returns the notification position to wait for."""
    return _decide(store, lambda s: catalog.decide_load(s, cmd.spec, meta, update=cmd.update))


def set_product_price(store: EventStore, cmd: SetProductPrice, meta: Meta) -> int:
    return _decide(store, lambda s: catalog.decide_set_price(s, cmd.code, cmd.price_cents, meta))


def change_site_settings(store: EventStore, cmd: ChangeSiteSettings, meta: Meta) -> int:
    return _decide(store, lambda s: catalog.decide_change_site(s, cmd.changes, meta))


def current_catalog(store: EventStore) -> catalog.CatalogState:
    """The catalogue as the write side sees it (for staff tools and price checks)."""
    state: catalog.CatalogState = store.load(catalog.CATALOG_ID, catalog)
    return state


def _decide(store: EventStore, decision: Callable[[catalog.CatalogState], Sequence[Event]]) -> int:
    return store.decide(catalog.CATALOG_ID, catalog, decision).position
