"""A catalogue file keeps the staff price rule ($1.00 to $1,000,000): a product at 0 or a few cents refuses the whole
file, naming each such product and the rule, and nothing of it is decided. Given/when/then, no database."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from functools import reduce
from importlib import resources
from typing import Any

import pytest

from aggregates import catalog
from aggregates.base import Meta
from events.errors import InvalidInput

META = Meta(at=datetime(2026, 11, 16, 9, tzinfo=timezone.utc), actor="system", channel="cli")


def _packaged() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(
        resources.files("launchdir").joinpath("data/catalog.json").read_text(encoding="utf-8"))
    return spec


def _loaded(spec: dict[str, Any]) -> catalog.CatalogState:
    return reduce(lambda s, e: catalog.evolve(e, s), catalog.decide_load(catalog.initial(), spec, META), catalog.initial())


def test_the_packaged_catalogue_keeps_the_price_rule_and_loads() -> None:
    state = _loaded(_packaged())
    assert state.products and all(catalog.MIN_PRICE_CENTS <= p.price_cents <= catalog.MAX_PRICE_CENTS
                                  for p in state.products.values())


@pytest.mark.parametrize("price", [0, 1, 99, -100, 100_000_001, "4900", 49.0, None, True])
def test_an_update_with_a_price_outside_the_rule_refuses_the_whole_file(price: Any) -> None:
    state = _loaded(_packaged())
    spec = _packaged()
    spec["categories"].append({"slug": "brand-new", "name": "Brand new"})  # valid, and still not added
    spec["products"][0]["price_cents"] = 2900  # a valid change before the bad one, and still not applied
    spec["products"][1]["price_cents"] = price
    with pytest.raises(InvalidInput) as refused:
        catalog.decide_load(state, spec, META, update=True)
    code = spec["products"][1]["code"]
    assert f"product {code!r} has price_cents {price!r}" in refused.value.detail
    assert "nothing was loaded" in refused.value.detail
    assert "A price is $1.00 to $1,000,000" in refused.value.detail and "price_cents 100 to" in refused.value.detail
    (problem,) = refused.value.problems
    assert (problem.field, problem.rule) == ("products.1.price_cents", "range")


def test_every_product_below_the_floor_is_named_at_once_and_without_update_too() -> None:
    spec = _packaged()
    for index, cents in ((2, 0), (5, 50)):
        spec["products"][index]["price_cents"] = cents
    with pytest.raises(InvalidInput) as refused:
        catalog.decide_load(catalog.initial(), spec, META)  # a new catalogue: not even the first entries are added
    names = [spec["products"][i]["code"] for i in (2, 5)]
    assert [p.field for p in refused.value.problems] == ["products.2.price_cents", "products.5.price_cents"]
    assert all(f"product {n!r}" in refused.value.detail for n in names)


def test_the_lowest_and_highest_prices_load() -> None:
    spec = _packaged()
    spec["products"][0]["price_cents"] = catalog.MIN_PRICE_CENTS
    spec["products"][1]["price_cents"] = catalog.MAX_PRICE_CENTS
    state = _loaded(spec)
    codes = [p["code"] for p in spec["products"][:2]]
    assert [state.products[c].price_cents for c in codes] == [catalog.MIN_PRICE_CENTS, catalog.MAX_PRICE_CENTS]
