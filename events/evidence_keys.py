"""Keys of a listing's evidence map (`ListingCreated.evidence`, `ListingEvidenceSet.evidence`).

A key is a profile field (`description`) or one drafted item of a section:
`faqs.<i>` and `founders.<i>` (position in the listing's list) and
`socials.<platform>`. The listing decider, its evolve and the listing
projection read the same rules here, because the keys live in stored events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

ITEM_SECTIONS: tuple[str, ...] = ("faqs", "founders", "socials")

V = TypeVar("V")


def section_of(key: str) -> str:
    """The field or section a key belongs to: `faqs.2` -> `faqs`, `tagline` -> `tagline`."""
    return key.partition(".")[0]


def kept_after_edit(evidence: Mapping[str, V], changes: Mapping[str, Any]) -> dict[str, V]:
    """The evidence left after an edit: an edited field, or any item of an edited section, is no longer the site's."""
    return {k: v for k, v in evidence.items() if section_of(k) not in changes}


def names_item(key: str, faqs: Sequence[Any], founders: Sequence[Any], socials: Mapping[str, Any]) -> bool:
    """Whether an item key (`faqs.0`, `founders.1`, `socials.github`) names an item the listing holds."""
    section, _, item = key.partition(".")
    if section == "socials":
        return bool(socials.get(item))
    if section in ("faqs", "founders") and item.isdigit():
        return int(item) < len(faqs if section == "faqs" else founders)
    return False
