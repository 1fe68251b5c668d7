"""The operation tables of SPEC.md, parsed: operationId -> (method, path, IK, scope)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = [ROOT.parent / "shared" / "SPEC.md", ROOT / "docs" / "spec" / "SPEC.md"]
ROW = re.compile(r"^\|\s*([a-z_]+)\s*\|\s*(?:(GET|POST|PUT|PATCH|DELETE)\s+)?(/[^\s|]*)\s*(\(IK\))?\s*\|(.*)$")


def spec_path() -> Path:
    return next(p for p in CANDIDATES if p.exists())


def spec_operations() -> dict[str, tuple[str, str, bool, str | None]]:
    ops: dict[str, tuple[str, str, bool, str | None]] = {}
    for line in spec_path().read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if not m:
            continue
        op_id, method, path, ik, rest = m.groups()
        scope_cell = rest.split("|")[0].strip()
        scope = scope_cell if scope_cell in ("account:read", "listings:write", "orders:write") else None
        ops[op_id] = (method or "GET", path, bool(ik), scope)
    return ops
