"""Country names for stored two-letter codes: the common name, either case, unknown codes kept as given."""

from __future__ import annotations

from events.countries import countries, country_name


def test_a_code_is_shown_by_its_common_name() -> None:
    assert country_name("EE") == "Estonia"
    assert country_name("de") == "Germany"  # the API takes either case
    assert country_name("KR") == "South Korea"  # not ISO's "Korea, Republic of"
    assert country_name("GB") == "United Kingdom"


def test_what_is_not_a_known_code_is_shown_as_it_is() -> None:
    assert country_name("ZZ") == "ZZ"  # two letters, as the API's rule allows, but no country
    assert country_name("") == ""
    assert country_name(None) == ""


def test_the_menu_lists_every_country_once_by_name() -> None:
    menu = countries()
    codes = [code for code, _ in menu]
    names = [name for _, name in menu]
    assert len(codes) == len(set(codes)) > 240
    assert names == sorted(names)
    assert ("DE", "Germany") in menu and ("US", "United States") in menu
    assert all(len(code) == 2 and code.isupper() for code in codes)
