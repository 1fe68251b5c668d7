"""Staff putting a listing back, and the launch week a staff command records: never text that is no date."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from aggregates import listing
from aggregates.base import Meta
from aggregates.listing import ListingState
from events.errors import Conflict, InvalidInput
from events.listing import ListingPublishedByStaff, ListingScheduled

META = Meta(at=datetime(2026, 12, 2, 9, tzinfo=timezone.utc), actor="staff:ops", channel="web")


def down(week: str | None, plan: str | None = "free") -> ListingState:
    return ListingState(id=listing.listing_stream(7), version=4, listing_id=7, slug="seven", status="unpublished",
                        week=week, plan=plan)


def test_put_back_is_live_once_its_week_has_begun_and_scheduled_before() -> None:
    [back] = listing.decide_put_back(down("2026-11-23", "paid"), "2026-11-30", META)
    assert isinstance(back, ListingPublishedByStaff) and (back.week, back.plan) == ("2026-11-23", "paid")
    [ahead] = listing.decide_put_back(down("2027-01-18"), "2026-11-30", META)
    assert isinstance(ahead, ListingScheduled) and (ahead.week, ahead.plan) == ("2027-01-18", "free")
    [no_week] = listing.decide_put_back(down(None, None), "2026-11-30", META)
    assert isinstance(no_week, ListingPublishedByStaff) and no_week.week == "2026-11-30"
    with pytest.raises(Conflict):
        listing.decide_put_back(replace(down("2026-11-23"), status="live"), "2026-11-30", META)


@pytest.mark.parametrize("week", ["garbage", "2026-11-31", "", "30.11.2026"])
def test_a_staff_publish_week_that_is_no_date_is_refused(week: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        listing.decide_staff_publish(down("2026-11-23"), week, "free", META)
    assert caught.value.problems[0].field == "week"


def test_a_staff_publish_week_is_its_monday_and_the_plan_is_free_or_paid() -> None:
    [published] = listing.decide_staff_publish(down(None), "2026-12-03", "paid", META)
    assert isinstance(published, ListingPublishedByStaff) and published.week == "2026-11-30"
    with pytest.raises(InvalidInput):
        listing.decide_staff_publish(down(None), "2026-12-03", "gold", META)
