"""The operation table (DESIGN §3), one module per context; every operation declared once."""

from __future__ import annotations

from api.ops import catalog
from api.registry import Operation, Registry

MODULES = (catalog,)


def operations() -> list[Operation]:
    return [op for module in MODULES for op in module.operations()]


def build_registry() -> Registry:
    return Registry(operations())
