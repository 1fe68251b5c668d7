"""The country a town's name alone says (workers/drafting/gazetteer.py)."""

from __future__ import annotations

from workers.drafting.gazetteer import town_countries, town_country


def test_a_town_of_one_country_or_one_that_dominates_names_its_country() -> None:
    assert town_country("Gijón") == "ES"
    assert town_country("Aberystwyth") == "GB"
    assert town_country("Tucson") == "US"
    assert town_country("Paris") == "FR"  # the towns elsewhere are small beside it


def test_towns_of_several_countries_of_similar_size_stay_unsaid_unless_the_region_says() -> None:
    assert town_country("Victoria") is None  # Hong Kong and British Columbia
    assert town_country("Córdoba") is None  # Argentina and Spain
    assert town_country("Concepción") is None
    assert town_country("Concepción", "cl") == "CL"
    assert town_country("Córdoba", "ES") == "ES"
    assert town_country("Córdoba", "DE") is None  # a region without such a town breaks no tie


def test_unknown_names_say_nothing() -> None:
    assert town_country("Mudgee") is None  # under 15,000 people
    assert town_country("Acme") is None
    assert town_countries("Hamilton") >= {"CA", "NZ"}
