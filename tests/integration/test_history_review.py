"""Version history, staff review and audit against real PostgreSQL, every fact made through the commands.

Owner edits are made with the listing handlers and an owner's `Meta` (actor
`account:<id>`, channel and credential), exactly as the owner operations and
update_draft record them.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any
from uuid import uuid4

import pytest

from aggregates.base import Meta
from commands import account as account_cmd
from commands import listing as listing_cmd
from commands import review as review_cmd
from events.errors import Conflict, InvalidInput, NotFound
from queries import audit as audit_q
from queries import history as history_q
from queries import listings as listings_q
from queries.paging import Paging

AT = datetime(2026, 11, 18, 12, 0, tzinfo=timezone.utc)
STAFF = Meta(at=AT, actor="staff:ops@example.com", channel="cli", via="staff")
VIEWS = ("listing_view", "history_view", "accounts_view", "catalog_view")


def owner_meta(account_id: str, minutes: int = 1, channel: str = "rest", via: str = "api_key:k1") -> Meta:
    return Meta(at=AT + timedelta(minutes=minutes), actor=f"account:{account_id}", channel=channel, via=via)


def sync(c: Any) -> None:
    for name in VIEWS:
        c.runtime.catch_up(name)


def owner(c: Any) -> tuple[str, str]:
    """A verified account (its id and email)."""
    email = f"owner-{uuid4().hex[:8]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=email, password=None, verified=True)
    registered = account_cmd.register_account(c.store, cmd, STAFF, None)
    assert registered.account_id is not None
    return registered.account_id, email


def live_listing(c: Any, name: str, account_id: str, **profile: Any) -> listing_cmd.Created:
    fields = {"name": name, "tagline": "The original tagline", "description": "What it does.",
              "website_url": f"https://{listing_cmd.listing.slugify(name)}.example", **profile}
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile=fields, categories=["analytics"], owner_ids=[account_id], story={"title": "How it began"}), STAFF)
    listing_cmd.staff_publish(c.store, created.listing_id, STAFF)
    return created


def ref(c: Any, version_id: int) -> review_cmd.VersionRef:
    v = history_q.version(c.services.reads, version_id)
    return review_cmd.VersionRef(v["version_id"], v["listing_id"], v["stream_version"], v["kind"])


def profile(c: Any, slug: str) -> dict[str, Any]:
    sync(c)
    return listings_q.get_listing(c.services.reads, listings_q.GetListing(slug=slug), c.services.links)


def test_owner_changes_are_versions_with_who_when_through_what_and_before_after(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    account_id, email = owner(c)
    made = live_listing(c, "History One", account_id)
    edited = listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "A better tagline", "city": "Lyon"},
                                      owner_meta(account_id, 1))
    story = listing_cmd.set_story(c.store, made.listing_id, {"title": "Why we started"},
                                  owner_meta(account_id, 2, "mcp", "oauth:client-1"))
    milestone_id, added = listing_cmd.add_milestone(c.store, made.listing_id, {"date": "2026-05-01", "title": "v1"},
                                                    owner_meta(account_id, 3, "web", "session"))
    staff_edit = listing_cmd.edit_listing(c.store, made.listing_id, {"pricing_model": "Freemium"}, STAFF)
    sync(c)

    page = history_q.history(c.services.reads, "history-one", Paging())
    versions = page["items"]
    assert [v["kind"] for v in versions] == ["edited", "milestone_added", "story", "edited", "created"]
    assert [v["version_id"] for v in versions[:4]] == [staff_edit, added, story, edited]  # ids are log positions
    assert page["total"] == 5 and versions == sorted(versions, key=lambda v: -v["version_id"])
    assert [v["number"] for v in versions] == [5, 4, 3, 2, 1]  # people read the listing's own order
    second = history_q.history(c.services.reads, "history-one", Paging(page=2, per_page=2))["items"]
    assert [v["number"] for v in second] == [3, 2]  # the same numbers on every page

    owner_edit = versions[3]
    assert owner_edit["changes"] == {"tagline": {"before": "The original tagline", "after": "A better tagline"},
                                     "city": {"before": None, "after": "Lyon"}}
    assert (owner_edit["actor"], owner_edit["actor_email"], owner_edit["channel"], owner_edit["via"]) == (
        f"account:{account_id}", email, "rest", "api_key:k1")
    assert owner_edit["at"] == AT + timedelta(minutes=1) and owner_edit["review"] == "pending"
    assert versions[2]["changes"] == {"story": {"before": {"title": "How it began"}, "after": {"title": "Why we started"}}}
    assert (versions[2]["channel"], versions[2]["via"]) == ("mcp", "oauth:client-1")
    assert versions[1]["changes"]["milestones"]["after"]["milestone_id"] == milestone_id
    assert versions[0]["review"] == "not_needed" and versions[0]["actor"] == "staff:ops@example.com"
    created = versions[4]
    assert created["review"] == "not_needed" and created["changes"]["tagline"] == {
        "before": None, "after": "The original tagline"}

    queue = [v for v in history_q.review_queue(c.services.reads, Paging(per_page=100))["items"]
             if v["listing_id"] == made.listing_id]
    assert [v["version_id"] for v in queue] == [edited, story, added]  # oldest first
    with pytest.raises(NotFound):
        history_q.history(c.services.reads, "no-such-listing", Paging())


def test_revert_restores_the_public_profile_and_is_a_new_version(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    account_id, _ = owner(c)
    made = live_listing(c, "Revert Me", account_id)
    listing_cmd.unlock(c.store, made.listing_id, ["story", "milestones"], "test", STAFF)
    spam = listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "Buy cheap pills", "description": "Better."},
                                    owner_meta(account_id, 1))
    later = listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "Still spam"}, owner_meta(account_id, 2))
    story = listing_cmd.set_story(c.store, made.listing_id, {"title": "Spam story"}, owner_meta(account_id, 3))
    _, added = listing_cmd.add_milestone(c.store, made.listing_id, {"date": "2026-05-01", "title": "Spam milestone"},
                                         owner_meta(account_id, 4))
    assert profile(c, "revert-me")["tagline"] == "Still spam"

    # reverting the older version puts its before-value back, although a later edit changed the field again
    done = review_cmd.revert(c.store, ref(c, spam), ["tagline"], STAFF)
    assert done.recorded and done.fields == ("tagline",)
    doc = profile(c, "revert-me")
    assert doc["tagline"] == "The original tagline" and doc["description"] == "Better."

    review_cmd.revert(c.store, ref(c, story), [], STAFF)
    review_cmd.revert(c.store, ref(c, added), ["milestones"], STAFF)
    doc = profile(c, "revert-me")
    assert doc["story"]["title"] == "How it began" and doc.get("milestones", []) == []

    reverted = history_q.version(c.services.reads, spam)
    assert (reverted["review"], reverted["reverted_fields"], reverted["reverted_in"]) == ("reverted", ["tagline"], [done.position])
    assert reverted["reviewed_by"] == "staff:ops@example.com"
    new = history_q.version(c.services.reads, done.position)
    assert (new["kind"], new["revert_of"], new["review"]) == ("revert", spam, "not_needed")
    assert (reverted["number"], reverted["reverted_in_numbers"]) == (2, [new["number"]])  # 1 is the creation
    assert (new["number"], new["revert_of_number"]) == (6, 2)
    assert new["changes"] == {"tagline": {"before": "Still spam", "after": "The original tagline"}}
    queue = {v["version_id"] for v in history_q.review_queue(c.services.reads, Paging(per_page=100))["items"]}
    assert {spam, story, added}.isdisjoint(queue) and later in queue

    # the same revert again moves nothing; a field the version did not change is a 400
    again = review_cmd.revert(c.store, ref(c, spam), ["tagline"], STAFF)
    assert not again.recorded
    with pytest.raises(InvalidInput):
        review_cmd.revert(c.store, ref(c, spam), ["city"], STAFF)

    accepted = review_cmd.accept(c.store, ref(c, later), STAFF)
    assert accepted.recorded and not review_cmd.accept(c.store, ref(c, later), STAFF).recorded
    sync(c)
    assert history_q.version(c.services.reads, later)["review"] == "accepted"
    assert profile(c, "revert-me")["tagline"] == "The original tagline"  # accepting changes no content
    with pytest.raises(Conflict):
        review_cmd.accept(c.store, ref(c, spam), STAFF)  # already reviewed by a revert
    with pytest.raises(Conflict):
        review_cmd.accept(c.store, ref(c, done.position), STAFF)  # staff's own versions need no review
    created = next(v for v in history_q.history(c.services.reads, made.listing_id, Paging(per_page=100))["items"]
                   if v["kind"] == "created")
    with pytest.raises(Conflict, match="creation needs no review"):
        review_cmd.accept(c.store, ref(c, created["version_id"]), STAFF)  # an owner's creation is never reviewed
    wrong = review_cmd.VersionRef(spam, made.listing_id, ref(c, spam).stream_version, "story")
    with pytest.raises(NotFound):
        review_cmd.revert(c.store, wrong, [], STAFF)


def test_history_rebuilt_from_the_events_equals_the_live_one(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    account_id, _ = owner(c)
    made = live_listing(c, "Rebuild History", account_id)
    spam = listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "Spam", "faqs": [{"question": "Q", "answer": "A"}]},
                                    owner_meta(account_id, 1))
    _, added = listing_cmd.add_milestone(c.store, made.listing_id, {"date": "2026-05-01", "title": "One"},
                                         owner_meta(account_id, 2))
    listing_cmd.delete_milestone(c.store, made.listing_id, 1, owner_meta(account_id, 3))
    listing_cmd.post_update(c.store, made.listing_id, "News", "We shipped.", owner_meta(account_id, 4))
    _, spam_update = listing_cmd.post_update(c.store, made.listing_id, "Pills", "Cheap pills.", owner_meta(account_id, 5))
    sync(c)
    review_cmd.revert(c.store, ref(c, spam), ["tagline"], STAFF)
    review_cmd.accept(c.store, ref(c, added), STAFF)
    review_cmd.remove_update(c.store, ref(c, spam_update), "Advertises pills", STAFF)
    sync(c)
    before = _versions(c)
    assert len(before) >= 9
    status = c.runtime.rebuild("history_view")
    assert status.generation == 2
    assert _versions(c) == before


def test_staff_remove_an_update_and_it_leaves_every_public_read_also_after_a_rebuild(container) -> None:  # type: ignore[no-untyped-def]
    from queries import updates as updates_q

    c = container
    account_id, _ = owner(c)
    made = live_listing(c, "Removed Update", account_id)
    _, kept = listing_cmd.post_update(c.store, made.listing_id, "Kept", "Real news.", owner_meta(account_id, 1))
    _, spam = listing_cmd.post_update(c.store, made.listing_id, "Spam", "Cheap pills.", owner_meta(account_id, 2))
    sync(c)
    created = history_q.history(c.services.reads, made.slug, Paging())["items"][-1]
    with pytest.raises(Conflict, match="posted no update"):
        review_cmd.remove_update(c.store, ref(c, created["version_id"]), "Not an update", STAFF)
    with pytest.raises(InvalidInput):
        review_cmd.remove_update(c.store, ref(c, spam), "no", STAFF)
    done = review_cmd.remove_update(c.store, ref(c, spam), "Advertises pills", STAFF)
    assert done.recorded and not review_cmd.remove_update(c.store, ref(c, spam), "Again", STAFF).recorded

    def shown() -> tuple[list[str], list[str], str, str]:
        sync(c)
        c.runtime.catch_up("updates_view")
        feed = updates_q.latest_updates(c.services.reads, Paging(page=1, per_page=50))["items"]
        removed, posted = history_q.version(c.services.reads, spam), history_q.version(c.services.reads, done.position)
        return ([u["title"] for u in profile(c, made.slug)["latest_updates"]],
                [u["title"] for u in feed if u["listing_id"] == made.listing_id], removed["review"], posted["kind"])

    assert shown() == (["Kept"], ["Kept"], "removed", "update_removed")
    assert history_q.version(c.services.reads, kept)["review"] == "pending"  # the other update still waits
    for view in ("listing_view", "updates_view", "history_view"):
        c.runtime.rebuild(view)
    assert shown() == (["Kept"], ["Kept"], "removed", "update_removed")


def test_audit_reads_every_event_with_who_and_when_through_filters(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    account_id, email = owner(c)
    made = live_listing(c, "Audit Trail", account_id)
    edit = listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "Edited"},
                                    owner_meta(account_id, 60 * 24 * 365 * 3))  # later than anything else
    other = live_listing(c, "Audit Other", account_id)
    listing_cmd.edit_listing(c.store, other.listing_id, {"tagline": "Elsewhere"}, owner_meta(account_id, 5))
    sync(c)
    reads = c.services.reads

    mine = audit_q.audit(reads, audit_q.AuditFilter(listing="audit-trail"))
    types = [i["type"] for i in mine["items"]]
    assert types[0] == "ListingEdited" and types[-1] == "ListingCreated" and "ListingPublishedByStaff" in types
    assert {i["listing"] for i in mine["items"]} == {"audit-trail"} and mine["next_before"] is None
    first = mine["items"][0]
    assert (first["position"], first["actor"], first["channel"], first["via"]) == (
        edit, f"account:{account_id}", "rest", "api_key:k1")
    assert first["data"]["changes"] == {"tagline": "Edited"} and first["at"] == AT + timedelta(days=365 * 3)
    assert first["actor_email"] == email

    by_actor = audit_q.audit(reads, audit_q.AuditFilter(actor=email.upper()))
    assert [i["data"]["changes"]["tagline"] for i in by_actor["items"]] == ["Elsewhere", "Edited"]
    staff = audit_q.audit(reads, audit_q.AuditFilter(actor="ops@example.com", type="ListingCreated", limit=1))
    assert [i["listing"] for i in staff["items"]] == ["audit-other"] and staff["next_before"] is not None
    older = audit_q.audit(reads, audit_q.AuditFilter(actor="ops@example.com", type="ListingCreated", limit=1,
                                                     before=staff["next_before"]))
    assert [i["listing"] for i in older["items"]] == ["audit-trail"]
    since = audit_q.audit(reads, audit_q.AuditFilter(since=AT + timedelta(days=365 * 3 - 1)))
    assert [i["position"] for i in since["items"]] == [edit]

    registered = audit_q.audit(reads, audit_q.AuditFilter(type="AccountRegistered", limit=1000))
    assert registered["items"] and all(i["data"].get("password_hash") in (None, "[hidden]") for i in registered["items"])
    with pytest.raises(InvalidInput):
        audit_q.audit(reads, audit_q.AuditFilter(type="NoSuchEvent"))
    with pytest.raises(NotFound):
        audit_q.audit(reads, audit_q.AuditFilter(listing="no-such-listing"))


def _versions(c: Any) -> list[tuple[Any, ...]]:
    t = c.runtime.tables("history_view")
    with c.pool.connection() as conn:
        versions = conn.execute(f"SELECT * FROM {t['versions']} ORDER BY version_id").fetchall()
        listings = conn.execute(f"SELECT * FROM {t['listings']} ORDER BY listing_id").fetchall()
        milestones = conn.execute(f"SELECT * FROM {t['milestones']} ORDER BY listing_id, milestone_id").fetchall()
    return [*versions, *listings, *milestones]
