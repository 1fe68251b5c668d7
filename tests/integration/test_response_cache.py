"""The in-process response cache stays within its byte budget and keeps what is read most recently."""

from __future__ import annotations

from typing import Any

import pytest

from api import executor as executor_mod
from api.executor import Outcome


def test_the_cache_drops_least_recently_used_answers_past_its_byte_budget(container: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    ex = container.executor
    op = ex.registry.get("list_categories")
    monkeypatch.setattr(executor_mod, "MAX_CACHED_BYTES", 10_000)
    monkeypatch.setattr(executor_mod, "ENTRY_COST", 0)
    positions = ex._positions(op)
    for n in range(50):
        ex._store(("k", n), positions, Outcome(200, {}, b"x" * 1000, {}))
        if n >= 1:
            assert ex._cached(op, ("k", 0)) is not None  # read again and again: stays
    assert ex._cached_bytes <= 10_000
    assert len(ex._cache) == 10
    assert ex._cached(op, ("k", 0)) is not None and ex._cached(op, ("k", 49)) is not None
    assert ex._cached(op, ("k", 1)) is None  # never read again: dropped first
    ex._store(("k", 49), positions, Outcome(200, {}, b"y" * 500, {}))  # replacing counts the new size only
    assert ex._cached_bytes == 9 * 1000 + 500


def test_each_entry_counts_its_bookkeeping_and_keeps_only_its_body(container: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ex = container.executor
    op = ex.registry.get("list_categories")
    monkeypatch.setattr(executor_mod, "MAX_CACHED_BYTES", 10_000)
    monkeypatch.setattr(executor_mod, "ENTRY_COST", 1_000)
    positions = ex._positions(op)
    for n in range(20):
        ex._store(("k", n), positions, Outcome(200, {"n": n, "items": list(range(50))}, executor_mod.dumps(
            {"n": n, "items": list(range(50))}), {}))
    assert ex._cached_bytes <= 10_000 and len(ex._cache) < 20
    hit = ex._cached(op, ("k", 19))
    assert hit is not None and not isinstance(hit._payload, dict)  # the parsed payload is not held
    assert hit.payload == {"n": 19, "items": list(range(50))}  # decoded from the body when asked
    kept = Outcome(200, {"n": 1}, b'{"n":1}', {})
    ex._store(("kept",), positions, kept, keep_payload=True)
    assert ex._cached(op, ("kept",)) is kept
