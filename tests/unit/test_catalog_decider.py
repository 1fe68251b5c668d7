"""Given/when/then on the Catalog decider: no database, no clock."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import reduce

import pytest

from aggregates import catalog
from aggregates.base import Meta
from events.catalog import CategoryAdded, ProductAdded, ProductChanged, ProductPriceSet, SiteSettingsChanged
from events.errors import InvalidInput, NotFound

META = Meta(at=datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc), actor="staff:ada", channel="cli")
SPEC = {
    "site": {"name": "Launchpad", "free_queue_min_weeks": 6, "free_queue_max_weeks": 8},
    "categories": [
        {"slug": "dev", "name": "Developer Tools"},
        {"slug": "apis", "name": "APIs", "parent": "dev"},
    ],
    "products": [
        {"code": "launch", "name": "Launch", "price_cents": 4900, "needs_listing": True},
        {"code": "skip_queue", "name": "Skip", "price_cents": 2900, "week_window": [1, 5]},
    ],
    "interview_questions": [{"id": 1, "text": "Why?"}],
}


def given(*decisions: list) -> catalog.CatalogState:  # type: ignore[type-arg]
    events = [e for d in decisions for e in d]
    return reduce(lambda s, e: catalog.evolve(e, s), events, catalog.initial())


def test_loading_an_empty_catalogue_adds_everything_in_order() -> None:
    events = catalog.decide_load(catalog.initial(), SPEC, META)
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["CategoryAdded", "CategoryAdded", "ProductAdded", "ProductAdded", "InterviewQuestionAdded", "SiteSettingsChanged"]
    assert [e.originator_version for e in events] == [1, 2, 3, 4, 5, 6]
    assert all(e.actor == "staff:ada" and e.timestamp == META.at for e in events)
    state = given(events)
    assert state.categories["apis"].parent_slug == "dev"
    assert state.products["launch"].price_cents == 4900
    assert state.site["name"] == "Launchpad"


def test_reloading_the_same_file_changes_nothing() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    assert catalog.decide_load(state, SPEC, META) == []


def test_reloading_keeps_a_staff_price_unless_update_is_asked() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    state = reduce(lambda s, e: catalog.evolve(e, s), catalog.decide_set_price(state, "launch", 5900, META), state)
    assert catalog.decide_load(state, SPEC, META) == []
    events = catalog.decide_load(state, SPEC, META, update=True)
    assert [(type(e), getattr(e, "price_cents", None)) for e in events] == [(ProductPriceSet, 4900)]


def test_update_applies_changed_descriptions() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    changed = {**SPEC, "products": [{**SPEC["products"][0], "description": "new"}]}
    events = catalog.decide_load(state, changed, META, update=True)
    assert len(events) == 1 and isinstance(events[0], ProductChanged) and events[0].changes == {"description": "new"}


def test_setting_a_price_records_the_previous_one() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    (event,) = catalog.decide_set_price(state, "skip_queue", 3500, META)
    assert isinstance(event, ProductPriceSet)
    assert (event.price_cents, event.previous_cents, event.actor) == (3500, 2900, "staff:ada")
    assert catalog.evolve(event, state).products["skip_queue"].price_cents == 3500


def test_setting_the_same_price_is_a_no_op() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    assert catalog.decide_set_price(state, "launch", 4900, META) == []


def test_unknown_product_and_bad_prices_are_refused() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    with pytest.raises(NotFound):
        catalog.decide_set_price(state, "nope", 100, META)
    with pytest.raises(InvalidInput) as err:
        catalog.decide_set_price(state, "launch", -1, META)
    assert err.value.problems[0].field == "price_cents"


def test_free_queue_weeks_must_be_ordered() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    with pytest.raises(InvalidInput):
        catalog.decide_change_site(state, {"free_queue_min_weeks": 9}, META)
    (event,) = catalog.decide_change_site(state, {"free_queue_min_weeks": 5}, META)
    assert isinstance(event, SiteSettingsChanged) and event.changes == {"free_queue_min_weeks": 5}


def test_a_plain_load_brings_new_option_keys_and_keeps_the_rest() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    priced = given(catalog.decide_load(catalog.initial(), SPEC, META), catalog.decide_set_price(state, "launch", 5900, META))
    grown = {**SPEC, "products": [{**SPEC["products"][0], "price_cents": 4900, "description": "changed",
                                   "options": {"award": {"type": "string", "maxLength": 10}}}, SPEC["products"][1]]}
    (event,) = catalog.decide_load(priced, grown, META)  # not --update: only the new key comes in
    assert isinstance(event, ProductChanged) and event.code == "launch"
    assert event.changes == {"options": {"award": {"type": "string", "maxLength": 10}}}
    after = given(catalog.decide_load(catalog.initial(), SPEC, META), catalog.decide_set_price(state, "launch", 5900, META),
                  [event])
    assert after.products["launch"].price_cents == 5900 and after.products["launch"].description != "changed"
    assert catalog.decide_load(after, grown, META) == []  # a second load finds nothing new


def test_site_settings_name_every_broken_rule_at_once() -> None:
    state = given(catalog.decide_load(catalog.initial(), SPEC, META))
    with pytest.raises(InvalidInput) as err:
        catalog.decide_change_site(state, {"name": " ", "purpose": "p" * 501, "contact_email": "nobody",
                                           "free_queue_max_weeks": 53}, META)
    assert [(p.field, p.rule) for p in err.value.problems] == [
        ("free_queue_min_weeks", "range"), ("name", "required"), ("purpose", "max_length"), ("contact_email", "format")]
    with pytest.raises(InvalidInput) as long_name:
        catalog.decide_change_site(state, {"name": "n" * 101}, META)
    assert long_name.value.problems[0].message == "At most 100 characters."
    (event,) = catalog.decide_change_site(state, {"name": "n" * 100, "purpose": "p" * 500,
                                                  "contact_email": "team@launchpad.example"}, META)
    assert isinstance(event, SiteSettingsChanged)
    (cleared,) = catalog.decide_change_site(given(catalog.decide_load(catalog.initial(), SPEC, META), [event]),
                                            {"contact_email": None}, META)  # no contact address is allowed
    assert cleared.changes == {"contact_email": None}


def test_unknown_site_settings_and_orphan_categories_are_refused() -> None:
    with pytest.raises(InvalidInput):
        catalog.decide_change_site(catalog.initial(), {"colour": "red"}, META)
    with pytest.raises(InvalidInput) as err:
        catalog.decide_load(catalog.initial(), {"categories": [{"slug": "x", "name": "X", "parent": "missing"}]}, META)
    assert err.value.problems[0].field == "parent"
    with pytest.raises(InvalidInput):
        catalog.decide_load(catalog.initial(), {"categories": [{"slug": "Bad Slug", "name": "X"}]}, META)


def test_events_are_frozen_and_carry_who_and_when() -> None:
    (event, *_) = catalog.decide_load(catalog.initial(), SPEC, META)
    assert isinstance(event, CategoryAdded)
    with pytest.raises(AttributeError):
        event.name = "changed"  # type: ignore[misc]
    assert not isinstance(event, ProductAdded)
