"""Telling founders what happened to their listing or order: the emails and the command that queues them.

`mail_notice` queues one email per recipient through the outbox, each with the
dedupe key `notice:<notice key>:<account id>` (the outbox queues a key once, so
a retry or a restart never mails anyone twice), and records the notice's marker
(`aggregates/notices.py`) in the same append. Recipients are the listing's
owners, or the account that placed the order, with a confirmed address.

These are the mails of one's own listing or order, so they carry no
unsubscribe link: they are few (a launch week, a launch, a payment) and each
says something the founder has to act on or keep (docs/notices.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aggregates import mail, notices
from aggregates.base import Meta
from commands.site import site_of
from events.week_names import week_name
from commands.store import EventStore
from events.base import Event
from events.errors import InvalidInput
from events.mail import EmailQueued

log = logging.getLogger(__name__)
BADGE_REASONS = {
    "not_found": "the badge's link was not on the page",
    "unreachable": "the page could not be reached",
    "timeout": "the page took too long to answer",
    "blocked": "the page refused our check",
}


@dataclass(frozen=True)
class Recipient:
    account_id: str
    email: str


@dataclass(frozen=True)
class Notice:
    """One notice as its email shows it: what happened (`kind`), to what, and the links to point at."""

    key: str
    kind: str
    week: str | None = None
    plan: str | None = None
    checked_url: str | None = None
    reason: str | None = None
    listing: dict[str, Any] | None = None  # slug, name, listing_id (listing notices)
    order: dict[str, Any] | None = None  # the order's document (`paid`)
    listing_names: dict[int, str] | None = None  # the name of each listing an order's lines are for
    contact: str | None = None  # the site's contact address (`unpublished`: where to answer)

    def account_ids(self) -> list[str]:
        """Who is told: the account that placed the order, or the listing's owners."""
        if self.order is not None:
            return [str(self.order["account_id"])]
        return [str(a) for a in (self.listing or {}).get("owner_ids") or []]


def dedupe_key(notice_key: str, account_id: str) -> str:
    return f"notice:{notice_key}:{account_id}"


def _week_words(week: str | None) -> str:
    """The launch week as the pages name it ("Week 49, 2026 (30 Nov – 6 Dec)"), or "its launch week"."""
    name = week_name(week, "long", plain=True)
    return name if name and name != (week or "") else "its launch week"


def _money(cents: int, currency: str = "USD") -> str:
    symbol = "$" if currency.upper() == "USD" else currency.upper() + " "
    return f"{symbol}{cents // 100:,}.{cents % 100:02d}"


def notice_email(notice: Notice, website: str, site: str) -> tuple[str, str]:
    """The subject and plain-text body of a notice's email from the site named `site` (the same for every recipient)."""
    base = website if website.endswith("/") else website + "/"
    if notice.kind == "paid":
        return _paid_email(notice.order or {}, notice.listing_names or {}, base)
    if notice.kind == "refunded":
        order = notice.order or {}
        number, currency = str(order.get("number") or ""), str(order.get("currency") or "USD")
        amount = _money(int(order.get("refunded_cents") or 0), currency)
        return (f"Order {number} was refunded",
                f"We refunded {amount} of order {number}{f' ({notice.reason})' if (notice.reason or '').strip() else ''}. "
                f"The money goes back the way it "
                f"was paid.\n\n"
                f"The order and its invoice: {base}my/orders/{number}\n")
    listing = notice.listing or {}
    name = str(listing.get("name") or listing.get("slug") or "Your listing")
    public = f"{base}listings/{listing.get('slug')}"
    mine = f"{base}my/listings/{listing.get('listing_id')}"
    week = _week_words(notice.week)
    if notice.kind == "scheduled":
        subject = f"{name} is scheduled to launch in {week}"
        badge = (f"Keep our badge on your homepage until then: it is checked again when the week begins, and "
                 f"{name} goes live only if it is there ({mine}/badge).\n\n" if notice.plan == "free" else "")
        text = (f"{name} has its launch week on {site}: {week}. It goes live when that week begins, and the votes "
                f"people cast that week rank it among the week's launches.\n\n{badge}"
                f"Until then its page shows it as launching soon: {public}\n\n"
                f"Your listing, to keep it current: {mine}\n")
    elif notice.kind == "live":
        subject = f"{name} is live on {site}"
        text = (f"{name} is live on {site}, among the launches of {week}. People can find it, vote for it and "
                f"follow it now: {public}\n\n"
                f"Share that link: votes come only from people signed in on the website, and the week's three "
                f"most voted launches get an award when the week ends.\n\n"
                f"Post updates and milestones, or edit the profile, from your listing: {mine}\n")
    elif notice.kind == "badge_lost":
        why = BADGE_REASONS.get(notice.reason or "", (notice.reason or "not found").replace("_", " "))
        subject = f"{name} did not go live: we could not find our badge on your homepage"
        text = (f"The launch week of {name} has begun, but our badge was not found on {notice.checked_url} "
                f"({why}).\n\n{name} stays in the queue and goes live as soon as a later check finds the badge. "
                f"The badge to paste, and a button to check again: {mine}/badge\n")
    elif notice.kind == "unpublished":
        subject = f"{name} was taken down from {site}"
        answer = (f"If you think this is a mistake, write to {notice.contact} and name {name}.\n" if notice.contact
                  else "")
        text = (f"The {site} team took {name} down. The reason given: {notice.reason}\n\n"
                f"It no longer shows in the directory, in search or in its launch week. You still own it, and its "
                f"profile and history are kept: {mine}\n\n{answer}")
    elif notice.kind == "restored":
        subject = f"{name} is back on {site}"
        text = (f"The {site} team put {name} back after taking it down. It shows again in the directory, in "
                f"search and among the launches of {week}, with the votes it had: {public}\n\n"
                f"Your listing: {mine}\n")
    else:
        raise ValueError(f"unknown notice kind {notice.kind!r}")
    return subject[: mail.SUBJECT_MAX], text


def _paid_email(order: dict[str, Any], names: dict[int, str], base: str) -> tuple[str, str]:
    number = str(order.get("number") or "")
    currency = str(order.get("currency") or "USD")
    # a line's price is its `net_cents` (`amount_cents` is only the billboard's chosen amount)
    lines = "".join(f"- {_line_name(line, names)}: "
                    f"{_money(int(line.get('net_cents') or line.get('amount_cents') or 0), currency)}\n"
                    for line in order.get("lines") or [])
    vat = order.get("vat") or {}
    totals = (f"Subtotal: {_money(int(order.get('subtotal_cents') or 0), currency)}\n"
              f"VAT: {_money(int(vat.get('amount_cents') or 0), currency)}\n"
              f"Total paid: {_money(int(order.get('total_cents') or 0), currency)}\n")
    subject = f"Payment received for order {number}"
    text = (f"Thank you: the payment of order {number} is confirmed.\n\n{lines}\n{totals}\n"
            f"Invoice {order.get('invoice_number')}, and what each line has done: {base}my/orders/{number}\n")
    return subject, text


def _line_name(line: dict[str, Any], names: dict[int, str]) -> str:
    product = str(line.get("name") or line.get("product") or "")
    listing = names.get(int(line["listing_id"])) if line.get("listing_id") is not None else None
    return f"{product}, {listing}" if listing else product


def mail_notice(store: EventStore, notice: Notice, recipients: Sequence[Recipient], website: str, meta: Meta) -> int:
    """Queue the notice's email to each recipient and mark it mailed, in one append; returns how many were new."""
    subject, text = notice_email(notice, website, site_of(store.load).name)

    def decision(load: Any) -> list[Event]:
        events: list[Event] = []
        for person in recipients:
            message = load(mail.message_id(dedupe_key(notice.key, person.account_id)), mail)
            try:
                events += mail.decide_queue(message, person.email, subject, text, "notice_" + notice.kind,
                                            person.account_id, meta)
            except InvalidInput as exc:  # an address the outbox refuses: skip it, tell the others
                log.warning("notice %s: not mailing %s: %s", notice.key, person.account_id, exc.detail)
        marker = load(notices.notice_stream(notice.key), notices)
        return events + notices.decide_mailed(marker, notice.key, len(recipients), meta)

    appended = store.decide_across(decision)
    return sum(isinstance(e, EmailQueued) for e in appended.events)


def is_mailed(store: EventStore, key: str) -> bool:
    state: notices.NoticeState = store.load(notices.notice_stream(key), notices)
    return state.mailed
