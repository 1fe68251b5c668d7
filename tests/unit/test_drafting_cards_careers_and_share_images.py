"""Forms a founder's draft got wrong: German founding sentences with a place between the names and the verb,
compliance products, the general category's fallback, comma lines among list items, the headline over a card
grid, plan cards, careers and team cards in a description, and link-preview images taken for a logo.

The pages go through the crawler's own extraction and the gate (``tests.fixtures.drafting_forms.draft``).
"""

from __future__ import annotations

import pytest

from tests.fixtures.drafting_forms import draft, founders, page
from workers.drafting.category_terms import names_work_software
from workers.drafting.images import is_share_card


@pytest.mark.parametrize("sentence", [
    "Kistenwerk wurde 2019 von Lena Hartmann und Jonas Becker in Leipzig gegr\u00fcndet.",
    "Kistenwerk wurde von Lena Hartmann und Jonas Becker im Jahr 2019 gemeinsam gegr\u00fcndet.",
])
def test_german_founders_with_a_place_or_a_year_before_gegruendet(sentence: str) -> None:
    result = draft({"/": page("<h1>Kistenwerk</h1><p>Kistenwerk plant Touren f\u00fcr Getr\u00e4nkeh\u00e4ndler.</p>",
                              title="Kistenwerk", lang="de"),
                    "/ueber-uns": page(f"<p>{sentence}</p>", lang="de")})
    assert list(founders(result)) == ["Lena Hartmann", "Jonas Becker"]


def test_a_person_who_leads_a_company_founded_later_is_no_founder() -> None:
    result = draft({"/": page("<h1>Kistenwerk</h1><p>Kistenwerk plant Touren f\u00fcr Getr\u00e4nkeh\u00e4ndler.</p>",
                              title="Kistenwerk", lang="de"),
                    "/ueber-uns": page("<p>Kistenwerk wird von Lena Hartmann geleitet und wurde 2019 gegr\u00fcndet.</p>",
                                       lang="de")})
    assert founders(result) == {}


def test_ticketing_tools_it_connects_to_make_no_shop_and_audit_evidence_is_security() -> None:
    result = draft({"/": page("<h1>Certwell</h1><p>Certwell connects to your cloud, HR and ticketing tools and gathers "
                              "what your auditors ask for.</p>",
                              title="Certwell",
                              head='<meta name="description" content="Certwell collects SOC 2 and ISO 27001 evidence '
                                   'from the tools you already use.">')})
    assert result.value("categories") == ["security"]


def test_event_ticketing_is_still_a_shop() -> None:
    result = draft({"/": page("<h1>Stagedoor</h1><p>Stagedoor is event ticketing for small theatres.</p>", title="Stagedoor")})
    assert "ecommerce" in (result.value("categories") or [])


@pytest.mark.parametrize(("sentence", "general"), [
    ("Wattline is a REST API that tells your software how clean the electricity is.", False),
    ("Fernly is a plant care app that learns how much light your home gets.", False),
    ("Larkspur is a meal-planning app for households: plan the week's dinners together.", True),
    ("Joblog is job-card software for bicycle workshops.", True),
    ("Hofbuch ist die App f\u00fcr Reitst\u00e4lle: Boxen, Futter und Termine.", True),
])
def test_the_general_category_needs_the_product_to_be_work_software(sentence: str, general: bool) -> None:
    assert names_work_software(sentence) is general


def test_a_plant_care_app_gets_no_category() -> None:
    result = draft({"/": page("<h1>Fernly</h1><p>Fernly is a plant care app that learns how much light your home gets "
                              "and tells you when each plant needs water.</p>", title="Fernly")})
    assert result.value("categories") is None


def test_a_comma_line_among_one_per_line_items_is_one_item_but_a_lone_comma_line_is_a_list() -> None:
    mixed = draft({"/": page("<h1>Portkey</h1><p>Portkey removes stale images from your registry.</p><h2>Highlights</h2>"
                             "<ul><li>Retention rules per project</li><li>Reports before deleting</li>"
                             "<li>Works with Harbor, Quay and Nexus</li></ul>", title="Portkey")})
    assert mixed.value("features") == ["Retention rules per project", "Reports before deleting",
                                       "Works with Harbor, Quay and Nexus"]
    alone = draft({"/": page("<h1>Portkey</h1><p>Portkey removes stale images from your registry.</p><h2>Features</h2>"
                             "<p>Retention rules, dry-run reports, audit logs.</p>", title="Portkey")})
    assert alone.value("features") == ["Retention rules", "Dry-run reports", "Audit logs"]


def test_the_headline_over_a_card_grid_is_the_tagline_not_a_card() -> None:
    result = draft({"/": page("<h1>Carbon data for every grid</h1><p>Voltline is an API for grid carbon intensity.</p>"
                              "<div><h3>Live readings</h3><p>Grams of CO2 per kWh, every five minutes.</p>"
                              "<h3>Forecasts</h3><p>Plan batch jobs for the cleanest hours.</p>"
                              "<h3>Webhooks</h3><p>Get told when a zone drops below your threshold.</p></div>",
                              title="Voltline")})
    assert result.value("tagline") == "Carbon data for every grid"
    assert result.value("features") == ["Live readings", "Forecasts", "Webhooks"]


def test_plan_cards_keep_their_names_and_their_second_price() -> None:
    result = draft({"/": page("<h1>Korbli</h1><p>Korbli g\u00e8re les abonnements de paniers.</p>", title="Korbli",
                              lang="fr"),
                    "/tarifs": page("<h1>Tarifs</h1><div><h2>Pousse</h2><p>Gratuit</p><p>Gratuit jusqu'\u00e0 20 membres.</p></div>"
                                    "<div><h2>Verger</h2><p>19,00 $ CA par mois</p><p>ou 190 $ CA par ann\u00e9e</p></div>"
                                    "<div><h2>R\u00e9seau</h2><p>49,00 $ CA par mois</p></div>", lang="fr")})
    assert result.value("pricing_summary") == ("Pousse Gratuit. Gratuit jusqu'\u00e0 20 membres. Verger 19,00 $ CA par mois "
                                               "ou 190 $ CA par ann\u00e9e. R\u00e9seau 49,00 $ CA par mois.")
    assert result.value("pricing_model") == "freemium"


def test_a_free_plans_allowance_and_a_custom_priced_plan_are_summarised() -> None:
    result = draft({"/": page("<h1>Meterly</h1><p>Meterly is an API for energy prices.</p>", title="Meterly"),
                    "/pricing": page("<h1>Pay for what you use</h1><div><h2>Hobby</h2><p>Free</p>"
                                     "<p>5,000 calls per month included.</p></div><div><h2>Growth</h2>"
                                     "<p>$0.001 per call</p></div><div><h2>Enterprise</h2><p>Custom pricing</p></div>")})
    assert result.value("pricing_summary") == ("Hobby Free. 5,000 calls per month included. Growth $0.001 per call. "
                                               "Enterprise Custom pricing.")


def test_careers_and_team_cards_stay_out_of_the_description() -> None:
    result = draft({"/": page("<h1>Pagerly</h1><p>Pagerly wakes the engineer on call, not the whole team.</p>",
                              title="Pagerly"),
                    "/about": page("<h1>About</h1><p>We are a remote team of seven.</p><h2>Team</h2>"
                                   "<div><h3>Ana Lindqvist</h3><p>Co-founder &amp; CEO. Previously ran support at a bank.</p></div>"
                                   "<div><h3>Tom Okafor</h3><p>Founding Engineer.</p></div>"
                                   "<h2>Careers</h2><p>We are looking for a designer to join us.</p>"),
                    "/company": page("<p>Pagerly grew out of a weekend project.</p><p>We are hiring a backend engineer.</p>")})
    description = result.value("description") or ""
    assert "Pagerly wakes the engineer on call" in description and "remote team of seven" in description
    assert "weekend project" in description
    assert "Previously ran support" not in description and "Founding Engineer" not in description
    assert "designer" not in description and "hiring" not in description


@pytest.mark.parametrize(("url", "meta", "card"), [
    ("https://a.example/assets/acme-share.png", {}, True),
    ("https://a.example/og.png", {}, True),
    ("https://a.example/static/og-card.png", {}, True),
    ("https://a.example/img/preview.jpg", {"og:image:width": "1200", "og:image:height": "630"}, True),
    ("https://a.example/img/acme-logo.png", {}, False),
    ("https://a.example/img/acme-og-logo.png", {}, False),
    ("https://cdn.example/media/7c2e1a~mv2.png", {}, False),
    ("https://a.example/img/mark.png", {"og:image:width": "512", "og:image:height": "512"}, False),
])
def test_a_share_card_is_told_from_a_logo_file(url: str, meta: dict[str, str], card: bool) -> None:
    assert is_share_card(url, meta) is card


def test_a_share_card_is_no_logo_but_an_og_image_of_the_logo_file_is() -> None:
    card = draft({"/": page("<h1>Ledgerly</h1><p>Ledgerly keeps your books.</p>", title="Ledgerly",
                            head='<meta property="og:image" content="https://site.example/assets/ledgerly-share.png">')})
    assert card.value("logo_url") is None
    logo = draft({"/": page("<h1>Ledgerly</h1><p>Ledgerly keeps your books.</p>", title="Ledgerly",
                            head='<meta property="og:image" content="https://site.example/img/ledgerly-logo.png">')})
    assert logo.value("logo_url") == "https://site.example/img/ledgerly-logo.png"
