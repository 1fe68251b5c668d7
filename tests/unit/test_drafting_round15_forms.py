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
