"""Pricing words in every language of `pricing_words`: free allowances stated either way round, trials stated
as free first days, periods and free plans in languages the older cue lists lacked, and fees per period that a
site says it does not charge.

The pages go through the crawler's own extraction and the gate (``tests.fixtures.drafting_forms.draft``).
"""

from __future__ import annotations

import pytest

from tests.fixtures.drafting_forms import draft, page
from workers.drafting.vocab import pricing_cues


@pytest.mark.parametrize("quote", [
    "Les 5 000 premières requêtes de chaque mois sont gratuites, sans carte bancaire.",
    "Für kleine Schulen mit bis zu 25 Schüler*innen ist Kellerlicht kostenlos – ohne Zeitlimit.",
    "Bis zu 3 Spielplätze prüfen Sie mit Wippe kostenlos.",
    "Το πακέτο Σπόρος είναι δωρεάν για πάντα, για έως 10 προϊόντα.",
    "Ingyenes csomag: 3 projekt",
    "Do 3 projektů zdarma.",
    "Безплатно до 5 потребители.",
])
def test_a_free_allowance_or_plan_in_any_order_and_language_is_a_free_plan(quote: str) -> None:
    assert "free plan" in pricing_cues(quote)


@pytest.mark.parametrize("quote", [
    "Prvih 30 dana je besplatno, bez upisivanja kartice.",
    "Les 14 premiers jours sont gratuits.",
    "The first 30 days are free.",
    "Kokeilujakso 14 päivää.",
    "14 dní zdarma",
])
def test_free_first_days_are_a_trial_not_a_free_plan(quote: str) -> None:
    cues = pricing_cues(quote)
    assert "free trial" in cues
    assert "free plan" not in cues


def test_a_free_extra_before_buying_is_no_allowance() -> None:
    cues = pricing_cues("Bevor Sie sich entscheiden, schicken wir eine kostenlose Phishing-Kampagne an bis zu 50 Postfächer.")
    assert "free plan" not in cues


@pytest.mark.parametrize(("quote", "period"), [
    ("49 lei pe lună", True),
    ("1 990 kr. á mánuði", True),
    ("29 € на месец", True),
    ("9 € hilean", True),
    ("Pagas solo por lo que timbras: $0.90 MXN por CFDI timbrado. No hay cuota mensual ni plazo forzoso.", False),
    ("CHF 1.50 pro Übernachtung. Es gibt keine Grundgebühr und keine monatlichen Kosten.", False),
    ("y mis clientes pagan 10 € por factura", False),
])
def test_periods_in_more_languages_and_periods_denied(quote: str, period: bool) -> None:
    assert ("subscription" in pricing_cues(quote)) is period


def test_a_price_per_use_billed_monthly_without_a_base_fee_is_paid() -> None:
    result = draft({"/": page("<h1>Gipfelbuch</h1><p>Reservationen für Berghütten.</p>", title="Gipfelbuch", lang="de"),
                    "/preise": page("<h1>Preise</h1><p>Gipfelbuch kostet die Hütte CHF 1.50 pro gebuchter Übernachtung. "
                                    "Es gibt keine Grundgebühr.</p><p>Abgerechnet wird einmal im Monat, zuzüglich MWST.</p>",
                                    lang="de")})
    assert result.value("pricing_model") == "paid"


def test_a_free_allowance_after_its_bound_beside_a_monthly_price_is_freemium() -> None:
    result = draft({"/": page("<h1>Wippe</h1><p>Spielplatzkontrolle ohne Zettelwirtschaft.</p>", title="Wippe", lang="de"),
                    "/preise": page("<h1>Preise</h1><p>Bis zu 3 Spielplätze prüfen Sie mit Wippe kostenlos. Darüber kostet "
                                    "jeder weitere Spielplatz 4 € im Monat, abgerechnet jährlich.</p>", lang="de")})
    assert result.value("pricing_model") == "freemium"
