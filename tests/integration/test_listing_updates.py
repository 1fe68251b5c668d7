"""Listing updates against real PostgreSQL: one email per follower per update (re-runs and restarts send none
again), unsubscribing, the latest-updates feed (live listings only), and a rebuild of `updates_view`."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from uuid import uuid4

from aggregates.base import Meta
from commands import account as account_cmd
from commands import community
from commands import listing as listing_cmd
from commands import mail as mail_cmd
from commands import updates as updates_cmd
from queries import mail as mail_q
from queries import updates as updates_q
from queries.paging import Paging
from workers.updates import UpdateNotifier

VIEWS = ("listing_view", "updates_view", "accounts_view", "mail_view")
TOKENS = updates_cmd.UnsubscribeTokens(b"k" * 32)


def _meta(actor: str = "staff:test") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=actor, channel="cli")


def _person(c, verified: bool = True) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    email = f"fan-{uuid4().hex[:10]}@example.com"
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=None, verified=verified), _meta(), c.identity.links)
    assert reg.account_id is not None
    return reg.account_id, email


def _listing(c, name: str, owner: str, live: bool = True) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": name, "tagline": "Does things"}, categories=["notes-docs"], owner_ids=[owner]), _meta())
    if live:
        listing_cmd.staff_publish(c.store, created.listing_id, _meta())
    return created.listing_id, created.slug


def _post(c, listing_id: int, owner: str, title: str, body: str = "What changed.") -> int:  # type: ignore[no-untyped-def]
    update_id, _ = listing_cmd.post_update(c.store, listing_id, title, body, _meta(f"account:{owner}"))
    return update_id


def _caught_up(c) -> None:  # type: ignore[no-untyped-def]
    for name in VIEWS:
        c.runtime.catch_up(name)


def _notifier(c) -> UpdateNotifier:  # type: ignore[no-untyped-def]
    return UpdateNotifier(c.store, c.services.reads, TOKENS, c.services.links["website"], c.services.clock)


def _mails(c, address: str) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    return [m for m in mail_q.outbox(c.services.reads, to=address) if m["kind"] == "listing_update"]


def test_each_follower_gets_one_email_per_update_and_re_runs_send_nothing_more(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    owner, owner_email = _person(c)
    (a, a_email), (b, b_email) = _person(c), _person(c)
    unconfirmed, unconfirmed_email = _person(c, verified=False)
    gone, gone_email = _person(c)
    listing_id, slug = _listing(c, "Invoicely", owner)
    for who in (owner, a, b, unconfirmed, gone):
        community.follow(c.store, listing_id, who, _meta(f"account:{who}"))
    community.follow(c.store, listing_id, gone, _meta(f"account:{gone}"), on=False)
    first = _post(c, listing_id, owner, "Dark mode", "Dark mode is here.\nTry it.")
    _caught_up(c)

    assert _notifier(c).run_once() == 2
    _caught_up(c)
    [mail_a], [mail_b] = _mails(c, a_email), _mails(c, b_email)
    assert mail_a["subject"] == mail_b["subject"] == "Invoicely on launchdir: Dark mode"
    assert (mail_a["account_id"], mail_b["account_id"]) == (a, b)
    assert "Dark mode is here.\nTry it." in mail_a["text"]
    assert f"{c.services.links['website']}listings/{slug}" in mail_a["text"]
    token = re.search(r"/unsubscribe/(\S+)", mail_a["text"]).group(1)  # type: ignore[union-attr]
    assert TOKENS.read(token) == (a, listing_id)
    assert not _mails(c, owner_email) and not _mails(c, unconfirmed_email) and not _mails(c, gone_email)
    assert updates_cmd.is_notified(c.store, listing_id, first)

    assert _notifier(c).run_once() == 0  # a restart: the marker says done
    update = updates_cmd.UpdateToTell(listing_id, first, slug, "Invoicely", "Dark mode", "Dark mode is here.\nTry it.")
    again = [updates_cmd.Follower(a, a_email), updates_cmd.Follower(b, b_email)]
    assert updates_cmd.notify_followers(c.store, update, again, TOKENS, "http://x/", _meta()) == 0  # the dedupe keys
    _caught_up(c)
    assert len(_mails(c, a_email)) == len(_mails(c, b_email)) == 1

    _post(c, listing_id, owner, "Exports")
    _caught_up(c)
    notifier = _notifier(c)
    assert notifier.run_once() == 2
    _caught_up(c)
    assert notifier.run_once() == 0
    _caught_up(c)
    assert sorted(m["subject"] for m in _mails(c, b_email)) == ["Invoicely on launchdir: Dark mode", "Invoicely on launchdir: Exports"]


def test_many_followers_are_queued_in_chunks_and_a_half_done_fan_out_finishes(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    owner, _ = _person(c)
    listing_id, slug = _listing(c, "Chunky", owner)
    fans = [_person(c) for _ in range(5)]
    for who, _ in fans:
        community.follow(c.store, listing_id, who, _meta(f"account:{who}"))
    update_id = _post(c, listing_id, owner, "Big news")
    _caught_up(c)
    update = updates_cmd.UpdateToTell(listing_id, update_id, slug, "Chunky", "Big news", "What changed.")
    followers = [updates_cmd.Follower(a, e) for a, e in updates_q.followers_to_tell(c.services.reads, listing_id)]
    assert len(followers) == 5
    # a run that died after its first chunk: two of the emails queued (same dedupe keys), no marker yet
    for follower in followers[:2]:
        mail_cmd.queue_email(c.store, mail_cmd.QueueEmail(
            to=follower.email, subject="Chunky: Big news", text="t", kind="listing_update", account_id=follower.account_id,
            dedupe_key=updates_cmd.dedupe_key(listing_id, update_id, follower.account_id)), _meta())
    assert not updates_cmd.is_notified(c.store, listing_id, update_id)
    website = c.services.links["website"]
    assert updates_cmd.notify_followers(c.store, update, followers, TOKENS, website, _meta(), chunk=2) == 3
    assert updates_cmd.is_notified(c.store, listing_id, update_id)
    _caught_up(c)
    assert _notifier(c).run_once() == 0
    assert [len(_mails(c, e)) for _, e in fans] == [1] * 5


def test_updates_of_a_listing_not_live_yet_are_never_mailed_and_join_the_feed_when_it_goes_live(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    owner, _ = _person(c)
    fan, fan_email = _person(c)
    early_id, _ = _listing(c, "Early Bird", owner, live=False)
    community.follow(c.store, early_id, fan, _meta(f"account:{fan}"))
    _post(c, early_id, owner, "Coming soon")
    _caught_up(c)
    assert _notifier(c).run_once() == 0
    feed = updates_q.latest_updates(c.services.reads, Paging())
    assert feed["total"] == 0 and feed["items"] == []

    live_id, live_slug = _listing(c, "Already Live", owner)
    _post(c, live_id, owner, "Live news")
    listing_cmd.staff_publish(c.store, early_id, _meta())
    _caught_up(c)
    assert _notifier(c).run_once() == 0  # still not mailed: it was posted before the launch
    assert not _mails(c, fan_email)
    feed = updates_q.latest_updates(c.services.reads, Paging())
    assert [(i["listing_name"], i["title"]) for i in feed["items"]] == [("Already Live", "Live news"),
                                                                       ("Early Bird", "Coming soon")]
    assert feed["items"][0]["listing_slug"] == live_slug and feed["total"] == 2 and feed["has_more"] is False

    listing_cmd.edit_listing(c.store, live_id, {"name": "Renamed Live"}, _meta())
    listing_cmd.unpublish(c.store, early_id, "spam", _meta())
    _caught_up(c)
    feed = updates_q.latest_updates(c.services.reads, Paging(per_page=1))
    assert [(i["listing_name"], i["title"]) for i in feed["items"]] == [("Renamed Live", "Live news")]
    assert feed["total"] == 1


def test_the_feed_is_newest_first_and_paged(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    owner, _ = _person(c)
    one, _ = _listing(c, "One", owner)
    two, _ = _listing(c, "Two", owner)
    for n in range(3):
        _post(c, one, owner, f"one-{n}")
        _post(c, two, owner, f"two-{n}")
    _caught_up(c)
    titles = [i["title"] for i in updates_q.latest_updates(c.services.reads, Paging(per_page=4))["items"]]
    assert titles == ["two-2", "one-2", "two-1", "one-1"]
    page2 = updates_q.latest_updates(c.services.reads, Paging(page=2, per_page=4))
    assert [i["title"] for i in page2["items"]] == ["two-0", "one-0"] and page2["has_more"] is False


def test_unsubscribing_stops_the_emails_of_that_listing_only(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    owner, _ = _person(c)
    fan, fan_email = _person(c)
    first, _ = _listing(c, "First", owner)
    second, _ = _listing(c, "Second", owner)
    for listing_id in (first, second):
        community.follow(c.store, listing_id, fan, _meta(f"account:{fan}"))
    account_id, listing_id = TOKENS.read(TOKENS.sign(fan, first))  # type: ignore[misc]
    updates_cmd.unsubscribe(c.store, listing_id, account_id, _meta(f"account:{fan}"))
    updates_cmd.unsubscribe(c.store, listing_id, account_id, _meta(f"account:{fan}"))  # twice is fine
    _post(c, first, owner, "Not for you")
    _post(c, second, owner, "For you")
    _caught_up(c)
    assert not updates_q.follows(c.services.reads, first, fan) and updates_q.follows(c.services.reads, second, fan)
    assert _notifier(c).run_once() == 1
    _caught_up(c)
    assert [m["subject"] for m in _mails(c, fan_email)] == ["Second on launchdir: For you"]


def test_a_rebuilt_updates_view_equals_the_live_one(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    owner, _ = _person(c)
    fan, _ = _person(c)
    listing_id, _ = _listing(c, "Rebuilt", owner)
    community.follow(c.store, listing_id, fan, _meta(f"account:{fan}"))
    _post(c, listing_id, owner, "Before")
    _caught_up(c)
    _notifier(c).run_once()
    _post(c, listing_id, owner, "After")
    _caught_up(c)
    reads = c.services.reads

    def seen() -> tuple[object, ...]:
        since = datetime(2000, 1, 1, tzinfo=timezone.utc)
        return (updates_q.latest_updates(reads, Paging())["items"], updates_q.pending_notifications(reads, since),
                updates_q.followers_to_tell(reads, listing_id))

    before = seen()
    assert [p["title"] for p in before[1]] == ["After"]  # type: ignore[index]
    c.runtime.rebuild("updates_view")
    assert seen() == before
