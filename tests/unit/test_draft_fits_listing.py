"""The bounds a draft's values must meet to reach a listing, worded for the founder (commands/draft_listing.py)."""

from __future__ import annotations

import pytest

from commands.draft_listing import check_fits_listing
from events.errors import InvalidInput


def _refused(parts: dict[str, object]) -> list[tuple[str, str, str]]:
    with pytest.raises(InvalidInput) as caught:
        check_fits_listing(parts)
    return [(p.field, p.rule, p.message) for p in caught.value.problems]


def test_a_year_out_of_range_is_said_in_words_naming_the_bound() -> None:
    [(field, rule, message)] = _refused({"founded_year": 1700})
    assert (field, rule) == ("fields.founded_year", "minimum")
    assert message == "a listing's founded year is at least 1800 (this one is 1700); change it in the draft"
    [(_, rule, message)] = _refused({"founded_year": 2300})
    assert rule == "maximum" and "is at most 2100 (this one is 2300)" in message


def test_values_within_the_listing_s_bounds_pass() -> None:
    check_fits_listing({"founded_year": 2021, "tagline": "Invoices that chase themselves"})
