"""Forms met on the unseen corpus's sixth round: bold-led list items, price tables on pages not named pricing,
accordions without ``aria-controls``, question runs under any heading, founders who introduce themselves before
saying they founded it, leaders' roles, postcodes that name a country, contact blocks and a blog theme's tagline.

Like ``test_drafting_site_forms.py``: small pages through the crawler's own extraction, every draft gated by
``verify()`` (nothing dropped), so each value asserted here is one whose quotes the gate accepted.
"""

from __future__ import annotations

from tests.fixtures.drafting_forms import draft, founders, page
from workers.drafting.countries import countries_indicated
from workers.drafting.vocab import pricing_cues


def test_features_are_the_bold_phrases_list_items_open_with() -> None:
    result = draft({"/": page(
        "<h1>Pruefwerk</h1><h2>Funktionen</h2><ul>"
        "<li><p><strong>Über 120 Prüfregeln</strong> für Kontraste und Alternativtexte.</p></li>"
        "<li><p><strong>Headless-Crawler</strong>, der auch Single-Page-Apps prüft.</p></li>"
        "<li><p><strong>GitLab-Integration</strong>: Pull Requests schlagen fehl.</p></li></ul>"
        "<h2>Schnellstart</h2><p>pipx install pruefwerk</p>", title="Pruefwerk", lang="de")})
    assert result.value("features") == ["Über 120 Prüfregeln", "Headless-Crawler", "GitLab-Integration"]


def test_a_run_of_paragraphs_led_by_bold_phrases_under_any_heading_are_features() -> None:
    result = draft({"/": page(
        "<h1>Slides from plain Markdown</h1><h2>How it works</h2>"
        "<p>🔁 <b>Live reload.</b> Save the file in any editor and the deck updates.</p>"
        "<p>🎤 <b>Presenter view with notes.</b> Speaker notes and a timer on your laptop.</p>"
        "<p>📄 <b>Export to PDF and HTML.</b> One command, the same deck.</p>", title="Slidewell")})
    assert result.value("features") == ["Live reload", "Presenter view with notes", "Export to PDF and HTML"]


def test_a_price_table_on_a_page_not_named_pricing_is_read() -> None:
    result = draft({"/": page("<h1>Logship</h1><p>Logship is free and open source under the MIT License.</p>"
                              "<a href='/cloud'>Cloud</a>", title="Logship"),
                    "/cloud": page("<h1>Logship Cloud</h1><table><tr><th>Plan</th><th>Price</th></tr>"
                                   "<tr><td>Free</td><td>$0</td></tr><tr><td>Usage</td><td>$0.30 per GB</td></tr>"
                                   "</table>", title="Logship Cloud")})
    assert result.value("pricing_model") == "freemium"
    assert "$0.30 per GB" in str(result.value("pricing_summary"))


def test_an_accordion_answer_right_after_its_toggle_is_read() -> None:
    result = draft({"/": page("<h1>Cotejo</h1>", lang="es"), "/preguntas": page(
        "<h1>Preguntas frecuentes</h1><div><button aria-expanded='false'>¿Funciona con Amazon?</button>"
        "<div hidden>Sí, con Amazon y otros marketplaces desde el plan Marca.</div></div>", lang="es")})
    faqs = {f["question"]: f["answer"] for f in result.to_dict()["faqs"]}
    assert faqs == {"¿Funciona con Amazon?": "Sí, con Amazon y otros marketplaces desde el plan Marca."}


def test_hidden_text_after_something_that_is_not_a_toggle_stays_hidden() -> None:
    result = draft({"/": page("<h1>Acme</h1><p>Acme plans your week.</p><div hidden>Acme was founded in 1999.</div>")})
    assert result.value("founded_year") is None


def test_three_answered_questions_make_a_faq_whatever_the_heading_says() -> None:
    result = draft({"/": page("<h1>Ondeia</h1>", lang="pt"), "/duvidas": page(
        "<h1>Dúvidas frequentes</h1><h3>Posso usar no meu site?</h3><p>Sim, basta colar um pequeno código.</p>"
        "<h3>Cobram comissão?</h3><p>Não. Paga apenas o plano mensal.</p>"
        "<h3>E se a aula for cancelada?</h3><p>A reserva passa para outro dia.</p>", lang="pt")})
    assert [f["question"] for f in result.to_dict()["faqs"]] == [
        "Posso usar no meu site?", "Cobram comissão?", "E se a aula for cancelada?"]


def test_two_people_named_then_said_to_have_founded_it_together() -> None:
    german = draft({"/": page("<h1>Kitafunk</h1>", lang="de"), "/wer-wir-sind": page(
        "<p>Hinter Kitafunk stehen Annika Brandt, Erzieherin und Kita-Leiterin a. D., und Jonas Weidenmüller, "
        "Softwareentwickler. Die beiden haben Kitafunk 2020 gemeinsam gegründet.</p>", lang="de")})
    assert set(founders(german)) == {"Annika Brandt", "Jonas Weidenmüller"}
    english = draft({"/": page("<h1>Soapbox</h1>"), "/about/": page(
        "<p>We’re Maddie Fenwick and Joaquín Ibarra. We started Soapbox in 2021, after years of product work.</p>")})
    assert set(founders(english)) == {"Maddie Fenwick", "Joaquín Ibarra"}


def test_a_founding_sentence_with_a_description_after_each_name() -> None:
    result = draft({"/": page("<h1>Parloir</h1>", lang="fr"), "/a-propos": page(
        "<p>Parloir a été fondé en 2023 à Lausanne par Chloé Rochat, ancienne enseignante, et Malik Benali, "
        "ingénieur en traitement de la parole.</p>", lang="fr")})
    assert set(founders(result)) == {"Chloé Rochat", "Malik Benali"}


def test_a_customer_named_before_the_team_founded_it_is_not_a_founder() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/about": page(
        "<p>Ana Ruiz and Tom Berg love our product. Then Carl Moss founded the company with friends.</p>")})
    assert "Ana Ruiz" not in founders(result)


def test_each_founder_gets_the_leaders_role_the_next_clause_gives_them() -> None:
    result = draft({"/": page("<h1>Brightwell</h1>"), "/company": page(
        "<p>Brightwell was founded in 2023 by Priyanka Deshmukh and Tomasz Wielgosz. Priyanka leads the company "
        "as CEO; Tomasz, our CTO, still writes most of the runner.</p>")})
    assert founders(result) == {"Priyanka Deshmukh": "CEO", "Tomasz Wielgosz": "CTO"}


def test_an_honorific_is_not_part_of_a_founders_name_and_a_card_title_beats_a_bare_role() -> None:
    result = draft({"/": page("<h1>Pawprint</h1>"), "/about": page(
        "<h3>Dr Hannah Okafor</h3><p>Co-founder & CEO</p>")})
    assert founders(result) == {"Hannah Okafor": "Co-founder & CEO"}


def test_people_free_on_a_paid_plan_are_free_seats_not_a_free_plan() -> None:
    assert "free plan" not in pricing_cues("Try it free for 30 days, then pay monthly. Nurses and reception staff are always free.")
    assert "free plan" in pricing_cues("The app is always free.")
    assert "free plan" in pricing_cues("Slidewell is free for personal use, students and teachers.")


def test_polish_and_portuguese_postcodes_name_their_country() -> None:
    assert [code for _, code in countries_indicated("ul. Zabłocie 23/4, 30-701 Kraków")] == ["PL", "PL"]
    assert [code for _, code in countries_indicated("Rua Augusta 10, 1100-053 Lisboa")] == ["PT", "PT"]
    result = draft({"/": page("<h1>Nowinka</h1><footer><p>Nowinka sp. z o.o.</p><p>ul. Zabłocie 23/4</p>"
                              "<p>30-701 Kraków</p></footer>", lang="pl")})
    assert (result.value("city"), result.value("country")) == ("Kraków", "PL")


def test_a_contact_blocks_town_under_the_phone_number() -> None:
    result = draft({"/": page("<h1>Soapbox</h1><footer><h4>Say hello</h4><p>hello@soapbox.example</p>"
                              "<p>+353 21 496 0731</p><p>Cork</p></footer>")})
    assert (result.value("city"), result.value("country")) == ("Cork", "IE")


def test_we_work_from_a_town_names_the_place() -> None:
    result = draft({"/": page("<h1>Slidewell</h1><p>We work from Edinburgh, Scotland, and answer every email.</p>")})
    assert (result.value("city"), result.value("country")) == ("Edinburgh", "GB")


def test_a_blog_themes_site_description_is_the_tagline() -> None:
    result = draft({"/": page(
        "<header><p class='site-title'>Nowinka</p><p class='site-description'>Changelog, który naprawdę przeczytają"
        "</p></header><main><h1>Ogłaszaj nowości tam, gdzie są Twoi użytkownicy</h1></main>", lang="pl", title="Nowinka")})
    assert result.value("tagline") == "Changelog, który naprawdę przeczytają"


def test_two_spans_of_a_heading_do_not_run_together() -> None:
    result = draft({"/": page("<h1><span>Cinderpath</span><span>Ship logs from anywhere</span></h1>",
                              title="Cinderpath | Ship logs from anywhere")})
    assert result.value("tagline") == "Ship logs from anywhere"


def test_a_link_naming_the_product_beats_a_themes_credit_link() -> None:
    result = draft({"/": page("<h1>Pruefstand</h1><footer><a href='https://github.example/someone/furo'>Furo</a>"
                              "<a href='https://github.example/barrierelos/pruefstand' aria-label='GitHub'></a></footer>",
                              title="Prüfstand")})
    assert result.to_dict()["company_socials"]["github"] == "https://github.example/barrierelos/pruefstand"


def test_founders_named_in_a_press_release_a_timeline_a_blog_post_and_a_signature() -> None:
    press = draft({"/": page("<h1>Acme</h1>"), "/press": page(
        "<p>Acme raised a seed round, said Anna Berg, co-founder and CEO of Acme.</p>"
        "<p>\u201cIt changed our week,\u201d says Jane Doe, founder of Bakery Co.</p>")})
    assert founders(press) == {"Anna Berg": "Co-founder and CEO"}
    timeline = draft({"/": page("<h1>Acme</h1>"), "/story": page(
        "<ol><li>2019 \u2014 Anna Berg and Li Wei found Acme in a spare room.</li><li>2021 \u2014 First hire.</li></ol>")})
    assert set(founders(timeline)) == {"Anna Berg", "Li Wei"}
    blog = draft({"/": page("<h1>Acme</h1>"), "/blog/how-we-started": page(
        "<p>Back then my co-founder Li Wei wrote the first parser in a weekend.</p>")})
    assert founders(blog) == {"Li Wei": "Co-founder"}
    signed = draft({"/": page("<h1>Acme</h1><p>Thanks for reading.</p><p>\u2014 Anna Berg, co-founder</p>")})
    assert founders(signed) == {"Anna Berg": "co-founder"}


def test_tab_labels_and_carousel_slides_out_of_view_are_read() -> None:
    tabs = draft({"/": page(
        "<h1>Acme</h1><h2>Features</h2><div role='tablist'>"
        "<button role='tab' aria-selected='true' aria-controls='t1'>Planning</button>"
        "<button role='tab' aria-selected='false' aria-controls='t2'>Tracking</button></div>"
        "<div role='tabpanel' id='t1'><h3>Weekly goals</h3></div>"
        "<div role='tabpanel' id='t2' hidden><h3>Time tracking</h3></div>")})
    assert "Time tracking" not in (tabs.value("features") or [])  # a tab panel not selected stays hidden
    assert "Weekly goals" in (tabs.value("features") or [])
    slides = draft({"/": page(
        "<h1>Acme</h1><h2>Features</h2><div class='swiper'>"
        "<div class='swiper-slide'><h3>Weekly goals</h3></div>"
        "<div class='swiper-slide' aria-hidden='true'><h3>Time tracking</h3></div>"
        "<div class='swiper-slide' aria-hidden='true'><h3>Shared inbox</h3></div></div>"
        "<p aria-hidden='true'>Acme was founded in 1999.</p>")})
    assert {"Time tracking", "Shared inbox"} <= set(slides.value("features") or [])
    assert slides.value("founded_year") is None


def test_a_price_stated_only_in_the_text_is_read() -> None:
    result = draft({"/": page("<h1>Acme</h1><p>Acme sorts your week for you.</p>"
                              "<p>Acme costs $8 per user per month, billed yearly.</p>"
                              "<blockquote>\u201cIt saved us $2,000 a month.\u201d</blockquote>")})
    assert result.value("pricing_model") == "subscription"
    assert result.value("pricing_summary") == "Acme costs $8 per user per month, billed yearly."
