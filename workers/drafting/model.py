"""The profile draft: every value with the quotes from the site that support it.

All classes are frozen and convert to and from plain JSON data with
``to_dict()`` / ``from_dict()``.  Field names and bounds are those of the
update_draft ``fields`` object (SPEC section 4.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from events.draft_fields import (
    COMPLETENESS_WEIGHTS, FIELD_NAMES, LIST_FIELDS, SECTIONS, SOCIAL_KEYS, SOCIAL_PLATFORMS, STRING_FIELDS,
)

from .socials import platform_for

__all__ = [
    "ATOMIC_FIELDS", "COMPLETENESS_WEIGHTS", "FIELD_NAMES", "LIST_FIELDS", "PROSE_FIELDS", "SECTIONS",
    "SOCIAL_KEYS", "SOCIAL_PLATFORMS", "STRING_FIELDS", "Evidence", "FieldDraft", "ProfileDraft",
    "completeness_of", "field_limit", "platform_for",
]

Value = Union[str, list[str], None]

ATOMIC_FIELDS: tuple[str, ...] = (
    "name", "country", "city", "founded_year", "contact_email", "logo_url", "demo_video_url", "stage", "pricing_model",
)
"""Short facts: the value itself must appear in a quote (country, stage and pricing_model via tables)."""
PROSE_FIELDS: tuple[str, ...] = ("tagline", "short_description", "description", "pricing_summary")
"""Text fields: every sentence of the value must be a sentence of a quote."""

MAX_STRING = 500
MAX_DESCRIPTION = 20_000
MAX_LIST_ITEMS = 20
MAX_LIST_ITEM = 200
MAX_FAQS = 10
MAX_QUESTION = 300
MAX_ANSWER = 1500
MAX_FOUNDERS = 6
MAX_FOUNDER_NAME = 160
MAX_FOUNDER_TITLE = 160
MAX_FOUNDER_BIO = 3000
MAX_SOCIAL_URL = 500

STATE_AI = "ai"
STATE_NOT_FOUND = "not_found"
SOURCES: tuple[str, ...] = ("text", "metadata")



def field_limit(name: str) -> int:
    """Maximum characters of a string field (or of one list item)."""
    if name == "description":
        return MAX_DESCRIPTION
    return MAX_LIST_ITEM if name in LIST_FIELDS else MAX_STRING


@dataclass(frozen=True)
class Evidence:
    """A quote from one crawled page.

    ``source`` is ``"text"`` (the quote occurs in the page's visible text) or
    ``"metadata"`` (in one value of its structured data, its ``<title>`` or
    one of its visible links' targets).
    """

    url: str
    quote: str
    source: str = "text"

    def to_dict(self) -> dict[str, str]:
        return {"url": self.url, "quote": self.quote, "source": self.source}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evidence:
        return cls(url=str(data["url"]), quote=str(data["quote"]), source=str(data.get("source") or "text"))


@dataclass(frozen=True)
class FieldDraft:
    """One profile field: a verified value (state ``ai``) or nothing (``not_found``)."""

    name: str
    value: Value
    state: str
    evidence: list[Evidence] = field(default_factory=list)

    @classmethod
    def not_found(cls, name: str) -> FieldDraft:
        return cls(name=name, value=None, state=STATE_NOT_FOUND, evidence=[])

    @property
    def has_value(self) -> bool:
        return self.state == STATE_AI and bool(self.value)

    def to_dict(self) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, list) else self.value
        return {"name": self.name, "value": value, "state": self.state, "evidence": [e.to_dict() for e in self.evidence]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FieldDraft:
        raw = data.get("value")
        value: Value = [str(v) for v in raw] if isinstance(raw, list) else (None if raw is None else str(raw))
        return cls(
            name=str(data["name"]),
            value=value,
            state=str(data.get("state") or STATE_NOT_FOUND),
            evidence=[Evidence.from_dict(e) for e in data.get("evidence") or [] if _is_evidence(e)],
        )


def _is_evidence(data: Any) -> bool:
    return isinstance(data, Mapping) and isinstance(data.get("url"), str) and isinstance(data.get("quote"), str)


def _section_items(items: Any) -> list[dict[str, Any]]:
    return [
        {**{k: v for k, v in dict(item).items() if k != "evidence"},
         "evidence": [Evidence.from_dict(e).to_dict() for e in item.get("evidence") or [] if _is_evidence(e)]}
        for item in items or [] if isinstance(item, Mapping)
    ]


@dataclass(frozen=True)
class ProfileDraft:
    """A drafted profile; every value in it passed :func:`workers.drafting.verify.verify`.

    ``faqs`` items are ``{question, answer, evidence}``, ``founders`` items
    ``{name, title, bio, evidence}`` (evidence as dicts).  ``dropped`` keeps
    what failed verification, with the reason, for audit only.
    """

    fields: dict[str, FieldDraft]
    faqs: list[dict[str, Any]] = field(default_factory=list)
    founders: list[dict[str, Any]] = field(default_factory=list)
    company_socials: dict[str, str] = field(default_factory=dict)
    # per social key, where the link was found: the page and the link target quoted there
    social_evidence: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    not_found_on_website: list[str] = field(default_factory=list)
    completeness: int = 0
    missing: list[str] = field(default_factory=list)
    drafter: str = "extractive"
    dropped: list[dict[str, Any]] = field(default_factory=list)

    def value(self, name: str) -> Value:
        """The value of a field, None when it has none."""
        draft = self.fields.get(name)
        return draft.value if draft is not None and draft.has_value else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "fields": {name: fd.to_dict() for name, fd in self.fields.items()},
            "faqs": _section_items(self.faqs),
            "founders": _section_items(self.founders),
            "company_socials": dict(self.company_socials),
            "social_evidence": {k: [dict(e) for e in v] for k, v in self.social_evidence.items()},
            "not_found_on_website": list(self.not_found_on_website),
            "completeness": self.completeness,
            "missing": list(self.missing),
            "drafter": self.drafter,
            "dropped": [dict(d) for d in self.dropped],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ProfileDraft:
        return cls(
            fields={str(k): FieldDraft.from_dict({"name": k, **v}) for k, v in (data.get("fields") or {}).items()},
            faqs=_section_items(data.get("faqs")),
            founders=_section_items(data.get("founders")),
            company_socials={str(k): str(v) for k, v in (data.get("company_socials") or {}).items()},
            social_evidence={
                str(k): [Evidence.from_dict(e).to_dict() for e in v if _is_evidence(e)]
                for k, v in (data.get("social_evidence") or {}).items() if isinstance(v, list)
            },
            not_found_on_website=[str(n) for n in data.get("not_found_on_website") or []],
            completeness=int(data.get("completeness") or 0),
            missing=[str(n) for n in data.get("missing") or []],
            drafter=str(data.get("drafter") or "extractive"),
            dropped=[dict(d) for d in data.get("dropped") or []],
        )


def completeness_of(fields: Mapping[str, FieldDraft]) -> tuple[int, list[str]]:
    """(percentage of the weighted SPEC fields that have a value, names of those without)."""
    have = sum(w for name, w in COMPLETENESS_WEIGHTS.items() if name in fields and fields[name].has_value)
    missing = [name for name in FIELD_NAMES if name not in fields or not fields[name].has_value]
    return round(100 * have / sum(COMPLETENESS_WEIGHTS.values())), missing
