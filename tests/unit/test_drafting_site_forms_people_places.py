"""More forms real sites write things in: team tables, makers named in prose, addresses around postal codes,
free allowances, purpose mailboxes, accordions, passing buzzwords.

Like ``test_drafting_site_forms.py``: small pages through the crawler's own
extraction, every draft gated by ``verify()`` (nothing dropped), so each value
asserted here is one whose quotes the gate accepted.
"""

from __future__ import annotations

from tests.fixtures.drafting_forms import draft, founders, page
from workers.drafting.addresses import _town_of


def test_a_team_table_names_its_founders_and_not_its_header_or_other_staff() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/team": page(
        "<h1>Team</h1><table><thead><tr><th>Name</th><th>Role</th></tr></thead><tbody>"
        "<tr><td>Priya Raman</td><td>Co-founder, lead maintainer</td></tr>"
        "<tr><td>Tom\u00e1s \u00d3 S\u00failleabh\u00e1in</td><td>Co-founder &amp; Head of Design</td></tr>"
        "<tr><td>Teodora Vasi\u0107</td><td>Maintainer</td></tr></tbody></table>")})
    assert founders(result) == {"Priya Raman": "Co-founder, lead maintainer",
                                "Tom\u00e1s \u00d3 S\u00failleabh\u00e1in": "Co-founder & Head of Design"}


def test_makers_named_in_prose_with_their_role_after_them_are_founders() -> None:
    english = draft({"/": page(
        "<h1>Acme</h1><p>Acme is made in Pittsburgh by Dana Whitcomb and Luis Ortega, co-founders, who onboarded "
        "people at a bakery chain.</p>")})
    assert set(founders(english)) == {"Dana Whitcomb", "Luis Ortega"}
    portuguese = draft({"/": page(
        "<h1>Acme</h1><p>A Acme foi criada em Florian\u00f3polis por Rafael Tavares, fundador, que passou oito anos "
        "num balc\u00e3o.</p>")})
    assert founders(portuguese) == {"Rafael Tavares": "Fundador"}


def test_a_card_with_an_accented_name_is_a_founder() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/a-propos": page(
        "<h1>\u00c0 propos</h1><div><h3>\u00c9lodie Marchand</h3><p>Cofondatrice et pr\u00e9sidente</p></div>")})
    assert founders(result) == {"\u00c9lodie Marchand": "Cofondatrice et pr\u00e9sidente"}


def test_the_town_is_read_around_postal_and_state_codes() -> None:
    assert _town_of("12 Camden Row, Dublin 8, D08 XY12, Ireland") == ("Dublin", "IE")
    assert _town_of("Level 2, 110 Cuba Street, Te Aro, Wellington 6011, New Zealand") == ("Wellington", "NZ")
    assert _town_of("Fitzroy VIC 3065, Melbourne, Australia") == ("Melbourne", "AU")
    assert _town_of("D08 XY12, Ireland") == (None, None)


def test_a_state_after_a_dash_is_not_the_town() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><footer><p>Acme Ltda. \u00b7 Florian\u00f3polis \u2013 SC, Brasil</p></footer>")})
    assert (result.value("city"), result.value("country")) == ("Florian\u00f3polis", "BR")


def test_an_imprint_sentence_gives_the_country_the_footer_leaves_out() -> None:
    result = draft({
        "/": page("<h1>Acme</h1><footer><p>2 rue de la Visitation, 35000 Rennes</p></footer>"),
        "/mentions-legales": page(
            "<h1>Mentions l\u00e9gales</h1><p>Le site est \u00e9dit\u00e9 par Acme SAS, 2 rue de la Visitation, "
            "35000 Rennes, France. SIREN 887 412 903.</p>"),
    })
    assert (result.value("city"), result.value("country")) == ("Rennes", "FR")


def test_a_country_after_the_town_with_a_second_in() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><p>Acme wird von einem kleinen Team in Winterthur in der Schweiz entwickelt.</p>")})
    assert result.value("country") == "CH"


def test_a_free_allowance_then_a_price_is_freemium() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><h2>Pricing</h2><p>Free for up to 5 new hires a year, with every feature. After that, $6 per "
        "employee per month, billed monthly.</p>")})
    assert result.value("pricing_model") == "freemium"
    rand = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(
        "<h1>Pricing</h1><table><tr><th>Price</th><td>Free forever</td><td>R49 per month</td></tr></table>")})
    assert rand.value("pricing_model") == "freemium"


def test_free_software_with_a_hosted_edition_is_open_source_and_its_price_is_summarised() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><h2>Lizenz und Kosten</h2><p>Acme ist freie Software unter der AGPL-3.0 und kostenlos. Wer "
        "nichts selbst betreiben m\u00f6chte, kann die gehostete Acme Cloud ab 12 \u20ac im Monat nutzen; die "
        "Einnahmen finanzieren die Entwicklung und den Betrieb der Server.</p>")})
    assert result.value("pricing_model") == "open source"
    assert "12 \u20ac im Monat" in (result.value("pricing_summary") or "")
    docs = draft({"/": page("<h1>Acme</h1><p>Mock servers for teams.</p>"), "/docs/intro": page(
        "<h1>Introduction</h1><p>Acme is free and open source under the MIT licence. There is no paid edition.</p>")})
    assert docs.value("pricing_model") == "open source"


def test_a_singular_price_heading_opens_a_one_pagers_pricing() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><h2>Pre\u00e7o</h2><p>Um plano s\u00f3: R$ 89 por m\u00eas por loja. Teste gr\u00e1tis por "
        "14 dias, sem cart\u00e3o de cr\u00e9dito.</p>")})
    assert result.value("pricing_model") == "free trial"


def test_the_general_address_is_the_contact_not_the_security_one() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><p>For security reports, write to security@acme.example; for everything else, "
        "hello@acme.example.</p>")})
    assert result.value("contact_email") == "hello@acme.example"


def test_accordion_answers_in_a_linkless_nav_are_faq_answers() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/faq": page(
        "<h1>FAQ</h1><div class='w-dropdown'><div class='w-dropdown-toggle'><div>Welke banken kan ik koppelen?</div>"
        "<div>+</div></div><nav class='w-dropdown-list'><p>Alle grote Nederlandse banken.</p></nav></div>")})
    assert [(f["question"], f["answer"]) for f in result.to_dict()["faqs"]] == [
        ("Welke banken kan ik koppelen?", "Alle grote Nederlandse banken.")]


def test_a_buzzword_in_passing_or_an_ai_powered_aside_is_no_category() -> None:
    result = draft({"/": page(
        "<h1>Onboarding checklists for small teams</h1>"
        "<p>Acme turns new-hire onboarding into one shared checklist.</p>"
        "<p>Start from ours or write your own in the no-code checklist builder.</p>"
        "<p>Palette suggestions are AI-powered.</p>")})
    assert "no-code" not in (result.value("categories") or [])
    assert "ai" not in (result.value("categories") or [])


def test_the_headlines_word_said_again_makes_a_category() -> None:
    result = draft({"/": page(
        "<h1>Les newsletters des associations</h1>"
        "<p>Acme est l'outil de newsletters pens\u00e9 pour les associations.</p>", title="Acme")})
    assert "email-marketing" in (result.value("categories") or [])


def test_founders_telling_the_founding_year_in_the_first_person() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/nosotros": page(
        "<h1>Nosotros</h1><p>Fundamos Acme en 2023 en C\u00f3rdoba, despu\u00e9s de diez a\u00f1os dirigiendo obras.</p>")})
    assert result.value("founded_year") == "2023"


def test_the_line_under_a_name_heading_that_repeats_the_header_brand_is_the_tagline() -> None:
    result = draft({"/": page(
        "<header><a href='/'>Pegel</a></header><main><h1>Pegel</h1>"
        "<p><strong>Uptime-Monitoring, das auf deinem Server bleibt</strong></p>"
        "<p>Pegel \u00fcberwacht Websites von deinem eigenen Server aus.</p></main>", title="Pegel")})
    assert result.value("tagline") == "Uptime-Monitoring, das auf deinem Server bleibt"


def test_tags_in_an_article_footer_and_a_linkless_tag_list_are_the_sites_tags() -> None:
    result = draft({"/": page(
        "<main><h1>Acme</h1><nav class='md-tags'><span class='md-tag'>Monitoring</span> "
        "<span class='md-tag'>Self-Hosting</span></nav><p>Uptime checks from your own server.</p></main>"),
        "/blog/post": page(
        "<article><h1>New: photo locations</h1><p>Every photo now keeps where it was taken.</p>"
        "<footer><span>Etiquetas:</span> <a href='/tag/fotos-de-obra/' rel='tag'>Fotos de obra</a></footer></article>")})
    assert result.value("tags") == ["Monitoring", "Self-Hosting", "Fotos de obra"]


def test_a_posts_category_a_menus_tag_archive_and_a_featured_badge_are_no_tags() -> None:
    result = draft({"/": page(
        "<nav class='main-navigation'><ul><li class='menu-item'><a href='/tag/stories/'>Stories</a></li></ul></nav>"
        "<main><h1>Acme</h1><p>Uptime checks from your own server.</p>"
        "<article class='post-card featured'><div class='post-card-tags'><span class='post-card-featured'>Featured</span>"
        "<span class='post-card-primary-tag'>Monitoring</span></div></article></main>"),
        "/blog/post": page(
        "<article><h1>New: photo locations</h1><p>Every photo now keeps where it was taken.</p>"
        "<footer>Posted in <a href='/category/guides/' rel='category tag'>Guides</a> "
        "<a href='/tag/fotos/' rel='tag'>Fotos</a></footer></article>")})
    assert result.value("tags") == ["Monitoring", "Fotos"]


def test_a_meta_description_repeating_the_headline_gives_way_to_the_first_sentence() -> None:
    result = draft({"/": page(
        "<h1>Tu obra, al d\u00eda. Sin planillas ni grupos de WhatsApp.</h1>"
        "<p>Acme es la app para constructoras y contratistas que ordena tareas y fotos de cada obra.</p>",
        title="Acme").replace("</title>", "</title><meta name='description' "
                               "content='Tu obra, al d\u00eda. Sin planillas ni grupos de WhatsApp.'>")})
    assert (result.value("short_description") or "").startswith("Acme es la app para constructoras")


def test_a_docs_sites_introduction_describes_the_product() -> None:
    result = draft({"/": page("<h1>Acme</h1><p>Mock any HTTP API from an OpenAPI file.</p>"), "/docs/intro": page(
        "<h1>Introduction</h1><p>Acme reads your OpenAPI schema and serves a fake version of the API that behaves "
        "like the real one.</p>")})
    assert "serves a fake version of the API" in (result.value("description") or "")


def test_free_for_open_source_projects_is_an_offer_not_an_open_source_product() -> None:
    result = draft({"/": page("<h1>Acme</h1>"), "/pricing": page(
        "<h1>Pricing</h1><p>Team: $29 per month.</p><p>Acme is free for open-source projects.</p>")})
    assert result.value("pricing_model") != "open source"


def test_singular_and_plural_of_one_word_are_one_term() -> None:
    result = draft({"/": page(
        "<h1>Acme</h1><p>Acme runs your automations so no task is forgotten.</p>"
        "<p>Automations finish the tasks nobody likes.</p>")})
    assert "project-management" not in (result.value("categories") or [])
