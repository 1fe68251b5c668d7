"""The operation table (docs/architecture.md), one module per context; every operation declared once."""

from __future__ import annotations

from api.ops import account, catalog, claims, content, drafts, free_plan, interview, launches, listings, my_listings
from api.ops import orders
from api.registry import Operation, Registry

MODULES = (catalog, account, launches, content, listings, drafts, my_listings, free_plan, interview, claims, orders)


def operations() -> list[Operation]:
    return [op for module in MODULES for op in module.operations()]


def build_registry() -> Registry:
    return Registry(operations())
