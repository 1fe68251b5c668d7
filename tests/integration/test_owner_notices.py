"""Owners' notices against real PostgreSQL: the owners of a listing are mailed once when it is scheduled, when it
goes live and when its badge was missing at its week's start; the buyer of an order gets a receipt; re-runs,
restarts and a rebuild of `notices_view` mail nobody twice; old notices and staff launches mail nobody."""

from __future__ import annotations

import re

from datetime import date, datetime, time, timedelta, timezone
from typing import Any
from uuid import uuid4

from aggregates.base import Meta
from aggregates.weeks import week_of, weeks_after
from commands import account as account_cmd
from commands import catalog as catalog_cmd
from commands import free_plan
from commands import listing as listing_cmd
from commands import notices as notices_cmd
from commands import orders as orders_cmd
from commands.order_inputs import CreateCheckout
from events.week_names import week_name
from queries import mail as mail_q
from queries import notices as notices_q
from workers.notices import OwnerNotices

VIEWS = ("listing_view", "orders_view", "updates_view", "accounts_view", "mail_view", "notices_view")
NOW = datetime.now(timezone.utc)


def _meta(at: datetime = NOW, actor: str = "staff:test") -> Meta:
    return Meta(at=at, actor=actor, channel="cli")


def _person(c: Any, verified: bool = True) -> tuple[str, str]:
    email = f"founder-{uuid4().hex[:10]}@example.com"
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=None, verified=verified), _meta(), c.identity.links)
    assert reg.account_id is not None
    return reg.account_id, email


def _listing(c: Any, name: str, owners: list[str]) -> tuple[int, str]:
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Does things", "website_url": "https://example.com/"},
        categories=["notes-docs"], owner_ids=owners), _meta())
    return created.listing_id, created.slug


def _paid_launch(c: Any, buyer: str, listing_id: int) -> tuple[Any, int]:
    """A launch of the listing this week, ordered and paid on the test payment page: (the order placed, its total)."""
    meta = _meta(actor=f"account:{buyer}")
    body = CreateCheckout.model_validate({"items": [{"product": "launch", "listing_id": listing_id,
                                                     "week": week_of(NOW.date())}], "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, buyer, meta, NOW.date(), c.services.orders)
    orders_cmd.set_billing(c.store, placed.token, "Buyer", "US", "", "", meta, c.services.orders)
    total = orders_cmd.load(c.store, placed.number).total_cents
    orders_cmd.start_payment(c.store, placed.number, "test", "test_1", meta)
    orders_cmd.confirm_payment(c.store, placed.number, provider="test", reference="test_1", amount_cents=total,
                               source="test", event_id="", meta=meta)
    return placed, total


def _caught_up(c: Any) -> None:
    for name in VIEWS:
        c.runtime.catch_up(name)


def _notices(c: Any, clock: datetime = NOW) -> OwnerNotices:
    return OwnerNotices(c.store, c.services.reads, c.services.links["website"], lambda: clock)


def _mails(c: Any, address: str) -> list[dict[str, Any]]:
    return [m for m in mail_q.outbox(c.services.reads, to=address) if m["kind"].startswith("notice_")]


def _monday(week: str) -> datetime:
    return datetime.combine(date.fromisoformat(week), time(0, 1), tzinfo=timezone.utc)


def test_a_free_listing_s_owners_hear_once_when_it_is_scheduled_and_when_it_goes_live(container: Any) -> None:
    c = container
    owner, owner_email = _person(c)
    cofounder, cofounder_email = _person(c)
    unconfirmed, unconfirmed_email = _person(c, verified=False)
    listing_id, slug = _listing(c, "Quillnote", [owner, cofounder, unconfirmed])
    week = weeks_after(NOW.date(), 3)
    listing_cmd.queue_free(c.store, listing_id, week, _meta())
    listing_cmd.badge_found(c.store, listing_id, "https://example.com/", _meta())
    _caught_up(c)

    assert _notices(c).run_once() == 2
    _caught_up(c)
    [scheduled] = _mails(c, owner_email)
    assert len(_mails(c, cofounder_email)) == 1 and not _mails(c, unconfirmed_email)
    named = week_name(week, "long", plain=True)  # "Week 49, 2026 (30 Nov – 6 Dec)", as the pages name it
    assert scheduled["kind"] == "notice_scheduled"
    assert scheduled["subject"] == f"Quillnote is scheduled to launch on launchdir in {named}"
    website = c.services.links["website"]
    assert f"{website}listings/{slug}" in scheduled["text"]
    assert f"{website}my/listings/{listing_id}/badge" in scheduled["text"]  # free: keep the badge until then
    assert _notices(c).run_once() == 0  # a restart: the marker says mailed

    listing_cmd.launch_if_due(c.store, listing_id, _meta(_monday(week), "system:scheduler"))
    _caught_up(c)
    assert _notices(c).run_once() == 2
    _caught_up(c)
    assert [m["subject"] for m in _mails(c, owner_email)] == [
        "Quillnote is live on launchdir", f"Quillnote is scheduled to launch on launchdir in {named}"]
    live = _mails(c, cofounder_email)[0]
    assert live["kind"] == "notice_live" and f"{website}listings/{slug}" in live["text"]
    assert f"among the launches of {named}." in live["text"] and "-W" not in live["text"]

    c.runtime.rebuild("notices_view")  # the markers replay: nothing is mailed again
    _caught_up(c)
    assert notices_q.pending(c.services.reads, NOW - timedelta(days=2)) == []
    assert _notices(c).run_once() == 0
    _caught_up(c)
    assert len(_mails(c, owner_email)) == 2


def test_a_missing_badge_at_the_week_s_start_is_told_with_the_reason(container: Any) -> None:
    c = container
    owner, owner_email = _person(c)
    listing_id, _slug = _listing(c, "Badgeless", [owner])
    week = weeks_after(NOW.date(), 2)
    listing_cmd.queue_free(c.store, listing_id, week, _meta())
    listing_cmd.badge_found(c.store, listing_id, "https://example.com/", _meta())
    gone = free_plan.BadgeOutcome(found=False, checked_url="https://example.com/", reason="not_found")
    free_plan.record_check(c.store, listing_id, gone, week, None, _meta(_monday(week), "system:badges"))
    assert free_plan.load(c.store, listing_id).status == "awaiting_badge"
    _caught_up(c)

    assert _notices(c).run_once() == 2  # scheduled, then held back
    _caught_up(c)
    lost = [m for m in _mails(c, owner_email) if m["kind"] == "notice_badge_lost"]
    assert [m["subject"] for m in lost] == ["Badgeless did not go live on launchdir: the badge was not found on your homepage"]
    assert "https://example.com/ (the badge's link was not on the page)" in lost[0]["text"]
    assert f"my/listings/{listing_id}/badge" in lost[0]["text"]


def test_the_buyer_of_an_order_gets_a_receipt_naming_the_listing_and_the_invoice(container: Any) -> None:
    c = container
    buyer, buyer_email = _person(c)
    listing_id, _slug = _listing(c, "Ledgerly", [buyer])
    placed, _total = _paid_launch(c, buyer, listing_id)
    _caught_up(c)

    assert _notices(c).run_once() == 1
    _caught_up(c)
    [receipt] = _mails(c, buyer_email)
    paid = orders_cmd.load(c.store, placed.number)
    assert receipt["kind"] == "notice_paid"
    assert receipt["subject"] == f"Payment received for order {placed.number} (Ledgerly) on launchdir"
    assert f"Invoice {paid.invoice_number}" in receipt["text"]
    assert f"{c.services.links['website']}my/orders/{placed.number}" in receipt["text"]
    assert ", Ledgerly: $" in receipt["text"]  # the line names the listing it is for
    for line in paid.lines:  # each at its own price, not $0.00
        assert f": ${line['net_cents'] // 100:,}.{line['net_cents'] % 100:02d}\n" in receipt["text"]
    assert not re.search(r"^- .*: \$0\.00$", receipt["text"], re.MULTILINE)
    total = f"${paid.total_cents // 100:,}.{paid.total_cents % 100:02d}"
    assert f"Total paid: {total}" in receipt["text"]


def test_old_notices_and_staff_launches_mail_nobody(container: Any) -> None:
    c = container
    owner, owner_email = _person(c)
    staff_made, _ = _listing(c, "Staffpick", [owner])
    listing_cmd.staff_publish(c.store, staff_made, _meta())
    old, _ = _listing(c, "Oldnews", [owner])
    long_ago = NOW - timedelta(days=3)
    listing_cmd.queue_free(c.store, old, week_of(long_ago.date()), _meta(long_ago))
    listing_cmd.badge_found(c.store, old, "https://example.com/", _meta(long_ago))  # live at once, 3 days ago
    _caught_up(c)

    assert _notices(c).run_once() == 0
    assert _mails(c, owner_email) == []
    assert not notices_cmd.is_mailed(c.store, notices_q.pending(c.services.reads, NOW - timedelta(days=7))[0]["key"])


def test_a_listing_taken_down_tells_its_owners_why_and_where_to_write(container: Any) -> None:
    c = container
    owner, owner_email = _person(c)
    listing_id, _slug = _listing(c, "Pillbox", [owner])
    listing_cmd.staff_publish(c.store, listing_id, _meta())
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(
        changes={"contact_email": "team@launchdir.example"}), _meta())
    listing_cmd.unpublish(c.store, listing_id, "  Sells   counterfeit medicine. ", _meta())
    assert listing_cmd.unpublish(c.store, listing_id, "Again", _meta()) > 0  # down already: nothing new
    _caught_up(c)
    c.runtime.catch_up("catalog_view")

    assert _notices(c).run_once() == 1
    _caught_up(c)
    [told] = _mails(c, owner_email)
    assert told["kind"] == "notice_unpublished" and told["subject"] == "Pillbox was taken down from launchdir"
    assert "The reason given: Sells counterfeit medicine.\n" in told["text"]  # spaces folded when recorded
    assert "write to team@launchdir.example and name Pillbox" in told["text"]
    assert f"my/listings/{listing_id}" in told["text"]


def test_a_listing_put_back_tells_its_owners_it_is_back_whether_taken_down_in_an_earlier_batch_or_the_same(
        container: Any) -> None:
    c = container
    owner, owner_email = _person(c)
    week = week_of(NOW.date())
    apart, _ = _listing(c, "Apartly", [owner])  # taken down, projected, then put back
    listing_cmd.staff_publish(c.store, apart, _meta(), week=week)
    listing_cmd.unpublish(c.store, apart, "Looked like spam", _meta())
    c.runtime.catch_up("notices_view")
    listing_cmd.staff_publish(c.store, apart, _meta(), week=week)
    together, together_slug = _listing(c, "Togethr", [owner])  # live, down and back within one batch of the view
    listing_cmd.staff_publish(c.store, together, _meta(), week=week)
    listing_cmd.unpublish(c.store, together, "Wrong owner", _meta())
    listing_cmd.staff_publish(c.store, together, _meta(), week=week)
    _caught_up(c)

    assert _notices(c).run_once() == 4  # two take-downs, two put-backs; Togethr's first launch was no news
    _caught_up(c)
    back = sorted((m for m in _mails(c, owner_email) if m["kind"] == "notice_restored"), key=lambda m: m["subject"])
    assert [m["subject"] for m in back] == ["Apartly is back on launchdir", "Togethr is back on launchdir"]
    assert f"listings/{together_slug}" in back[1]["text"] and "with the votes it had" in back[1]["text"]
    assert len([m for m in _mails(c, owner_email) if m["kind"] == "notice_unpublished"]) == 2


def test_a_refund_tells_the_buyer_how_much_and_why(container: Any) -> None:
    c = container
    buyer, buyer_email = _person(c)
    listing_id, _slug = _listing(c, "Refundly", [buyer])
    placed, total = _paid_launch(c, buyer, listing_id)
    orders_cmd.refund(c.store, placed.number, "asked by the buyer", "", _meta())
    _caught_up(c)

    assert _notices(c).run_once() == 2  # the receipt, then the refund
    _caught_up(c)
    refund = [m for m in _mails(c, buyer_email) if m["kind"] == "notice_refunded"]
    assert [m["subject"] for m in refund] == [f"Order {placed.number} (Refundly) on launchdir was refunded"]
    amount = f"${total // 100:,}.{total % 100:02d}"
    assert f"We refunded {amount} of order {placed.number}. The reason given: Asked by the buyer." in refund[0]["text"]


def test_the_mails_name_the_site_as_staff_named_it(container: Any) -> None:
    """A site renamed in its settings is named so in the mails written after: subject, body and the team to reach."""
    c = container
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(
        changes={"name": "Shipyard", "contact_email": "team@shipyard.example"}), _meta())
    owner, owner_email = _person(c)
    listing_id, slug = _listing(c, "Renamed", [owner])
    listing_cmd.staff_publish(c.store, listing_id, _meta())
    listing_cmd.unpublish(c.store, listing_id, "Spam links", _meta())
    _caught_up(c)
    _notices(c).run_once()
    _caught_up(c)
    subjects = [m["subject"] for m in _mails(c, owner_email)]
    assert "Renamed was taken down from Shipyard" in subjects, subjects
    down = next(m for m in _mails(c, owner_email) if m["kind"] == "notice_unpublished")
    assert "The Shipyard team took Renamed down" in down["text"] and "launchdir" not in down["text"]
