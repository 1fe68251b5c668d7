"""`launchdir catalog load --update` refuses a file with a price below $1.00 whole (exit 1, the product and the rule
named, nothing recorded); the packaged catalogue still loads, and a file within the rule updates prices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from aggregates import catalog
from commands.catalog import current_catalog
from launchdir.bootstrap import default_catalog
from launchdir.cli import main


def _load(container: Any, *args: str) -> Any:
    return CliRunner().invoke(main, ["catalog", "load", *args], obj=container)


def _file(tmp_path: Path, spec: dict[str, Any]) -> str:
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return str(path)


def test_a_price_below_the_floor_loads_nothing_from_the_file(container: Any, tmp_path: Path) -> None:
    before = current_catalog(container.store)
    spec = default_catalog()
    spec["categories"].append({"slug": "brand-new-kind", "name": "Brand new kind"})
    spec["products"][0]["price_cents"] = 5900  # a valid change ahead of the bad entries
    spec["products"][3]["price_cents"] = 0
    spec["products"][4]["price_cents"] = 99
    zero, cents = spec["products"][3]["code"], spec["products"][4]["code"]

    refused = _load(container, _file(tmp_path, spec), "--update")
    assert refused.exit_code == 1, refused.output
    error = [line for line in refused.stderr.splitlines() if line.startswith("Error")]
    assert len(error) == 1 and "Traceback" not in refused.output
    assert f"product {zero!r} has price_cents 0" in error[0] and f"product {cents!r} has price_cents 99" in error[0]
    assert "A price is $1.00 to $1,000,000" in error[0] and "nothing was loaded" in error[0]

    after = current_catalog(container.store)
    assert after.version == before.version  # all or nothing: not the category, not the valid price either
    assert "brand-new-kind" not in after.categories
    assert after.products[spec["products"][0]["code"]].price_cents == before.products[spec["products"][0]["code"]].price_cents


def test_the_packaged_catalogue_loads_and_a_file_within_the_rule_updates(container: Any, tmp_path: Path) -> None:
    packaged = _load(container)
    assert packaged.exit_code == 0 and "catalogue loaded" in packaged.stdout
    again = _load(container, "--update")
    assert again.exit_code == 0, again.output
    spec = default_catalog()
    code = spec["products"][0]["code"]
    spec["products"][0]["price_cents"] = catalog.MIN_PRICE_CENTS
    updated = _load(container, _file(tmp_path, spec), "--update")
    assert updated.exit_code == 0, updated.output
    assert current_catalog(container.store).products[code].price_cents == catalog.MIN_PRICE_CENTS
