"""Staff commands on the catalogue: load the catalogue file, set prices, change site settings."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from aggregates import catalog
from aggregates.base import Meta
from commands.store import EventStore, retrying


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


def _catalog(store: EventStore) -> catalog.CatalogState:
    state: catalog.CatalogState = store.load(catalog.CATALOG_ID, catalog.initial, catalog.evolve)
    return state


def load_catalog(store: EventStore, cmd: LoadCatalog, meta: Meta) -> int:
    """Returns the notification position to wait for."""
    return retrying(lambda: store.append(catalog.decide_load(_catalog(store), cmd.spec, meta, update=cmd.update)))


def set_product_price(store: EventStore, cmd: SetProductPrice, meta: Meta) -> int:
    return retrying(lambda: store.append(catalog.decide_set_price(_catalog(store), cmd.code, cmd.price_cents, meta)))


def change_site_settings(store: EventStore, cmd: ChangeSiteSettings, meta: Meta) -> int:
    return retrying(lambda: store.append(catalog.decide_change_site(_catalog(store), cmd.changes, meta)))


def current_catalog(store: EventStore) -> catalog.CatalogState:
    """The catalogue as the write side sees it (for staff tools and price checks)."""
    return _catalog(store)
