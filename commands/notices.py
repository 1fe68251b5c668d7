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
from commands.site import Site, site_of
from commands.store import EventStore
from events.base import Event
from events.errors import InvalidInput
from events.mail import EmailQueued
from events.week_names import week_name

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


def notice_email(notice: Notice, website: str, site: Site | str) -> tuple[str, str]:
    """The subject and plain-text body of a notice's email from `site` (the same for every recipient).

    Each reads as a letter from the site's team: "Hello,", what happened and why it matters, what to do next
    with its link, how to reach the team, the sign-off, and below it why the reader gets the mail (they own
    the listing, or placed the order), as the other owners' mails do.
    """
    site = site if isinstance(site, Site) else Site(site)
    if notice.contact and not site.contact:
        site = Site(site.name, notice.contact)
    base = website if website.endswith("/") else website + "/"
    if notice.kind in ("paid", "refunded"):
        subject, body, why = _order_email(notice, base, site)
        return subject[: mail.SUBJECT_MAX], site.signed(f"Hello,\n\n{body}", why)
    listing = notice.listing or {}
    name = " ".join(str(listing.get("name") or listing.get("slug") or "Your listing").split())
    subject, body = _listing_email(notice, name, base, site)
    why = f"You get this email because you own {name} on {site.name}."
    return subject[: mail.SUBJECT_MAX], site.signed(f"Hello,\n\n{body}", why)


def _listing_email(notice: Notice, name: str, base: str, site: Site) -> tuple[str, str]:
    """The subject and body of a listing's notice (`scheduled`, `live`, `badge_lost`, `unpublished`, `restored`)."""
    listing = notice.listing or {}
    public = f"{base}listings/{listing.get('slug')}"
    mine = f"{base}my/listings/{listing.get('listing_id')}"
    week = _week_words(notice.week)
    if notice.kind == "scheduled":
        badge = (f"Keep the {site.name} badge on your homepage until then: it is checked again when the week "
                 f"begins, and {name} goes live only if it is there. The badge and its check: {mine}/badge\n\n"
                 if notice.plan == "free" else "")
        return (f"{name} is scheduled to launch on {site.name} in {week}",
                f"{name} has its launch week on {site.name}: {week}. It goes live when that week begins, and the "
                f"votes people cast that week rank it among the week's launches.\n\n{badge}"
                f"Until then its page shows it as launching soon: {public}\n\n"
                f"Your listing, to keep it current: {mine}\n")
    if notice.kind == "live":
        return (f"{name} is live on {site.name}",
                f"{name} is live on {site.name}, among the launches of {week}. People can find it, vote for it "
                f"and follow it now: {public}\n\n"
                f"Share that link: votes come only from people signed in on the website, and the week's three "
                f"most voted launches get an award when the week ends.\n\n"
                f"Post updates and milestones, or edit the profile, from your listing: {mine}\n")
    if notice.kind == "badge_lost":
        why = BADGE_REASONS.get(notice.reason or "", (notice.reason or "not found").replace("_", " "))
        page = notice.checked_url or "your homepage"
        return (f"{name} did not go live on {site.name}: the badge was not found on your homepage",
                f"The launch week of {name} on {site.name} has begun, but the {site.name} badge was not found on "
                f"{page} ({why}).\n\n{name} stays in the queue and goes live as soon as a later check finds "
                f"the badge. The badge to paste, and a button to check again: {mine}/badge\n")
    if notice.kind == "unpublished":
        reason = " ".join((notice.reason or "").split())
        return (f"{name} was taken down from {site.name}",
                f"The {site.name} team took {name} down. The reason given: "
                f"{_sentence(reason) if reason else 'none was recorded.'}\n\n"
                f"It no longer shows in the directory, in search or in its launch week. You still own it, and its "
                f"profile and history are kept: {mine}\n\n"
                f"If you think this is a mistake, {site.reach()} and name {name}.\n")
    if notice.kind == "restored":
        return (f"{name} is back on {site.name}",
                f"The {site.name} team put {name} back after taking it down. It shows again in the directory, in "
                f"search and among the launches of {week}, with the votes it had: {public}\n\n"
                f"Your listing: {mine}\n")
    raise ValueError(f"unknown notice kind {notice.kind!r}")


def _order_email(notice: Notice, base: str, site: Site) -> tuple[str, str, str]:
    """The subject, body and why-line of an order's notice (`paid`, `refunded`)."""
    order = notice.order or {}
    number, currency = str(order.get("number") or ""), str(order.get("currency") or "USD")
    names = notice.listing_names or {}
    listed = list(dict.fromkeys(names[int(line["listing_id"])] for line in order.get("lines") or []
                                if line.get("listing_id") is not None and int(line["listing_id"]) in names))
    about = f" ({', '.join(listed)})" if listed else ""
    page = f"{base}my/orders/{number}"
    why = f"You get this email because you placed order {number} on {site.name}."
    if notice.kind == "paid":
        return (f"Payment received for order {number}{about} on {site.name}",
                _paid_body(order, names, page, site), why)
    amount = _money(int(order.get("refunded_cents") or 0), currency)
    reason = " ".join((notice.reason or "").split())
    because = f" The reason given: {_sentence(reason)}" if reason else ""
    return (f"Order {number}{about} on {site.name} was refunded",
            f"We refunded {amount} of order {number}.{because} The money goes back the way it was paid.\n\n"
            f"The order and its invoice: {page}\n\n"
            f"Questions about it? {_sentence(site.reach() + ' and name order ' + number)}\n", why)


def _sentence(words: str) -> str:
    """`words` as a sentence: a capital first letter and a full stop (nothing else changed)."""
    return words[:1].upper() + words[1:].rstrip(".") + "."


def _paid_body(order: dict[str, Any], names: dict[int, str], page: str, site: Site) -> str:
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
    invoice = str(order.get("invoice_number") or "")
    where = (f"Invoice {invoice}, and what each line has done: {page}\n" if invoice
             else f"The order, and what each line has done: {page}\n")
    return (f"Thank you: your payment for order {number} on {site.name} is confirmed.\n\n{lines}\n{totals}\n"
            f"{where}")


def _line_name(line: dict[str, Any], names: dict[int, str]) -> str:
    product = str(line.get("name") or line.get("product") or "")
    listing = names.get(int(line["listing_id"])) if line.get("listing_id") is not None else None
    return f"{product}, {listing}" if listing else product


def mail_notice(store: EventStore, notice: Notice, recipients: Sequence[Recipient], website: str, meta: Meta) -> int:
    """Queue the notice's email to each recipient and mark it mailed, in one append; returns how many were new."""
    subject, text = notice_email(notice, website, site_of(store.load))

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
