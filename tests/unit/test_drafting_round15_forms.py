"""Forms of round 15 (the fourteenth blind half, once it joined the visible half): categories named by a phrase of
their own, a since-year that is not the founding year, and where a company works beside its registered office.

The pages go through the crawler's own extraction and the gate (``tests.fixtures.drafting_forms.draft``).
"""

from __future__ import annotations

import pytest

from tests.fixtures.drafting_forms import draft, page


@pytest.mark.parametrize(("body", "category"), [
    ("<h1>Sawhorse \u2014 Mock APIs your whole team can lean on</h1><p>Contract checks in CI.</p>", "testing"),
    ("<h1>Spurtle</h1><p>Spurtle is cookie-free, privacy-first website analytics.</p>", "security"),
    ("<h1>Soplete</h1><p>Soplete busca claves filtradas y contraseñas en tus repositorios.</p>", "security"),
    ("<h1>Windlass</h1><p>Serverless GPU inference for open models.</p>", "ai-infrastructure"),
    ("<h1>Zirkel</h1><p>Zirkel ist das digitale Skizzen- und Abstimmungsbrett für Architekturbüros.</p>", "design"),
    ("<h1>Skillet</h1><p>Skillet is email and text-message marketing for independent restaurants.</p>",
     "email-marketing"),
    ("<h1>Teakettle</h1><p>Teakettle is a shared notebook for team meetings.</p>", "notes-docs"),
    ("<h1>Whetstone</h1><p>Whetstone is an AI code review agent that reads every pull request.</p>", "ai-assistants"),
])
def test_a_phrase_that_alone_names_the_category(body: str, category: str) -> None:
    assert category in (draft({"/": page(body, title=body[4:body.index("<", 4)])}).value("categories") or [])


def test_a_founding_sentence_outranks_an_earlier_since_year() -> None:
    result = draft({"/": page("<h1>Untersetzer</h1><p>Seit 2025 Pflicht im B2B \u2013 bei uns mit einem Klick erzeugt.</p>",
                              title="Untersetzer", lang="de"),
                    "/ueber-uns": page("<p>Untersetzer wurde 2019 in Leipzig von Jana Weller und Tobias Kranich "
                                       "gegr\u00fcndet.</p>", lang="de")})
    assert result.value("founded_year") == "2019"


def test_where_the_team_started_outranks_a_registered_office_of_the_same_country() -> None:
    result = draft({"/": page("<h1>Teakettle</h1><p>Teakettle is a shared notebook for team meetings.</p>"
                              "<footer><p>Teakettle Software Ltd, registered in England &amp; Wales no. 14820931. "
                              "Registered office: 71-75 Shelton Street, London WC2H 9JQ.</p></footer>", title="Teakettle"),
                    "/about": page("<p>Ruth Adeyemi and Callum Pryce started Teakettle in Leeds in 2022.</p>")})
    assert (result.value("city"), result.value("country")) == ("Leeds", "GB")


def test_a_co_operative_in_a_town() -> None:
    result = draft({"/": page("<h1>Vellum</h1><p>It is developed by Parchment Works, a small worker co-operative in "
                              "Winnipeg, Manitoba, Canada.</p>", title="Vellum")})
    assert (result.value("city"), result.value("country")) == ("Winnipeg", "CA")


def test_two_founders_who_started_the_product_before_a_quotation_later_in_the_paragraph() -> None:
    result = draft({"/": page("<h1>Teakettle</h1><p>Teakettle is a shared notebook for team meetings.</p>", title="Teakettle"),
                    "/blog/why": page("<p>Ruth Adeyemi and Callum Pryce started Teakettle in Leeds in 2022. Ruth, our "
                                      "CEO, had spent a decade as a chief of staff. \u201cThe meeting is where work gets "
                                      "decided,\u201d Ruth told me.</p>")})
    assert [f["name"] for f in result.to_dict()["founders"]] == ["Ruth Adeyemi", "Callum Pryce"]


@pytest.mark.parametrize(("pages", "model"), [
    ({"/": page("<h1>Easel</h1><p>Easel designs App Store screenshots.</p><h2>Pricing</h2><p>Easel costs A$59, once. "
                "No subscription.</p><p>Pairs nicely with Glyphbox Pro (A$14/month) for custom fonts.</p>", title="Easel")},
     "one-time"),
    ({"/": page("<h1>Pulley</h1><p>Pulley routes your LLM requests.</p><h2>Pricing</h2><p>You pay $0.40 per million "
                "tokens routed. No platform fee, no minimum, billed monthly in arrears.</p>", title="Pulley")},
     "usage-based"),
    ({"/": page("<h1>Cazuela</h1><p>Pedidos online para tiendas.</p>", title="Cazuela", lang="es"),
      "/precios": page("<h1>Precios</h1><p>Cuota mensual 0 €</p><p>Solo pagas cuando vendes: una comisión del 2 % "
                       "por pedido.</p>", lang="es")}, "usage-based"),
    ({"/": page("<h1>Regadera</h1><p>Huertos escolares.</p>", title="Regadera", lang="es"),
      "/precios": page("<h1>Precios</h1><p>Regadera se contrata por centro, con una licencia anual.</p><p>Solicita un "
                       "presupuesto y te respondemos en 48 horas.</p>", lang="es")}, "contact"),
    ({"/": page("<h1>Bougie</h1><p>Bougie est une plateforme de révisions.</p>", title="Bougie", lang="fr"),
      "/faq": page("<h3>C'est vraiment gratuit ?</h3><p>Oui. Bougie est gratuit pour tous les élèves, sans "
                   "publicité.</p>", lang="fr")}, "free"),
])
def test_pricing_models_of_round_15(pages: dict[str, str], model: str) -> None:
    assert draft(pages).value("pricing_model") == model


def test_a_definition_that_lists_what_the_product_is_not_is_no_short_description() -> None:
    result = draft({"/": page("<h1>Pulley</h1><p>Pulley is infrastructure, not a chatbot, not a blockchain, and not a "
                              "Web3 anything.</p><p>Pulley routes your LLM inference requests to the cheapest GPU "
                              "provider.</p>", title="Pulley")})
    assert str(result.value("short_description")).startswith("Pulley routes your LLM inference requests")


def test_years_begun_built_become_and_named_and_a_customers_since_is_none() -> None:
    cases = {
        "<p>Kruiwagen is in 2022 begonnen aan de Oudegracht in Utrecht.</p>": "2022",
        "<p>In 2020 I quit my job at an agency and built the tool I wanted.</p>": "2020",
        "<p>So in 2022 I taught myself enough programming to build the tool I wanted. That became Acme.</p>": "2022",
        "<p>In 2021 we put it on GitHub under the MIT licence and called it Acme.</p>": "2021",
    }
    for body, year in cases.items():
        result = draft({"/": page("<h1>Acme</h1><p>Acme is a booking app.</p>", title="Acme"), "/about": page(body)})
        assert result.value("founded_year") == year, body
    customer = draft({"/": page("<h1>Acme</h1><p>Acme is a newsletter tool for authors.</p>"
                                "<p>Been on the Author plan since 2021. Brilliant wee tool.</p>", title="Acme")})
    assert customer.value("founded_year") is None


def test_addresses_a_state_code_without_a_postcode_a_spanish_sl_and_no_acronym_towns() -> None:
    denver = draft({"/": page("<h1>Acme</h1><p>Acme runs launches.</p><footer><p>Pourwell, Inc. · 1550 Wynkoop St, "
                              "Denver, CO · howdy@pourwell.example</p></footer>", title="Acme")})
    assert (denver.value("city"), denver.value("country")) == ("Denver", "US")
    valencia = draft({"/": page("<h1>Acme</h1><p>Acme vende online.</p><footer><p>Cazuela Tech S.L. · Carrer de Sueca "
                                "21, 46006 València</p></footer>", title="Acme", lang="es")})
    assert (valencia.value("city"), valencia.value("country")) == ("València", "ES")
    acronym = draft({"/": page("<h1>Acme</h1><p>Acme checks screenshots.</p><p>If your team would rather not review "
                               "diffs in CI logs, use the cloud.</p>", title="Acme")})
    assert acronym.value("city") is None


def test_indonesian_and_ukrainian_words() -> None:
    tampah = draft({"/": page("<h1>Tampah</h1><p>Tampah adalah platform kelas online untuk guru, sekolah, dan bimbel.</p>",
                              title="Tampah", lang="id"),
                    "/harga": page("<h1>Harga</h1><h3>Guru</h3><p>Gratis</p><h3>Bimbel</h3><p>Rp149.000 / bulan</p>",
                                   lang="id"),
                    "/tentang": page("<p>Tampah didirikan pada tahun 2021 di Yogyakarta oleh Dimas Prasetyo dan Ayu "
                                     "Lestari.</p><h3>Dimas Prasetyo</h3><p>Salah satu pendiri &amp; CEO</p>", lang="id")})
    assert tampah.value("pricing_model") == "freemium"
    assert tampah.value("founded_year") == "2021"
    assert "education" in (tampah.value("categories") or [])
    assert "Dimas Prasetyo" in [f["name"] for f in tampah.to_dict()["founders"]]
    sopilka = draft({"/": page("<h1>Сопілка</h1><p>Сопілка — сервіс керування проєктами для агенцій: задачі, облік часу.</p>",
                               title="Сопілка", lang="uk")})
    assert "project-management" in (sopilka.value("categories") or [])


def test_a_faq_answered_with_a_partners_price_is_left_out_and_designing_names_design() -> None:
    result = draft({"/": page("<h1>Easel</h1><p>Easel is a Mac app for designing App Store screenshots.</p>", title="Easel"),
                    "/faq": page("<h1>FAQ</h1><h3>Can I export every size?</h3><p>Yes, all of them at once.</p>"
                                 "<h3>Need a vector database?</h3><p>Our partner Tidewater Vector offers managed indexes "
                                 "from US$25/month for Easel customers.</p>")})
    assert [f["question"] for f in result.to_dict()["faqs"]] == ["Can I export every size?"]
    assert result.value("categories") == ["design"]


def test_a_card_labelled_feature_something_is_no_features_heading_but_features_for_teams_is() -> None:
    cards = draft({"/": page(
        "<h1>Lodestone</h1><p>Lodestone is product analytics.</p><h2>Answers, not dashboards</h2>"
        "<h3>Funnels in plain English</h3><p>Type a sentence and get the funnel.</p>"
        "<h3>Retention cohorts</h3><p>Weekly and monthly cohorts, split by plan.</p>"
        "<h3>Feature adoption reports</h3><p>See who used the thing you shipped.</p>"
        "<h3>No personal data stored</h3><p>Visitor IDs are salted hashes that rotate daily.</p>", title="Lodestone")})
    assert cards.value("features") == ["Funnels in plain English", "Retention cohorts", "Feature adoption reports",
                                       "No personal data stored"]
    section = draft({"/": page("<h1>Acme</h1><p>Acme is a notes app.</p><h2>Features for teams</h2>"
                               "<ul><li>Shared spaces</li><li>Guest access</li></ul>", title="Acme")})
    assert section.value("features") == ["Shared spaces", "Guest access"]
