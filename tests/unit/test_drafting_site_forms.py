"""How real sites write what the extractive drafter reads: cards, stat blocks, trials, addresses, FAQ markers.

Each page is a few lines of HTML in the form sites use, extracted by the
crawler's own code; every draft still goes through ``verify()``, so a value
asserted here is also one whose quotes the gate accepted.
"""

from __future__ import annotations

from tests.fixtures.drafting_forms import draft, page
from workers.drafting.addresses import _town_of
from workers.drafting.countries import countries_named, country_code


def test_paid_plans_with_a_trial_are_a_free_trial_and_a_free_plan_stays_freemium() -> None:
    trial = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(
        "<h1>Pricing</h1><p>Every plan comes with a 14-day free trial.</p><h3>Team</h3><p>$29 per month</p>")})
    assert trial.value("pricing_model") == "free trial"
    german = draft({"/": page("<h1>Acme</h1>"), "/preise": page(
        "<h1>Preise</h1><p>Jetzt 7 Tage kostenlos testen.</p><h3>Pro</h3><p>49 \u20ac pro Monat</p>")})
    assert german.value("pricing_model") == "free trial"
    freemium = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(
        "<h1>Pricing</h1><p>Free plan for up to 3 users.</p><p>Pro costs $12 per month, with a 14-day trial.</p>")})
    assert freemium.value("pricing_model") == "freemium"
    app_free = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(
        "<h1>Pricing</h1><p>The Acme app is free, with every feature.</p><p>Sync costs $4/month.</p>")})
    assert app_free.value("pricing_model") == "freemium"


def test_one_line_cards_and_icon_lines_make_a_feature_list() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><div><span>\U0001f517</span><p><b>Automatic backlinks</b> \u2014 mention a note and it links.</p></div>"
        "<div><span>\U0001f4c1</span><p><b>Your files</b> \u2014 no database, no lock-in.</p></div>"
        "<div><span>\u26a1</span><p><b>Instant search</b> \u2014 50,000 notes searched as you type.</p></div>")})
    assert result.value("features") == ["Automatic backlinks", "Your files", "Instant search"]
    colon = draft({"/": page(
        "<h1>Acme</h1><ul><li><b>Scenarios in TypeScript:</b> real code, reviewed in pull requests.</li>"
        "<li><b>Readable reports:</b> percentiles on one page.</li><li><b>CI thresholds:</b> fail the build on p95.</li></ul>")})
    assert colon.value("features") == ["Scenarios in TypeScript", "Readable reports", "CI thresholds"]


def test_a_heading_with_its_continuation_is_not_a_card() -> None:
    result = draft({"/": page(
        "<h1>Lumen Notes</h1><p>Lumen Notes links your reading notes to their sources.</p>"
        "<p>Visible tail: used by 300 labs.</p><h2>Split words</h2><p>and a line break.</p>")})
    assert result.value("features") is None


def test_stat_blocks_and_figures_are_selling_points_testimonials_are_not() -> None:
    stats = draft({"/": page(
        "<h1>Acme</h1><div><b>\u00dcber 300 Onlineshops</b><p>vertrauen bereits auf Acme</p></div>"
        "<div><b>Pers\u00f6nlicher Support</b><p>per Telefon, ohne Ticketsystem</p></div>")})
    assert stats.value("usps") == ["\u00dcber 300 Onlineshops", "Pers\u00f6nlicher Support"]
    figure = draft({"/": page(
        "<h1>Acme</h1><p>Bootcamps on Acme report a 92% course completion rate, and the data stays yours.</p>"
        "<blockquote>\u201cWe grew 40% in a month with it.\u201d</blockquote>")})
    assert figure.value("usps") == ["92% course completion rate"]


def test_faq_markers_are_not_part_of_question_or_answer_and_cookie_notices_are_not_answers() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><h2>FAQ</h2><p>Q: Is Acme open source?</p><p>A: The runner is MIT-licensed.</p>"
        "<p>Do readers need an account?</p><p>No, an email address is enough.</p>"
        "<div class='x1'>This website uses cookies. Accept Decline</div>")})
    assert [(f["question"], f["answer"]) for f in result.faqs] == [
        ("Is Acme open source?", "The runner is MIT-licensed."),
        ("Do readers need an account?", "No, an email address is enough."),
    ]


def test_founders_introducing_themselves_and_names_with_inner_capitals() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/about": page(
        "<h1>About</h1><p>Hi, I'm Wren Albright, founder of Acme, and its only developer.</p>"
        "<p>Owen MacLeod</p><p>Co-founder and CTO</p>")})
    assert [(f["name"], f["title"]) for f in result.founders] == [
        ("Wren Albright", "Founder of Acme"), ("Owen MacLeod", "Co-founder and CTO")]


def test_addresses_as_footers_print_them() -> None:
    assert _town_of("Av. Chapultepec Sur 480, Col. Americana, 44160 Guadalajara, Jalisco, M\u00e9xico") == ("Guadalajara", "MX")
    assert _town_of("Vancouver, BC V6E 2E9, Canada") == ("Vancouver", "CA")
    assert _town_of("Level 2, 160 Johnston Street, Fitzroy VIC 3065, Melbourne, Australia") == ("Melbourne", "AU")
    assert _town_of("Boston, MA 02215, USA") == ("Boston", "US")
    assert _town_of("1200 Boylston Street, Suite 400") == (None, None)
    assert country_code("Oregon") == "US" and country_code("Ontario") == "CA"
    assert countries_named("Portland, Oregon") == [("oregon", "US")]
    assert country_code("Georgia") is None  # a country and a US state: never guessed


def test_glued_footer_links_give_way_to_the_address_shown_whole() -> None:
    result = draft({"/": page("<h1>Acme</h1><footer><a href='/i'>Impressum</a><a href='/d'>Datenschutz</a>"
                              "<span>hallo@acme.example</span></footer>"),
                    "/impressum": page("<h1>Impressum</h1><p>Kontakt: hallo@acme.example</p>")})
    assert result.value("contact_email") == "hallo@acme.example"


def test_registered_company_name_yields_to_the_product_name_and_the_headline_is_the_tagline() -> None:
    ld = '<script type="application/ld+json">{"@type": "LocalBusiness", "name": "Acme Publishing Ltd"}</script>'
    result = draft({"/": page("<h1>Newsletters for independent writers</h1><p>Acme is a newsletter tool.</p>",
                              title="Acme | Send newsletters", head=ld)})
    assert result.value("name") == "Acme"
    assert result.value("tagline") == "Newsletters for independent writers"


def test_categories_ignore_only_the_sentence_that_denies() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><p>Run the Docker image on your own infrastructure. An outage never takes your app down.</p>",
        head='<meta name="description" content="Acme is an open-source feature flag service you can self-host.">')})
    assert result.value("categories") == ["devops"]


def test_a_card_text_with_a_dash_stays_the_text_of_its_heading() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><h3>Sprechererkennung</h3><p>Acme erkennt, wer was gesagt hat \u2013 auch bei acht Personen.</p>"
        "<h3>Protokoll mit Aufgaben</h3><p>Entscheidungen landen direkt im Protokoll.</p>"
        "<h3>Fachvokabular lernen</h3><p>Eigene Begriffe werden richtig geschrieben.</p>")})
    assert result.value("features") == ["Sprechererkennung", "Protokoll mit Aufgaben", "Fachvokabular lernen"]


def test_a_pricing_page_without_prices_that_asks_to_get_in_touch_is_contact() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/preise": page(
        "<h1>Preise</h1><p>Jedes Paket stellen wir individuell zusammen.</p><p>Preis auf Anfrage.</p>", title="Preise")})
    assert result.value("pricing_model") == "contact"
    priced = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(
        "<h1>Pricing</h1><p>Team: $29 per month.</p><p>Enterprise: contact sales.</p>")})
    assert priced.value("pricing_model") == "subscription"


def test_dutch_italian_and_portuguese_pages_are_read_in_their_own_words() -> None:
    dutch = draft({"/": page("<h1>Acme</h1><p>Wij zijn gevestigd in Utrecht, Nederland.</p>"), "/prijzen": page(
        "<h1>Prijzen</h1><p>Probeer Acme 14 dagen gratis uit, zonder proefperiode-kosten.</p><p>Team: \u20ac29 per maand</p>")})
    assert (dutch.value("pricing_model"), dutch.value("city"), dutch.value("country")) == ("free trial", "Utrecht", "NL")
    italian = draft({"/": page("<h1>Acme</h1>"), "/chi-siamo": page(
        "<h1>Chi siamo</h1><p>Giulia Rossi</p><p>Cofondatrice e CEO</p><p>Marco Bianchi</p><p>Fondatore e CTO</p>")})
    assert [(f["name"], f["title"]) for f in italian.founders] == [
        ("Giulia Rossi", "Cofondatrice e CEO"), ("Marco Bianchi", "Fondatore e CTO")]


def test_an_offer_with_a_figure_is_no_selling_point_and_a_headline_naming_the_product_is_no_tagline() -> None:
    result = draft({"/": page("<h1>Welcome to Acme</h1><p>Save 20% with yearly billing on every plan.</p>",
                              title="Acme | Invoices without the busywork")})
    assert result.value("usps") is None
    assert result.value("tagline") == "Invoices without the busywork"


def test_plan_cards_are_no_stat_blocks() -> None:
    result = draft({"/": page("<h1>Acme</h1><div><b>Starter 0 \u20ac</b><p>f\u00fcr immer</p></div>"
                              "<div><b>Pro 12 \u20ac</b><p>pro Monat</p></div>")})
    assert result.value("usps") is None


def test_a_contact_line_ends_a_list_of_features_or_selling_points() -> None:
    result = draft({"/": page(
        "<h1>Quokka Notes</h1><p>Meeting notes that write themselves.</p>"
        "<h2>Features</h2><ul><li>Automatic call summaries</li><li>Email templates for follow-ups</li>"
        "<li>Works with Zoom and Google Meet</li></ul>"
        "<p>Pricing: $8 per user per month.</p><p>Email support@quokkanotes.example</p>"
        "<h2>Why teams choose us</h2><ul><li>Summaries in 30 seconds</li><li>Private by default</li>"
        "<li>Contact us at hello@quokkanotes.example</li></ul>", title="Quokka Notes")})
    assert result.value("features") == ["Automatic call summaries", "Email templates for follow-ups",
                                        "Works with Zoom and Google Meet"]  # "Email templates" is a feature
    assert result.value("usps") == ["Summaries in 30 seconds", "Private by default"]
    assert result.value("contact_email") in ("support@quokkanotes.example", "hello@quokkanotes.example")


def test_a_submitted_sub_page_yields_to_the_site_s_homepage_but_a_product_page_does_not() -> None:
    home = page("<h1>Tallyfox</h1><p>Invoice tracking for freelancers.</p>"
                "<p>Tallyfox chases late invoices for you and reconciles every payment with your bank.</p>",
                title="Tallyfox – Invoice tracking for freelancers")
    about = page("<h1>About</h1><p>We are two freelancers from Cork who hated chasing payments.</p>",
                 title="About – Tallyfox")
    result = draft({"/about": about, "/": home})  # the founder pasted the about page's address
    assert result.value("name") == "Tallyfox" and result.value("tagline") == "Invoice tracking for freelancers"
    company = page("<h1>Foxworks</h1><p>We make tools for small firms.</p>", title="Foxworks")
    product = page("<h1>Tallyfox</h1><p>Invoice tracking for freelancers.</p>", title="Tallyfox")
    assert draft({"/products/tallyfox": product, "/": company}).value("name") == "Tallyfox"  # not the company's
