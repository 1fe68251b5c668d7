"""Staff removing an owner's update, followed through, against real PostgreSQL: the owners are mailed once (also
when two server processes remove it at once), `launchdir staff remove-update` does it from the command line, and
the listing's latest updates bring the next older update back (also after a rebuild of `listing_view`)."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any
from uuid import uuid4

import pytest
from click.testing import CliRunner, Result

from aggregates import listing
from commands import account as account_cmd
from commands import catalog as catalog_cmd
from commands import listing as listing_cmd
from commands import review as review_cmd
from commands.site import Site
from events.listing import ListingUpdateRemoved
from launchdir.cli import main
from projections import listing_view
from queries import history as history_q
from queries import mail as mail_q
from queries.paging import Paging
from tests.conftest import test_settings as settings_for
from tests.integration.test_history_review import AT, STAFF, live_listing, owner, owner_meta, profile, ref, sync


def _unconfirmed(c: Any) -> tuple[str, str]:
    email = f"unconfirmed-{uuid4().hex[:8]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=email, password=None, verified=False)
    registered = account_cmd.register_account(c.store, cmd, STAFF, None)
    assert registered.account_id is not None
    return registered.account_id, email


def _with_owners(c: Any, name: str, owners: list[str]) -> listing_cmd.Created:
    made = live_listing(c, name, owners[0])
    for other in owners[1:]:
        c.store.decide(listing.listing_stream(made.listing_id), listing,
                       lambda s, who=other: listing.decide_add_owner(s, who, STAFF))
    return made


def _mails(c: Any, address: str) -> list[dict[str, Any]]:
    c.runtime.catch_up("mail_view")
    return [m for m in mail_q.outbox(c.services.reads, to=address) if m["kind"] == review_cmd.REMOVED_KIND]


def _latest(c: Any, slug: str) -> list[str]:
    return [u["title"] for u in profile(c, slug)["latest_updates"]]


# ---------------------------------------------------------------- the owners are told


def test_each_owner_with_a_confirmed_address_is_mailed_the_update_the_reason_and_whom_to_write_to(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    (founder, founder_email), (cofounder, cofounder_email) = owner(c), owner(c)
    unconfirmed, unconfirmed_email = _unconfirmed(c)
    made = _with_owners(c, "Pillbox Notes", [founder, cofounder, unconfirmed])
    _, spam = listing_cmd.post_update(c.store, made.listing_id, "Cheap   pills", "Buy at pills.example",
                                      owner_meta(founder, 60 * 24 * 3))  # posted on 21 November 2026
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(
        changes={"name": "Shipyard", "contact_email": "team@shipyard.example"}), STAFF)
    sync(c)

    done = review_cmd.remove_update(c.store, ref(c, spam), "  Advertises   counterfeit medicine ", STAFF)
    assert done.recorded and done.mailed == 2
    [told] = _mails(c, founder_email)
    assert len(_mails(c, cofounder_email)) == 1 and _mails(c, unconfirmed_email) == []
    assert told["subject"] == "An update of Pillbox Notes was removed from Shipyard"
    text = told["text"]
    assert 'from its listing: "Cheap pills", posted on 21 November 2026.' in text
    assert "The reason given: Advertises counterfeit medicine" in text
    assert "write to team@shipyard.example and name Pillbox Notes" in text
    assert told["account_id"] == founder
    sync(c)  # the position returned is the removal's own version, as for the other reviews
    assert history_q.version(c.services.reads, done.position)["kind"] == "update_removed"

    again = review_cmd.remove_update(c.store, ref(c, spam), "Still spam", STAFF)  # pressed twice: nothing more
    assert not again.recorded and again.mailed == 0
    assert len(_mails(c, founder_email)) == 1 and len(_mails(c, cofounder_email)) == 1


def test_without_a_contact_address_the_mail_names_the_site_s_team_and_nobody_unconfirmed_is_mailed(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    unconfirmed, unconfirmed_email = _unconfirmed(c)
    made = _with_owners(c, "Quiet Owners", [unconfirmed])
    _, posted = listing_cmd.post_update(c.store, made.listing_id, "Hello", "News.", owner_meta(unconfirmed, 5))
    sync(c)
    done = review_cmd.remove_update(c.store, ref(c, posted), "Off topic", STAFF)
    assert done.recorded and done.mailed == 0 and _mails(c, unconfirmed_email) == []
    subject, text = review_cmd.removal_email("Quiet Owners", c.store.stream(listing.listing_stream(made.listing_id))[-2],
                                             "Off topic", Site("launchdir"))
    assert subject == "An update of Quiet Owners was removed from launchdir"
    assert "contact the launchdir team and name Quiet Owners" in text


def test_two_server_processes_removing_one_update_at_once_record_it_once_and_mail_each_owner_once(  # type: ignore[no-untyped-def]
        container, fresh_db: str) -> None:
    from launchdir.bootstrap import bootstrap

    c = container
    (founder, founder_email), (cofounder, cofounder_email) = owner(c), owner(c)
    made = _with_owners(c, "Raced Removal", [founder, cofounder])
    _, spam = listing_cmd.post_update(c.store, made.listing_id, "Spam", "Pills.", owner_meta(founder, 2))
    sync(c)
    version = ref(c, spam)
    other = bootstrap(settings_for(fresh_db))  # a second process: its own store and connections
    try:
        start = threading.Barrier(2)
        results: list[review_cmd.Reviewed] = []

        def remove(store: Any, reason: str) -> None:
            start.wait()
            results.append(review_cmd.remove_update(store, version, reason, STAFF))

        threads = [threading.Thread(target=remove, args=(s, r)) for s, r in ((c.store, "Spam, one"),
                                                                              (other.store, "Spam, two"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        other.close()
    assert sorted(r.recorded for r in results) == [False, True]
    assert sum(r.mailed for r in results) == 2
    removals = [e for e in c.store.stream(listing.listing_stream(made.listing_id)) if isinstance(e, ListingUpdateRemoved)]
    assert len(removals) == 1
    assert len(_mails(c, founder_email)) == 1 and len(_mails(c, cofounder_email)) == 1
    assert _mails(c, founder_email)[0]["text"].count(removals[0].reason) == 1


# ---------------------------------------------------------------- the listing's latest updates


def test_a_removed_update_among_the_latest_makes_room_for_the_next_older_one_also_after_a_rebuild(  # type: ignore[no-untyped-def]
        container, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing_view, "OLDER_UPDATES_PAGE", 2)  # the stream is read back over several pages
    c = container
    founder, _ = owner(c)
    made = live_listing(c, "Many Updates", founder)
    versions = {}
    for n in range(1, 9):
        update_id, versions[n] = listing_cmd.post_update(c.store, made.listing_id, f"Update {n}", f"Body {n}.",
                                                         owner_meta(founder, n))
        assert update_id == n
    sync(c)
    assert _latest(c, made.slug) == ["Update 8", "Update 7", "Update 6", "Update 5", "Update 4"]

    review_cmd.remove_update(c.store, ref(c, versions[7]), "Spam", STAFF)
    assert _latest(c, made.slug) == ["Update 8", "Update 6", "Update 5", "Update 4", "Update 3"]
    doc = profile(c, made.slug)["latest_updates"][-1]
    assert (doc["update_id"], doc["body"]) == (3, "Body 3.")
    assert doc["posted_at"] == (AT + timedelta(minutes=3)).isoformat()  # as it was when posted

    review_cmd.remove_update(c.store, ref(c, versions[1]), "Spam", STAFF)  # not shown: nothing moves
    assert _latest(c, made.slug) == ["Update 8", "Update 6", "Update 5", "Update 4", "Update 3"]

    _, versions[9] = listing_cmd.post_update(c.store, made.listing_id, "Update 9", "Body 9.", owner_meta(founder, 9))
    sync(c)
    review_cmd.remove_update(c.store, ref(c, versions[9]), "Spam", STAFF)  # two removals in one batch
    review_cmd.remove_update(c.store, ref(c, versions[8]), "Spam", STAFF)
    expected = ["Update 6", "Update 5", "Update 4", "Update 3", "Update 2"]
    assert _latest(c, made.slug) == expected

    c.runtime.rebuild("listing_view")  # each removal reads only what came before it
    assert _latest(c, made.slug) == expected
    for n in (6, 5, 4, 3, 2):
        review_cmd.remove_update(c.store, ref(c, versions[n]), "Spam", STAFF)
    assert _latest(c, made.slug) == []


def test_other_events_do_not_read_the_log(container, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    c = container
    founder, _ = owner(c)
    made = live_listing(c, "Quiet Log", founder)
    reads: list[Any] = []
    log = c.runtime.events
    newest = log.newest

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(args)
        return newest(*args, **kwargs)

    monkeypatch.setattr(log, "newest", counted)
    for n in range(1, 8):
        listing_cmd.post_update(c.store, made.listing_id, f"Update {n}", "Body.", owner_meta(founder, n))
    listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "Edited"}, owner_meta(founder, 9))
    sync(c)
    assert reads == []  # posting and editing keep only what is shown
    c.runtime.rebuild("listing_view")
    assert reads == []
    shown = history_q.history(c.services.reads, made.slug, Paging(page=1, per_page=20))["items"][1]
    review_cmd.remove_update(c.store, ref(c, shown["version_id"]), "Spam", STAFF)  # the newest, shown: it reads
    sync(c)
    assert reads and _latest(c, made.slug) == ["Update 6", "Update 5", "Update 4", "Update 3", "Update 2"]


# ---------------------------------------------------------------- the command line


def _run(c: Any, *args: str) -> Result:
    return CliRunner(env={"LAUNCHDIR_STAFF": "ops@example.com"}).invoke(main, ["staff", "remove-update", *args], obj=c)


def test_launchdir_staff_remove_update_says_what_it_did_and_refuses_cleanly(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    founder, founder_email = owner(c)
    made = live_listing(c, "Cli Removal", founder)
    listing_cmd.post_update(c.store, made.listing_id, "Kept", "Real news.", owner_meta(founder, 1))
    listing_cmd.post_update(c.store, made.listing_id, "Pills", "Cheap pills.", owner_meta(founder, 2))

    done = _run(c, made.slug, "2", "--reason", "Advertises pills", "--actor", "lee@example.com")
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == f'{made.slug}: update 2 ("Pills") removed; 1 owner mailed the reason'
    [told] = _mails(c, founder_email)
    assert '"Pills"' in told["text"] and "Advertises pills" in told["text"]
    removal = c.store.stream(listing.listing_stream(made.listing_id))[-1]
    assert isinstance(removal, ListingUpdateRemoved) and removal.update_id == 2
    assert (removal.actor, removal.channel, removal.via) == ("staff:lee@example.com", "cli", "staff")
    assert _latest(c, made.slug) == ["Kept"]

    again = _run(c, made.slug, "2", "--reason", "Advertises pills")
    assert again.exit_code == 3 and "Traceback" not in again.output
    assert f'nothing changed: update 2 of {made.slug} ("Pills") was removed already; nobody was mailed' in again.output
    assert len(_mails(c, founder_email)) == 1

    for args, said in ((("no-such-listing", "1"), "no listing with the slug 'no-such-listing'"),
                       ((made.slug, "9"), f"{made.slug} has no update 9"),
                       ((made.slug, "1"), "Give a reason of 3 to 500 characters")):
        refused = _run(c, *args, "--reason", "no" if args[1] == "1" and args[0] == made.slug else "Spam here")
        assert refused.exit_code == 1 and said in refused.output and "Traceback" not in refused.output, refused.output
    assert _latest(c, made.slug) == ["Kept"]
    missing = CliRunner().invoke(main, ["staff", "remove-update", made.slug, "1"], obj=c)
    assert missing.exit_code == 2 and "--reason" in missing.output
