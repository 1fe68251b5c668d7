"""Normalisation for evidence matching, and truncation that keeps evidence valid."""

from __future__ import annotations

import pytest

from workers.adapters.websites import CrawledPage, CrawlResult
from workers.drafting import verify
from workers.drafting.model import MAX_DESCRIPTION, MAX_LIST_ITEM, MAX_LIST_ITEMS, MAX_STRING
from workers.drafting.text import contains_phrase, normalise, sentences, truncate_words

BASE = "https://site.example"


@pytest.mark.parametrize(
    ("page_text", "quote"),
    [
        ("It\u2019s \u201cfast\u201d \u2014 really", "It's \"fast\" - really"),  # curly quotes, em dash
        ("Price \u2013 \u20ac9", "price - \u20ac9"),  # en dash, case
        ("Ｆｕｌｌｗｉｄｔｈ ＡＰＩ", "Fullwidth API"),  # NFKC
        ("no\u00a0break\u00a0space", "no break space"),  # NBSP
        ("zero\u200bwidth and soft\u00adhyphen", "zerowidth and softhyphen"),
        ("Stra\u00dfe", "STRASSE"),  # case folding
        ("Caf\u0065\u0301 open", "Caf\u00e9 open"),  # combining accent vs precomposed
        ("many   spaces\nand a\tline break", "many spaces and a line break"),
        ("\u2026and more", "...and more"),
    ],
)
def test_normalisation_makes_equivalent_text_match(page_text: str, quote: str) -> None:
    assert contains_phrase(normalise(page_text), normalise(quote))


@pytest.mark.parametrize(
    ("haystack", "needle", "found"),
    [
        ("founded in 2021.", "2021", True),
        ("order 120213 shipped", "2021", False),
        ("Acme Flow", "Acme", True),
        ("Acmeflow", "Acme", False),
        ("from $12/month", "$12", True),
        ("from $120/month", "$12", False),
        ("Can I cancel anytime?", "cancel anytime?", True),
    ],
)
def test_phrases_match_on_word_boundaries(haystack: str, needle: str, found: bool) -> None:
    assert contains_phrase(normalise(haystack), normalise(needle)) is found


def test_sentences_split_at_terminators_lines_and_title_separators() -> None:
    assert sentences("One. Two!\nThree? Acme \u2014 Do more | Home") == ["One.", "Two!", "Three?", "Acme", "Do more", "Home"]
    assert sentences("Version 3.2 adds runs. 1,200 teams.") == ["Version 3.2 adds runs.", "1,200 teams."]


@pytest.mark.parametrize("limit", [5, 12, 20, 33, 60])
def test_truncation_is_a_word_boundary_prefix(limit: int) -> None:
    text = "Acme Flow connects your tools, and runs the busywork for you every day."
    cut = truncate_words(text, limit)
    assert len(cut) <= limit
    assert text.startswith(cut)
    assert cut == "" or text[len(cut)] in " ,"
    assert not cut.endswith((" ", ","))


def _crawl(text: str, title: str = "Long page") -> CrawlResult:
    page = CrawledPage(url=BASE + "/", requested_url=BASE + "/", fetched_at="2025-01-06T09:00:00Z", status=200,
                       content_type="text/html", robots_allowed=True, title=title, text=text)
    return CrawlResult(start_url=BASE + "/", final_url=BASE + "/", site=BASE, user_agent="launchdirbot/1.0",
                       started_at="x", finished_at="y", robots_txt_url=BASE + "/robots.txt", robots_found=False, pages=[page])


def test_values_over_their_bounds_are_cut_and_still_verify() -> None:
    sentence = "Acme Flow keeps every workflow step visible to the whole team at all times."
    long_text = " ".join([sentence] * 400)  # ~30,000 characters in one paragraph
    long_name = "Acme " + " ".join(["Flow"] * 200)
    items = [f"Feature number {i} " + "with a long descriptive label " * 10 for i in range(30)]
    crawl = _crawl("\n".join([long_text, long_name, *items]))
    quote = {"url": BASE + "/", "quote": " ".join([sentence] * 50), "source": "text"}
    candidate = {"fields": {
        "description": {"value": long_text, "evidence": [quote]},
        "name": {"value": long_name, "evidence": [{"url": BASE + "/", "quote": long_name}]},
        "features": {"value": items, "evidence": [{"url": BASE + "/", "quote": i} for i in items]},
    }}
    draft = verify(candidate, crawl)
    description = str(draft.value("description"))
    assert MAX_DESCRIPTION - 100 < len(description) <= MAX_DESCRIPTION
    assert long_text.startswith(description)
    name = str(draft.value("name"))
    assert len(name) <= MAX_STRING and long_name.startswith(name) and not name.endswith(" ")
    features = draft.value("features")
    assert isinstance(features, list) and len(features) == MAX_LIST_ITEMS
    assert all(len(f) <= MAX_LIST_ITEM and any(i.startswith(f) for i in items) for f in features)
    # the cut values are still supported by their quotes: verifying the draft again changes nothing
    assert verify(draft, crawl) == draft


def test_a_cut_prose_value_is_a_prefix_of_its_quote() -> None:
    paragraph = " ".join(f"Sentence number {i} explains one more detail of the product." for i in range(12))
    crawl = _crawl(paragraph)
    candidate = {"fields": {"pricing_summary": {"value": paragraph, "evidence": [{"url": BASE + "/", "quote": paragraph}]}}}
    draft = verify(candidate, crawl)
    summary = str(draft.value("pricing_summary"))
    assert len(summary) <= MAX_STRING and paragraph.startswith(summary)
    assert normalise(summary) in normalise(draft.fields["pricing_summary"].evidence[0].quote)
    assert verify(draft, crawl) == draft
