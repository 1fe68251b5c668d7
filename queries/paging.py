"""Paging inputs and the list envelope every list response shares (SPEC §2.1 and §8)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

SLUG_PATTERN = r"^[a-z0-9][a-z0-9-]{0,219}$"


class Paging(BaseModel):
    """`page` 1..1000 (default 1) and `per_page` 1..100 (default 20)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    page: int = Field(1, ge=1, le=1000, description="Page number, 1..1000.")
    per_page: int = Field(20, ge=1, le=100, description="Entries per page, 1..100.")

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page


class PageInfo(BaseModel):
    page: int
    per_page: int
    total: int
    has_more: bool


def page_of(items: list[Any], paging: Paging, total: int) -> dict[str, Any]:
    """The list envelope: `items` plus the paging facts."""
    return {
        "items": items,
        "page": paging.page,
        "per_page": paging.per_page,
        "total": total,
        "has_more": paging.offset + len(items) < total,
    }
