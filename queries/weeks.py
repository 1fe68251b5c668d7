"""Launch-week arithmetic for reads: weeks run Monday to Sunday in the site's one timezone.

A week is named by its Monday (`YYYY-MM-DD`). The write side has the same two
rules in `aggregates/weeks.py`; queries cannot import aggregates, so the few
lines live here too.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, tzinfo

from pydantic.config import JsonDict

from events.errors import FieldProblem, InvalidInput, NotFound

WEEK_TOKEN = r"^(this|next|last|\d{4}-\d{2}-\d{2})$"
PAST_WEEK_TOKEN = r"^(this|last|\d{4}-\d{2}-\d{2})$"
# The same tokens as declared in the schemas: a date must exist (year 0001..9999, leap days included), so
# the schema accepts exactly what `resolve_week` does and no `0000-00-00` looks valid to a client or a
# fuzzer. The server keeps the short patterns above, so a date that does not exist stays `format_date`.
_YEAR = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
_MONTH_DAY = ("(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
              "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
              "|02-(?:0[1-9]|1[0-9]|2[0-8]))")
_LEAP_DAY = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29"
CALENDAR_DATE = f"(?:{_YEAR}-{_MONTH_DAY}|{_LEAP_DAY})"
WEEK_SCHEMA: JsonDict = {"pattern": f"^(?:this|next|last|{CALENDAR_DATE})$"}
PAST_WEEK_SCHEMA: JsonDict = {"pattern": f"^(?:this|last|{CALENDAR_DATE})$"}
MAX_WEEKS_AHEAD = 52
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week_of(day: date) -> str:
    """The week containing `day`, as its Monday in ISO form."""
    return monday_of(day).isoformat()


def week_label(monday: date) -> str:
    """ISO week name, e.g. `2026-W47`."""
    year, number, _ = monday.isocalendar()
    return f"{year}-W{number:02d}"


def week_start(monday: date, tz: tzinfo) -> datetime:
    """The instant the week begins: Monday 00:00 in the site's timezone."""
    return datetime.combine(monday, time(0), tzinfo=tz)


def week_end(monday: date, tz: tzinfo) -> datetime:
    """The instant the week ends (exclusive): the next Monday 00:00 in the site's timezone."""
    return datetime.combine(monday + timedelta(days=7), time(0), tzinfo=tz)


def day_bounds(day: date, tz: tzinfo) -> tuple[datetime, datetime]:
    """Start (inclusive) and end (exclusive) of a calendar day in the site's timezone."""
    return datetime.combine(day, time(0), tzinfo=tz), datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)


def resolve_week(token: str, today: date, field: str = "week") -> date:
    """`this`, `next`, `last` or a date (snapped to its Monday); a date that does not exist is a 400."""
    this = monday_of(today)
    if token == "this":
        return this
    if token == "next":
        return this + timedelta(weeks=1)
    if token == "last":
        return this - timedelta(weeks=1)
    if not _DATE.match(token):
        raise InvalidInput(f"invalid value for: {field}", [FieldProblem(field, "pattern", "this, next, last or YYYY-MM-DD")])
    try:
        return monday_of(date.fromisoformat(token))
    except ValueError:
        raise InvalidInput(f"invalid value for: {field}", [FieldProblem(field, "format_date", "not a calendar date")]) from None


def check_in_range(monday: date, first_week: date | None, today: date) -> None:
    """Weeks from the directory's first week (or last week, if earlier) to a year ahead exist; others are 404."""
    this = monday_of(today)
    earliest = min(first_week or this, this - timedelta(weeks=1))
    latest = this + timedelta(weeks=MAX_WEEKS_AHEAD)
    if monday < earliest or monday > latest:
        raise NotFound(f"no launch week {monday.isoformat()}: weeks run from {earliest.isoformat()} to {latest.isoformat()}")
