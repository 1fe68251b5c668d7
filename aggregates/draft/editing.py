"""update_draft and the results of the work it starts (redrafts, competitor comparisons)."""

from __future__ import annotations

from typing import Any

from aggregates.base import Emitter, Meta
from events.base import Event
from events.draft import (
    DraftCompetitorCleared,
    DraftCompetitorCompared,
    DraftCompetitorFailed,
    DraftCompetitorSet,
    DraftCompletenessChanged,
    DraftFieldDeleted,
    DraftFieldEdited,
    DraftFieldsLocked,
    DraftFieldsRegenerated,
    DraftFieldsRestored,
    DraftFounderSocialsSet,
    DraftMilestonesSet,
    DraftRegenerationFailed,
    DraftRegenerationRequested,
    DraftSeoSet,
    DraftStorySet,
)
from events.draft_fields import (
    FIELD_NAMES,
)
from events.errors import FieldProblem, InvalidInput
from aggregates.draft.evolve import evolve
from aggregates.draft.patch import Patch
from aggregates.draft.slots import drafted_slot, merge, section_value, summary_of, unique
from aggregates.draft.state import DraftState, has_value, require_ready
from aggregates.draft.to_listing import check_listable


def decide_update(state: DraftState, patch: Patch, meta: Meta, *, request_id: str) -> list[Event]:
    """Apply one update_draft: values, restore, locks, other parts, competitor, then regeneration.

    `request_id` names the regeneration or competitor job this update may start.
    """
    require_ready(state)
    _check_combination(patch)
    out = _Folding(state, meta)
    for name in FIELD_NAMES:
        if name in patch.fields:
            _set_slot(out, name, patch.fields[name])
    for name, value in (("faqs", patch.faqs), ("founders", patch.founders)):
        if value is not None:
            _set_slot(out, name, value or None)
    if patch.company_socials is not None:
        merged = merge(out.state.slot("company_socials").value or {}, patch.company_socials)
        _set_slot(out, "company_socials", merged or None)
    restored = {}
    for name in unique(patch.restore):
        slot = out.state.slot(name)
        back = slot.ai_doc()
        if (slot.value, slot.state) != (back["value"], back["state"]):
            restored[name] = back
    if restored:
        out.emit(DraftFieldsRestored, fields=restored)
    to_lock = [n for n in unique(patch.lock_fields) if out.state.slot(n).state != "override"]
    if to_lock:
        out.emit(DraftFieldsLocked, fields=to_lock)
    if patch.founder_socials is not None:
        merged = merge(out.state.founder_socials, patch.founder_socials)
        if merged != out.state.founder_socials:
            out.emit(DraftFounderSocialsSet, founder_socials=merged)
    if patch.story is not None:
        merged = merge(out.state.story, patch.story)
        if merged != out.state.story:
            out.emit(DraftStorySet, story=merged)
    if patch.seo is not None:
        merged = merge(out.state.seo, patch.seo)
        if merged != out.state.seo:
            out.emit(DraftSeoSet, seo=merged)
    if patch.milestones is not None and list(out.state.milestones) != patch.milestones:
        out.emit(DraftMilestonesSet, milestones=[dict(m) for m in patch.milestones])
    if patch.competitor_url is not None:
        _competitor(out, patch.competitor_url, request_id)
    if patch.regenerate:
        wanted = unique(patch.regenerate)
        skipped = [n for n in wanted if out.state.slot(n).state == "override"]
        out.emit(DraftRegenerationRequested, request_id=request_id,
                 fields=[n for n in wanted if n not in skipped], skipped=skipped)
    if out.state.listing_id is not None:
        check_listable(out.state)  # its listing keeps a name and a primary category
    _summarise(out)
    return out.events


def decide_regenerated(
    state: DraftState, request_id: str, drafted: dict[str, Any], meta: Meta
) -> list[Event]:
    """Apply a redraft: every requested slot that is not locked and was not changed since the request."""
    regen = state.regenerations.get(request_id)
    if regen is None:
        return []
    raw_fields = drafted.get("fields") or {}
    applied: dict[str, dict[str, Any]] = {}
    skipped: list[str] = []
    for name in regen.fields:
        slot = state.slot(name)
        if slot.state == "override" or slot.changed > regen.version:
            skipped.append(name)
            continue
        if name in FIELD_NAMES:
            applied[name] = drafted_slot(name, raw_fields.get(name))
        else:
            value = section_value(name, drafted.get(name))
            applied[name] = {"value": value, "state": "ai" if has_value(value) else "not_found", "evidence": []}
    out = _Folding(state, meta)
    out.emit(DraftFieldsRegenerated, request_id=request_id, drafter=str(drafted.get("drafter") or "unknown"),
             fields=applied, skipped=skipped)
    _summarise(out)
    return out.events


def decide_regeneration_failed(state: DraftState, request_id: str, reason: str, detail: str, meta: Meta) -> list[Event]:
    if request_id not in state.regenerations:
        return []
    emit = Emitter(state, meta)
    emit(DraftRegenerationFailed, request_id=request_id, reason=reason, detail=detail[:500])
    return emit.events


def decide_competitor_compared(
    state: DraftState, request_id: str, crawl_id: str, comparison: dict[str, Any], meta: Meta
) -> list[Event]:
    c = state.competitor
    if c is None or c.request_id != request_id or c.status != "pending":
        return []
    emit = Emitter(state, meta)
    emit(DraftCompetitorCompared, request_id=request_id, crawl_id=crawl_id, comparison=comparison)
    return emit.events


def decide_competitor_failed(state: DraftState, request_id: str, reason: str, detail: str, meta: Meta) -> list[Event]:
    c = state.competitor
    if c is None or c.request_id != request_id or c.status != "pending":
        return []
    emit = Emitter(state, meta)
    emit(DraftCompetitorFailed, request_id=request_id, reason=reason, detail=detail[:500])
    return emit.events



def _check_combination(patch: Patch) -> None:
    """A slot cannot be set and restored, or set/restored/locked and regenerated, in one call."""
    set_names = set(patch.set_slots())
    problems = []
    for name in unique(patch.restore):
        if name in set_names:
            problems.append(FieldProblem("restore", "conflict", f"{name} is both set and restored"))
    for name in unique(patch.regenerate):
        if name in set_names or name in patch.restore or name in patch.lock_fields:
            problems.append(FieldProblem("regenerate", "conflict", f"{name} is also set, restored or locked"))
    if problems:
        raise InvalidInput("contradictory update", problems)


class _Folding:
    """Emits events and folds each into a working state, so later steps see earlier ones."""

    def __init__(self, state: DraftState, meta: Meta) -> None:
        self.start = state
        self.state = state
        self._emit = Emitter(state, meta)

    def emit(self, cls: type[Event], **fields: Any) -> None:
        event = self._emit(cls, **fields)
        self.state = evolve(event, self.state)

    @property
    def events(self) -> list[Event]:
        return self._emit.events


def _set_slot(out: _Folding, name: str, value: Any) -> None:
    slot = out.state.slot(name)
    if value is None:
        if slot.state != "deleted" or slot.value is not None:
            out.emit(DraftFieldDeleted, field=name)
        return
    if value == slot.value and slot.state != "deleted":
        return
    state = "override" if slot.state == "override" else ("edited" if has_value(slot.ai_value) else "manual")
    out.emit(DraftFieldEdited, field=name, value=value, state=state)


def _competitor(out: _Folding, url: str, request_id: str) -> None:
    current = out.state.competitor
    if not url:
        if current is not None:
            out.emit(DraftCompetitorCleared)
        return
    if current is not None and current.url == url and current.status in ("pending", "compared"):
        return
    out.emit(DraftCompetitorSet, url=url, request_id=request_id)


def _summarise(out: _Folding) -> None:
    completeness, missing, not_found = summary_of(out.state.slots)
    s = out.state
    if (completeness, tuple(missing), tuple(not_found)) != (s.completeness, s.missing, s.not_found_on_website):
        out.emit(DraftCompletenessChanged, completeness=completeness, missing=missing, not_found_on_website=not_found)
