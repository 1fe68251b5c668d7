"""Telling followers of listing updates: the emails, the fan-out command, and the unsubscribe tokens.

`notify_followers` queues one email per follower through the outbox, each
with the dedupe key `listing-update:<listing_id>:<update_id>:<account_id>`
(the outbox queues a key once, so a retry or a restart never mails anyone
twice), and records the update's fan-out marker (`aggregates/updates.py`)
in the same append as the last emails. A listing with many followers is
queued in chunks; a crash between chunks is harmless, the next run finds the
queued ones and goes on.

Every email carries an unsubscribe link whose token binds the account and the
listing (itsdangerous, HMAC-SHA256, its own salt). It has no expiry: all it
can do is stop updates from one listing, and an old email must still let
its reader stop them. Rotating the link secret (`api/sessions.py`) ends it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import Any

from itsdangerous import BadData, URLSafeSerializer

from aggregates import mail, updates
from aggregates.base import Meta
from commands import community
from commands.site import signed, site_of
from commands.store import EventStore
from events.base import Event
from events.errors import InvalidInput
from events.mail import EmailQueued

log = logging.getLogger(__name__)
KIND = "listing_update"
CHUNK = 100  # emails per append
MAX_TOKEN = 500


@dataclass(frozen=True)
class UpdateToTell:
    """One update of a live listing, as its email shows it."""

    listing_id: int
    update_id: int
    slug: str
    name: str
    title: str
    body: str


@dataclass(frozen=True)
class Follower:
    account_id: str
    email: str


class UnsubscribeTokens:
    """Signs and reads the token of an unsubscribe link: which account stops following which listing."""

    def __init__(self, secret: bytes) -> None:
        self._serializer = URLSafeSerializer(secret, salt="launchdir:unsubscribe", signer_kwargs={"digest_method": sha256})

    def sign(self, account_id: str, listing_id: int) -> str:
        return str(self._serializer.dumps({"a": account_id, "l": listing_id}))

    def read(self, token: str) -> tuple[str, int] | None:
        """(account id, listing id) for a token this site signed; None for anything else."""
        if not token or len(token) > MAX_TOKEN:
            return None
        try:
            payload: Any = self._serializer.loads(token)
        except BadData:
            return None
        if not isinstance(payload, dict):
            return None
        account_id, listing_id = payload.get("a"), payload.get("l")
        if not isinstance(account_id, str) or not isinstance(listing_id, int) or isinstance(listing_id, bool):
            return None
        return account_id, listing_id


def dedupe_key(listing_id: int, update_id: int, account_id: str) -> str:
    return f"listing-update:{listing_id}:{update_id}:{account_id}"


def update_email(update: UpdateToTell, listing_url: str, unsubscribe_url: str, site: str) -> tuple[str, str]:
    """The subject (naming the product) and the plain-text body of one follower's email from the site `site`."""
    name = update.name or update.slug
    subject = " ".join(f"{name} on {site}: {update.title}".split())
    if len(subject) > mail.SUBJECT_MAX:
        subject = subject[: mail.SUBJECT_MAX - 1] + "…"
    text = (
        f"Hello,\n\n{name} posted an update on {site}.\n\n"
        f"{update.title}\n\n"
        f"{update.body.strip()}\n\n"
        f"See {name} and its updates on {site}: {listing_url}"
    )
    return subject, signed(text, site, f"You get this email because you follow {name} on {site}.\n"
                                       f"To stop getting updates from {name}, open this link: {unsubscribe_url}")


ONE_CLICK = "/one-click"  # the unsubscribe link's address for mail programs (RFC 8058), `api/web_unsubscribe.py`


def notify_followers(store: EventStore, update: UpdateToTell, followers: Sequence[Follower], tokens: UnsubscribeTokens,
                     website: str, meta: Meta, chunk: int = CHUNK) -> int:
    """Queue the update's email to each follower and mark the update told; returns how many emails were new."""
    base = website if website.endswith("/") else website + "/"
    listing_url = f"{base}listings/{update.slug}"
    site = site_of(store.load).name  # one name for every batch of this update's mails
    queued = 0
    batches = [followers[i:i + chunk] for i in range(0, len(followers), chunk)] or [[]]
    for n, batch in enumerate(batches):
        last = n == len(batches) - 1

        def decision(load: Any, batch: Sequence[Follower] = batch, last: bool = last) -> list[Event]:
            events: list[Event] = []
            for follower in batch:
                link = f"{base}unsubscribe/{tokens.sign(follower.account_id, update.listing_id)}"
                subject, text = update_email(update, listing_url, link, site)
                message = load(mail.message_id(dedupe_key(update.listing_id, update.update_id, follower.account_id)), mail)
                try:
                    events += mail.decide_queue(message, follower.email, subject, text, KIND, follower.account_id, meta,
                                                unsubscribe_url=link + ONE_CLICK)
                except InvalidInput as exc:  # an address the outbox refuses: skip it, tell the others
                    log.warning("update %s/%s: not mailing %s: %s", update.listing_id, update.update_id,
                                follower.account_id, exc.detail)
            if last:
                marker = load(updates.fanout_stream(update.listing_id, update.update_id), updates)
                events += updates.decide_notified(marker, update.listing_id, update.update_id, len(followers), meta)
            return events

        appended = store.decide_across(decision)
        queued += sum(isinstance(e, EmailQueued) for e in appended.events)
    return queued


def is_notified(store: EventStore, listing_id: int, update_id: int) -> bool:
    state: updates.FanoutState = store.load(updates.fanout_stream(listing_id, update_id), updates)
    return state.notified


def unsubscribe(store: EventStore, listing_id: int, account_id: str, meta: Meta) -> int:
    """Stop following the listing (ListingUnfollowed); nothing to do when the account no longer follows it."""
    return community.follow(store, listing_id, account_id, meta, on=False)
