"""Forms met on the unseen corpus's fourth round: roles in brackets, plans priced on request, addresses that
show their country without naming it, accordions and selling-point blocks marked up by class, words that deny
a category.

Like ``test_drafting_site_forms.py``: small pages through the crawler's own extraction, every draft gated by
``verify()`` (nothing dropped), so each value asserted here is one whose quotes the gate accepted.
"""

from __future__ import annotations

from tests.fixtures.drafting_forms import draft, founders, page
from workers.drafting.countries import countries_indicated


def test_two_founders_with_their_roles_in_brackets_on_one_line() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/nosotros/": page(
        "<figure><figcaption>Fernanda R\u00edos (cofundadora y directora general) y Diego Salcedo (cofundador y "
        "director de tecnolog\u00eda)</figcaption></figure>", lang="es")})
    assert founders(result) == {"Fernanda R\u00edos": "cofundadora y directora general",
                                "Diego Salcedo": "cofundador y director de tecnolog\u00eda"}


def test_a_footer_sentence_naming_the_maker_and_a_co_creator_card() -> None:
    footer = draft({"/": page("<h1>Pinwheel</h1><footer><p>Pinwheel is made by Ines Okafor, founder and sole "
                              "developer.</p></footer>", title="Pinwheel")})
    assert founders(footer) == {"Ines Okafor": "Founder"}
    cards = draft({"/": page("<h1>Tidepool</h1><h3>Noor Haddad</h3><p>Co-creator, lead maintainer</p>", title="Tidepool")})
    assert founders(cards) == {"Noor Haddad": "Co-creator, lead maintainer"}


def test_a_free_plan_beside_a_plan_priced_on_request_is_freemium() -> None:
    result = draft({"/": page("<h1>Caboche</h1>", lang="fr"), "/tarifs": page(
        "<h1>Tarifs</h1><div><h3>Enseignant</h3><p>Gratuit</p><p>Quiz illimit\u00e9s.</p></div>"
        "<div><h3>\u00c9tablissement</h3><p>Sur devis</p><p>Tous les enseignants.</p></div>", lang="fr")})
    assert result.value("pricing_model") == "freemium"
    assert result.value("pricing_summary") == "Enseignant Gratuit. \u00c9tablissement Sur devis."


def test_a_one_pager_names_its_price_in_a_phrase() -> None:
    result = draft({"/": page("<h1>Pinwheel</h1><section><h2>One price. Yours to keep.</h2><p><strong>$79</strong> "
                              "one-time purchase. Free 7-day trial, no account needed.</p></section>", title="Pinwheel")})
    assert result.value("pricing_model") == "free trial"
    assert "$79 one-time purchase" in str(result.value("pricing_summary"))


def test_an_open_source_statement_is_also_the_pricing_summary() -> None:
    statement = "Tidepool is free and open source under the Apache License 2.0. Tidepool Cloud starts at $49 per month."
    result = draft({"/": page(f"<h1>Tidepool</h1><h2>License and hosting</h2><p>{statement}</p>", title="Tidepool")})
    assert result.value("pricing_model") == "open source"
    assert result.value("pricing_summary") == statement


def test_an_address_shows_its_country_by_postcode_town_or_phone_number() -> None:
    dutch = draft({"/": page("<h1>Acme</h1>"), "/over-ons": page(
        "<address>Acme B.V.<br>Oudegracht 200<br>3511 NR Utrecht</address>", lang="nl")})
    assert (dutch.value("city"), dutch.value("country")) == ("Utrecht", "NL")
    german = draft({"/": page("<h1>Acme</h1>"), "/impressum": page(
        "<p>Acme GmbH</p><p>Leopoldstra\u00dfe 9</p><p>80802 M\u00fcnchen</p>", lang="de")})
    assert (german.value("city"), german.value("country")) == ("M\u00fcnchen", "DE")
    by_phone = draft({"/": page("<h1>Acme</h1>"), "/impressum": page(
        "<p>Acme GmbH</p><p>Hauptstra\u00dfe 9</p><p>07743 Jena</p><p>Telefon +49 3641 1234</p>", lang="de")})
    assert (by_phone.value("city"), by_phone.value("country")) == ("Jena", "DE")


def test_a_town_of_one_country_names_it_but_an_ambiguous_or_lower_case_one_does_not() -> None:
    assert [code for _, code in countries_indicated("Acme was founded in 2021 in Lisbon by two managers.")] == ["PT"]
    assert countries_indicated("A nice team in Cambridge and Portland.") == []
    result = draft({"/": page("<h1>Acme</h1><p>Acme is made with care in Amsterdam.</p>")})
    assert (result.value("city"), result.value("country")) == ("Amsterdam", "NL")


def test_a_region_between_town_and_country_and_a_founding_sentence_in_spanish() -> None:
    address = draft({"/": page("<h1>Acme</h1>"), "/about": page(
        "<p>Acme Inc. \u00b7 1800 Argyle Street, Halifax, Nova Scotia, Canada</p>")})
    assert (address.value("city"), address.value("country")) == ("Halifax", "CA")
    sentence = draft({"/": page("<h1>Acme</h1>"), "/nosotros/": page(
        "<p>Acme se fund\u00f3 en 2023 en Guadalajara, Jalisco. Fernanda R\u00edos quer\u00eda otra app.</p>", lang="es")})
    assert (sentence.value("city"), sentence.value("country")) == ("Guadalajara", "MX")


def test_a_mailto_address_the_footer_text_runs_on_from() -> None:
    result = draft({"/": page('<h1>Acme</h1><footer><nav><a href="mailto:soporte@acme.example">soporte@acme.example</a>'
                              '<a href="https://www.instagram.example/acme">Instagram</a></nav></footer>')})
    assert result.value("contact_email") == "soporte@acme.example"


def test_collapsed_accordion_answers_are_read_but_unopenable_hidden_text_is_not() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/faq": page(
        "<h1>Frequently asked questions</h1>"
        '<div><button aria-expanded="false" aria-controls="a1">Does my code leave our CI?</button>'
        '<div id="a1" hidden><p>No. The scanner runs on your runners.</p></div></div>'
        '<div hidden><h3>Is Acme free forever?</h3><p>HIDDEN-ANSWER</p></div>')})
    faqs = {f["question"]: f["answer"] for f in result.to_dict()["faqs"]}
    assert faqs == {"Does my code leave our CI?": "No. The scanner runs on your runners."}


def test_selling_points_in_a_block_marked_as_such_but_not_feature_cards() -> None:
    marked = draft({"/": page('<h1>Acme</h1><ul class="ventajas"><li>Integraci\u00f3n con Shopify en cinco minutos</li>'
                              "<li>Soporte en espa\u00f1ol por personas de verdad</li></ul>", lang="es")})
    assert marked.value("usps") == ["Integraci\u00f3n con Shopify en cinco minutos",
                                    "Soporte en espa\u00f1ol por personas de verdad"]
    cards = draft({"/": page('<h1>Acme</h1><section class="benefits"><h3>Online payment</h3><p>Cards and SEPA '
                             "transfers with structured references.</p><h3>Reminders</h3><p>A polite email 7, 14 and "
                             "30 days after the due date.</p></section>")})
    assert cards.value("usps") is None


def test_a_category_word_right_after_a_negator_supports_nothing() -> None:
    result = draft({"/": page("<h1>Pinwheel</h1><p>Pinwheel is a Mac app: click anywhere and leave a pinned comment. "
                              "No browser extension, no no-code builder lock-in, just the real site.</p>",
                              title="Pinwheel")})
    assert "no-code" not in (result.value("categories") or [])


def test_a_phrase_that_alone_says_what_the_product_is_counts_as_the_category_name() -> None:
    result = draft({"/": page("<h1>Larkspur</h1><p>Larkspur is an email newsletter tool made for independent "
                              "bookshops.</p>", title="Larkspur \u2014 Your shop's weekly letter")})
    assert result.value("categories") == ["email-marketing"]


def test_a_feature_table_by_its_header_and_numbered_or_emoji_led_cards() -> None:
    table = draft({"/": page("<h1>Harborlog</h1><table><tr><th>Feature</th><th>What it does on site</th></tr>"
                             "<tr><td>Offline daily logs</td><td>Works without signal.</td></tr>"
                             "<tr><td>Manpower and plant tracking</td><td>Headcount per subcontractor, crane or lorry."
                             "</td></tr></table>", title="Harborlog")})
    assert table.value("features") == ["Offline daily logs", "Manpower and plant tracking"]
    cards = draft({"/": page("<h1>Ferrymark</h1>" + "".join(
        f"<div><span>0{i}</span><h3>{label}</h3><p>{text}</p></div>" for i, (label, text) in enumerate(
            [("Request inspector", "Search every webhook by any field."), ("Automatic retries", "Held and retried for days."),
             ("One-click replay", "Send any past event again.")], 1)), title="Ferrymark")})
    assert cards.value("features") == ["Request inspector", "Automatic retries", "One-click replay"]
    emoji = draft({"/": page("<h1>Sundial</h1><h2>What Sundial does</h2>"
                             "<p>\U0001F4C5 Booking page with your hours \u2014 share one link to your free slots.</p>"
                             "<p>\U0001F4AC Text reminders \u2014 a reminder the day before cuts no-shows.</p>"
                             "<p>\U0001F4DD Intake forms \u2014 consent and history arrive before the client does.</p>",
                             title="Sundial")})
    assert emoji.value("features") == ["Booking page with your hours", "Text reminders", "Intake forms"]


def test_a_licensed_free_edition_is_open_source_and_a_quote_only_page_is_contact() -> None:
    licensed = draft({"/": page("<h1>Boussole</h1>", lang="fr"), "/tarifs": page(
        "<h1>Tarifs</h1><table><tr><td>Auto-h\u00e9berg\u00e9</td><td>Gratuit (AGPL-3.0)</td></tr>"
        "<tr><td>Cloud</td><td>9 $ CA par mois</td></tr></table>", lang="fr")})
    assert licensed.value("pricing_model") == "open source"
    quote = draft({"/": page("<h1>Harborlog</h1>"), "/pricing": page(
        "<h1>Pricing</h1><p>We don't publish a price list. Tell us about your projects and we'll send you a quote "
        "within one working day.</p><p>Every company can run a free 30-day pilot on one project.</p>")})
    assert quote.value("pricing_model") == "contact"
    assert "send you a quote" in str(quote.value("pricing_summary"))


def test_descriptions_leave_out_blog_teasers_and_people_who_are_not_founders() -> None:
    result = draft({"/": page("<h1>Quaywise</h1><p>Quaywise is a content audit tool for blogs that finds decaying "
                              "posts.</p><h2>From the blog</h2><p>A guest post from Callum Dwyer of Brightfern Media "
                              "on AI search.</p>", title="Quaywise"),
                    "/about": page("<h1>About</h1><p>Quaywise was founded in 2019 by Greta Lindqvist in Galway.</p>"
                                   "<p>Nos asesora Jordi Pons, antiguo director de producto.</p>", title="Quaywise")})
    description = str(result.value("description"))
    assert "Greta Lindqvist" in description
    assert "Callum Dwyer" not in description and "Jordi Pons" not in description


def test_a_faq_answer_stops_at_the_footer() -> None:
    result = draft({"/": page("<h1>Sundial</h1><h2>Questions</h2><h3>Which calendars does Sundial sync with?</h3>"
                              "<p>Google Calendar and Outlook, both ways.</p><footer><p>Sundial LLC</p></footer>"
                              "<div><p>We only use one cookie, to keep you logged in.</p></div>", title="Sundial")})
    faqs = {f["question"]: f["answer"] for f in result.to_dict()["faqs"]}
    assert faqs == {"Which calendars does Sundial sync with?": "Google Calendar and Outlook, both ways."}


def test_founders_from_founding_sentences_in_other_languages_with_their_roles() -> None:
    german = draft({"/": page("<h1>Leitwerk</h1>", lang="de"), "/team": page(
        "<p>Leitwerk wurde 2020 von Theresa Kaltenbach und Moritz Oberle gegr\u00fcndet. Theresa verantwortet als "
        "Mitgr\u00fcnderin das Produkt, Moritz als Mitgr\u00fcnder die Technik.</p>", lang="de")})
    assert founders(german) == {"Theresa Kaltenbach": "Mitgr\u00fcnderin", "Moritz Oberle": "Mitgr\u00fcnder"}
    assert german.value("founded_year") == "2020"
    swedish = draft({"/": page("<h1>Fyrtorn</h1>", lang="sv"), "/om-oss": page(
        "<h3>Elsa Lindgren</h3><p>Medgrundare &amp; vd</p>", lang="sv")})
    assert founders(swedish) == {"Elsa Lindgren": "Medgrundare & vd"}
    intro = draft({"/": page("<h1>Recado</h1>", lang="es"), "/nosotros/": page(
        "<p>Soy Valentina Restrepo, fundadora de Recado. Mi mam\u00e1 tiene una tienda.</p>", lang="es")})
    assert list(founders(intro)) == ["Valentina Restrepo"]


def test_an_account_link_over_a_repository_link_and_postal_district_letters() -> None:
    result = draft({"/": page('<h1>Sootline</h1><a href="https://github.example/sootline/sootline">Star us</a>'
                              '<a href="https://github.example/sootline">GitHub</a>', title="Sootline"),
                    "/about": page("<p>Sootline ApS, \u00c5boulevarden 22, 8000 Aarhus C, Denmark.</p>")})
    assert result.to_dict()["company_socials"]["github"] == "https://github.example/sootline"
    assert (result.value("city"), result.value("country")) == ("Aarhus", "DK")
