"""Forms met on the unseen corpus's rounds from 7 on (one section per round): timelines and fact sheets, founders
named in passing, occupations before names, postcodes, registers and company forms that name a country, utility
classes and off-screen text that hide, quote-only, threshold and denied pricing, chrome shown on every page,
sentences saying what a product is not, and the words of the languages those rounds brought.

Like ``test_drafting_site_forms.py``: small pages through the crawler's own extraction, every draft gated by
``verify()`` (nothing dropped), so each value asserted here is one whose quotes the gate accepted.
"""

from __future__ import annotations

from tests.fixtures.drafting_forms import draft, founders, page
from workers.drafting.countries import countries_indicated
from workers.drafting.vocab import pricing_cues


def test_a_timelines_year_over_its_founding_event_and_a_fact_sheets_label() -> None:
    timeline = draft({"/": page("<h1>Quarryline</h1>", title="Quarryline"), "/about": page(
        "<h2>Our story</h2><p>2019</p><p>Marisol Ybarra loses a delay claim.</p><p>2021</p>"
        "<p>Marisol Ybarra and Caleb Whitacre found Quarryline in Denver.</p>")})
    assert timeline.value("founded_year") == "2021"
    assert set(founders(timeline)) == {"Marisol Ybarra", "Caleb Whitacre"}
    sheet = draft({"/": page("<h1>Wheelwright</h1>", title="Wheelwright"), "/press": page(
        "<h2>Fact sheet</h2><dl><dt>Founded</dt><dd>2020, Leeds</dd></dl>")})
    assert sheet.value("founded_year") == "2020"


def test_a_timeline_sentence_in_the_present_tense_gives_year_and_founders_without_their_occupations() -> None:
    result = draft({"/": page("<h1>Hufschlag</h1>", title="Hufschlag", lang="de"), "/ueber-uns": page(
        "<p>2020 Tierärztin Carola Bredemeier und Softwareentwickler Jannik Oltmanns gründen Hufschlag.</p>"
        "<h3>Dr. Carola Bredemeier</h3><p>Gründerin, Geschäftsführerin</p>"
        "<h3>Jannik Oltmanns</h3><p>Gründer, Technik</p>", lang="de")})
    assert result.value("founded_year") == "2020"
    assert founders(result) == {"Carola Bredemeier": "Gründerin, Geschäftsführerin", "Jannik Oltmanns": "Gründer, Technik"}


def test_first_names_with_their_roles_after_the_full_names() -> None:
    result = draft({"/": page("<h1>Chasqui</h1>", title="Chasqui", lang="es"), "/blog/historia": page(
        "<p>En 2022, Renzo Quispe tenía una empresa de mensajería. Su amiga Daniela Paredes, ingeniera, lo ayudó.</p>"
        "<p>Así empezó todo, cuenta Daniela, cofundadora y CTO. Renzo, cofundador y CEO, sigue repartiendo.</p>",
        lang="es")})
    assert founders(result) == {"Daniela Paredes": "Cofundadora y CTO", "Renzo Quispe": "Cofundador y CEO"}


def test_a_founder_writing_of_the_other_over_two_paragraphs() -> None:
    result = draft({"/": page("<h1>Lamplighter</h1>", title="Lamplighter"), "/blog/why": page(
        "<p>Tobias Renfro and I met on the board of a literacy program.</p>"
        "<p>In 2023 we left our jobs and founded Lamplighter. Tobias builds the product as CTO.</p>")})
    assert founders(result) == {"Tobias Renfro": "CTO"}
    assert result.value("founded_year") == "2023"


def test_founding_years_and_founders_in_czech_and_finnish() -> None:
    czech = draft({"/": page("<h1>Volant</h1>", title="Volant", lang="cs"), "/o-nas": page(
        "<p>Volant jsme založili v roce 2021 v Brně.</p><h3>Jana Dvořáková</h3><p>spoluzakladatelka, jednatelka</p>",
        lang="cs")})
    assert czech.value("founded_year") == "2021"
    assert founders(czech) == {"Jana Dvořáková": "spoluzakladatelka, jednatelka"}
    finnish = draft({"/": page("<h1>Kinos</h1><p>Kinos syntyi Oulussa talvella 2021.</p>"
                               "<p>Ville Kemppainen, perustaja, toimitusjohtaja</p>", lang="fi")})
    assert finnish.value("founded_year") == "2021"
    assert founders(finnish) == {"Ville Kemppainen": "perustaja, toimitusjohtaja"}


def test_postcodes_and_company_forms_of_one_country() -> None:
    assert [code for _, code in countries_indicated("Halifax, NS B3J 3N4")] == ["CA"]
    assert "GB" in [code for _, code in countries_indicated("Foundry Street, Leeds LS11 5QP")]
    assert [code for _, code in countries_indicated("Kinos Oy · Kauppurienkatu 23, 90100 Oulu")] == ["FI"]
    assert countries_indicated("Call 0800 123 4567 or read version 2 OF 3") == []
    british = draft({"/": page("<h1>Wheelwright</h1>", title="Wheelwright"), "/contact": page(
        "<h1>Contact</h1><p>Round Foundry Media Centre, Foundry Street, Leeds LS11 5QP</p>")})
    assert (british.value("city"), british.value("country")) == ("Leeds", "GB")
    canadian = draft({"/": page("<h1>Gleaner</h1><h2>Developer</h2><p>1801 Hollis Street, Suite 1200</p>"
                                "<p>Halifax, NS B3J 3N4</p><p>Canada</p>")})
    assert (canadian.value("city"), canadian.value("country")) == ("Halifax", "CA")


def test_a_town_with_its_river_in_brackets_and_a_district_before_the_town() -> None:
    german = draft({"/": page("<h1>Hufschlag</h1>", title="Hufschlag", lang="de"), "/impressum": page(
        "<h1>Impressum</h1><p>Hufschlag Software GmbH</p><p>Lindhooper Straße 61</p><p>27283 Verden (Aller)</p>"
        "<p>Deutschland</p>", lang="de")})
    assert (german.value("city"), german.value("country")) == ("Verden", "DE")
    peruvian = draft({"/": page("<h1>Chasqui</h1><footer><p>Chasqui · Av. José Larco 1150, of. 604, Miraflores, Lima"
                                "</p></footer>", lang="es")})
    assert (peruvian.value("city"), peruvian.value("country")) == ("Lima", "PE")


def test_a_signature_in_a_town_and_an_australian_state() -> None:
    result = draft({"/": page("<h1>Hayloft</h1><p>— Jess Carmody, founder, from our kitchen table in Mudgee, NSW</p>")})
    assert (result.value("city"), result.value("country")) == ("Mudgee", "AU")


def test_text_hidden_at_every_screen_size_by_utility_classes_is_not_read() -> None:
    result = draft({"/": page(
        "<h1>Zapfhahn</h1><div class='elementor-element elementor-hidden-desktop elementor-hidden-tablet "
        "elementor-hidden-mobile'><p>Zapfhahn wurde 2008 gegründet.</p></div>"
        "<p class='d-none'>Founded in 2007.</p><p class='hidden md:block'>Zapfhahn wurde 2019 in Linz gegründet.</p>",
        lang="de")})
    assert result.value("founded_year") == "2019"


def test_a_quote_only_price_and_a_free_tier_below_a_threshold() -> None:
    quote = draft({"/": page("<h1>Grelot</h1>", title="Grelot", lang="fr"), "/tarifs/": page(
        "<h1>Tarifs</h1><p>Chaque commune reçoit un devis sur mesure, sous forme d’abonnement annuel.</p>", lang="fr")})
    assert quote.value("pricing_model") == "contact"
    assert "free plan" in pricing_cues("Lamplighter is free until your organization raises $10,000 a year.")
    czech = draft({"/": page("<h1>Volant</h1>", title="Volant", lang="cs"), "/cenik": page(
        "<h1>Ceník</h1><p>Autoškola: 490 Kč měsíčně za instruktora.</p>", lang="cs")})
    assert czech.value("pricing_model") == "subscription"
    assert czech.value("pricing_summary") == "Autoškola: 490 Kč měsíčně za instruktora."


def test_the_pricing_heading_whose_section_has_prices() -> None:
    result = draft({"/": page("<h1>Gleaner</h1><h2>Pricing</h2><p>Free plan available.</p><h2>About this app</h2>"
                              "<p>Gleaner tells shoppers when a product is back.</p><h2>Pricing</h2><h3>Growth</h3>"
                              "<p>$14.99 / month</p>", title="Gleaner")})
    assert "$14.99 / month" in str(result.value("pricing_summary"))


def test_a_sentence_saying_what_the_product_is_not_stays_out_of_the_description() -> None:
    result = draft({"/": page("<h1>Tanager</h1><p>Tanager is an offline-first app for ecological field surveys.</p>"
                              "<p>Tanager has no blockchain, no tokens and no badges for volunteers.</p>"
                              "<blockquote>\u201cOur supers finish their logs before they leave.\u201d</blockquote>"
                              "<p>Dolores Achterberg</p><p>Project Executive, Redstone Flatwork Co.</p>", title="Tanager")})
    description = str(result.value("description"))
    assert "offline-first" in description
    assert "blockchain" not in description and "Redstone" not in description


def test_a_product_tours_tabs_are_its_features() -> None:
    result = draft({"/": page(
        "<h1>Quarryline</h1><h2>One app from the first stake to the last pour</h2><div role='tablist'>"
        "<a role='tab' aria-controls='p1' aria-selected='true' style='display:block'>Voice-to-log daily reports</a>"
        "<a role='tab' aria-controls='p2' style='display:block'><div>Pour scheduler</div></a>"
        "<a role='tab' aria-controls='p3'><div>Ticket capture</div></a></div>"
        "<div role='tabpanel' id='p1'><p>Talk through the day on the drive home.</p></div>"
        "<div role='tabpanel' id='p2' hidden><p>Book pumps and inspections on one calendar.</p></div>"
        "<div role='tabpanel' id='p3' hidden><p>Snap the batch ticket when the truck arrives.</p></div>",
        title="Quarryline")})
    assert result.value("features") == ["Voice-to-log daily reports", "Pour scheduler", "Ticket capture"]


def test_a_letter_signed_by_two_founders_and_a_role_given_by_first_name_on_the_next_line() -> None:
    signed = draft({"/": page("<h1>Hayloft</h1><p>Thanks for reading.</p>"
                              "<p>— Jess Carmody &amp; Tom Haverfield, founders, from our kitchen table</p>", title="Hayloft")})
    assert founders(signed) == {"Jess Carmody": "Founders", "Tom Haverfield": "Founders"}
    next_line = draft({"/": page("<h1>Quaywise</h1>", title="Quaywise"), "/about/": page(
        "<p>Quaywise was founded in 2019 by Greta Lindqvist, who ran content teams for ten years.</p>"
        "<p>Today we are a small team. Greta is still our founder and managing director.</p>", title="Quaywise")})
    assert founders(next_line) == {"Greta Lindqvist": "Founder and managing director"}


# --- round 8 -------------------------------------------------------------------------------------------


def test_founders_in_a_signature_with_a_title_phrase_or_a_title_line_below() -> None:
    phrase = draft({"/": page("<h1>Godille</h1><p>Merci.</p>"
                              "<p>— Mathilde Giraud &amp; Bastien Giraud, moniteurs et fondateurs de Godille</p>",
                              title="Godille", lang="fr")})
    assert founders(phrase) == {"Mathilde Giraud": "Moniteurs et fondateurs de Godille",
                                "Bastien Giraud": "Moniteurs et fondateurs de Godille"}
    below = draft({"/": page("<h1>Riddlewick</h1>", title="Riddlewick"), "/letter": page(
        "<p>We wrote the first version for ourselves.</p><p>— Maya Okonkwo &amp; Theo Lindqvist</p>"
        "<p>Co-founders, Riddlewick</p>", title="Riddlewick")})
    assert founders(below) == {"Maya Okonkwo": "Co-founders", "Theo Lindqvist": "Co-founders"}


def test_a_first_name_in_a_timeline_completed_from_the_line_before() -> None:
    result = draft({"/": page("<h1>Proofsheet</h1>", title="Proofsheet"), "/our-story/": page(
        "<p>Ruth Ellery runs the quoting desk at a family print shop.</p><p>2018</p>"
        "<p>Ruth and Sanjay Patel, a developer, found Proofsheet as co-founders.</p>", title="Proofsheet")})
    assert founders(result) == {"Ruth Ellery": "Co-founders", "Sanjay Patel": "Co-founders"}


def test_founded_in_a_place_and_a_year_by_with_roles_said_later() -> None:
    result = draft({"/": page("<h1>Reeltext</h1>", title="Reeltext"), "/press": page(
        "<p>Reeltext was founded in Montréal in 2021 by Léa Tremblay, a former subtitle editor who is now CEO, and "
        "Arjun Mehta, CTO, who spent eight years on video players.</p>", title="Reeltext")})
    assert founders(result) == {"Léa Tremblay": "CEO", "Arjun Mehta": "CTO"}


def test_a_denied_model_is_no_cue_and_self_hosting_free_is_open_source() -> None:
    assert "free plan" not in pricing_cues("There is no free plan; we are happy to set up a pilot.")
    assert "subscription" not in pricing_cues("Pas d\u2019abonnement : Rideau prend 0,49 \u20ac par billet vendu.")
    assert "free plan" not in pricing_cues("CA$35 per editor per month. Reviewers and clients are free and unlimited.")
    assert pricing_cues("Self-hosting stays free.") == {"open source"}


def test_a_tab_panel_not_selected_stays_hidden() -> None:
    result = draft({"/": page("<h1>Riddlewick</h1>", title="Riddlewick"), "/pricing": page(
        "<h1>Pricing</h1><div role='tablist'><button role='tab' aria-controls='m' aria-selected='true'>Monthly</button>"
        "<button role='tab' aria-controls='y' aria-selected='false'>Annual</button></div>"
        "<div role='tabpanel' id='m'><p>Venue $49 per room / month</p></div>"
        "<div role='tabpanel' id='y' hidden><p>$39 per room / month, billed yearly</p></div>", title="Riddlewick")})
    assert "$39" not in str(result.value("pricing_summary"))
    assert "$49" in str(result.value("pricing_summary"))


def test_addresses_with_a_street_or_region_after_the_town_and_a_us_state_and_zip() -> None:
    hungarian = draft({"/": page("<h1>Borravaló</h1><footer><p>Borravaló Kft. · 1075 Budapest, Kazinczy utca 14. · "
                                 "szia@borravalo.example</p></footer>", title="Borravaló", lang="hu")})
    assert (hungarian.value("city"), hungarian.value("country")) == ("Budapest", "HU")
    french = draft({"/": page("<h1>Godille</h1><p>Godille · 73700 Bourg-Saint-Maurice, Savoie · piste@godille.example</p>",
                              title="Godille", lang="fr")})
    assert french.value("city") == "Bourg-Saint-Maurice"
    american = draft({"/": page("<h1>Riddlewick</h1><p>Riddlewick LLC</p><p>Columbus, OH 43201</p>", title="Riddlewick")})
    assert (american.value("city"), american.value("country")) == ("Columbus", "US")


def test_a_site_builders_badge_is_no_place_and_a_logo_is_an_image_showing_the_name() -> None:
    result = draft({"/": page("<h1>Vandkant</h1><img src='https://cdn.example/Qm7.svg' alt='Vandkant'>"
                              "<p>Vandkant ApS · Papirfabrikken 24 · 8600 Silkeborg</p><p>Made in Framer</p>",
                              title="Vandkant", lang="da")})
    assert result.value("city") == "Silkeborg"
    assert result.value("logo_url") == "https://cdn.example/Qm7.svg"


def test_a_comparison_table_naming_the_product_gives_its_features() -> None:
    result = draft({"/": page(
        "<h1>Reeltext</h1><h2>What changes when your team moves to Reeltext</h2><table>"
        "<tr><th></th><th>Desktop editor</th><th>Reeltext</th></tr>"
        "<tr><td>Shot-change snapping</td><td>Manual</td><td>Cues snap to shot changes</td></tr>"
        "<tr><td>Style-guide checks</td><td>A printed checklist</td><td>Checked as you type</td></tr></table>",
        title="Reeltext")})
    assert result.value("features") == ["Shot-change snapping", "Style-guide checks"]


def test_hungarian_pricing_page_founders_and_year() -> None:
    result = draft({"/": page("<h1>Borravaló</h1>", title="Borravaló", lang="hu"),
                    "/arak": page("<h1>Árak</h1><h3>Bisztró</h3><p>9 900 Ft / hó</p>", title="Borravaló", lang="hu"),
                    "/rolunk": page("<p>A Borravalót 2023-ban alapította Budapesten két volt vendéglátós.</p>"
                                    "<p>Kovács Réka – társalapító, ügyvezető</p>", title="Borravaló", lang="hu")})
    assert result.value("pricing_model") == "subscription"
    assert result.value("founded_year") == "2023"
    assert founders(result) == {"Kovács Réka": "társalapító, ügyvezető"}


def test_a_list_of_what_the_product_is_not_stays_out_of_the_description() -> None:
    result = draft({"/": page("<h1>Cryobox</h1><p>Cryobox is an open-source sample inventory for research labs.</p>"
                              "<p>No AI, no blockchain, no magic: just barcodes and a well-kept database.</p>",
                              title="Cryobox")})
    assert "blockchain" not in str(result.value("description"))
    assert "sample inventory" in str(result.value("description"))


def test_a_mastodon_profile_on_a_server_of_any_name_marked_rel_me() -> None:
    result = draft({"/": page("<h1>Tanager</h1><a href='https://scholar.social.example/@tanager' rel='me'>Follow</a>"
                              "<a href='https://blog.example/@someone'>A post we liked</a>", title="Tanager")})
    assert result.to_dict()["company_socials"]["mastodon"] == "https://scholar.social.example/@tanager"


# --- round 9 -------------------------------------------------------------------------------------------


def test_a_press_release_founding_sentence_with_occupations_and_roles_on_the_next_line() -> None:
    result = draft({"/": page("<h1>Hebebühne</h1>", title="Hebebühne", lang="de"), "/presse": page(
        "<p>Gegründet wurde das Unternehmen 2022 von Kfz-Meister Murat Yıldırım und der Softwareentwicklerin Lena "
        "Kowalczyk. \u201eDie Tafel denkt mit\u201c, sagt Murat Yıldırım, Mitgründer und Geschäftsführer.</p>"
        "<p>Lena Kowalczyk, Mitgründerin und technische Leiterin, ergänzt: \u201eWir bauen für Werkstätten.\u201c</p>",
        title="Hebebühne", lang="de")})
    assert founders(result) == {"Murat Yıldırım": "Mitgründer und Geschäftsführer",
                                "Lena Kowalczyk": "Mitgründerin und technische Leiterin"}
    assert result.value("founded_year") == "2022"


def test_someone_said_to_be_the_other_co_founder_and_romanian_and_norwegian_titles() -> None:
    other = draft({"/": page("<h1>Hivebook</h1>", title="Hivebook"), "/blog/why": page(
        "<p>I'm Aroha Ngata, co-founder of Hivebook.</p><p>My partner in this, Simon Feltham, is the other co-founder.</p>",
        title="Hivebook")})
    assert founders(other) == {"Aroha Ngata": "Co-founder of Hivebook", "Simon Feltham": "Co-founder"}
    romanian = draft({"/": page("<h1>Ceasornic</h1>", title="Ceasornic", lang="ro"), "/despre-noi": page(
        "<p>Andreea Pop – cofondatoare, operațiuni</p>", title="Ceasornic", lang="ro")})
    assert founders(romanian) == {"Andreea Pop": "cofondatoare, operațiuni"}
    norwegian = draft({"/": page("<h1>Dugnad</h1>", title="Dugnad", lang="nb"), "/om-oss": page(
        "<p>Dugnad ble grunnlagt i Bergen i 2023 av Ingvild Haugland og Sindre Mykletun.</p>"
        "<p>Ingvild Haugland – medgründer og daglig leder</p>", title="Dugnad", lang="nb")})
    assert norwegian.value("founded_year") == "2023"
    assert founders(norwegian)["Ingvild Haugland"] == "medgründer og daglig leder"


def test_a_register_or_a_vat_number_names_the_country_of_a_town_on_the_page() -> None:
    assert [code for _, code in countries_indicated("Amtsgericht Bochum HRB 21457")] == ["DE"]
    assert [code for _, code in countries_indicated("USt-IdNr.: DE331904562")] == ["DE"]
    assert countries_indicated("USt-IdNr.: DE331904561") == []  # check digits that do not hold name nothing
    result = draft({"/": page("<h1>Hebebühne</h1><footer><p>Universitätsstraße 142</p><p>44799 Bochum</p>"
                              "<p>© 2026 Hebebühne GmbH · Amtsgericht Bochum HRB 21457</p></footer>",
                              title="Hebebühne", lang="de")})
    assert (result.value("city"), result.value("country")) == ("Bochum", "DE")


def test_the_towns_address_line_names_its_country() -> None:
    result = draft({"/": page("<h1>Acequia</h1><p>Acequia nació en Mendoza en 2019.</p><footer><p>Acequia · Av. San "
                              "Martín 1452, piso 3 · M5500 Ciudad de Mendoza · Argentina</p></footer>",
                              title="Acequia", lang="es")})
    assert (result.value("city"), result.value("country")) == ("Mendoza", "AR")


def test_tab_buttons_read_as_one_line_under_a_features_heading() -> None:
    result = draft({"/": page(
        "<h1>Ropewalk</h1><h2>Features</h2><div role='tablist'><button role='tab'>Reset planner</button>"
        "<button role='tab'>Community grading</button><button role='tab'>QR check-in</button></div>"
        "<p>Split the wall into sectors and schedule the resets.</p>", title="Ropewalk")})
    assert result.value("features") == ["Reset planner", "Community grading", "QR check-in"]


def test_the_pages_definition_beats_a_meta_description_the_page_does_not_show() -> None:
    result = draft({"/": page("<h1>Every firing, written down.</h1>"
                              "<p>Kilnroom is a shared logbook for community pottery studios: firing logs in one place.</p>",
                              title="Kilnroom",
                              head="<meta name='description' content='Kilnroom keeps firing logs for shared studios.'>")})
    assert result.value("short_description") == \
        "Kilnroom is a shared logbook for community pottery studios: firing logs in one place."


def test_quotes_in_spanish_and_romanian_prices_without_a_subscription() -> None:
    assert "contact" in pricing_cues("Cotizamos según la cantidad de hectáreas empadronadas.")
    cues = pricing_cues("Nu există abonament: 3% din taxa de participare plus 2 lei pe înscriere.")
    assert "subscription" not in cues and "paid" in cues


def test_the_year_of_the_founders_story_of_starting_it() -> None:
    story = draft({"/": page("<h1>Riddlewick</h1>", title="Riddlewick"), "/letter": page(
        "<p>In 2022 we were running a two-room escape venue above a bike shop.</p>"
        "<p>We wrote the first version of Riddlewick for ourselves over one winter.</p>", title="Riddlewick")})
    assert story.value("founded_year") == "2022"
    dated_post = draft({"/": page("<h1>Chasqui</h1>", title="Chasqui", lang="es"), "/blog/historia": page(
        "<p>Blog · 18 de junio de 2024 · 4 min de lectura</p><h1>Cómo empezó Chasqui</h1>", title="Chasqui", lang="es")})
    assert dated_post.value("founded_year") is None  # a post's date over its title is no founding year


# --- round 10 ------------------------------------------------------------------------------------------


def test_a_card_labelled_with_half_menu_words_and_a_plan_named_team_over_its_price() -> None:
    result = draft({"/": page(
        "<h1>Deadbolt</h1><h3>Short-lived SSH certificates</h3><p>Certificates last eight hours by default.</p>"
        "<h3>Single sign-on login</h3><p>Engineers authenticate with your identity provider.</p>"
        "<h3>Session recording</h3><p>Every shell session is recorded and searchable.</p>"
        "<h2>Pricing</h2><h3>Starter</h3><p>Free</p><p>Up to 3 users, forever.</p>"
        "<h3>Team</h3><p>$8 per user / month</p>"
        "<footer><p>Deadbolt Labs, Inc. · 2035 NW Front Ave, Portland, OR 97209 · security@deadbolt.example</p></footer>",
        title="Deadbolt")})
    assert result.value("features") == ["Short-lived SSH certificates", "Single sign-on login", "Session recording"]
    assert "$8 per user / month" in str(result.value("pricing_summary"))
    assert (result.value("city"), result.value("country")) == ("Portland", "US")


def test_founding_sentences_with_long_descriptions_and_the_subject_in_the_middle() -> None:
    french = draft({"/": page("<h1>Girouette</h1>", title="Girouette", lang="fr"), "/presse": page(
        "<p>Girouette est une société nantaise créée en 2021 par Anaïs Guérin, cofondatrice et présidente, ancienne "
        "conductrice de travaux, et Baptiste Le Meur, cofondateur et directeur technique, météorologue.</p>",
        title="Girouette", lang="fr")})
    assert founders(french) == {"Anaïs Guérin": "Cofondatrice et présidente", "Baptiste Le Meur": "Cofondateur et directeur technique"}
    german = draft({"/": page("<h1>Tanzkarte</h1>", title="Tanzkarte", lang="de"), "/ueber-uns": page(
        "<p>Tanzkarte haben 2022 Carla Reinhold, Tanzlehrerin und Mitgründerin, und Matthias Eberlein, Entwickler und "
        "Mitgründer, in Leipzig gegründet.</p>", title="Tanzkarte", lang="de")})
    assert founders(german) == {"Carla Reinhold": "Mitgründerin", "Matthias Eberlein": "Mitgründer"}


def test_an_accordion_built_without_aria_and_a_features_table_headed_in_the_singular() -> None:
    faq = draft({"/": page("<h1>Quincena</h1>", title="Quincena", lang="es"), "/precios": page(
        "<h1>Precios</h1><p>Organizar una tanda es gratis, siempre. Quincena Plus: $49 MXN al mes.</p>"
        "<h2>Preguntas frecuentes</h2><div><div><p>¿Quincena guarda nuestro dinero?</p></div>"
        "<div style='display:none'><p>No. El dinero va directo de una cuenta a otra.</p></div></div>",
        title="Quincena", lang="es")})
    assert [f["question"] for f in faq.to_dict()["faqs"]] == ["¿Quincena guarda nuestro dinero?"]
    assert faq.value("pricing_model") == "freemium"
    table = draft({"/": page(
        "<h1>Girouette</h1><table><tr><th>Fonctionnalité</th><th>Seul</th><th>Avec Girouette</th></tr>"
        "<tr><td>Alertes par chantier</td><td>La météo du soir</td><td>Des seuils par chantier</td></tr>"
        "<tr><td>Journal des intempéries</td><td>Un carnet</td><td>Chaque heure enregistrée</td></tr></table>",
        title="Girouette", lang="fr")})
    assert table.value("features") == ["Alertes par chantier", "Journal des intempéries"]


def test_turkish_pricing_founders_year_and_a_district_slash_town() -> None:
    result = draft({"/": page(
        "<h1>Kervan</h1><p>Kervan'ı 2022'de İstanbul'da iki kurucu ortak kurdu: Elif Demirtaş (kurucu ortak, CEO), "
        "yıllarca kendi mağazasını yönetti.</p><footer><p>Kervan Yazılım A.Ş.</p>"
        "<p>Büyükdere Cad. No: 185, Levent, 34394 Şişli/İstanbul</p></footer>", title="Kervan", lang="tr"),
        "/fiyatlar": page("<h1>Fiyatlar</h1><h3>Başlangıç</h3><p>749 TL / ay</p>", title="Kervan", lang="tr")})
    assert result.value("founded_year") == "2022"
    assert founders(result) == {"Elif Demirtaş": "kurucu ortak, CEO"}
    assert result.value("pricing_model") == "subscription"
    assert (result.value("city"), result.value("country")) == ("İstanbul", "TR")


def test_a_docs_pages_title_and_a_books_title_are_not_the_name() -> None:
    docs = draft({"/": page("<h1>Introduction</h1><p>Sluicegate lets traffic through at the rate you choose.</p>",
                            title="Introduction | Sluicegate")})
    assert docs.value("name") == "Sluicegate"
    book = draft({"/": page("<h1>Introduction</h1><p>Lintel runs database migrations without locking tables.</p>",
                            title="Introduction - The Lintel Book")})
    assert book.value("name") == "Lintel"


def test_a_protocol_relative_logo_on_another_host_is_https_and_an_italian_vat_number_names_italy() -> None:
    result = draft({"/": page("<header><a href='/' class='logo'><img src='//images.cdn.example/acme-logo.png' "
                              "alt='Acme logo'></a></header><h1>Acme</h1>")})
    assert result.value("logo_url") == "https://images.cdn.example/acme-logo.png"
    assert [code for _, code in countries_indicated("© 2026 Ombrellone S.r.l. – P.IVA 04512340409")] == ["IT"]


def test_a_denial_joined_by_and_stays_out_of_the_description() -> None:
    result = draft({"/": page("<h1>Attrappe</h1><p>Attrappe erstellt eine anonymisierte Kopie Ihrer Datenbank.</p>"
                              "<p>Kein Low-Code-Baukasten und kein Datenmarktplatz: nur Ihre Daten, ohne Namen.</p>",
                              title="Attrappe", lang="de")})
    assert "Low-Code" not in str(result.value("description"))


# --- round 11 ------------------------------------------------------------------------------------------


def test_text_moved_off_screen_or_for_screen_readers_only_is_not_read() -> None:
    result = draft({"/": page(
        "<h1>Gouttière</h1><p>Gouttière est un logiciel de devis pour couvreurs.</p>"
        "<div class='screen-reader-text' style='position:absolute;left:-9999px'>Fondée en 2008.</div>"
        "<p class='sr-only'>Plus de 25 000 artisans.</p>", title="Gouttière", lang="fr")})
    assert result.value("founded_year") is None
    assert "25 000" not in str(result.value("description"))


def test_a_line_on_every_page_is_the_sites_chrome() -> None:
    ad = "<p>Diese Website wurde mit dem Baukasten erstellt. Jetzt kostenlos eigene Website erstellen.</p>"
    result = draft({"/": page(f"{ad}<h1>Fahrstunde</h1><p>Fahrstunde plant Fahrstunden für Fahrschulen.</p>",
                              title="Fahrstunde", lang="de"),
                    "/preise": page(f"{ad}<h1>Preise</h1><p>Fahrstunde kostet 29 € pro Fahrlehrer und Monat.</p>",
                                    title="Fahrstunde", lang="de"),
                    "/faq": page(f"{ad}<h1>Fragen</h1>", title="Fahrstunde", lang="de")})
    assert "Baukasten" not in str(result.value("description"))
    assert "Baukasten" not in str(result.value("pricing_summary"))


def test_a_label_the_product_turns_down_and_reviews_stay_out_of_the_description() -> None:
    result = draft({"/": page(
        "<h1>Cairnfield</h1><p>Cairnfield tests schema migrations before you deploy.</p>"
        "<p>Some call this \"AI-native DevOps\"; we just call it a linter with a database.</p>"
        "<h2>Reviews (612)</h2><p>Deposits changed our launches completely. Support from Odette was lovely.</p>",
        title="Cairnfield")})
    description = str(result.value("description"))
    assert "AI-native" not in description and "Odette" not in description


def test_slovak_estonian_and_chilean_forms() -> None:
    slovak = draft({"/": page("<h1>Sánka</h1>", title="Sánka", lang="sk"),
                    "/cennik/": page("<h1>Cenník</h1><p>Štart 35 € mesačne</p>", title="Sánka", lang="sk"),
                    "/kontakt/": page("<h1>Kontakt</h1><p>Sánka s. r. o.</p><p>Štúrova 1989/41</p>"
                                      "<p>031 01 Liptovský Mikuláš</p><p>Slovensko</p>", title="Sánka", lang="sk")})
    assert slovak.value("pricing_model") == "subscription"
    assert (slovak.value("city"), slovak.value("country")) == ("Liptovský Mikuláš", "SK")
    org = '<script type="application/ld+json">{"@type": "Organization", "name": "Leil OÜ"}</script>'
    estonian = draft({"/": page("<h1>Leil</h1><footer><p>Leil OÜ · Rüütli 11, 51007 Tartu · tere@leil.example</p>"
                                "</footer>", title="Leil", head=org, lang="et"),
                      "/meist": page("<p>Leil sündis 2023. aastal Tartus.</p><p>Triin Kask – kaasasutaja, tegevjuht</p>",
                                     title="Leil", lang="et")})
    assert estonian.value("name") == "Leil"
    assert estonian.value("founded_year") == "2023"
    assert founders(estonian) == {"Triin Kask": "kaasasutaja, tegevjuht"}
    assert (estonian.value("city"), estonian.value("country")) == ("Tartu", "EE")
    chilean = draft({"/": page("<h1>Recorrido</h1><footer><p>Recorrido SpA · Av. Andrés Bello 2299, Providencia, "
                               "Santiago · contacto@recorrido.example</p></footer>", title="Recorrido", lang="es")})
    assert (chilean.value("city"), chilean.value("country")) == ("Santiago", "CL")


def test_a_town_its_province_code_and_its_country_on_an_app_listing() -> None:
    result = draft({"/": page("<h1>Hatchling</h1><h3>Developer</h3><p>Hatchling Apps</p><p>Halifax, NS, Canada</p>",
                              title="Hatchling")})
    assert (result.value("city"), result.value("country")) == ("Halifax", "CA")


# --- round 12 ------------------------------------------------------------------------------------------


def test_a_headline_using_the_products_name_as_a_word_and_the_phrase_under_the_name_heading() -> None:
    word = draft({"/": page("<h1>Cotiza la mudanza antes de que cuelguen</h1>", title="Mudanza | Cotiza mudanzas",
                            lang="es")})
    assert word.value("tagline") == "Cotiza la mudanza antes de que cuelguen"
    phrase = draft({"/": page("<h1>Fernhollow</h1><p>Tree work, quoted before you leave the garden.</p>",
                              title="Fernhollow — tree work quotes in the field")})
    assert phrase.value("tagline") == "Tree work, quoted before you leave the garden."


def test_founders_after_articles_occupations_and_roles_and_in_a_mid_line_signature() -> None:
    german = draft({"/": page("<h1>Wippe</h1>", title="Wippe", lang="de"), "/ueber-uns": page(
        "<p>Wippe wurde 2023 in Freiburg von der Landschaftsarchitektin Ines Kaltenbach und dem Softwareentwickler "
        "Malte Berghoff gegründet. Beide sind Geschäftsführer der Wippe Software GmbH.</p>", title="Wippe", lang="de")})
    assert founders(german) == {"Ines Kaltenbach": "Geschäftsführer", "Malte Berghoff": "Geschäftsführer"}
    relative = draft({"/": page("<h1>Lesesaal</h1>", title="Lesesaal", lang="de"), "/impressum": page(
        "<p>Vertreten durch die Geschäftsführer Jannik Oltmanns und Svenja Ruhnau, die Lesesaal 2022 gegründet haben.</p>",
        title="Lesesaal", lang="de")})
    assert founders(relative) == {"Jannik Oltmanns": "Geschäftsführer", "Svenja Ruhnau": "Geschäftsführer"}
    signed = draft({"/": page("<h1>Fernhollow</h1><p>Made in Hereford by two climbers. — Maisie Thornbury &amp; "
                              "Idris Penhale, founders</p>", title="Fernhollow")})
    assert set(founders(signed)) == {"Maisie Thornbury", "Idris Penhale"}


def test_lithuanian_and_slovenian_forms() -> None:
    lithuanian = draft({"/": page("<h1>Gintaras</h1><p>Gintaras yra buhalterinė programa mažoms įmonėms.</p>"
                                  "<footer><p>UAB „Gintaras“ · Savanorių pr. 1, Vilnius · labas@gintaras.example</p></footer>",
                                  title="Gintaras", lang="lt"),
                        "/apie": page("<p>Gintarą 2022 metais Vilniuje įkūrė buhalterė Eglė Vaitkutė ir programuotojas "
                                      "Mantas Jurgaitis. Eglė yra bendraįkūrėja ir vadovė.</p>", title="Gintaras", lang="lt"),
                        "/kainos": page("<h1>Kainos</h1><p>Mažas iki 100 15 € / mėn.</p>", title="Gintaras", lang="lt")})
    assert lithuanian.value("short_description") == "Gintaras yra buhalterinė programa mažoms įmonėms."
    assert lithuanian.value("founded_year") == "2022"
    assert set(founders(lithuanian)) == {"Eglė Vaitkutė", "Mantas Jurgaitis"}
    assert lithuanian.value("pricing_model") == "subscription"
    assert (lithuanian.value("city"), lithuanian.value("country")) == ("Vilnius", "LT")
    slovenian = draft({"/": page("<h1>Kozolec</h1>", title="Kozolec", lang="sl"), "/o-nas.html": page(
        "<h3>Nejc Kralj</h3><p>soustanovitelj, direktor</p>", title="Kozolec", lang="sl")})
    assert founders(slovenian) == {"Nejc Kralj": "soustanovitelj, direktor"}


# --- round 13 ------------------------------------------------------------------------------------------


def test_a_timeline_naming_founders_by_first_name_with_their_roles_in_brackets() -> None:
    result = draft({"/": page("<h1>Cresset</h1><p>Cresset is a grant tracker for small nonprofits.</p>", title="Cresset"),
                    "/our-story": page(
                        "<p>2019 — Marisol Quintero, then development director at a food pantry, misses a deadline.</p>"
                        "<p>2021 — Marisol and her college friend Jonah Feld, a software engineer, start Cresset in "
                        "Tucson, Arizona.</p><p>Today — Marisol (co-founder and CEO) and Jonah (co-founder and CTO) run "
                        "Cresset with a team of six.</p>", title="Cresset")})
    assert founders(result) == {"Marisol Quintero": "Co-founder and CEO", "Jonah Feld": "Co-founder and CTO"}
    assert result.value("founded_year") == "2021"
    assert (result.value("city"), result.value("country")) == ("Tucson", "US")


def test_a_first_name_said_to_be_a_founder_needs_one_full_name_nearby() -> None:
    french = draft({"/": page("<h1>Tamanoir</h1>", title="Accueil | Tamanoir", lang="fr"), "/histoire": page(
        "<p>Inès Carpentier tatouait depuis dix ans ; son voisin, Mathis Leroux, développeur, a proposé une "
        "application.</p><p>Aujourd'hui, Inès est cofondatrice et présidente de Tamanoir, Mathis cofondateur et "
        "directeur technique.</p>", title="Tamanoir", lang="fr")})
    assert french.value("name") == "Tamanoir"  # "Accueil" is the page's name, not the product's
    assert founders(french) == {"Inès Carpentier": "Cofondatrice et présidente",
                                "Mathis Leroux": "Cofondateur et directeur technique"}
    two_of_a_name = draft({"/": page("<h1>Acme</h1>"), "/about": page(
        "<p>Anna Berg and Anna Lind met at school.</p><p>Today Anna is our co-founder.</p>")})
    assert founders(two_of_a_name) == {}  # which Anna: none is drafted


def test_catalan_prices_places_years_and_founders() -> None:
    footer = "<footer><p>Rengla SCCL, Carrer de la Riera 14, Vilafranca del Penedès</p></footer>"
    result = draft({"/": page("<h1>Rengla</h1><p>Rengla organitza assajos i actuacions de les colles castelleres.</p>"
                              + footer, title="Rengla", lang="ca"),
                    "/preus/": page("<h1>Preus</h1><p>Rengla costa 1 € per casteller actiu a l'any.</p>",
                                    title="Rengla", lang="ca"),
                    "/blog/historia/": page(
                        "<p>Rengla va començar el 2021 a Vilafranca del Penedès. La Montse Rovira dibuixava les pinyes "
                        "en un full de càlcul.</p><p>Avui la Montse és cofundadora i s'encarrega del producte.</p>" + footer,
                        title="Rengla", lang="ca")})
    assert result.value("pricing_model") == "subscription"
    assert result.value("founded_year") == "2021"
    assert (result.value("city"), result.value("country")) == ("Vilafranca del Penedès", "ES")
    assert founders(result) == {"Montse Rovira": "Cofundadora"}


def test_founders_by_occupation_then_roles_in_a_press_release_and_in_brackets_after_a_founding_clause() -> None:
    press = draft({"/": page("<h1>Fieldfare</h1>", title="Fieldfare"), "/press": page(
        "<p>Fieldfare, founded in Hobart in 2020 by fourth-generation funeral director Ruth Kessell and software "
        "engineer Amit Deshpande, today opened its software to funeral homes.</p><p>“Families shouldn't have to tell "
        "their story three times,” said Ruth Kessell, co-founder and managing director. Amit Deshpande, co-founder "
        "and head of engineering, leads the product team.</p>", title="Fieldfare")})
    assert founders(press) == {"Ruth Kessell": "Co-founder and managing director",
                               "Amit Deshpande": "Co-founder and head of engineering"}
    german = draft({"/": page("<h1>Knotenblech</h1>", title="Knotenblech", lang="de"), "/fragen": page(
        "<p>Gegründet haben wir Knotenblech 2019 in Duisburg: Sandra Kowalczyk (Geschäftsführerin, vorher Disponentin "
        "in einem Gerüstbaubetrieb) und Tobias Reuter (Geschäftsführer, Softwareentwickler).</p>",
        title="Knotenblech", lang="de")})
    assert founders(german) == {"Sandra Kowalczyk": "Geschäftsführerin", "Tobias Reuter": "Geschäftsführer, Softwareentwickler"}


def test_prices_with_a_spaced_slash_are_a_subscription() -> None:
    result = draft({"/": page("<h1>Acme</h1>", lang="fr"), "/tarifs": page(
        "<h1>Tarifs</h1><p>Solo</p><p>29 € / mois</p><p>Studio</p><p>59 € / mois</p>", lang="fr")})
    assert result.value("pricing_model") == "subscription"


def test_the_general_category_for_the_software_a_trade_runs_on_and_only_then() -> None:
    trade = draft({"/": page("<h1>Gearloft</h1><p>Gearloft is job-card and repair-queue software for independent "
                             "bicycle workshops.</p>", title="Gearloft")})
    assert trade.value("categories") == ["productivity"]
    does_the_work = draft({"/": page("<h1>Kulisse</h1><p>Kulisse plant Proben, Rollen und Aufführungen für "
                                     "Laientheater.</p>", title="Kulisse", lang="de")})
    assert does_the_work.value("categories") == ["productivity"]
    not_said = draft({"/": page("<h1>Gearloft</h1><p>Gearloft keeps bicycle workshops on time, and it syncs with "
                                "your app.</p>", title="Gearloft")})
    assert not_said.value("categories") is None
    narrower = draft({"/": page("<h1>Ledgerly</h1><p>Ledgerly is bookkeeping software for freelancers: invoices, "
                                "expenses and VAT returns.</p>", title="Ledgerly")})
    assert "productivity" not in (narrower.value("categories") or [])
    denied = draft({"/": page("<h1>Gearloft</h1><p>Gearloft is not an app but a printed logbook.</p>",
                              title="Gearloft")})
    assert denied.value("categories") is None


def test_a_webflow_block_whose_condition_is_not_met_is_hidden() -> None:
    result = draft({"/": page("<h1>Routenbuch</h1><div class='w-condition-invisible'><p>Über 700 Hallen vertrauen "
                              "seit 2012 auf Routenbuch.</p></div>", title="Routenbuch", lang="de"),
                    "/team": page("<p>Routenbuch wurde 2018 in Zürich gegründet.</p>", title="Routenbuch", lang="de")})
    assert result.value("founded_year") == "2018"


def test_a_press_releases_dateline_is_not_the_founding_year() -> None:
    result = draft({"/": page("<h1>Zwischenruf</h1>", title="Zwischenruf", lang="de"), "/presse/": page(
        "<p>Leipzig, 12. Juni 2023 – Zwischenruf wurde 2022 von Ayşe Demirtaş und Jonas Pietsch gegründet.</p>",
        title="Zwischenruf", lang="de")})
    assert result.value("founded_year") == "2022"


def test_prices_on_a_page_titled_for_them_in_bolivianos_and_per_flat_and_month() -> None:
    licence = draft({"/": page("<h1>Bitterling</h1>", title="Bitterling"), "/docs/licence/": page(
        "<p>Bitterling is free for personal use.</p><p>Companies buy a commercial licence at €120 per developer per "
        "year.</p>", title="Licence & pricing | Bitterling")})
    assert licence.value("pricing_model") == "freemium"
    assert "€120 per developer per year" in licence.value("pricing_summary")
    bolivian = draft({"/": page("<h1>Cántaro</h1>", title="Cántaro", lang="es"), "/precios": page(
        "<h1>Precios</h1><p>Hasta 150 socios Bs 120 al mes</p>", title="Cántaro", lang="es")})
    assert "Bs 120 al mes" in bolivian.value("pricing_summary")
    swedish = draft({"/": page("<h1>Mangelrum</h1>", title="Mangelrum", lang="sv"), "/priser": page(
        "<h1>Priser</h1><p>Bas</p><p>9 kr per lägenhet och månad</p>", title="Mangelrum", lang="sv")})
    assert swedish.value("pricing_model") == "subscription"


def test_the_open_source_sentence_naming_its_licence_before_a_badge() -> None:
    result = draft({"/": page("<h1>Quernstone</h1><p>Free and open source</p><p>The linter is free and open source "
                              "under the MIT License.</p>", title="Quernstone")})
    assert result.value("pricing_model") == "open source"
    assert "MIT License" in result.value("pricing_summary")


def test_founders_introducing_themselves_and_a_first_name_with_our_role() -> None:
    keystave = draft({"/": page("<h1>Keystave</h1>", title="Keystave"), "/hello-keystave/": page(
        "<p>We are Anouk Devereux and Kwame Lindholm. Between us we have shipped six paid apps.</p>"
        "<p>So in 2024 we, the two co-founders, turned that server into Keystave.</p>", title="Keystave")})
    assert founders(keystave) == {"Anouk Devereux": "Co-founders", "Kwame Lindholm": "Co-founders"}
    assert keystave.value("founded_year") == "2024"
    gearloft = draft({"/": page("<h1>Gearloft</h1>", title="Gearloft"), "/blogs/news/our-story": page(
        "<p>Gearloft started in 2022 in Bristol. We are Tamsin Okafor and Declan Varga, two mechanics.</p>"
        "<p>Tamsin, our co-founder and CEO, kept the paper ticket book; Declan, co-founder and CTO, kept losing it.</p>",
        title="Gearloft")})
    assert founders(gearloft) == {"Tamsin Okafor": "Co-founder and CEO", "Declan Varga": "Co-founder and CTO"}


def test_free_software_under_a_licence_and_creators_who_lead_maintenance() -> None:
    result = draft({"/": page("<h1>Cairnfield</h1>", title="Cairnfield"), "/project.html": page(
        "<p>Cairnfield is free software released under the MIT License. There is no paid edition.</p><p>The project "
        "was started in 2023 by Ingrid Solheim-Basu and Tomasz Kowalczyk, who maintain it with contributors. Ingrid "
        "and Tomasz are the project's creators and lead maintainers.</p>", title="Project and license")})
    assert result.value("pricing_model") == "open source"
    assert founders(result) == {"Ingrid Solheim-Basu": "Creators and lead maintainers",
                                "Tomasz Kowalczyk": "Creators and lead maintainers"}


def test_a_signature_without_a_dash_a_founding_date_over_since_and_titles_said_later_in_order() -> None:
    org = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", '
           '"name": "Kulisse", "foundingDate": "2022"}</script>')
    kulisse = draft({"/": page("<h1>Kulisse</h1><details><summary>Gibt es eine App?</summary><p>Ja, seit der Saison "
                               "2024/25.</p></details><p>Seraina Caduff &amp; Jonas Wyrsch, Gründer von Kulisse, "
                               "Luzern</p>", title="Kulisse", head=org, lang="de")})
    assert kulisse.value("founded_year") == "2022"
    assert founders(kulisse) == {"Seraina Caduff": "Gründer", "Jonas Wyrsch": "Gründer"}
    stempelkarte = draft({"/": page("<h1>Stempelkarte</h1>", title="Stempelkarte", lang="de"), "/geschichte": page(
        "<p>2021</p><p>Lorena Baumgartner, Bäckerin, und der Entwickler Reto Imhof gründen Stempelkarte in Zürich.</p>"
        "<p>2024</p><p>Lorena und Reto führen die Firma als Mitgründerin und Mitgründer bis heute.</p>",
        title="Stempelkarte", lang="de")})
    assert founders(stempelkarte) == {"Lorena Baumgartner": "Mitgründerin", "Reto Imhof": "Mitgründer"}


def test_a_docs_homes_promise_under_its_page_heading() -> None:
    result = draft({"/": page("<nav><a href='/'>Introduction</a></nav><h1>Introduction</h1><p>Catch every webhook. "
                              "Replay any of them.</p><p>Signalbox is a webhook relay for developers.</p>",
                              title="Introduction - Signalbox")})
    assert result.value("tagline") == "Catch every webhook. Replay any of them."


def test_founding_years_said_as_that_same_year_as_a_timelines_present_tense_and_as_we_began() -> None:
    same_year = draft({"/": page("<h1>Chasqui</h1>", title="Chasqui", lang="es"), "/nosotros": page(
        "<p>En 2022, Renzo Quispe manejaba una empresa de mensajería. Ese mismo año fundaron Chasqui.</p>",
        title="Chasqui", lang="es")})
    assert same_year.value("founded_year") == "2022"
    timeline = draft({"/": page("<h1>Hausbuch</h1>", title="Hausbuch", lang="de"), "/ueber-uns": page(
        "<p>2021 Zusammen mit Malte Schierenbeck gründet sie die Hausbuch GmbH in Leipzig.</p>",
        title="Hausbuch", lang="de")})
    assert timeline.value("founded_year") == "2021"
    began = draft({"/": page("<h1>Quincena</h1>", title="Quincena", lang="es"), "/nosotros": page(
        "<p>Somos un equipo pequeño. Empezamos en 2021 porque la tanda se organizaba en una libreta.</p>",
        title="Quincena", lang="es")})
    assert began.value("founded_year") == "2021"


def test_the_country_a_towns_name_says_with_the_pages_region_breaking_a_tie() -> None:
    unique = draft({"/": page("<h1>Tanager</h1><p>Tanager was started in 2020 in Aberystwyth by two ecologists.</p>",
                              title="Tanager")})
    assert (unique.value("city"), unique.value("country")) == ("Aberystwyth", "GB")
    region = draft({"/": page("<h1>Canchita</h1><p>Canchita nació en 2021 en Concepción.</p>", title="Canchita",
                              lang="es-CL")})
    assert (region.value("city"), region.value("country")) == ("Concepción", "CL")
    tie = draft({"/": page("<h1>Canchita</h1><p>Canchita nació en 2021 en Concepción.</p>", title="Canchita",
                           lang="es")})
    assert (tie.value("city"), tie.value("country")) == ("Concepción", None)


# --- round 13, a practice half -------------------------------------------------------------------------


def test_a_free_allowance_in_prose_is_a_free_plan_and_free_days_are_a_trial() -> None:
    for text in ("Mizzen is free for clubs that race up to 30 boats in a season. Bigger fleets pay £120 a year.",
                 "Die ersten 500 Abfragen pro Monat sind kostenlos. Jede weitere Abfrage kostet 0,01 €.",
                 "Pupitre est gratuit pour un chœur jusqu’à 20 choristes. Au-delà, 5 € par mois."):
        result = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(f"<h1>Pricing</h1><p>{text}</p>")})
        assert result.value("pricing_model") == "freemium", text
    trial = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(
        "<h1>Pricing</h1><p>Die ersten 60 Tage sind kostenlos.</p><p>Hof 29 € pro Monat</p>")})
    assert trial.value("pricing_model") in ("subscription", "free trial")  # a span of days is no free plan


def test_italian_quotes_provinces_and_founders_after_lhanno_fondata() -> None:
    result = draft({"/": page("<h1>Cavatappi</h1><footer><p>Cavatappi S.r.l. · Corso Langhe 10, 12051 Alba (CN) · "
                              "info@cavatappi.example</p></footer>", title="Cavatappi", lang="it"),
                    "/prezzi/": page("<h1>Prezzi</h1><p>Il canone annuale dipende dagli ettari vitati: scriveteci per "
                                     "un preventivo.</p>", title="Cavatappi", lang="it"),
                    "/chi-siamo/": page("<p>Cavatappi è nata ad Alba nel 2021. L'hanno fondata Giulia Ferrero, enologa, "
                                        "e Matteo Bruno, ingegnere informatico. Giulia è amministratrice delegata, "
                                        "Matteo responsabile tecnico.</p>", title="Cavatappi", lang="it")})
    assert result.value("pricing_model") == "contact"
    assert (result.value("city"), result.value("country")) == ("Alba", "IT")
    assert founders(result) == {"Giulia Ferrero": "Amministratrice delegata", "Matteo Bruno": "Responsabile tecnico"}


def test_a_brazilian_address_ending_in_its_postcode_and_a_timelines_fundam() -> None:
    result = draft({"/": page("<h1>Jangada</h1><footer><p>Jangada Pagamentos Ltda. · Rua do Bom Jesus, 180 – Recife "
                              "Antigo, Recife – PE, 50030-170 · contato@jangada.example</p></footer>", title="Jangada",
                              lang="pt-BR"),
                    "/sobre": page("<h2>Nossa história</h2><p>2020</p><p>Larissa Cavalcanti e Thiago Menezes fundam a "
                                   "Jangada no Recife.</p>", title="Jangada", lang="pt-BR")})
    assert (result.value("city"), result.value("country")) == ("Recife", "BR")
    assert result.value("founded_year") == "2020"


def test_more_founder_forms_of_the_practice_half() -> None:
    caption = draft({"/": page("<h1>Wainscot</h1><footer><p>Wainscot Pty Ltd (ABN 51 624 118 903) © 2025. 83 Salamanca "
                               "Place, Hobart TAS 7004 · hello@wainscot.example</p></footer>", title="Wainscot"),
                     "/about": page("<figure><figcaption>Mei Lin Tran and Callum Rhodes, Wainscot's co-founders, "
                                    "outside our office.</figcaption></figure>", title="Wainscot")})
    assert founders(caption) == {"Mei Lin Tran": "Co-founders", "Callum Rhodes": "Co-founders"}
    assert (caption.value("city"), caption.value("country")) == ("Hobart", "AU")
    another = draft({"/": page("<h1>Acme</h1><p>Ada Berg and Li Wei, Initech's co-founders, love Acme.</p>")})
    assert founders(another) == {}
    brackets = draft({"/": page("<h1>Hawser</h1>", title="Hawser"), "/about": page(
        "<p>Hawser was founded in Halifax in 2023 by Nadia Boateng (CEO), who managed 600 rental units, and "
        "Pierre-Luc Gagnon (CTO), who previously built speech models.</p>", title="Hawser")})
    assert founders(brackets) == {"Nadia Boateng": "CEO", "Pierre-Luc Gagnon": "CTO"}
    introduced = draft({"/": page("<h1>Gießkanne</h1>", title="Gießkanne", lang="de"), "/ueber-uns": page(
        "<p>Gegründet haben wir die Firma in Graz: Veronika Pichler ist Gärtnermeisterin, Lukas Hofer ist "
        "Softwareentwickler. Beide führen Gießkanne heute als Geschäftsführer.</p>", title="Gießkanne", lang="de")})
    assert founders(introduced) == {"Veronika Pichler": "Geschäftsführer", "Lukas Hofer": "Geschäftsführer"}
    herself = draft({"/": page("<h1>Alfarje</h1>", title="Alfarje", lang="es"), "/quienes-somos": page(
        "<p>Me llamo Inés Carvajal y fundé Alfarje en Granada en 2020. Soy la fundadora.</p>", title="Alfarje",
        lang="es")})
    assert founders(herself) == {"Inés Carvajal": "Fundadora"}


def test_a_what_it_does_heading_over_a_list_and_over_cards() -> None:
    listed = draft({"/": page("<h1>Pupitre</h1><h2>Ce que fait Pupitre</h2><ul><li>Pistes par pupitre</li>"
                              "<li>Partitions annotées partagées</li><li>Suivi des répétitions</li></ul>",
                              title="Pupitre", lang="fr")})
    assert listed.value("features") == ["Pistes par pupitre", "Partitions annotées partagées", "Suivi des répétitions"]
    cards = draft({"/": page("<h1>Cosecha</h1><h2>Lo que hace Cosecha por ti</h2><p>🧾</p><h3>Facturas en 30 segundos</h3>"
                             "<p>Guarda a tus clientes una vez y factura.</p><h3>Descarga del buzón del SAT</h3><p>Tus "
                             "facturas llegan solas.</p><h3>Cálculo de ISR e IVA</h3><p>Sabrás cuánto pagar cada mes.</p>"
                             "<p>Mariana Quiroga, diseñadora independiente</p>", title="Cosecha", lang="es")})
    assert cards.value("features") == ["Facturas en 30 segundos", "Descarga del buzón del SAT", "Cálculo de ISR e IVA"]


def test_founders_with_long_descriptions_a_co_founder_named_after_with_and_presidents() -> None:
    brothers = draft({"/": page("<h1>Almazara</h1>", title="Almazara", lang="es"), "/nosotros": page(
        "<p>Almazara Software nació en 2015 en Jaén. La fundaron los hermanos Rafael Moreno, ingeniero agrónomo que llevó "
        "la báscula de la cooperativa de su pueblo durante diez campañas, y Elena Moreno, programadora.</p>",
        title="Almazara", lang="es")})
    assert set(founders(brothers)) == {"Rafael Moreno", "Elena Moreno"}
    with_partner = draft({"/": page("<h1>Mothlight</h1>", title="Mothlight"), "/story": page(
        "<p>I'm Reggie Albritton, and I co-founded Mothlight with Hana Okafor, a route-optimisation engineer. Hana is our "
        "CTO.</p>", title="Mothlight")})
    assert founders(with_partner)["Hana Okafor"] == "CTO"
    presidents = draft({"/": page("<h1>Gouttière</h1>", title="Gouttière", lang="fr"), "/a-propos": page(
        "<p>L'entreprise a été fondée par Erwan Le Goff, couvreur, et Soizic Tanguy, ingénieure logiciel. Erwan Le Goff "
        "est président, Soizic Tanguy directrice générale.</p>", title="Gouttière", lang="fr")})
    assert founders(presidents) == {"Erwan Le Goff": "Président", "Soizic Tanguy": "Directrice générale"}


# --- round 13, a second practice half ------------------------------------------------------------------


def test_greek_founders_questions_prices_and_address() -> None:
    result = draft({"/": page("<h1>Kandili</h1><p>Το Kandili είναι σύστημα online κρατήσεων για φυσικοθεραπευτήρια.</p>"
                              "<h2>Συχνές ερωτήσεις</h2><h3>Χρειάζεται εγκατάσταση;</h3><p>Όχι, λειτουργεί στον browser "
                              "και στο κινητό.</p><h3>Είναι συμβατό με τον GDPR;</h3><p>Ναι, τα δεδομένα μένουν στην "
                              "Ευρωπαϊκή Ένωση.</p><h3>Κάνετε μεταφορά δεδομένων;</h3><p>Ναι, κάνουμε τη μεταφορά "
                              "δωρεάν για εσάς.</p>", title="Kandili", lang="el"),
                    "/times": page("<h1>Τιμές</h1><p>19 € τον μήνα για κάθε φυσικοθεραπευτή. Δοκιμάστε το δωρεάν για "
                                   "30 ημέρες.</p>", title="Τιμές — Kandili", lang="el"),
                    "/sxetika": page("<p>Το Kandili ιδρύθηκε το 2020 στη Θεσσαλονίκη.</p><p>Δήμητρα Παπαδοπούλου — "
                                     "Συνιδρύτρια και CEO</p><p>Νίκος Αλεξίου — Συνιδρυτής και CTO</p><p>Kandili Ι.Κ.Ε., "
                                     "Τσιμισκή 45, 546 23 Θεσσαλονίκη, Ελλάδα</p>", title="Σχετικά — Kandili", lang="el")})
    assert founders(result) == {"Δήμητρα Παπαδοπούλου": "Συνιδρύτρια και CEO", "Νίκος Αλεξίου": "Συνιδρυτής και CTO"}
    assert len(result.to_dict()["faqs"]) == 3
    assert result.value("pricing_model") in ("free trial", "subscription")
    assert result.value("founded_year") == "2020"
    assert (result.value("city"), result.value("country")) == ("Θεσσαλονίκη", "GR")
    assert result.value("categories") == ["productivity"]


def test_croatian_prices_years_and_founders_side_by_side() -> None:
    result = draft({"/": page("<h1>Maslina</h1><p>Maslina je aplikacija za privatne iznajmljivače.</p><h2>Cijene</h2>"
                              "<p>Maslina je besplatna za jednu smještajnu jedinicu. Svaka dodatna jedinica stoji 5 € "
                              "mjesečno.</p><h2>O nama</h2><p>Maslinu su 2023. u Splitu osnovali Ivana Marić i programer "
                              "Ante Jurić.</p><p>Ivana Marić, suosnivačica · Ante Jurić, suosnivač</p>", title="Maslina",
                              lang="hr")})
    assert result.value("pricing_model") == "freemium"
    assert result.value("founded_year") == "2023"
    assert founders(result) == {"Ivana Marić": "suosnivačica", "Ante Jurić": "suosnivač"}


def test_founders_named_after_their_title_and_introducing_themselves_in_a_footer() -> None:
    after = draft({"/": page("<h1>Larder</h1>", title="Larder"), "/about": page(
        "<p>Co-founders Ruth Adeyemi and Callum Burke, who started Larder in Leeds in 2022, in their kitchen.</p>",
        title="Larder")})
    assert founders(after) == {"Ruth Adeyemi": "Co-founders", "Callum Burke": "Co-founders"}
    footer = draft({"/": page("<h1>Pumice</h1><footer><p>Hi, I’m Lena Kovač, founder of Pumice and the person who draws "
                              "every icon, from my studio in Toronto.</p></footer>", title="Pumice")})
    assert founders(footer) == {"Lena Kovač": "Founder of Pumice"}


def test_more_years_names_and_lists_of_the_second_practice_half() -> None:
    story = draft({"/": page("<h1>Brasero</h1>", title="Brasero", lang="es"), "/por-que-fundamos-brasero/": page(
        "<p>Andrés Villaseñor, mi cofundador, había construido sistemas de cobro para tiendas en línea. En 2022 "
        "fundamos Brasero en Guadalajara.</p>", title="Brasero", lang="es")})
    assert story.value("founded_year") == "2022"
    assert founders(story) == {"Andrés Villaseñor": "mi cofundador"}  # the prose after the role is no title
    timeline = draft({"/": page("<h1>Pressoir</h1>", title="Pressoir", lang="fr"), "/histoire": page(
        "<p>2021 — Camille Rousseau (cofondatrice) et Hugo Marchand (cofondateur) créent Pressoir à Angers.</p>",
        title="Pressoir", lang="fr")})
    assert timeline.value("founded_year") == "2021"
    org = '<script type="application/ld+json">{"@type": "Organization", "name": "Ardoise Sàrl"}</script>'
    swiss = draft({"/": page("<h1>Ardoise</h1><p>Ardoise est une API REST qui génère des QR-factures suisses.</p>",
                             title="Accueil - Ardoise", head=org, lang="fr")})
    assert swiss.value("name") == "Ardoise"
    listed = draft({"/": page("<h1>Brasero</h1><h2>Todo lo que tu redacción necesita</h2><ul><li>Muro de pago por "
                              "artículo</li><li>Envíos programados por sección</li><li>Estadísticas de apertura</li></ul>",
                              title="Brasero", lang="es")})
    assert listed.value("features") == ["Muro de pago por artículo", "Envíos programados por sección",
                                        "Estadísticas de apertura"]


def test_a_category_the_definition_says_outranks_one_only_features_suggest() -> None:
    result = draft({"/": page("<h1>Hedgerow</h1><p>Hedgerow is an online store for small farms: sell weekly veg boxes "
                              "and one-off orders.</p><h2>Features</h2><ul><li>Online shop for veg boxes</li><li>Pickup "
                              "slot scheduling</li><li>SMS order reminders</li></ul>", title="Hedgerow")})
    assert result.value("categories") == ["ecommerce"]


def test_features_as_a_two_column_table_of_labels_and_sentences_and_not_a_price_table() -> None:
    rows = "".join(f"<tr><td><strong>{label}</strong></td><td>{text}</td></tr>" for label, text in (
        ("Veebibroneering kalendriga", "Vabad ajad on su kodulehel ja Leili lehel."),
        ("Ettemaks ja tagatisraha", "Klient maksab pangalingi või kaardiga."),
        ("Küttegraafik", "Leil saadab kütjale meeldetuletuse kaks tundi enne.")))
    result = draft({"/": page(f"<h1>Leil</h1><h2>Mida Leil teeb</h2><table>{rows}</table>", title="Leil", lang="et")})
    assert result.value("features") == ["Veebibroneering kalendriga", "Ettemaks ja tagatisraha", "Küttegraafik"]
    prices = "".join(f"<tr><td>{label}</td><td>{text}</td></tr>" for label, text in (
        ("Solo", "One artist for 29 € a month."), ("Studio", "Up to six artists for 59 € a month."),
        ("Collective", "Several studios for 99 € a month.")))
    priced = draft({"/": page(f"<h1>Acme</h1><table>{prices}</table>")})
    assert priced.value("features") is None


# --- round 13, a third practice half -------------------------------------------------------------------


def test_free_for_one_unit_a_polish_free_plan_cell_and_polish_teachers() -> None:
    one = draft({"/": page("<h1>Chaumière</h1>", title="Chaumière", lang="fr"), "/tarifs/": page(
        "<h1>Tarifs</h1><p>Chaumière est gratuit pour un logement, sans limite de durée. À partir du deuxième "
        "logement, comptez 6 € par mois et par logement.</p>", title="Chaumière", lang="fr")})
    assert one.value("pricing_model") == "freemium"
    polish = draft({"/": page("<h1>Obwarzanek</h1><p>Obwarzanek to platforma do tworzenia quizów dla nauczycieli szkół "
                              "podstawowych.</p><p>Obwarzanek powstał w Krakowie w 2022 roku.</p>", title="Obwarzanek",
                              lang="pl"),
                    "/cennik": page("<h1>Cennik</h1><table><tr><th>Plan</th><th>Nauczyciel</th><th>Szkoła</th></tr>"
                                    "<tr><td>Cena</td><td>Bezpłatnie</td><td>990 zł rocznie</td></tr></table>",
                                    title="Obwarzanek", lang="pl")})
    assert polish.value("pricing_model") == "freemium"
    assert polish.value("founded_year") == "2022"
    assert polish.value("categories") == ["education"]


def test_open_source_said_by_its_licence_and_no_faq_about_the_people_behind_it() -> None:
    result = draft({"/": page("<h1>Coppice</h1><p>Coppice is a command-line tool that finds unused dependencies. It is "
                              "released under the MIT licence.</p><p>Sponsored by the good people at Halyard Cloud.</p>",
                              title="Coppice"),
                    "/docs/faq": page("<h1>Frequently asked questions</h1><h2>Is Coppice free?</h2><p>Yes. Coppice is "
                                      "MIT-licensed open source.</p><h2>Who maintains Coppice?</h2><p>Volunteers; the "
                                      "early work was done by Aoife Brennan.</p><h2>Does it work with monorepos?</h2>"
                                      "<p>Yes, it walks every workspace.</p>", title="FAQ | Coppice")})
    assert result.value("pricing_model") == "open source"
    assert [f["question"] for f in result.to_dict()["faqs"]] == ["Is Coppice free?", "Does it work with monorepos?"]
    assert "Halyard" not in (result.value("description") or "")


def test_founders_who_become_founders_first_names_together_captions_and_two_particles() -> None:
    timeline = draft({"/": page("<h1>Gunwale</h1>", title="Gunwale"), "/story": page(
        "<p>2019 — Surf coach Tahnee Rowe and software developer Callum Fitzgerald meet on the beach.</p><p>2020 — "
        "Tahnee and Callum found Gunwale in Torquay. Tahnee becomes co-founder and CEO, Callum co-founder and CTO.</p>",
        title="Gunwale")})
    assert founders(timeline) == {"Tahnee Rowe": "Co-founder and CEO", "Callum Fitzgerald": "Co-founder and CTO"}
    caption = draft({"/": page("<h1>Inkhorn</h1>", title="Inkhorn"), "/about": page(
        "<p>Rosalind MacNeil (left) and Dev Anand, Inkhorn's co-founders, at the library.</p>", title="Inkhorn")})
    assert founders(caption) == {"Rosalind MacNeil": "Co-founders", "Dev Anand": "Co-founders"}
    particles = draft({"/": page("<h1>Bowsprit</h1>", title="Bowsprit"), "/about": page(
        "<p>Lerato Mokoena, co-founder and managing director</p><p>Pieter van der Merwe, co-founder and head of "
        "engineering</p>", title="Bowsprit")})
    assert set(founders(particles)) == {"Lerato Mokoena", "Pieter van der Merwe"}
    started = draft({"/": page("<h1>Albarda</h1>", title="Albarda", lang="es"), "/nosotros": page(
        "<p>Clara Benlloch y Jaume Ortells, fundadores de Albarda. Empezaron en 2023 tras años vendiendo online.</p>",
        title="Albarda", lang="es")})
    assert started.value("founded_year") == "2023"


def test_a_heros_promise_under_an_h1_that_holds_only_the_logo() -> None:
    result = draft({"/": page("<header><h1><a href='/'><img src='/logo.png' alt=''></a></h1></header><h2>Every repair, "
                              "on one card</h2><p>Gearloft is job-card and repair-queue software for independent bicycle "
                              "workshops.</p>", title="Gearloft – Job cards for bike workshops")})
    assert result.value("tagline") == "Every repair, on one card"


# --- round 13, a fourth practice half ------------------------------------------------------------------


def test_a_defining_sentence_without_an_article_outranks_a_meta_description_that_does_not_define() -> None:
    meta = "<meta name='description' content='Bilgepump watches every client site your agency looks after.'>"
    result = draft({"/": page("<h1>Bilgepump</h1><p>Bilgepump watches every client site your agency looks after.</p>"
                              "<p>Bilgepump is uptime and SSL monitoring for web agencies.</p>", title="Bilgepump",
                              head=meta)})
    assert result.value("short_description") == "Bilgepump is uptime and SSL monitoring for web agencies."


def test_a_us_street_with_a_compass_point_and_a_town_named_longer_than_another_countrys() -> None:
    us = draft({"/": page("<h1>Sealwax</h1>", title="Sealwax"), "/about": page(
        "<p>Sealwax · 1005 SE Hawthorne Blvd, Portland, OR 97214 · letters@sealwax.example</p>", title="Sealwax")})
    assert (us.value("city"), us.value("country")) == ("Portland", "US")
    galician = draft({"/": page("<h1>Hórreo</h1>", title="Hórreo", lang="gl"), "/aviso-legal": page(
        "<p>Titular: Hórreo Software S.L., Rúa do Vilar 42, 15705 Santiago de Compostela (A Coruña).</p>",
        title="Hórreo", lang="gl")})
    assert (galician.value("city"), galician.value("country")) == ("Santiago de Compostela", "ES")


def test_latvian_and_galician_words() -> None:
    org = '<script type="application/ld+json">{"@type": "Organization", "name": "SIA Dzirnavas"}</script>'
    latvian = draft({"/": page("<h1>Dzirnavas</h1><p>Dzirnavas ir paroļu un piekļuves pārvaldnieks skolām.</p>",
                               title="Dzirnavas", head=org, lang="lv"),
                     "/cenas.html": page("<h1>Cenas</h1><p>Mazām skolām Dzirnavas ir bezmaksas līdz 20 lietotājiem.</p>"
                                         "<p>Lielākām skolām: 1,50 € par lietotāju mēnesī.</p>", title="Dzirnavas",
                                         lang="lv"),
                     "/par-mums.html": page("<p>Dzirnavas 2022. gadā Rīgā dibināja Ilze Kalniņa un Mārtiņš Ozols.</p>"
                                            "<p>Ilze Kalniņa — līdzdibinātāja, valdes priekšsēdētāja</p><p>Mārtiņš Ozols — "
                                            "līdzdibinātājs, tehniskais direktors</p>", title="Dzirnavas", lang="lv")})
    assert latvian.value("name") == "Dzirnavas"
    assert latvian.value("pricing_model") == "freemium"
    assert latvian.value("founded_year") == "2022"
    assert set(founders(latvian)) == {"Ilze Kalniņa", "Mārtiņš Ozols"}
    galician = draft({"/": page("<h1>Hórreo</h1><h2>Prezo</h2><p>Proba Hórreo de balde durante 30 días. Despois, 49 € ao "
                                "mes por escola.</p><p>Uxía Castro e Brais Vilar, fundadores de Hórreo, na escola onde "
                                "comezou todo en 2023.</p>", title="Hórreo", lang="gl")})
    assert galician.value("pricing_model") in ("free trial", "subscription")
    assert galician.value("founded_year") == "2023"


def test_a_timelines_crean_relatives_and_roles_said_later() -> None:
    result = draft({"/": page("<h1>Farolillo</h1>", title="Farolillo", lang="es"), "/nosotros": page(
        "<p>2022</p><p>Nerea Lasheras, panadera de tercera generación, y su primo Íñigo Lasheras, programador, crean "
        "Farolillo en Zaragoza.</p><p>Nerea es la directora general e Íñigo el director técnico.</p>", title="Farolillo",
        lang="es")})
    assert result.value("founded_year") == "2022"
    assert founders(result) == {"Nerea Lasheras": "directora general", "Íñigo Lasheras": "director técnico"}
    described = draft({"/": page("<h1>Wharfinger</h1>", title="Wharfinger"), "/story": page(
        "<p>2019 — Aurelia Stanbridge and Kwame Mensah, both freelance translators, found Wharfinger in Leeds.</p>",
        title="Wharfinger")})
    assert set(founders(described)) == {"Aurelia Stanbridge", "Kwame Mensah"}
