"""A founder's `title` reads "Role" in a version's changes; a moment reads "4 Dec 2026, 17:19 UTC" on the pages."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from api.field_labels import key_label
from api.web_diff import Segment, diff, field_diffs
from api.web_pages import moment_words
from api.web_my_listing_posts import shows_when

NBSP = "\u00a0"


def test_a_founders_title_reads_as_the_editor_names_it_and_other_titles_stay_titles() -> None:
    founder = {"name": "Ada", "title": "CEO", "bio": "Wrote the first program."}
    changed = field_diffs({"founders": {"before": [], "after": [founder]}})
    assert changed[0].after == [Segment("ins", "Name: Ada\nRole: CEO\nBio: Wrote the first program.\n")]
    edited = diff("founders", [founder], [{**founder, "title": "CTO"}])
    assert Segment("del", "Role: CEO\n") in edited.before and Segment("ins", "Role: CTO\n") in edited.after
    milestone = diff("milestones", [], [{"title": "First customer", "date": "2024-03-01"}])
    assert milestone.after == [Segment("ins", "Title: First customer\nDate: 2024-03-01\n")]
    update = field_diffs({"updates": {"before": None, "after": {"title": "Version 2", "body": "Faster."}}})
    assert update[0].after == [Segment("ins", "Title: Version 2\nText: Faster.\n")]
    story = diff("story", None, {"title": "How it began"})
    assert story.after == [Segment("ins", "Title: How it began\n")]
    assert key_label("title") == "Title" and key_label("title", "founders") == "Role"


def test_a_moment_reads_with_its_day_in_words_its_time_and_the_sites_timezone() -> None:
    at = datetime(2026, 12, 4, 17, 19, 42, tzinfo=timezone.utc)
    assert moment_words(at, ZoneInfo("UTC")) == f"4{NBSP}Dec{NBSP}2026, 17:19{NBSP}UTC"
    # in the site's timezone, named by the abbreviation of the moment (winter and summer time differ)
    assert moment_words(at, ZoneInfo("Europe/Tallinn")) == f"4{NBSP}Dec{NBSP}2026, 19:19{NBSP}EET"
    summer = datetime(2026, 7, 31, 22, 5, tzinfo=timezone.utc)
    assert moment_words(summer, ZoneInfo("Europe/Tallinn")) == f"1{NBSP}Aug{NBSP}2026, 01:05{NBSP}EEST"
    assert "2026-12-04" not in moment_words(at, ZoneInfo("UTC"))


def test_an_update_of_a_listing_not_live_yet_says_when_it_shows() -> None:
    assert shows_when({"status": "live", "launch_week": "2026-12-07"}) is None
    assert shows_when({"status": "unpublished", "launch_week": None}) is None
    scheduled = shows_when({"status": "scheduled", "launch_week": "2026-12-07"})
    assert scheduled is not None and scheduled.startswith("when the listing goes live (Week")
    assert "50, 2026" in scheduled and "Dec" in scheduled
    assert shows_when({"status": "draft", "launch_week": None}) == "when the listing goes live"
    badge = shows_when({"status": "awaiting_badge", "launch_week": "2026-12-07"})
    assert badge is not None and badge.endswith("once your badge is found on your homepage")
