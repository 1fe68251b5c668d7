"""A side-by-side of the founder's draft and a competitor's plainly stated facts.

Used by update_draft's ``competitor_url``: the competitor's site is crawled
like any other and read by the extractive drafter (no model), so every
competitor value carries verified quotes from the competitor's own pages.
"""

from __future__ import annotations

from typing import Any

from workers.adapters.websites import CrawlResult

from .extractive import ExtractiveDrafter
from .model import FieldDraft, ProfileDraft
from .text import normalise

COMPARED_FACTS: tuple[str, ...] = ("name", "tagline", "pricing_model", "pricing_summary", "features")


def _cell(draft: FieldDraft | None) -> dict[str, Any] | None:
    if draft is None or not draft.has_value:
        return None
    value = list(draft.value) if isinstance(draft.value, list) else draft.value
    return {"value": value, "evidence": [e.to_dict() for e in draft.evidence]}


def _stated_by(own: bool, competitor: bool) -> str:
    return {(True, True): "both", (True, False): "own", (False, True): "competitor"}.get((own, competitor), "neither")


def compare_with_competitor(own: ProfileDraft, competitor_crawl: CrawlResult) -> dict[str, Any]:
    """Facts side by side, which side states each, and features in common or only on one side.

    Returns ``{competitor: {site, url, name}, rows: [{fact, own, competitor,
    stated_by}], own_states, competitor_states, features: {both, only_own,
    only_competitor}, dropped}`` where ``own``/``competitor`` cells are
    ``{value, evidence}`` or None.
    """
    competitor = ExtractiveDrafter().draft(competitor_crawl, [], fields=list(COMPARED_FACTS))
    rows = []
    for fact in COMPARED_FACTS:
        mine, theirs = _cell(own.fields.get(fact)), _cell(competitor.fields.get(fact))
        rows.append({"fact": fact, "own": mine, "competitor": theirs, "stated_by": _stated_by(mine is not None, theirs is not None)})
    own_features = [str(f) for f in own.value("features") or []]
    their_features = [str(f) for f in competitor.value("features") or []]
    theirs_keys = {normalise(f) for f in their_features}
    own_keys = {normalise(f) for f in own_features}
    return {
        "competitor": {
            "site": competitor_crawl.site,
            "url": competitor_crawl.final_url,
            "name": competitor.value("name"),
        },
        "rows": rows,
        "own_states": [r["fact"] for r in rows if r["stated_by"] in ("both", "own")],
        "competitor_states": [r["fact"] for r in rows if r["stated_by"] in ("both", "competitor")],
        "features": {
            "both": [f for f in own_features if normalise(f) in theirs_keys],
            "only_own": [f for f in own_features if normalise(f) not in theirs_keys],
            "only_competitor": [f for f in their_features if normalise(f) not in own_keys],
        },
        "dropped": competitor.dropped,
    }
