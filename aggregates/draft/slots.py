"""Slot values: drafted slots from a drafter's output, completeness, and merging of keyed parts."""

from __future__ import annotations

from typing import Any

from events.draft_fields import (
    COMPLETENESS_WEIGHTS, FIELD_NAMES, LIST_FIELDS, SLOTS,
)
from aggregates.draft.state import MAX_EVIDENCE, Slot, has_value


def drafted_slot(name: str, raw: Any) -> dict[str, Any]:
    """A drafter's field (`FieldDraft.to_dict()` form) as a slot dict: `ai` with evidence, or `not_found`."""
    raw = raw if isinstance(raw, dict) else {}
    value = raw.get("value")
    if name in LIST_FIELDS:
        value = [str(v) for v in value] if isinstance(value, list) else None
    elif value is not None:
        value = str(value)
    evidence = [_evidence(e) for e in (raw.get("evidence") or [])][:MAX_EVIDENCE]
    if raw.get("state") != "ai" or not has_value(value) or not evidence:
        return {"value": None, "state": "not_found", "evidence": []}
    return {"value": value, "state": "ai", "evidence": evidence}


def summary_of(slots: dict[str, Slot]) -> tuple[int, list[str], list[str]]:
    """(completeness 0..100, fields without a value, slots the site had no evidence for)."""
    have = sum(w for name, w in COMPLETENESS_WEIGHTS.items() if (slots.get(name) or Slot()).has_value)
    completeness = round(100 * have / sum(COMPLETENESS_WEIGHTS.values()))
    missing = [n for n in FIELD_NAMES if not (slots.get(n) or Slot()).has_value]
    not_found = [n for n in SLOTS if (slots.get(n) or Slot()).state == "not_found"]
    return completeness, missing, not_found


def _evidence(raw: Any) -> dict[str, Any]:
    raw = raw if isinstance(raw, dict) else {}
    return {"url": str(raw.get("url") or ""), "quote": str(raw.get("quote") or ""), "source": str(raw.get("source") or "text")}


def section_value(name: str, raw: Any) -> Any:
    if name == "company_socials":
        return {str(k): str(v) for k, v in (raw or {}).items() if v} if isinstance(raw, dict) else None
    if not isinstance(raw, list):
        return None
    items = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        clean = {k: v for k, v in item.items() if k != "evidence" and v is not None}
        clean["evidence"] = [_evidence(e) for e in (item.get("evidence") or [])][:MAX_EVIDENCE]
        items.append(clean)
    return items or None


def social_evidence_value(raw: Any, socials: dict[str, str] | None) -> dict[str, list[dict[str, Any]]]:
    """The evidence of each drafted social link (page and link target), for the links that were kept."""
    if not isinstance(raw, dict) or not socials:
        return {}
    return {str(k): [_evidence(e) for e in v][:MAX_EVIDENCE] for k, v in raw.items() if k in socials and isinstance(v, list)}


def merge(current: dict[str, str], changes: dict[str, str | None]) -> dict[str, str]:
    merged = dict(current)
    for key, value in changes.items():
        if value is None or not str(value).strip():
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def unique(names: tuple[str, ...] | list[str]) -> list[str]:
    return list(dict.fromkeys(names))
