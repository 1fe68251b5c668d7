"""What pages say instead of codes: facts in words, attribute labels in sentence case, one <h1> on a blog post."""

from __future__ import annotations

from api.field_labels import attribute_label, value_label
from api.web_public import render_markdown
from events.draft_fields import PRICING_MODELS, STAGES


def test_every_drafted_pricing_model_and_stage_has_words() -> None:
    assert value_label("freemium", "pricing_model") == "Freemium"
    assert value_label("launched", "stage") == "Launched"
    assert value_label("one-time", "pricing_model") == "One-time payment"
    for value in PRICING_MODELS:
        assert value_label(value, "pricing_model")[0].isupper(), value
    for value in STAGES:
        assert value_label(value, "stage")[0].isupper(), value


def test_an_owners_own_value_starts_with_a_capital_and_other_facts_stay_as_they_are() -> None:
    assert value_label("pay what you want", "pricing_model") == "Pay what you want"
    assert value_label("FREEMIUM", "pricing_model") == "Freemium"
    assert value_label("yes", "open_source") == "yes"
    assert value_label(None, "stage") == "" and value_label("", "stage") == ""


def test_attribute_labels_are_in_sentence_case() -> None:
    assert [attribute_label(a) for a in ("pricing_model", "countries", "integrations", "api_available", "sdks")] == [
        "Pricing model", "Countries", "Integrations", "API available", "SDKs"]


def test_a_post_body_under_its_title_keeps_the_page_to_one_h1() -> None:
    html = str(render_markdown("# How weeks work\n\nText.\n\n## Ranking\n\n### Ties\n", under_title=True))
    assert "<h1>" not in html and "How weeks work" not in html  # the title, written again, is left out
    assert "<h2>Ranking</h2>" in html and "<h3>Ties</h3>" in html
    later = str(render_markdown("Text.\n\n# Part one\n\n## Detail\n", under_title=True))
    assert "<h2>Part one</h2>" in later and "<h3>Detail</h3>" in later  # moved down together, no level skipped
    assert "<h1>Elsewhere</h1>" in str(render_markdown("# Elsewhere\n"))  # other pages' Markdown unchanged
