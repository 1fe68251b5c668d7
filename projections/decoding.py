"""Turning stored event rows into event objects fast, exactly as the event store's mapper does.

Catch-up and rebuild read every event of a projection's topics, so decoding
is the floor under every projection's throughput. The mapper of the event
store parses the stored JSON with the standard library and a Python hook on
every object; here the JSON is parsed by orjson (C) and only the few objects
that carry a transcoded value (`{"_type_": ..., "_data_": ...}`: the
timestamp, dates, ids) are turned back, with the transcoder's own
transcodings. What the fast path cannot prove it reads the same way (a
transcoded value nested inside a list or another one, an upcast event class,
a cipher or compressor, JSON orjson refuses) is left to the mapper, so the
objects are always the mapper's.

The stored JSON also tells whether the event keeps the text rule
(`events/text.py`) without walking its values: the encoder writes every
control character and every surrogate as an escape (`\\uXXXX`, `\\b`, `\\f`),
so a state with no backslash-`u`, -`b` or -`f` in it has none of them
(`Decoded.clean`; a state that has one is checked the slow way).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent, find_id_convertor
from eventsourcing.utils import resolve_topic

TYPED = b'"_type_"'
ESCAPES = (b"\\u", b"\\b", b"\\f")


@dataclass(frozen=True)
class Decoded:
    """One decoded event, and whether its stored JSON shows it keeps the text rule."""

    event: Any
    clean: bool


class FastDecoder:
    """Decodes stored states like `mapper.to_domain_event`, taking the fast path whenever it provably agrees."""

    def __init__(self, mapper: Mapper[UUID]) -> None:
        self._mapper = mapper
        transcoder = mapper.transcoder
        plain = mapper.cipher is None and mapper.compressor is None and isinstance(transcoder, JSONTranscoder)
        self._names = transcoder.names if plain and isinstance(transcoder, JSONTranscoder) else None

    def decode(self, originator_id: UUID, originator_version: int, topic: str, state: bytes) -> Decoded:
        """The event of one stored row (raises what the mapper raises when it cannot be read)."""
        event = self._fast(originator_id, originator_version, topic, state) if self._names is not None else None
        if event is not None:
            return Decoded(event, b"\\" not in state or not any(escape in state for escape in ESCAPES))
        stored = StoredEvent(originator_id=originator_id, originator_version=originator_version, topic=topic,
                             state=state)
        return Decoded(self._mapper.to_domain_event(stored), False)

    def _fast(self, originator_id: UUID, originator_version: int, topic: str, state: bytes) -> Any:
        """The event, or None when only the mapper can say (see the module's docstring)."""
        assert self._names is not None
        try:
            cls = resolve_topic(topic)
            values = orjson.loads(state)
        except Exception:  # noqa: BLE001 - the mapper reads it, or reports why not
            return None
        if type(values) is not dict or getattr(cls, "class_version", 1) != 1 or "class_version" in values:
            return None
        typed = state.count(TYPED)
        for key, value in values.items():
            if typed and type(value) is dict and len(value) == 2 and "_type_" in value and "_data_" in value:
                transcoding = self._names.get(value["_type_"])
                if transcoding is None or type(value["_data_"]) in (dict, list):
                    return None
                values[key] = transcoding.decode(value["_data_"])
                typed -= 1
        if typed:  # a transcoded value deeper down: the mapper's hook turns it back
            return None
        values["originator_id"] = find_id_convertor(cls, UUID)(originator_id)
        values["originator_version"] = originator_version
        event = object.__new__(cls)
        object.__setattr__(event, "__dict__", values)
        return event
