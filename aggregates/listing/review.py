"""Staff review of a listing's versions: let an owner's change stand, or put chosen fields of it back.

A version is one content event of the listing stream, named by its log
position (`version_id`; docs/history-and-review.md). The review is recorded on
the same stream: `ListingVersionAccepted`, or `ListingEditReverted`, which is a
new version holding the values from before the reviewed one (history is never
rewritten), or, for a posted update, `ListingUpdateRemoved`: the update leaves
the site (a new version too). Reverting an older version puts *its* before-values back even when
later versions changed those fields again: staff choose what to put back.

The deciders do not look the version up: the command reads its event from the
stream and hands over what each changed field held just before it
(`before_values`). A field's before-value is its whole value, except
`milestones`, whose before-value names single milestones (`{milestone_id:
milestone, or None when it did not exist}`), so putting one milestone back
leaves the others as they are now.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aggregates.base import Meta, one
from aggregates.listing.state import ListingState, require_listing
from events.base import Event
from events.errors import Conflict, FieldProblem, InvalidInput
from events.listing import (
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingMilestoneAdded,
    ListingMilestoneDeleted,
    ListingStorySet,
    ListingUpdatePosted,
    ListingUpdateRemoved,
    ListingVersionAccepted,
)

KINDS: dict[type[Event], str] = {
    ListingCreated: "created", ListingEdited: "edited", ListingStorySet: "story",
    ListingMilestoneAdded: "milestone_added", ListingMilestoneDeleted: "milestone_deleted",
    ListingUpdatePosted: "update", ListingEditReverted: "revert", ListingUpdateRemoved: "update_removed",
}
UPDATE_REASON = (3, 500)  # characters, as the other reasons staff give
"""The kind of version each content event makes (the same names as the history projection's)."""


def needs_review(actor: str) -> bool:
    """Owners' changes wait for staff review; staff and system changes need none."""
    return actor.startswith("account:")


def before_values(event: Event, prior: ListingState) -> dict[str, Any]:
    """What each field `event` changed held just before it; {} when the version cannot be put back.

    `prior` is the listing's state just before the event (it tells what a
    deleted milestone was). A creation and a posted update (already emailed to
    followers) have nothing to put back.
    """
    if isinstance(event, ListingEdited):
        return dict(event.before)
    if isinstance(event, ListingStorySet):
        return {"story": dict(event.before)}
    if isinstance(event, ListingMilestoneAdded):
        return {"milestones": {event.milestone_id: None}}
    if isinstance(event, ListingMilestoneDeleted):
        was = prior.milestones.get(event.milestone_id)
        return {"milestones": {event.milestone_id: dict(was)}} if was is not None else {}
    if isinstance(event, ListingEditReverted):
        out = {k: v for k, v in event.before.items() if k != "milestones"}
        if "milestones" in event.before:
            had = _by_id(event.before["milestones"])
            made = _by_id(event.changes.get("milestones"))
            out["milestones"] = {i: had.get(i) for i in sorted(had.keys() | made.keys()) if had.get(i) != made.get(i)}
        return out
    return {}


def decide_accept_version(state: ListingState, version_id: int, meta: Meta) -> list[Event]:
    """Staff let version `version_id` stand; accepting it again changes nothing."""
    require_listing(state)
    review = state.reviews.get(version_id)
    if review == "accepted":
        return []
    if review == "reverted":
        raise Conflict(f"version {version_id} was already reviewed: fields of it were put back")
    if review == "removed":
        raise Conflict(f"version {version_id} was already reviewed: its update was removed")
    return one(state, meta, ListingVersionAccepted, version_id=version_id)


def decide_remove_update(state: ListingState, version_id: int, update_id: int, reason: str,
                         meta: Meta) -> list[Event]:
    """Staff take the update that version `version_id` posted off the site, saying why; nothing when it is off already.

    The caller reads the version's event (a `ListingUpdatePosted`) and hands over its update id. An update is not
    put back as fields are: it may have been mailed to followers, so it is removed, with the reason kept.
    """
    require_listing(state)
    why = " ".join((reason or "").split())
    low, high = UPDATE_REASON
    if not low <= len(why) <= high:
        rule = f"Give a reason of {low} to {high} characters: it is kept with the removal."
        raise InvalidInput(f"say why the update is removed. {rule}", [FieldProblem("reason", "length", rule)])
    if not 1 <= update_id < state.next_update_id:
        raise Conflict(f"this listing has no update {update_id}")
    if update_id in state.removed_updates:
        return []
    return one(state, meta, ListingUpdateRemoved, version_id=version_id, update_id=update_id, reason=why)


def decide_revert(state: ListingState, version_id: int, fields: Sequence[str], before_values: dict[str, Any],
                  meta: Meta) -> list[Event]:
    """Put the chosen fields (all of the version's when none are named) back to their values before the version.

    `changes` holds the values put back and `before` the current ones; a field
    that already holds its earlier value is dropped, and when none is left
    nothing is recorded. A field the version did not change is a 400.
    """
    require_listing(state)
    if not before_values:
        raise Conflict(f"version {version_id} has nothing to put back (a creation or a posted update)")
    chosen = list(dict.fromkeys(fields)) or list(before_values)
    unknown = [f for f in chosen if f not in before_values]
    if unknown:
        changed = ", ".join(before_values)
        raise InvalidInput(
            f"version {version_id} did not change {', '.join(unknown)}",
            [FieldProblem("fields", "unknown_field", f"{f!r} is not a field of version {version_id} (it changed: {changed})")
             for f in unknown],
        )
    current = current_values(state)
    changes: dict[str, Any] = {}
    before: dict[str, Any] = {}
    for f in chosen:
        now = current.get(f)
        target = _milestones_with(current["milestones"], before_values[f]) if f == "milestones" else before_values[f]
        if target != now:
            changes[f], before[f] = target, now
    if not changes:
        return []
    return one(state, meta, ListingEditReverted, version_id=version_id, fields=chosen, changes=changes, before=before)


def current_values(state: ListingState) -> dict[str, Any]:
    """Every field a version can change, as the listing holds it now (milestones as a list by id)."""
    return {
        **state.profile,
        "categories": list(state.categories),
        "socials": dict(state.socials),
        "faqs": list(state.faqs),
        "founders": list(state.founders),
        "not_found_on_website": list(state.not_found_on_website),
        "story": dict(state.story),
        "milestones": [dict(state.milestones[i]) for i in sorted(state.milestones)],
    }


def _milestones_with(current: list[dict[str, Any]], wanted: dict[int, dict[str, Any] | None]) -> list[dict[str, Any]]:
    """The current milestones with the named ones put back (or removed, for None), by milestone id."""
    by_id = _by_id(current)
    for milestone_id, milestone in wanted.items():
        if milestone is None:
            by_id.pop(int(milestone_id), None)
        else:
            by_id[int(milestone_id)] = dict(milestone)
    return [by_id[i] for i in sorted(by_id)]


def _by_id(milestones: Any) -> dict[int, dict[str, Any]]:
    return {int(m["milestone_id"]): dict(m) for m in milestones or []}
