"""The one text rule of every door, and the storable form of text read tables get.

Text from outside (REST, MCP, website forms, the CLI) may not carry NUL or the
other C0 control characters except tab, newline and carriage return, nor lone
surrogates: PostgreSQL cannot store NUL in `text` or `jsonb`, a lone surrogate
cannot be encoded as UTF-8, and none of them means anything in a profile. The
boundary refuses them with a 400 naming the field and `RULE`.

Events stored before the rule existed may still hold such characters. They
stay as they are (the log is never rewritten); projections write `storable()`
copies instead, so one bad value can never stop a read model.

It lives in `events` because every layer may import it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

RULE = "control_characters"
MESSAGE = "must not contain NUL, other control characters (except tab, newline, carriage return) or lone surrogates"
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
REPLACEMENT = "\ufffd"
# The same rule as a JSON Schema pattern (ECMA-262); lone surrogates cannot be written in one.
SCHEMA_PATTERN = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]*$"


def is_clean(text: str) -> bool:
    """True when `text` keeps the rule."""
    return FORBIDDEN.search(text) is None


def violations(value: Any, path: str = "") -> Iterator[str]:
    """Dotted paths (list indexes as numbers) of every string, or mapping key, that breaks the rule."""
    if isinstance(value, str):
        if not is_clean(value):
            yield path or "body"
    elif isinstance(value, dict):
        for key, item in value.items():
            name = storable(str(key))
            where = f"{path}.{name}" if path else name
            if isinstance(key, str) and not is_clean(key):
                yield where
            else:
                yield from violations(item, where)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from violations(item, f"{path}.{index}" if path else str(index))


def storable(text: str) -> str:
    """`text` with each forbidden character replaced by U+FFFD, so PostgreSQL can store it."""
    return FORBIDDEN.sub(REPLACEMENT, text) if not is_clean(text) else text


def storable_value(value: Any) -> Any:
    """A copy of a JSON-like value (or an event dataclass) in which every string is `storable`.

    Returns the same object when nothing needed changing, so clean events cost nothing.
    """
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, dict):
        items = {storable_value(k): storable_value(v) for k, v in value.items()}
        same = len(items) == len(value) and all(
            a is b and items[a] is value[b] for a, b in zip(items, value))
        return value if same else items
    if isinstance(value, list):
        cleaned = [storable_value(v) for v in value]
        return value if all(a is b for a, b in zip(value, cleaned)) else cleaned
    if isinstance(value, tuple):
        cleaned_t = tuple(storable_value(v) for v in value)
        return value if all(a is b for a, b in zip(value, cleaned_t)) else cleaned_t
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            current = getattr(value, f.name)
            cleaned_v = storable_value(current)
            if cleaned_v is not current:
                changes[f.name] = cleaned_v
        return dataclasses.replace(value, **changes) if changes else value
    return value
