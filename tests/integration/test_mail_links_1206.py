"""The removed owner's mail and the profile review's mail link to the listing, against PostgreSQL.

A removed owner of a live listing gets its public page (they no longer own it, so not the owner's page); of a listing
queued or scheduled, the same address, which shows it as launching soon; of a draft or an unpublished listing, no link
and whom to write to. The profile review's mail, queued by the fulfilment manager as the
served site wires it, links to the owner's page of the listing, where the review is kept.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import uuid4

from aggregates.base import Meta
from api.app import WebConfig
from commands import account as account_cmd
from commands import catalog as catalog_cmd
from commands import listing as listing_cmd
from commands import orders as orders_cmd
from commands import owners as owners_cmd
from commands.order_inputs import CreateCheckout
from launchdir.ordering import wire_orders
from queries import mail as mail_q

CONTACT = "team@shipyard.example"


def _meta(actor: str = "staff:ops@shipyard.example") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=actor, channel="cli")


def _person(c: Any) -> tuple[str, str]:
    email = f"owner-{uuid4().hex[:8]}@example.com"
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=None, verified=True), _meta(), None)
    return str(reg.account_id), email


def _listing(c: Any, name: str, owners: list[str], live: bool, queued: bool = False) -> tuple[int, str]:
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Notes for teams that ship", "website_url": "https://notes.example/"},
        categories=["notes-docs"], owner_ids=owners), _meta())
    if live:
        listing_cmd.staff_publish(c.store, made.listing_id, _meta())
    elif queued:
        listing_cmd.queue_free(c.store, made.listing_id, "2027-01-04", _meta())
    return made.listing_id, made.slug


def _mail(c: Any, to: str, kind: str) -> str:
    c.runtime.catch_up("mail_view")
    [found] = [m for m in mail_q.outbox(c.services.reads, to=to) if m["kind"] == kind]
    return str(found["text"])


def test_a_removed_owner_of_a_live_listing_gets_its_public_page(container: Any) -> None:
    c = container
    website = c.services.links["website"]
    (first, _), (second, email) = _person(c), _person(c)
    listing_id, slug = _listing(c, "Acme Notes", [first, second], live=True)
    owners_cmd.remove_owner(c.store, listing_id, second, "Left the company", _meta(), website=website)
    text = _mail(c, email, owners_cmd.NOTICE_KIND)
    assert f"Its public page, where you can still see it: {website}listings/{slug}\n\n" in text, text
    assert "/my/listings/" not in text  # the owner's pages are no longer theirs


def test_a_removed_owner_of_a_listing_launching_soon_gets_its_launching_soon_page(container: Any) -> None:
    c = container
    website = c.services.links["website"]
    (first, _), (second, email) = _person(c), _person(c)
    listing_id, slug = _listing(c, "Soon Notes", [first, second], live=False, queued=True)
    owners_cmd.remove_owner(c.store, listing_id, second, "Left the company", _meta(), website=website)
    text = _mail(c, email, owners_cmd.NOTICE_KIND)
    assert f"Its page, where it shows as launching soon until its launch week: {website}listings/{slug}\n\n" in text
    assert "not public" not in text and "/my/listings/" not in text


def test_a_removed_owner_of_a_listing_not_live_gets_no_link_but_whom_to_write_to(container: Any) -> None:
    c = container
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(
        changes={"name": "Shipyard", "contact_email": CONTACT}), _meta())
    (first, _), (second, email) = _person(c), _person(c)
    listing_id, _ = _listing(c, "Quiet Notes", [first, second], live=False)
    owners_cmd.remove_owner(c.store, listing_id, second, "Left the company", _meta(),
                            website=c.services.links["website"])
    text = _mail(c, email, owners_cmd.NOTICE_KIND)
    assert "http" not in text, text
    assert "Quiet Notes is not public on Shipyard at the moment, so this email has no link to it.\n\n" in text
    assert f"If you think this is a mistake, or have a question about Quiet Notes, write to {CONTACT} and name it." \
        in text


def test_the_profile_review_mail_of_the_served_site_links_to_the_owner_s_page(container: Any) -> None:
    c = container
    owner, email = _person(c)
    listing_id, _ = _listing(c, "Reviewly", [owner], live=False)
    meta = _meta(f"account:{owner}")
    body = CreateCheckout.model_validate({"items": [{"product": "ai_review", "listing_id": listing_id}],
                                          "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, owner, meta, meta.at.date(), c.services.orders)
    orders_cmd.set_billing(c.store, placed.token, "Buyer", "US", "", "", meta, c.services.orders)
    orders_cmd.start_payment(c.store, placed.number, "test", "test_1", meta)
    orders_cmd.confirm_payment(c.store, placed.number, provider="test", reference="test_1", source="test",
                               amount_cents=orders_cmd.load(c.store, placed.number).total_cents, event_id="",
                               meta=meta)
    c.runtime.catch_up("orders_view")
    fulfilment = wire_orders(c.services, c.settings, WebConfig("http://127.0.0.1", [], []))  # as the server wires it
    assert fulfilment.run_once() == 1
    text = _mail(c, email, "order_review")
    page = f"{c.services.links['website']}my/listings/{listing_id}"
    assert f"Your listing, to edit its profile and read the review again: {page}\n\n" in text, text
