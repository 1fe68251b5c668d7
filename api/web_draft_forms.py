"""The draft editor's one form as update_draft input: every section's inputs, read into the operation's own shape.

The editor is one form, so whichever button is pressed (the top "Save
changes", a section's Save, Lock, Restore, Delete, Regenerate, "Save as
listing", "Send invite") every input of the page is posted and every typed
change is kept. The button says what else to do and where the page goes back
to: its `op` is `save`, `regenerate`, `lock`, `restore` or `delete`, with a
target after a colon (`lock:tagline`, `regenerate:faqs`, `save:seo`);
`regenerate` alone redrafts the ticked profile fields.

The inputs are named by the same dotted paths the API's problem details use
(`fields.tagline`, `faqs.0.question`, `milestones.1.url`,
`company_socials.github`, `story.journey`, `seo.title`), so a failed check
(`UpdateDraft`'s pydantic model, then the domain's `InvalidInput`) lands
beside the input it is about, in the website's words (`api.web_errors`), and
nothing here checks a value a second time. What this module decides is only *what changed*: the
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
TOP = "changes"
"""Where the top "Save changes" and "Regenerate checked fields" bring the page back to (its notice below the bar)."""
_LIST_ITEM = re.compile(r"^(fields\.(?:" + "|".join(LIST_FIELDS) + r"))\.\d+$")
_OP = re.compile(r"^(save|regenerate|lock|restore|delete)(?::(" + "|".join((*FIELD_NAMES, *SECTIONS)) + r"))?$")


@dataclass
class Edit:
    """What one post of the editor asks of update_draft (`raw`, not yet validated) and the values to show again."""

    raw: dict[str, Any]
    at: str = TOP  # where the page goes back to: `changes`, a field's slot (`slot-tagline`) or a section (`faqs`)
    shown: dict[str, Any] = field(default_factory=dict)  # what the form showed, for a redisplay with errors
    order: list[str] = field(default_factory=list)  # the inputs in the page's order, for the error summary
    email: str = ""  # a co-founder's address typed in the invite box (sent only by "Send invite")

    @property
    def changes_nothing(self) -> bool:
        return set(self.raw) == {"id"}

    def sorted(self, errors: dict[str, str]) -> dict[str, str]:
        """`errors` in the order of their inputs on the page (the rest after)."""
        place = {name: i for i, name in reversed(list(enumerate(self.order)))}
        return dict(sorted(errors.items(), key=lambda kv: place.get(kv[0], len(place))))


def read(data: FormData, doc: dict[str, Any]) -> Edit:
    """The update_draft input a post of the editor stands for: every section posted, only what differs from `doc`."""
    op, target = _op(data)
    raw: dict[str, Any] = {"id": doc["id"]}
    shown: dict[str, Any] = {}
    _fields(data, doc, raw, shown, op, target)
    for section in ROW_KEYS:
        _rows(data, doc, raw, shown, section, op if target == section else "save")
    for section in MAPPINGS:
        _mapping(data, doc, raw, shown, section, op if target == section else "save")
    if "competitor_url" in data:
        url = _text(data, "competitor_url")
        if url != ((doc.get("competitor") or {}).get("url") or ""):
            raw["competitor_url"] = url
        shown["competitor_url"] = url
    email = _text(data, "email")
    if email:
        shown["email"] = email
    at = f"slot-{target}" if target in FIELD_NAMES else target if target in SECTIONS and target != "fields" else TOP
    return Edit(raw, at, shown, list(data.keys()), email)


def problems(exc: InvalidInput | ValidationError, sent: dict[str, Any] | None = None) -> dict[str, str]:
    """Input name -> message: the API's field paths, worded for people (a list item's message goes to its list).

    `sent` is the update_draft input the form stood for, so that a message can quote a refused value.
    """
    out: dict[str, str] = {}
    for name, message in web_errors.worded(exc, sent):
        item = _LIST_ITEM.match(name)
        out.setdefault(item.group(1) if item else name, message)
    return out


def categories(posted: list[Any], current: list[str]) -> list[str]:
    """The categories the editor's menu and boxes stand for: the primary (the menu) first, then the ticked ones.

    The ticked categories keep the order they have in the draft (new ones after, in the page's order), so opening
    the page and saving changes nothing: the boxes are in the directory's order, the draft's extra categories in
    the founder's. A single value with line breaks is read one per line (the editor's former text box).
    """
    values = [str(v) for v in posted]
    if len(values) == 1 and "\n" in values[0]:
        values = values[0].splitlines()
    given = list(dict.fromkeys(v.strip() for v in values if v.strip()))
    if not given:
        return []
    primary, ticked = given[0], set(given[1:])
    kept = [c for c in current if c in ticked and c != primary]
    return [primary, *kept, *(c for c in given[1:] if c not in kept)]


def field_value(name: str, value: Any) -> str:
    """A field's value as its input shows it: lists one item per line."""
    if value is None:
        return ""
    if name in LIST_FIELDS:
        return "\n".join(str(v) for v in value)
    return str(value)


# ---------------------------------------------------------------- per section


def _op(data: FormData) -> tuple[str, str | None]:
    """The pressed button's action and target; a post that names its `section` (and no target) acts on that section."""
    match = _OP.match(str(data.get("op") or "save"))
    op, target = (match.group(1), match.group(2)) if match else ("save", None)
    section = str(data.get("section") or "")
    if target is None and section in SECTIONS:
        target = section
    return op, target


def _fields(data: FormData, doc: dict[str, Any], raw: dict[str, Any], shown: dict[str, Any], op: str,
            target: str | None) -> None:
    changed: dict[str, Any] = {}
    for name in FIELD_NAMES:
        key = f"fields.{name}"
        if key not in data:
            continue
        current = (doc["fields"].get(name) or {}).get("value")
        if name == "categories":
            chosen = categories(data.getlist(key), list(current or []))
            shown[key] = chosen
            if chosen != list(current or []):
                changed[name] = chosen
            continue
        text = str(data.get(key) or "")
        shown[key] = text
        if name in LIST_FIELDS:
            items = [line.strip() for line in text.splitlines() if line.strip()]
            if items != list(current or []):
                changed[name] = items
        elif text.strip() != (current or ""):
            changed[name] = text
    ticked = [str(v) for v in data.getlist("regenerate")]
    shown["regenerate"] = ticked  # the ticks too, for a redisplay
    if target in FIELD_NAMES and op == "delete":
        changed[target] = None
    if target in FIELD_NAMES and op == "restore":
        changed.pop(target, None)
        raw["restore"] = [target]
    if target in FIELD_NAMES and op == "lock":
        raw["lock_fields"] = [target]  # after what was typed in it is saved
    if op == "regenerate" and target in (None, "fields"):
        raw["regenerate"] = ticked
        for name in ticked:
            changed.pop(name, None)  # asked to redraft it: an unsaved edit of it is dropped, not a conflict
    if changed:
        raw["fields"] = changed


def _rows(data: FormData, doc: dict[str, Any], raw: dict[str, Any], shown: dict[str, Any], section: str,
          op: str) -> None:
    keys = ROW_KEYS[section]
    posted = any(k.startswith(f"{section}.") for k in data.keys())
    rows: list[dict[str, Any]] = []
    for i in range(MAX_ROWS[section] + 1):  # the rows shown, plus the empty one for adding
        row = {k: _text(data, f"{section}.{i}.{k}") for k in keys}
        if any(row.values()):
            rows.append({k: (v if v or k in ("question", "answer", "name", "date", "title") else None)
                         for k, v in row.items()})
    if posted:
        shown[section] = rows
    if section in SLOT_SECTIONS and _slot_op(raw, section, op):
        return
    current = [{k: item.get(k) for k in keys} for item in doc.get(section) or []]
    if op == "delete" and section in SLOT_SECTIONS:
        raw[section] = []
    elif posted and rows != current:
        raw[section] = rows
    if op == "lock" and section in SLOT_SECTIONS:
        raw["lock_fields"] = [section]  # after what was typed in it is saved


def _mapping(data: FormData, doc: dict[str, Any], raw: dict[str, Any], shown: dict[str, Any], section: str,
             op: str) -> None:
    keys = MAPPINGS[section]
    current = doc.get(section) or {}
    given = {k: _text(data, f"{section}.{k}") for k in keys if f"{section}.{k}" in data}
    shown.update({f"{section}.{k}": v for k, v in given.items()})
    if section in SLOT_SECTIONS and _slot_op(raw, section, op):
        return
    if op == "delete" and section in SLOT_SECTIONS:
        changed = {k: "" for k in current}
    else:
        changed = {k: v for k, v in given.items() if v != (current.get(k) or "")}
    if changed:
        raw[section] = changed
    if op == "lock" and section in SLOT_SECTIONS:
        raw["lock_fields"] = [section]


def _slot_op(raw: dict[str, Any], section: str, op: str) -> bool:
    """Restore or regenerate a section slot: what was typed in it is left out (the person asked for the AI's)."""
    what = {"restore": "restore", "regenerate": "regenerate"}.get(op)
    if what is None:
        return False
    raw[what] = [section]
    return True


def _text(data: FormData, key: str) -> str:
    return str(data.get(key) or "").strip()
