"""A readable before/after of a version's changes for the staff pages.

Each changed field becomes two runs of segments: the value before, with what
went away marked, and the value after, with what came in marked. Text is
compared word by word; lists, objects (socials, the story) and lists of
objects (FAQs, founders, milestones) line by line, one item or key per line.
The templates render the marks as `<del>` and `<ins>` with words a screen
reader says, so the page needs no script and no colour to be understood.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

WORDS = re.compile(r"\S+\s*|\s+")  # a word with the spaces after it, so a change reads as whole words


@dataclass(frozen=True)
class Segment:
    """A run of text: `same`, `del` (only before) or `ins` (only after)."""

    op: str
    text: str


@dataclass(frozen=True)
class FieldDiff:
    field: str
    before: list[Segment]
    after: list[Segment]
    lines: bool  # compared line by line (show with line breaks kept)


def field_diffs(changes: dict[str, dict[str, Any]]) -> list[FieldDiff]:
    """The before/after of every field of a version, in the version's order."""
    return [diff(field, change.get("before"), change.get("after")) for field, change in changes.items()]


def diff(field: str, before: Any, after: Any) -> FieldDiff:
    """Mark what changed between two values of one field."""
    if isinstance(before, (str, type(None))) and isinstance(after, (str, type(None))) \
            and "\n" not in (before or "") + (after or ""):
        old, new, lines = WORDS.findall(before or ""), WORDS.findall(after or ""), False
    else:
        old, new, lines = _lines(before), _lines(after), True
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


def _lines(value: Any) -> list[str]:
    """One line per list item or object key (each ending in a newline), so line diffs stay aligned."""
    if value is None or value == "" or value == [] or value == {}:
        return []
    if isinstance(value, str):
        return [line + "\n" for line in value.split("\n")]
    if isinstance(value, dict):
        return [f"{k}: {_flat(v)}\n" for k, v in value.items()]
    if isinstance(value, list):
        return [_flat(v) + "\n" for v in value]
    return [_flat(value) + "\n"]


def _flat(value: Any) -> str:
    """A value on one line: text as it is, an object as `key: value` pairs, anything else as JSON."""
    if isinstance(value, str):
        return " ".join(value.split("\n"))
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_flat(v)}" for k, v in value.items() if v not in (None, ""))
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
