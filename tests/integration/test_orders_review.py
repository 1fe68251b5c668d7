"""The `ai_review` line end to end against PostgreSQL with the model's client replaying a recorded reply: the
fulfilment manager has the model write the review, the owner is emailed that text, get_my_listing shows it with
when and how it was made; and a failing model still delivers the rule-based review."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import uuid4

from aggregates.base import Meta
from aggregates.order.review import rule_review
from commands import account as account_cmd
from commands import listing as listing_cmd
from commands import orders as orders_cmd
from commands.order_inputs import CreateCheckout
from queries import mail as mail_q
from queries.my_listings import get_my_listing
from tests.unit.test_drafting_anthropic import MODEL, Replay, drafter
from workers.fulfilment import Fulfilment
from workers.profile_review import ProfileReviewer

NOW = datetime.now(timezone.utc)
STAFF = Meta(at=NOW, actor="staff:test", channel="cli")


def _owner_with_listing(c: Any, name: str) -> tuple[str, str, int]:
    email = f"owner-{uuid4().hex[:8]}@example.com"
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=None, verified=True), STAFF, None)
    account_id = str(reg.account_id)
    lid = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Workflow automation for small teams that hate busywork"},
        categories=["developer-tools"], owner_ids=[account_id]), STAFF).listing_id
    c.runtime.catch_up("listing_view")
    return account_id, email, lid


def _paid_review(c: Any, account_id: str, lid: int) -> str:
    meta = Meta(at=NOW, actor=f"account:{account_id}", channel="rest")
    body = CreateCheckout.model_validate({"items": [{"product": "ai_review", "listing_id": lid}],
                                          "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, account_id, meta, NOW.date(), c.services.orders)
    orders_cmd.set_billing(c.store, placed.token, "Buyer", "US", "", "", meta, c.services.orders)
    orders_cmd.start_payment(c.store, placed.number, "test", "test_1", meta)
    total = orders_cmd.load(c.store, placed.number).total_cents
    orders_cmd.confirm_payment(c.store, placed.number, provider="test", reference="test_1", amount_cents=total,
                               source="test", event_id="", meta=meta)
    c.runtime.catch_up("orders_view")
    return placed.number


def _delivered(c: Any, account_id: str, email: str, lid: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    for view in ("orders_view", "listing_view", "mail_view"):
        c.runtime.catch_up(view)
    mine = get_my_listing(c.services.reads, account_id, lid, c.services.links)
    return mine["profile_review"], mail_q.outbox(c.services.reads, to=email)


def test_the_model_writes_the_review_which_is_emailed_and_shown_in_get_my_listing(container: Any) -> None:
    c = container
    account_id, email, lid = _owner_with_listing(c, "Acme Flow")
    assert get_my_listing(c.services.reads, account_id, lid, c.services.links)["profile_review"] is None
    number = _paid_review(c, account_id, lid)
    replay = Replay("review_profile.json", "https://acmeflow.example")
    manager = Fulfilment(c.store, c.services.reads, lambda: NOW, reviewer=ProfileReviewer(drafter(replay)))
    assert manager.run_once() == 1
    assert len(replay.requests) == 1 and "Acme Flow" in replay.requests[0]["messages"][0]["content"]
    review, mails = _delivered(c, account_id, email, lid)
    assert review is not None
    assert review["made_by"] == f"anthropic:{MODEL}" and review["order_number"] == number
    assert review["text"].startswith("Review of Acme Flow\n\n") and "Acme Flow: workflow automation" in review["text"]
    assert review["written_at"] == orders_cmd.load(c.store, number).fulfilled[0].isoformat()
    [sent] = mails
    assert sent["subject"] == "Your profile review of Acme Flow on launchdir"
    c.runtime.catch_up("orders_view")
    assert manager.run_once() == 0 and len(replay.requests) == 1  # written and sent once


def test_a_failing_model_still_delivers_the_rule_based_review(container: Any) -> None:
    c = container
    account_id, email, lid = _owner_with_listing(c, "Lumen")
    _paid_review(c, account_id, lid)
    overloaded = Replay("error_529_overloaded.json", "https://lumen.example", status=529)
    manager = Fulfilment(c.store, c.services.reads, lambda: NOW, reviewer=ProfileReviewer(drafter(overloaded)))
    assert manager.run_once() == 1
    review, mails = _delivered(c, account_id, email, lid)
    assert review is not None and review["made_by"] == "rules"
    assert review["text"] == rule_review(listing_cmd.load(c.store, lid)).text
    assert len(mails) == 1
