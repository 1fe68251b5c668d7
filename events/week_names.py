"""How the site names a launch week and a month to people: "30 Nov – 6 Dec 2026", "October 2026".

Machines name a week by its Monday (`2026-11-30`, in addresses, form values, the API and MCP) or by its ISO code
(`2026-W49`, the API's `label`); a person reads neither. Every page shows a week through `week_name`, so a week
has one name wherever it appears: its days, and in a heading its number too ("Week 49, 2026 (30 Nov – 6 Dec)").
A month the API keeps as `2026-10` is shown as "October 2026" (`month_name`). The names are English, as the
rest of the site is, whatever the server's locale. A line may break only beside the dash between two days of
different months: a day keeps its month and year (no-break spaces), and "7–13" keeps together (a word joiner),
so a card on a phone never reads "Launching 7–" above "13 Dec 2026". Mails name weeks the same way
(`plain=True`: ordinary spaces, for plain-text mail), so a founder reads one name on the page and in the inbox.
It lives with the events' shared vocabulary because pages (`api/`) and mails (`commands/`) both use it.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
NBSP, JOIN = "\u00a0", "\u2060"  # a space and a dash no line breaks at
_ISO_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def monday_of_week(value: date | str | None) -> date | None:
    """The Monday of the week `value` names: a date (or `YYYY-MM-DD`, any day of the week) or `YYYY-Www`; None else."""
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        return value - timedelta(days=value.weekday())
    text = str(value or "").strip()
    try:
        if found := _ISO_WEEK.match(text):
            return date.fromisocalendar(int(found[1]), int(found[2]), 1)
        day = date.fromisoformat(text[:10])
    except ValueError:
        return None
    return day - timedelta(days=day.weekday())


def _day(d: date, year: bool) -> str:
    return f"{d.day}{NBSP}{MONTHS[d.month - 1][:3]}" + (f"{NBSP}{d.year}" if year else "")


def _days(monday: date, year: bool) -> str:
    """Monday to Sunday: "2–8 Nov", "30 Nov – 6 Dec", "28 Dec 2026 – 3 Jan 2027" (years only when asked or mixed)."""
    sunday = monday + timedelta(days=6)
    if monday.year != sunday.year:
        return f"{_day(monday, True)}{NBSP}– {_day(sunday, True)}"
    if monday.month == sunday.month:
        return f"{monday.day}–{JOIN}{_day(sunday, year)}"
    return f"{_day(monday, False)}{NBSP}– {_day(sunday, year)}"


def week_name(value: date | str | None, form: str = "short", plain: bool = False) -> str:
    """The week's name for people: "30 Nov – 6 Dec 2026" (`short`: running text, cards, tables, menus) or
    "Week 49, 2026 (30 Nov – 6 Dec)" (`long`: headings and the places that name one week on their own).

    A value that names no week is shown as it is, so a page never fails on one. `plain` writes ordinary
    spaces and no joiners (plain-text mail wraps as the reader's program likes).
    """
    monday = monday_of_week(value)
    if monday is None:
        return str(value or "")
    if form != "long":
        name = _days(monday, year=True)
    else:
        year, number, _ = monday.isocalendar()
        name = f"Week{NBSP}{number}, {year} ({_days(monday, year=False)})"
    return name.replace(NBSP, " ").replace(JOIN, "") if plain else name


def week_number_name(value: date | str | None) -> str:
    """The week's number and year only, "Week 49, 2026": the head of the long name, for a badge's small line."""
    monday = monday_of_week(value)
    if monday is None:
        return str(value or "")
    year, number, _ = monday.isocalendar()
    return f"Week {number}, {year}"


def month_name(value: str | None) -> str:
    """`2026-10` -> "October 2026"; anything else as it is."""
    text = str(value or "")
    found = _MONTH.match(text.strip())
    if found is None or not 1 <= int(found[2]) <= 12:
        return text
    return f"{MONTHS[int(found[2]) - 1]} {found[1]}"
