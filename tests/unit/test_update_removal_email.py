"""The email the owners of a listing get when staff removed one of its updates: which update, why, whom to write to."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from aggregates import listing
from aggregates.base import Meta
from commands.review import removal_email
from commands.site import Site
from events.listing import ListingUpdatePosted
from tests.unit.test_review_decider import given


def _posted(title: str, at: datetime) -> ListingUpdatePosted:
    (posted,) = listing.decide_post_update(given(), title, "Body.", Meta(at=at, actor="account:a", channel="web"))
    assert isinstance(posted, ListingUpdatePosted)
    return posted


def test_the_mail_names_the_update_by_title_and_day_the_reason_and_the_contact_address() -> None:
    posted = _posted("Big   news\ttoday", datetime(2026, 12, 3, 9, 30, tzinfo=timezone.utc))
    subject, text = removal_email("Acme", posted, "Advertises pills", Site("Shipyard", "team@shipyard.example"))
    assert subject == "An update of Acme was removed from Shipyard"
    assert text.startswith("Hello,\n\nThe Shipyard team removed an update of Acme from its listing: "
                           '"Big news today", posted on 3 December 2026. The reason given: Advertises pills\n\n')
    assert "If you think this is a mistake, write to team@shipyard.example and name Acme" in text
    assert "unsubscribe" not in text.lower()  # about one's own listing, as the other owners' notices


def test_the_day_is_the_one_the_listing_page_shows_and_without_an_address_the_team_is_named() -> None:
    evening = datetime(2026, 12, 3, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # 4 December in UTC
    _, text = removal_email("Acme", _posted("News", evening), "Spam", Site("launchdir"))
    assert "posted on 4 December 2026." in text
    assert "If you think this is a mistake, contact the launchdir team and name Acme" in text


def test_a_long_product_name_keeps_the_subject_within_the_outbox_limit() -> None:
    from aggregates import mail

    subject, _ = removal_email("A" * 300, _posted("News", datetime(2026, 12, 3, tzinfo=timezone.utc)), "Spam",
                               Site("Shipyard"))
    assert len(subject) <= mail.SUBJECT_MAX
