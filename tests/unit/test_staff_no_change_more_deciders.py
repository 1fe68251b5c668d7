"""Staff decisions that would change nothing decide no events (so the doors can say "nothing changed"):
the staff role granted twice or revoked from a non-staff account, a blog post published twice or unpublished while
down, a founder edit or a site setting that holds the value already. Given/when/then, no database."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import reduce
from typing import Any
from uuid import UUID

from aggregates import account, catalog, content
from aggregates.base import Meta
from events.account import AccountStaffGranted, AccountStaffRevoked
from events.catalog import SiteSettingsChanged
from events.content import BlogPostPublished, BlogPostUnpublished, FounderProfileEdited

META = Meta(at=datetime(2026, 11, 18, 12, tzinfo=timezone.utc), actor="staff:ops", channel="cli", via="staff")
ID = UUID("00000000-0000-4000-8000-0000000000aa")


def _fold(evolve: Any, state: Any, *decisions: list[Any]) -> Any:
    return reduce(lambda s, e: evolve(e, s), [e for d in decisions for e in d], state)


def test_granting_staff_twice_and_revoking_from_someone_not_staff_decide_nothing() -> None:
    person = _fold(account.evolve, account.initial(ID),
                   account.decide_register(account.initial(ID), "grace@example.com", "hash", META, verified=True))
    assert account.decide_revoke_staff(person, META, staff_accounts=1) == []  # not staff: nothing to take away
    (granted,) = account.decide_grant_staff(person, META)
    assert isinstance(granted, AccountStaffGranted) and granted.actor == "staff:ops"
    staff = _fold(account.evolve, person, [granted])
    assert account.decide_grant_staff(staff, META) == []  # staff already
    (revoked,) = account.decide_revoke_staff(staff, META, staff_accounts=2)
    assert isinstance(revoked, AccountStaffRevoked)
    assert account.decide_revoke_staff(_fold(account.evolve, staff, [revoked]), META, staff_accounts=1) == []


def test_publishing_a_published_post_and_unpublishing_a_down_one_decide_nothing() -> None:
    start = content.initial_post(content.post_stream("hello"))
    written = _fold(content.evolve, start,
                    content.decide_write_post(start, "hello", {"title": "Hello", "markdown": "# Hi"}, META))
    assert content.decide_unpublish_post(written, META) == []  # written, never published
    (published,) = content.decide_publish_post(written, META)
    assert isinstance(published, BlogPostPublished)
    live = _fold(content.evolve, written, [published])
    assert content.decide_publish_post(live, META) == []
    (pulled,) = content.decide_unpublish_post(live, META)
    assert isinstance(pulled, BlogPostUnpublished)
    assert content.decide_unpublish_post(_fold(content.evolve, live, [pulled]), META) == []
    assert content.decide_revise_post(written, {"title": "Hello"}, META) == []  # the title it has


def test_a_founder_edit_that_changes_no_field_decides_nothing() -> None:
    start = content.initial_founder(content.founder_stream("ada"))
    ada = _fold(content.evolve, start, content.decide_create_founder(
        start, "ada", {"name": "Ada Lovelace", "country": "GB", "socials": {"x": "https://x.com/ada"}}, META))
    assert content.decide_edit_founder(ada, {"name": "Ada Lovelace"}, META) == []
    assert content.decide_edit_founder(ada, {"country": "gb"}, META) == []  # stored upper case: the same country
    assert content.decide_edit_founder(ada, {"socials": {"x": "https://x.com/ada"}}, META) == []
    (edited,) = content.decide_edit_founder(ada, {"name": "Ada Lovelace", "bio": "Wrote the first program."}, META)
    assert isinstance(edited, FounderProfileEdited) and edited.changes == {"bio": "Wrote the first program."}


def test_a_site_setting_set_to_its_value_decides_nothing() -> None:
    state = catalog.initial()
    assert catalog.decide_change_site(state, {"free_queue_min_weeks": 6}, META) == []  # the default
    (changed,) = catalog.decide_change_site(state, {"purpose": "Made by staff"}, META)
    assert isinstance(changed, SiteSettingsChanged)
    after = catalog.evolve(changed, state)
    assert catalog.decide_change_site(after, {"purpose": "Made by staff"}, META) == []
