"""Launch weeks run Monday to Sunday in the site's one timezone; a week is named by its Monday."""

from __future__ import annotations

from datetime import date, timedelta


def monday_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week_of(day: date) -> str:
    """The week containing `day`, as its Monday in ISO form."""
    return monday_of(day).isoformat()


def weeks_after(day: date, n: int) -> str:
    """The Monday `n` weeks after the week containing `day`."""
    return (monday_of(day) + timedelta(weeks=n)).isoformat()


def is_monday(value: str) -> bool:
    try:
        return date.fromisoformat(value).weekday() == 0
    except ValueError:
        return False
