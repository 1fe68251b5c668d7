"""VAT treatments of electronically supplied services, per country and number (aggregates.order.vat)."""

from __future__ import annotations

import pytest

from aggregates.order import STANDARD_RATES_BP, check_number, decide_vat, vat_cents
from events.errors import InvalidInput

SELLER = "IE"
DE_NUMBER = "DE136695976"
FR_NUMBER = "FR40303265045"
IE_NUMBER = "IE6388047V"


@pytest.mark.parametrize(("country", "rate_bp"), [("DE", 1900), ("FR", 2000), ("IE", 2300), ("FI", 2550)])
def test_a_consumer_in_the_eu_pays_the_standard_rate_of_their_country(country: str, rate_bp: int) -> None:
    vat = decide_vat(SELLER, country, None)
    assert (vat.treatment, vat.rate_bp, vat.country, vat.check) == ("standard", rate_bp, country, "none")


def test_lower_case_country_codes_are_read_as_upper_case() -> None:
    assert decide_vat(SELLER, "de", None).rate_bp == STANDARD_RATES_BP["DE"]


@pytest.mark.parametrize("country", ["US", "CH", "GB", "JP"])
def test_outside_the_eu_is_outside_scope(country: str) -> None:
    vat = decide_vat(SELLER, country, "whatever")
    assert (vat.treatment, vat.rate_bp, vat.vat_number) == ("outside_scope", 0, "")


def test_without_billing_country_vat_is_not_determined() -> None:
    vat = decide_vat(SELLER, None, None)
    assert (vat.treatment, vat.rate_bp) == ("not_determined", 0)


@pytest.mark.parametrize(("country", "number"), [("DE", DE_NUMBER), ("FR", FR_NUMBER), ("DE", "de 136 695 976"),
                                                 ("DE", "136695976")])
def test_a_business_in_another_eu_country_with_a_valid_number_gets_reverse_charge(country: str, number: str) -> None:
    vat = decide_vat(SELLER, country, number)
    assert (vat.treatment, vat.rate_bp, vat.check) == ("reverse_charge", 0, "format")
    assert vat.vat_number.startswith(country) and "Reverse charge" in vat.note


def test_a_business_in_the_sellers_country_pays_domestic_vat_even_with_a_number() -> None:
    vat = decide_vat(SELLER, "IE", IE_NUMBER)
    assert (vat.treatment, vat.rate_bp, vat.vat_number) == ("standard", 2300, IE_NUMBER)
    other_seller = decide_vat("DE", "DE", DE_NUMBER)
    assert (other_seller.treatment, other_seller.rate_bp) == ("standard", 1900)


@pytest.mark.parametrize(("country", "number", "rule"), [
    ("DE", "DE136695977", "check_digits"),  # one digit off
    ("FR", "FR00000000000", "check_digits"),
    ("DE", FR_NUMBER, "country"),  # a French number for a German address
    ("IE", "hello", "check_digits"),
])
def test_an_invalid_number_is_a_400_naming_vat_number(country: str, number: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        decide_vat(SELLER, country, number)
    assert [(p.field, p.rule) for p in caught.value.problems] == [("vat_number", rule)]


def test_the_message_says_which_rule_the_number_fails() -> None:
    with pytest.raises(InvalidInput) as digits:
        decide_vat(SELLER, "DE", "DE123456789")
    assert digits.value.problems[0].message.startswith("The VAT number DE123456789 fails its check digits")
    with pytest.raises(InvalidInput) as shape:
        decide_vat(SELLER, "DE", "DE12345")
    message = shape.value.problems[0].message
    assert message.startswith("The VAT number DE12345 does not have the format of a VAT number of Germany")
    assert "check digits" not in message
    with pytest.raises(InvalidInput) as bare:  # typed without its prefix: the message shows what was typed
        decide_vat(SELLER, "DE", "xx12")
    assert bare.value.problems[0].message.startswith(
        "The VAT number XX12 (read as DEXX12, with the prefix of Germany) does not have the format")


def test_greek_numbers_use_the_el_prefix() -> None:
    assert check_number("094259216", "GR") == "EL094259216"
    assert decide_vat(SELLER, "GR", "EL094259216").treatment == "reverse_charge"


def test_a_vies_answer_is_recorded_or_refuses_the_number() -> None:
    assert decide_vat(SELLER, "DE", DE_NUMBER, registered=True).check == "vies"
    with pytest.raises(InvalidInput) as caught:
        decide_vat(SELLER, "DE", DE_NUMBER, registered=False)
    assert caught.value.problems[0].rule == "not_registered"


@pytest.mark.parametrize(("net", "rate_bp", "vat"), [(4900, 1900, 931), (4900, 2300, 1127), (1500, 2550, 383),
                                                   (1, 1900, 0), (50, 1000, 5), (3, 2550, 1), (0, 2300, 0)])
def test_vat_is_rounded_half_up_to_whole_cents(net: int, rate_bp: int, vat: int) -> None:
    assert vat_cents(net, rate_bp) == vat


def test_every_eu_member_state_has_a_rate() -> None:
    assert len(STANDARD_RATES_BP) == 27 and all(1500 <= r <= 2700 for r in STANDARD_RATES_BP.values())
