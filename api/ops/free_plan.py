"""(being built)"""

from __future__ import annotations

from api.registry import Operation


def operations() -> list[Operation]:
    return []
