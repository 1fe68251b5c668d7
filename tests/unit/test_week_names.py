"""How the website names a launch week and a month to people (`events/week_names.py`)."""

from __future__ import annotations

from datetime import date

from events.week_names import month_name, week_name


def plain(name: str) -> str:
    """As read: the no-break spaces are spaces, the word joiner is not seen."""
    return name.replace("\u00a0", " ").replace("\u2060", "")


def test_a_week_is_named_by_its_days_and_in_a_heading_by_its_number_too() -> None:
    assert plain(week_name("2026-11-30")) == "30 Nov – 6 Dec 2026"
    assert plain(week_name("2026-11-30", "long")) == "Week 49, 2026 (30 Nov – 6 Dec)"
    assert plain(week_name("2026-12-07")) == "7–13 Dec 2026"
    assert plain(week_name("2026-12-07", "long")) == "Week 50, 2026 (7–13 Dec)"


def test_a_week_across_two_years_names_both() -> None:
    assert plain(week_name("2026-12-28")) == "28 Dec 2026 – 3 Jan 2027"
    assert plain(week_name("2025-12-29", "long")) == "Week 1, 2026 (29 Dec 2025 – 4 Jan 2026)"


def test_any_day_of_the_week_and_its_iso_code_name_the_same_week() -> None:
    assert week_name(date(2026, 12, 3)) == week_name("2026-12-06") == week_name("2026-W49") == week_name("2026-11-30")


def test_a_value_that_names_no_week_is_shown_as_it_is() -> None:
    assert week_name("soon") == "soon" and week_name(None) == "" and week_name("2026-02-30") == "2026-02-30"


def test_a_line_breaks_only_beside_the_dash_between_two_months() -> None:
    assert week_name("2026-12-07") == "7–\u206013\u00a0Dec\u00a02026"
    assert week_name("2026-11-30").split(" ") == ["30\u00a0Nov\u00a0–", "6\u00a0Dec\u00a02026"]


def test_a_month_is_said_in_words() -> None:
    assert month_name("2026-10") == "October 2026" and month_name("2027-01") == "January 2027"
    assert month_name("2026-13") == "2026-13" and month_name("") == "" and month_name(None) == ""
