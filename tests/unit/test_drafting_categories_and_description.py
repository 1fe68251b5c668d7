"""Categories from the site's words: a word inside another category's longer phrase is that phrase's mention, a
licence sentence is not what the software does, and the phrases that alone name a shop, a search-engine tool, a
testing tool or an assistant in more languages; and a description that keeps to what the product is.

The pages go through the crawler's own extraction and the gate (``tests.fixtures.drafting_forms.draft``).
"""

from __future__ import annotations

from tests.fixtures.drafting_forms import draft, page


def categories(pages: dict[str, str]) -> list[str]:
    return list(draft(pages).value("categories") or [])


def test_a_word_inside_another_categorys_phrase_is_no_second_mention() -> None:
    found = categories({"/": page(
        "<h1>Meeting notes that write their own follow-ups</h1>"
        "<p>Larchwood is an AI meeting assistant that joins your calls, writes the notes and drafts every follow-up.</p>",
        title="Larchwood \u2013 Meeting notes that write their own follow-ups")})
    assert "ai-assistants" in found
    assert "notes-docs" not in found


def test_a_licence_sentence_is_not_work_software() -> None:
    found = categories({"/": page(
        "<h1>Pr\u00fcfstand</h1><p>Pr\u00fcfstand ist freie Software unter der EUPL-1.2 und wird in Dresden entwickelt.</p>",
        title="Pr\u00fcfstand", lang="de")})
    assert "productivity" not in found


def test_a_shop_named_in_greek_is_ecommerce_not_the_general_category() -> None:
    found = categories({"/": page(
        "<h1>\u039a\u03c5\u03c8\u03ad\u03bb\u03b7</h1><p>\u0397 \u039a\u03c5\u03c8\u03ad\u03bb\u03b7 \u03b5\u03af\u03bd\u03b1\u03b9 "
        "\u03c0\u03bb\u03b1\u03c4\u03c6\u03cc\u03c1\u03bc\u03b1 \u03b7\u03bb\u03b5\u03ba\u03c4\u03c1\u03bf\u03bd\u03b9\u03ba\u03bf\u03cd "
        "\u03ba\u03b1\u03c4\u03b1\u03c3\u03c4\u03ae\u03bc\u03b1\u03c4\u03bf\u03c2 \u03b3\u03b9\u03b1 \u03bc\u03b9\u03ba\u03c1\u03bf\u03cd\u03c2 "
        "\u03c0\u03b1\u03c1\u03b1\u03b3\u03c9\u03b3\u03bf\u03cd\u03c2.</p>", title="\u039a\u03c5\u03c8\u03ad\u03bb\u03b7", lang="el")})
    assert found == ["ecommerce"]


def test_search_engine_optimisation_and_load_testing_named_in_their_languages() -> None:
    seo = categories({"/": page(
        "<h1>Ziegelhof</h1><p>Ziegelhof ist eine Software f\u00fcr lokale Suchmaschinenoptimierung von Apotheken: "
        "Wir halten Ihr Google-Unternehmensprofil aktuell.</p>", title="Ziegelhof", lang="de")})
    assert seo == ["seo"]
    testing = categories({"/": page(
        "<h1>Tinaja \u2014 Pruebas de carga para equipos peque\u00f1os</h1>"
        "<p>Tinaja es una herramienta de pruebas de carga para equipos peque\u00f1os.</p>", title="Tinaja", lang="es")})
    assert "testing" in testing


def test_a_description_leaves_out_prices_bylines_buzzwords_and_comments() -> None:
    result = draft({"/": page(
        "<h1>Needlecase</h1><p>Needlecase is visual regression testing for web teams.</p>"
        "<p>It screenshots every page of your app on each pull request.</p>"
        "<p>Our partner DeviceLoom offers a mobile device cloud from \u00a359/month, billed by them.</p>"
        "<p>Zero-trust. Web3-ready. Shift-left. Whatever your roadmap calls it, we just compare pixels.</p>"
        "<p>Por Mariana Ochoa, editora de contenidos.</p>"
        "<h3>One thought on \u201cAbout\u201d</h3><p>Saoirse Nolan says:</p><p>We moved our sites over from Pingwell.</p>",
        title="Needlecase")})
    description = str(result.value("description"))
    assert description.startswith("Needlecase is visual regression testing for web teams.")
    assert "pull request" in description
    for other in ("DeviceLoom", "Web3", "Mariana", "Pingwell"):
        assert other not in description


def test_an_faqs_answers_stay_out_of_the_description_when_its_questions_read_as_headings() -> None:
    """Each question of an FAQ is a short line ending in "?": it does not end the FAQ section, a real heading does."""
    result = draft({"/": page(
        "<h1>Anvil</h1><p>Anvil is an open-source load testing tool for HTTP and gRPC services.</p>"
        "<h2 id='faq'>FAQ</h2>"
        "<details><summary>Can I run Anvil on more than one machine?</summary><p>Yes. Start workers with the "
        "worker command and point the controller at them.</p></details>"
        "<details><summary>Do you offer commercial support?</summary><p>A few maintainers offer support contracts "
        "through their own consultancies.</p></details>"
        "<h2>Reports</h2><p>Every run writes one self-contained HTML report you can attach to a ticket.</p>",
        title="Anvil")})
    description = str(result.value("description"))
    assert description.startswith("Anvil is an open-source load testing tool")
    assert "Start workers" not in description and "support contracts" not in description
    assert "self-contained HTML report" in description  # a heading after the FAQ is the product's story again


def test_buzzwords_stuffed_into_meta_keywords_are_no_keywords() -> None:
    result = draft({"/": page("<h1>Granero</h1><p>Granero organiza las clases de tu academia.</p>", title="Granero",
                              lang="es").replace("</title>", "</title><meta name='keywords' content='Web3, metaverso, "
                                                             "educaci\u00f3n, blockchain'>")})
    assert result.value("keywords") == ["educaci\u00f3n"]


def test_im_opening_a_self_introduction_is_no_founders_name() -> None:
    result = draft({"/": page("<h1>Quire</h1><p>Quire is a notebook for researchers.</p>", title="Quire"),
                    "/why-i-built-quire": page(
                        "<article><h1>Why I built Quire</h1><p>I'm Beatrix, the founder of Quire. In 2019 I lost a "
                        "week rebuilding a reference list.</p></article>")})
    assert all(not f["name"].startswith("I") for f in result.to_dict()["founders"])


def test_founding_years_said_as_born_set_up_since_or_the_first_version() -> None:
    cases = {
        "<p>Fornello nasce a Bologna nel 2022, tra una scuola di sfoglia e uno studio di software.</p>": "2022",
        "<p>Montamos Molinillo en Valencia en 2019, después de años haciendo SEO.</p>": "2019",
        "<p>Miotłę robimy w Krakowie od 2021 roku.</p>": "2021",
        "<p>In 2018 schreef ik de eerste versie van Acme voor mijn eigen werkplaats.</p>": "2018",
    }
    for body, year in cases.items():
        result = draft({"/": page("<h1>Acme</h1><p>Acme is a booking app.</p>", title="Acme"), "/about": page(body)})
        assert result.value("founded_year") == year, body
    footer = draft({"/": page("<h1>Karaffe</h1><p>Karaffe pflegt Ihre Einträge.</p>"
                              "<footer><p>Seit 2017 aus Wien für Betriebe mit Adresse.</p></footer>", title="Karaffe")})
    assert footer.value("founded_year") == "2017"


def test_towns_before_a_canadian_postcode_an_eircode_or_after_maintained_from() -> None:
    cases = {
        "<footer><p>Jardinière Logiciels inc. · 5333, avenue Casgrain, bureau 810, Montréal (Québec) H2T 1X3</p></footer>":
            ("Montréal", "CA"),
        "<footer><p>Keelson Ltd</p><p>Thomas Street, Dublin 8, D08 TCV4</p></footer>": ("Dublin", "IE"),
        "<footer><p>Copyright © 2020–2025 The Anvil Authors · Maintained from Leeds, United Kingdom</p></footer>":
            ("Leeds", "GB"),
        "<footer><p>1 Hollis Street, Halifax, NS B3J 3N4</p></footer>": ("Halifax", "CA"),
    }
    for footer, (city, country) in cases.items():
        result = draft({"/": page(f"<h1>Acme</h1><p>Acme is a booking app.</p>{footer}", title="Acme")})
        assert (result.value("city"), result.value("country")) == (city, country), footer


def test_features_on_an_about_or_pricing_page_a_leistungen_page_and_cards_naming_the_product_in_lower_case() -> None:
    about = draft({"/": page("<h1>Eggtimer</h1><p>A focus timer for your menu bar.</p>", title="Eggtimer"),
                   "/about": page("<h1>About Eggtimer</h1><h2>What it does</h2><ul>"
                                  "<li>Focus sessions with breaks — 25/5 by default, any rhythm you like.</li>"
                                  "<li>Menu bar countdown — always visible, never a window in your way.</li>"
                                  "<li>LaTeX math — inline and display equations, rendered as you type.</li></ul>")})
    assert about.value("features") == ["Focus sessions with breaks", "Menu bar countdown", "LaTeX math"]
    table = draft({"/": page("<h1>Dachrinne</h1><p>Monitoring für Rechenzentren.</p>", title="Dachrinne", lang="de"),
                   "/leistungen": page("<table><tr><th>Funktion</th><th>Beschreibung</th></tr>"
                                       "<tr><td>Log-Sammlung</td><td>Ein Kollektor für alle Logs.</td></tr>"
                                       "<tr><td>Air-Gap-Betrieb</td><td>Updates kommen als signiertes Paket.</td></tr>"
                                       "</table>", lang="de")})
    assert table.value("features") == ["Log-Sammlung", "Air-Gap-Betrieb"]
    cards = draft({"/": page("<h1>oilcan</h1><p>oilcan turns your OpenAPI spec into SDKs.</p>"
                             "<h3>Idiomatic SDKs</h3><p>Generated code reads like a human wrote it.</p>"
                             "<h3>Local mock server</h3><p>oilcan mock serves realistic responses from your spec.</p>"
                             "<h3>Breaking-change detection</h3><p>oilcan diff fails your CI when a change breaks callers.</p>",
                             title="oilcan")})
    assert cards.value("features") == ["Idiomatic SDKs", "Local mock server", "Breaking-change detection"]


def test_founders_named_after_their_title_after_we_are_and_before_and_i() -> None:
    after_title = draft({"/": page("<h1>Dustpan</h1><p>Dustpan is made in Melbourne by its founder, Nina Castellano, "
                                   "who started it in 2016.</p>", title="Dustpan")})
    assert [(f["name"], f["title"]) for f in after_title.to_dict()["founders"]] == [("Nina Castellano", "Founder")]
    we_are = draft({"/": page("<h1>Rabot</h1><p>Rabot garde vos couleurs.</p>", title="Rabot", lang="fr"), "/blog/rabot": page(
        "<p>Nous sommes Arnaud Dewulf et Sofia Mertens, les cofondateurs de Rabot. Arnaud était designer.</p>", lang="fr")})
    assert [f["name"] for f in we_are.to_dict()["founders"]] == ["Arnaud Dewulf", "Sofia Mertens"]
    and_i = draft({"/": page("<h1>Lanterne</h1><p>Lanterne éclaire vos notes.</p>", title="Lanterne", lang="fr"), "/blog/l": page(
        "<p>Quand Théo Marchand et moi avons fondé Lanterne, au printemps 2021, nous partagions un bureau.</p>", lang="fr")})
    assert [f["name"] for f in and_i.to_dict()["founders"]] == ["Théo Marchand"]
