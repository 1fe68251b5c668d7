"""update_draft after validation: the input object the editing decider takes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any



@dataclass(frozen=True)
class Patch:
    """update_draft after validation and normalisation ("" and [] already turned into None)."""

    fields: dict[str, Any] = field(default_factory=dict)  # field name -> value, None removes
    faqs: list[dict[str, str]] | None = None
    founders: list[dict[str, str]] | None = None
    company_socials: dict[str, str | None] | None = None  # merged; None removes a key
    founder_socials: dict[str, str | None] | None = None  # merged
    story: dict[str, str | None] | None = None  # merged
    seo: dict[str, str | None] | None = None  # merged
    milestones: list[dict[str, str]] | None = None  # replaces
    lock_fields: tuple[str, ...] = ()
    restore: tuple[str, ...] = ()
    regenerate: tuple[str, ...] = ()
    competitor_url: str | None = None  # "" clears

    def set_slots(self) -> list[str]:
        """Slots this patch gives values to (fields and sections)."""
        names = list(self.fields)
        names += [s for s in ("faqs", "founders", "company_socials") if getattr(self, s) is not None]
        return names
