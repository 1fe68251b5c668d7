"""Fulfilment of one paid line: the change it makes elsewhere and its record on the order, in one decision.

`decide_line` reads the streams it needs through `load` (the store's loader
of `decide_across`) and returns the events of all of them: the listing's
(scheduled or live, featured, moved to an earlier week, categories, paid
sections unlocked), the billboard's, the outbox's (the review's email), and
the order's `OrderLineFulfilled`, `OrderLineNotFulfilled` or
`OrderStaffTaskOpened`. The store appends them together, so a line is either
applied and recorded or neither: running fulfilment again after a crash finds
the line recorded and skips it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from aggregates import account, catalog, listing, mail, metrics
from aggregates.base import Emitter, Meta
from aggregates.listing import ListingState
from aggregates.order.lifecycle import line_events
from aggregates.order.pricing import is_upgrade
from aggregates.order.review import WrittenReview, review_email, rule_review
from aggregates.order.state import LAUNCH_SECTIONS, OrderState, line_of
from events.base import Event
from events.errors import DomainError
from events.listing import ListingQueuedForFree

Load = Callable[[UUID, Any], Any]
SECTIONS = list(LAUNCH_SECTIONS)  # the paid profile sections a paid launch unlocks
TASKS = {
    "done_for_you": "list the product on other high-value launch sites",
    "trophy_cabinet": "make and send the trophy",
}
AWARD_OPTION = "award"  # a trophy line's award: the Monday of the awarded week (pricing checked the listing won it)
REVIEW_KIND = "order_review"


@dataclass
class _Line:
    """What applying one line produced: other streams' events and the order's outcome."""

    events: list[Event]
    outcome: dict[str, Any]


def _done(events: list[Event], detail: str, **result: Any) -> _Line:
    return _Line(events, {"kind": "fulfilled", "detail": detail, "result": result})


def _refused(reason: str, detail: str) -> _Line:
    return _Line([], {"kind": "not_fulfilled", "reason": reason, "detail": detail})


def _chain(state: ListingState, events: list[Event]) -> ListingState:
    for event in events:
        state = listing.evolve(event, state)
    return state


def _launch(state: ListingState, week: str | None, current_week: str, meta: Meta) -> tuple[list[Event], ListingState]:
    events = listing.decide_schedule_paid(state, week or current_week, current_week, meta)
    state = _chain(state, events)
    unlocked = listing.decide_unlock(state, SECTIONS, "paid launch", meta)
    return events + unlocked, _chain(state, unlocked)


def _relaunch(state: ListingState, week: str, current_week: str, meta: Meta) -> _Line | None:
    """The listing launches again when its relaunch week begins (None before: the line waits, nothing is recorded)."""
    if week > current_week:
        return None
    if state.status != "live":
        return _refused("not_live", f"the listing is {state.status}, not live")
    events = listing.decide_relaunch(state, current_week, meta)
    return _done(events, f"relaunched in the week of {current_week}", week=current_week)


def _upgrade(state: ListingState, week: str, meta: Meta) -> _Line:
    """A Launch bundle for a free listing that has its launch week: the paid sections unlocked and the featured
    week, the listing staying on the free plan in the week it has (docs/orders.md, "Launch bundle")."""
    unlocked = listing.decide_unlock(state, SECTIONS, "launch bundle", meta)
    events = unlocked + listing.decide_feature(_chain(state, unlocked), week, meta)
    if not events:  # another order gave it both meanwhile: staff decide (a refund)
        return _refused("nothing_to_add", f"the listing's sections were unlocked and the week of {week} featured "
                                          "already")
    return _done(events, f"story, milestones and media unlocked; featured in the week of {week}", week=week,
                 status=state.status)


def _apply(order: OrderState, line: dict[str, Any], load: Load, current_week: str, meta: Meta,
           review: WrittenReview | None, website: str = "") -> _Line | None:
    code = str(line["product"])
    if code in TASKS:
        award = (line.get("options") or {}).get(AWARD_OPTION)
        detail = f"{TASKS[code]} for the Launch of the Week award of the week of {award}" if award else TASKS[code]
        return _Line([], {"kind": "task", "detail": detail})
    listing_id = line.get("listing_id")
    if listing_id is None:
        return _Line([], {"kind": "task", "detail": f"apply {code} by hand"})
    state: ListingState = load(listing.listing_stream(int(listing_id)), listing)
    if not state.exists or state.status == "unpublished":
        return _refused("listing_unavailable", "the listing does not exist or was taken down")
    week = line.get("week")
    if is_upgrade(code, state):  # a free listing with its week: the bundle's featured week and sections, no launch
        return _upgrade(state, str(week), meta)
    if code in ("launch", "launch_bundle"):
        if state.status in ("scheduled", "live"):
            return _refused("already_launched", f"the listing was already {state.status}")
        events, after = _launch(state, week, current_week, meta)
        if code == "launch_bundle" and week:
            events += listing.decide_feature(after, str(week), meta)
        how = "live now" if after.status == "live" else f"scheduled for the week of {after.week}"
        return _done(events, f"{how}; story, milestones and media unlocked", status=after.status, week=after.week)
    if code == "skip_queue":
        if state.status == "scheduled" and state.plan == "free":  # badge found already: scheduled for the new week
            events = listing.decide_reschedule_free(state, str(week), current_week, meta)
            return _done(events, f"moved to the week of {week}", week=week)
        if state.status != "awaiting_badge":
            return _refused("not_in_free_queue", f"the listing is {state.status}, not waiting in the free queue")
        emit = Emitter(state, meta)
        emit(ListingQueuedForFree, week=str(week))
        return _done(emit.events, f"moved to the week of {week}", week=week)
    if code == "featured":
        return _done(listing.decide_feature(state, str(week), meta), f"featured in the week of {week}", week=week)
    if code == "extra_categories":
        unlocked = listing.decide_unlock(state, ["extra_categories"], "order " + order.number, meta)
        after = _chain(state, unlocked)
        primary = list(state.categories[:1])
        edited = listing.decide_edit(after, {"categories": primary + list(line.get("categories") or [])}, meta)
        return _done(unlocked + edited, "categories added: " + ", ".join(line.get("categories") or []))
    if code == "billboard_min":
        box = load(metrics.metrics_stream(int(listing_id)), metrics)
        amount = int(line["net_cents"])
        events = metrics.decide_billboard(box, int(listing_id), amount, order.number, meta)
        return _done(events, f"{amount} cents added to the billboard (shown as paid)", amount_cents=amount)
    if code == "relaunch":
        return _relaunch(state, str(week), current_week, meta)
    if code == "ai_review":
        return _review(order, line, state, load, review or rule_review(state), meta, website)
    return _Line([], {"kind": "task", "detail": f"apply {code} by hand"})


def _review(order: OrderState, line: dict[str, Any], state: ListingState, load: Load, review: WrittenReview,
            meta: Meta, website: str = "") -> _Line:
    """The review recorded on the line and mailed to each owner with an address, with a link to the owner's page of
    the listing (where the review is kept) when the site's address is given."""
    text = review.text
    page = f"{website.rstrip('/')}/my/listings/{state.listing_id}" if website else ""
    events: list[Event] = []
    written: tuple[str, str] | None = None
    for owner in state.owner_ids:
        try:
            person_id = UUID(owner)
        except ValueError:  # not an account stream id (imported listings): nobody to email
            continue
        person: account.AccountState = load(person_id, account)
        if not person.exists or not person.email:
            continue
        box = load(mail.message_id(f"order-review:{order.number}:{line['index']}:{owner}"), mail)
        if written is None:  # the site's name and contact address as staff set them, read once there is someone to mail
            site: catalog.CatalogState = load(catalog.CATALOG_ID, catalog)
            written = review_email(str(state.profile.get("name") or state.slug), order.number, text,
                                   str(site.site.get("name") or "launchdir"), str(site.site.get("contact_email") or ""),
                                   page)
        subject, body = written
        events += mail.decide_queue(box, person.email, subject[: mail.SUBJECT_MAX], body, REVIEW_KIND, owner, meta)
    return _done(events, f"review written ({review.made_by}) and emailed to the owners", review=text,
                 made_by=review.made_by)


def decide_line(order: OrderState, index: int, load: Load, current_week: str, meta: Meta,
                review: WrittenReview | None = None, website: str = "") -> list[Event]:
    """Apply line `index` of a paid order once: nothing when it is recorded already (or the order is not paid).

    `review` is the `ai_review` line's text written beforehand by the model
    (the decision does no I/O); without it the rule-based review is used.
    `website`, the site's address, gives the review's mail its link.
    Nothing either for a relaunch whose week has not begun: the line stays open.
    """
    if index not in order.open_lines():
        return []
    line = line_of(order, index)
    try:
        applied = _apply(order, line, load, current_week, meta, review, website)
    except DomainError as exc:  # the listing refused the change: record why, staff decide
        applied = _refused("refused", exc.detail)
    if applied is None:
        return []
    emit = Emitter(order, meta)
    line_events(order, emit, index, applied.outcome)
    return applied.events + emit.events
