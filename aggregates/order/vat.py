"""VAT on electronically supplied services sold from one EU country (the seller's, a setting).

- No billing country yet: `not_determined` (0 until the person says where they are).
- Outside the EU: `outside_scope` (0).
- A consumer in the EU: `standard`, the billing country's standard rate.
- A business in another EU country with a valid VAT number: `reverse_charge` (0; the invoice says so).
- A business in the seller's own country: `standard` at the domestic rate, number or not.

Rates come from `vat_rates.json` beside this module: dated, the one place to
update when a country changes its rate. VAT numbers are checked with
`python-stdnum` (format and check digits, per country); whether the number is
also registered (VIES) is asked by the command layer when the setting is on,
and handed in here as `registered`. The amount is rounded once per order:
half a cent and more rounds up (`vat_cents`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any

from stdnum.eu import vat as eu_vat
from stdnum.exceptions import InvalidChecksum, ValidationError

from events.countries import country_name
from events.errors import FieldProblem, InvalidInput

_DATA = json.loads(resources.files("aggregates.order").joinpath("vat_rates.json").read_text(encoding="utf-8"))
RATES_VALID_FROM: str = _DATA["valid_from"]
STANDARD_RATES_BP: dict[str, int] = {k: int(v) for k, v in _DATA["standard_rate_bp"].items()}
EU_COUNTRIES = frozenset(STANDARD_RATES_BP)
VAT_PREFIX = {"GR": "EL"}  # Greece writes its VAT numbers with EL


@dataclass(frozen=True)
class VatDecision:
    """How an order is taxed: rate (basis points), country, treatment, which check the number had, a note."""

    rate_bp: int
    country: str
    treatment: str  # standard | reverse_charge | outside_scope | not_determined
    check: str  # none | format | vies
    vat_number: str
    note: str
    rates_valid_from: str = RATES_VALID_FROM  # the rates table it was decided by, kept with the order

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def vat_cents(net_cents: int, rate_bp: int) -> int:
    """VAT on a net amount, rounded half up to a whole cent (integers only)."""
    return (net_cents * rate_bp + 5000) // 10000


def normalise_number(vat_number: str, country: str) -> str:
    """The number compacted, with its country prefix (added from the billing country when missing)."""
    compact = "".join(ch for ch in vat_number.upper() if ch.isalnum())
    prefix = VAT_PREFIX.get(country, country)
    if compact[:2].isalpha() and compact[:2] != prefix and compact[:2] in {*EU_COUNTRIES, "EL"}:
        return compact
    return compact if compact.startswith(prefix) else prefix + compact


def check_number(vat_number: str, country: str) -> str:
    """The normalised number when its format and check digits hold for `country`; 400 naming `vat_number` otherwise.

    The rule stays `check_digits` for both (the API's contract); the message says which failed.
    """
    number = normalise_number(vat_number, country)
    prefix = VAT_PREFIX.get(country, country)
    if not number.startswith(prefix):
        raise InvalidInput("the VAT number is not from the billing country", [
            FieldProblem("vat_number", "country", f"A VAT number of {country_name(country)} starts with {prefix}.")])
    try:
        eu_vat.validate(number)
    except InvalidChecksum:
        raise InvalidInput("the VAT number fails its check digits", [
            FieldProblem("vat_number", "check_digits", f"The VAT number {_as_typed(vat_number, number, country)} fails "
                                                       "its check digits: a digit is wrong or missing. Check it against "
                                                       "your VAT registration.")]) from None
    except ValidationError:
        raise InvalidInput("the VAT number does not have the format of the country's numbers", [
            FieldProblem("vat_number", "check_digits", f"The VAT number {_as_typed(vat_number, number, country)} does "
                                                       f"not have the format of a VAT number of {country_name(country)} "
                                                       "(its length or characters). Check it against your VAT "
                                                       "registration.")]) from None
    return number


def _as_typed(vat_number: str, number: str, country: str) -> str:
    """The number as the person typed it, and as it was read when the country's prefix was added to it.

    "XX12" for Germany is checked as "DEXX12"; naming only the latter reads as if the person had typed it.
    """
    typed = "".join(ch for ch in vat_number.upper() if ch.isalnum())
    if typed == number:
        return number
    return f"{typed} (read as {number}, with the prefix of {country_name(country)})"


def decide_vat(seller_country: str, billing_country: str | None, vat_number: str | None,
               registered: bool | None = None) -> VatDecision:
    """The VAT treatment of an order; `registered` is the VIES answer when one was asked (None: not asked)."""
    country = (billing_country or "").upper()
    seller = seller_country.upper()
    number = (vat_number or "").strip()
    if not country:
        return VatDecision(0, "", "not_determined", "none", "", "VAT is decided once the billing country is known.")
    if country not in EU_COUNTRIES:
        return VatDecision(0, country, "outside_scope", "none", "",
                           "Outside the EU: no EU VAT is charged (you may owe tax where you are).")
    rate = STANDARD_RATES_BP[country]
    if not number:
        return VatDecision(rate, country, "standard", "none", "", f"Standard VAT of {country_name(country)}.")
    checked = check_number(number, country)
    check = "format"
    if registered is not None:
        if not registered:
            raise InvalidInput("the VAT number is not registered", [
                FieldProblem("vat_number", "not_registered", f"{checked} is not registered in VIES.")])
        check = "vies"
    if country == seller:
        return VatDecision(rate, country, "standard", check, checked,
                           f"Domestic supply in {country_name(country)}: VAT is charged even to businesses.")
    return VatDecision(0, country, "reverse_charge", check, checked,
                       "Reverse charge: VAT to be accounted for by the customer (Art. 196 Directive 2006/112/EC).")
