"""The draft editor's forms as update_draft input: one form per section, read into the operation's own shape.

The editor's inputs are named by the same dotted paths the API's problem
details use (`fields.tagline`, `faqs.0.question`, `milestones.1.url`,
`company_socials.github`, `story.journey`, `seo.title`), so a failed check
(`UpdateDraft`'s pydantic model, then the domain's `InvalidInput`) lands
beside the input it is about, in the website's words (`api.web_errors`), and
nothing here checks a value a second time. What this module decides is only *what changed*: a
form sends every input, but update_draft is sent only the values that differ
from the draft, because sending an empty, untouched field would delete it.

Pure functions of the form and the draft document: no I/O, so the page
module stays small.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData

from api import web_errors
from events.draft_fields import FIELD_NAMES, LIST_FIELDS, SOCIAL_KEYS, STORY_SECTIONS
from events.errors import InvalidInput

SECTIONS = ("fields", "faqs", "founders", "company_socials", "founder_socials", "story", "milestones", "seo",
            "competitor")
ROW_KEYS = {"faqs": ("question", "answer"), "founders": ("name", "title", "bio"),
            "milestones": ("date", "title", "description", "url")}
MAX_ROWS = {"faqs": 10, "founders": 6, "milestones": 50}
SLOT_SECTIONS = ("faqs", "founders", "company_socials")  # the sections that are slots (state, lock, restore)
MAPPINGS = {"company_socials": SOCIAL_KEYS, "founder_socials": SOCIAL_KEYS, "story": STORY_SECTIONS,
            "seo": ("title", "meta")}
_LIST_ITEM = re.compile(r"^(fields\.(?:" + "|".join(LIST_FIELDS) + r"))\.\d+$")
_OP = re.compile(r"^(save|regenerate|lock|restore|delete)(?::(" + "|".join(FIELD_NAMES) + r"))?$")


@dataclass
class Edit:
    """What one submitted form asks of update_draft (`raw`, not yet validated) and the values to show again."""

    section: str
    raw: dict[str, Any]
    shown: dict[str, Any] = field(default_factory=dict)  # what the form showed, for a redisplay with errors

    @property
    def changes_nothing(self) -> bool:
        return set(self.raw) == {"id"}


def read(data: FormData, doc: dict[str, Any]) -> Edit:
    """The update_draft input one of the editor's forms stands for (only what differs from `doc`)."""
    section = str(data.get("section") or "")
    if section not in SECTIONS:
        section = "fields"
    match = _OP.match(str(data.get("op") or "save"))
    op, target = (match.group(1), match.group(2)) if match else ("save", None)
    raw: dict[str, Any] = {"id": doc["id"]}
    if section == "fields":
        shown = _fields(data, doc, raw, op, target)
    elif section in ROW_KEYS:
        shown = _rows(data, doc, raw, section, op)
    elif section in MAPPINGS:
        shown = _mapping(data, doc, raw, section, op)
    else:
        url = _text(data, "competitor_url")
        current = (doc.get("competitor") or {}).get("url") or ""
        if url != current:
            raw["competitor_url"] = url
        shown = {"competitor_url": url}
    return Edit(section, raw, shown)


def problems(exc: InvalidInput | ValidationError, sent: dict[str, Any] | None = None) -> dict[str, str]:
    """Input name -> message: the API's field paths, worded for people (a list item's message goes to its list).

    `sent` is the update_draft input the form stood for, so that a message can quote a refused value.
    """
    out: dict[str, str] = {}
    for name, message in web_errors.worded(exc, sent):
        item = _LIST_ITEM.match(name)
        out.setdefault(item.group(1) if item else name, message)
    return out


def field_value(name: str, value: Any) -> str:
    """A field's value as its input shows it: lists one item a line."""
    if value is None:
        return ""
    if name in LIST_FIELDS:
        return "\n".join(str(v) for v in value)
    return str(value)


# ---------------------------------------------------------------- per section


def _fields(data: FormData, doc: dict[str, Any], raw: dict[str, Any], op: str, target: str | None) -> dict[str, Any]:
    changed: dict[str, Any] = {}
    shown: dict[str, Any] = {}
    for name in FIELD_NAMES:
        key = f"fields.{name}"
        if key not in data:
            continue
        text = str(data.get(key) or "")
        shown[key] = text
        current = (doc["fields"].get(name) or {}).get("value")
        if name in LIST_FIELDS:
            items = [line.strip() for line in text.splitlines() if line.strip()]
            if items != list(current or []):
                changed[name] = items
        elif text.strip() != (current or ""):
            changed[name] = text
    if op == "delete" and target:
        changed[target] = None
    if op == "restore" and target:
        changed.pop(target, None)
        raw["restore"] = [target]
    if op == "lock" and target:
        raw["lock_fields"] = [target]
    if op == "regenerate":
        wanted = [str(v) for v in data.getlist("regenerate")]
        shown["regenerate"] = wanted
        raw["regenerate"] = wanted
        for name in wanted:
            changed.pop(name, None)  # asked to redraft it: an unsaved edit of it is dropped, not a conflict
    if changed:
        raw["fields"] = changed
    return shown


def _rows(data: FormData, doc: dict[str, Any], raw: dict[str, Any], section: str, op: str) -> dict[str, Any]:
    keys = ROW_KEYS[section]
    rows: list[dict[str, Any]] = []
    for i in range(MAX_ROWS[section] + 1):  # the rows shown, plus the empty one for adding
        row = {k: _text(data, f"{section}.{i}.{k}") for k in keys}
        if any(row.values()):
            rows.append({k: (v if v or k in ("question", "answer", "name", "date", "title") else None)
                         for k, v in row.items()})
    shown = {section: rows}
    if section in SLOT_SECTIONS and _slot_op(raw, section, op):
        return shown
    current = [{k: item.get(k) for k in keys} for item in doc.get(section) or []]
    if op == "delete":
        raw[section] = []
    elif rows != current:
        raw[section] = rows
    return shown


def _mapping(data: FormData, doc: dict[str, Any], raw: dict[str, Any], section: str, op: str) -> dict[str, Any]:
    keys = MAPPINGS[section]
    current = doc.get(section) or {}
    given = {k: _text(data, f"{section}.{k}") for k in keys if f"{section}.{k}" in data}
    shown = {f"{section}.{k}": v for k, v in given.items()}
    if section in SLOT_SECTIONS and _slot_op(raw, section, op):
        return shown
    if op == "delete":
        changed = {k: "" for k in current}
    else:
        changed = {k: v for k, v in given.items() if v != (current.get(k) or "")}
    if changed:
        raw[section] = changed
    return shown


def _slot_op(raw: dict[str, Any], section: str, op: str) -> bool:
    """Lock, restore or regenerate a section slot (its values are then left as they are)."""
    what = {"lock": "lock_fields", "restore": "restore", "regenerate": "regenerate"}.get(op)
    if what is None:
        return False
    raw[what] = [section]
    return True


def _text(data: FormData, key: str) -> str:
    return str(data.get(key) or "").strip()
