"""A readable before/after of a version's changes for the owner's and the staff's pages.

Each changed field becomes two runs of segments: the value before, with what
went away marked, and the value after, with what came in marked. Text is
compared word by word; lists, objects (socials, the story) and lists of
objects (FAQs, founders, milestones) line by line, one item or key per line.
Fields and the keys inside them read as the forms name them
(`api/field_labels.py`: "Founded (year)", "GitHub: ..."), in the forms' order,
and values read as the pages show them, not as they are stored: a stage or
pricing model in words ("Free trial"), a country by its name ("Ireland"), a
category by its name ("Project Management", from the catalogue the caller
passes; a slug it does not know is shown as it is). An item of a list (an FAQ,
a founder) is one line per part ("Question: ...", then "Answer: ..."), with an
empty line between items, so a changed answer is one changed line. The
templates render the marks as `<del>` and `<ins>` with words a screen reader
says, so the page needs no script and no colour to be understood.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from api.field_labels import FIELD_LABELS, ITEM_LABELS, VALUE_LABELS, field_label, key_label, value_label
from events.countries import country_name

WORDS = re.compile(r"\S+\s*|\s+")  # a word with the spaces after it, so a change reads as whole words
FIELD_ORDER = {name: i for i, name in enumerate(FIELD_LABELS)}
ITEM_ORDER = {name: i for i, name in enumerate(ITEM_LABELS)}


@dataclass(frozen=True)
class Segment:
    """A run of text: `same`, `del` (only before) or `ins` (only after)."""

    op: str
    text: str


@dataclass(frozen=True)
class FieldDiff:
    field: str  # the key (what staff put back)
    before: list[Segment]
    after: list[Segment]
    lines: bool  # compared line by line (show with line breaks kept)
    label: str = ""  # what the page calls the field

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", field_label(self.field))


INTERNAL_KEYS = frozenset({"milestone_id", "update_id"})
"""Ids a value carries for the service's own use: never a part people compare."""


def field_diffs(changes: dict[str, dict[str, Any]], categories: Mapping[str, str] | None = None) -> list[FieldDiff]:
    """The before/after of every field of a version, in the forms' order (fields no form names last).

    `categories` names the catalogue's categories by slug (`queries.catalog.category_names`).
    """
    ordered = sorted(changes.items(), key=lambda item: FIELD_ORDER.get(item[0], len(FIELD_ORDER)))
    return [diff(field, change.get("before"), change.get("after"), categories) for field, change in ordered]


def shown(field: str, value: Any, categories: Mapping[str, str] | None = None) -> Any:
    """A field's value as the pages show it: codes in words, anything else as it is."""
    if isinstance(value, str) and field in VALUE_LABELS:
        return value_label(value, field)
    if isinstance(value, str) and field == "country":
        return country_name(value)
    if isinstance(value, list) and field == "categories":
        return [(categories or {}).get(v, v) if isinstance(v, str) else v for v in value]
    return value


def diff(field: str, before: Any, after: Any, categories: Mapping[str, str] | None = None) -> FieldDiff:
    """Mark what changed between two values of one field (each shown as the pages show it)."""
    before, after = shown(field, before, categories), shown(field, after, categories)
    if isinstance(before, (str, type(None))) and isinstance(after, (str, type(None))) \
            and "\n" not in (before or "") + (after or ""):
        old, new, lines = WORDS.findall(before or ""), WORDS.findall(after or ""), False
    else:
        old, new, lines = _lines(field, before), _lines(field, after), True
    was: list[Segment] = []
    now: list[Segment] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            was.append(Segment("same", "".join(old[i1:i2])))
            now.append(Segment("same", "".join(new[j1:j2])))
            continue
        if i2 > i1:
            was.append(Segment("del", "".join(old[i1:i2])))
        if j2 > j1:
            now.append(Segment("ins", "".join(new[j1:j2])))
    return FieldDiff(field, _merged(was), _merged(now), lines)


def _lines(field: str, value: Any) -> list[str]:
    """One line per list item or object key (each ending in a newline), so line diffs stay aligned."""
    if value is None or value == "" or value == [] or value == {}:
        return []
    if isinstance(value, str):
        return [line + "\n" for line in value.split("\n")]
    if isinstance(value, dict):
        return _parts(value, field)
    if isinstance(value, list):
        if field == "not_found_on_website":  # field keys: name them as the form does
            return [field_label(str(v)) + "\n" for v in value]
        out: list[str] = []
        for v in value:
            if isinstance(v, dict):  # an item of parts: a line each, an empty line before the next item
                out += (["\n"] if out else []) + _parts(v, field)
            else:
                out.append(_flat(v) + "\n")
        return out
    return [_flat(value) + "\n"]


def _parts(value: dict[str, Any], field: str = "") -> list[str]:
    """An object as one `Part: value` line per part, in reading order (a title before its text); its parts named
    as the form of `field` names them (a founder's `title` is their "Role")."""
    return [f"{_key(k, field)}: {_flat(value[k])}\n" for k in _ordered(value)]


def _ordered(value: dict[str, Any]) -> list[str]:
    """The parts people read, in the order they read them; a part no label orders keeps its place."""
    keys = [k for k in value if k not in INTERNAL_KEYS and value[k] not in (None, "")]
    return sorted(keys, key=lambda k: ITEM_ORDER.get(k, len(ITEM_ORDER)))


def _key(key: str, field: str = "") -> str:
    """A part's label (as `field`'s form names it); one no table names reads as its key in words."""
    label = key_label(key, field)
    return label if label != key else key.replace("_", " ").capitalize()


def _flat(value: Any) -> str:
    """A value on one line: text as it is, an object as `Part: value` pairs in reading order, else JSON."""
    if isinstance(value, str):
        return " ".join(value.split("\n"))
    if isinstance(value, dict):
        return "; ".join(f"{_key(k)}: {_flat(value[k])}" for k in _ordered(value))
    return json.dumps(value, ensure_ascii=False, default=str)


def _merged(segments: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for s in segments:
        if s.text == "":
            continue
        if out and out[-1].op == s.op:
            out[-1] = Segment(s.op, out[-1].text + s.text)
        else:
            out.append(s)
    return out
