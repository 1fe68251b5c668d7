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


def test_another_companys_price_is_neither_the_model_nor_the_summary() -> None:
    result = draft({"/": page(
        "<h1>Dustpan</h1><p>Dustpan crawls your site like a search engine does.</p><h2>Pricing</h2>"
        "<p>A Dustpan licence costs A$129, paid once. No subscription, no crawl limits.</p>"
        "<p>Want backlink data inside Dustpan? Connect your LinkRadar account (LinkRadar plans from US$29 a month, "
        "billed by LinkRadar).</p>", title="Dustpan")})
    assert result.value("pricing_model") == "one-time"
    assert "LinkRadar" not in (result.value("pricing_summary") or "")


def test_a_pricing_faqs_question_is_no_cue_and_a_denial_may_have_a_verb() -> None:
    asked = draft({"/": page("<h1>Keelson</h1><p>A shared password vault.</p>", title="Keelson"), "/pricing": page(
        "<h1>Pricing</h1><p>Team $6 per user / month</p><h3>Is there a free plan?</h3><p>No, but every plan can be "
        "cancelled at any time.</p>")})
    assert asked.value("pricing_model") == "subscription"
    denied = pricing_cues("Pagas mes a mes. No tenemos plan gratuito: preferimos cobrar poco a todos.")
    assert "free plan" not in denied


def test_free_for_your_first_few_in_words_is_a_free_allowance() -> None:
    assert "free plan" in pricing_cues("Bodkin is free for your first five invoices each month, reminders included.")
    assert "free plan" in pricing_cues("Quire is free for your first 200 notes, forever, on every device.")


def test_a_free_plans_card_may_stand_between_the_pricing_phrase_and_the_first_price() -> None:
    result = draft({"/": page(
        "<h1>Eslabón</h1><p>Contraseñas compartidas para equipos.</p><h2>Precios claros</h2><h3>Personal</h3>"
        "<p>Gratis para siempre</p><p>Hasta 3 usuarios y 50 contraseñas.</p><h3>Equipo</h3><p>3 € por usuario y mes</p>",
        title="Eslabón", lang="es")})
    assert result.value("pricing_model") == "freemium"
