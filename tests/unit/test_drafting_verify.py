"""verify() keeps values whose quotes are on the crawled pages and support them; it drops the rest."""

from __future__ import annotations

import json
from typing import Any

import pytest

from workers.adapters.websites import CrawledPage, CrawlResult
from workers.adapters.websites.extract import extract_page
from workers.drafting import FIELD_NAMES, ProfileDraft, verify

BASE = "https://acme.example"

HOME = """<!doctype html><html><head>
<title>Acme Flow — Workflow automation for small teams</title>
<meta name="description" content="Acme Flow automates repetitive workflows for small teams.">
<meta property="og:image" content="https://cdn.acme.example/og.png">
<script type="application/ld+json">{"@type": "Organization", "name": "Acme Flow Ltd", "foundingDate": "2021",
 "address": {"@type": "PostalAddress", "addressLocality": "Lisbon", "addressCountry": "PT"},
 "founder": {"@type": "Person", "name": "Rui Costa"}, "sameAs": ["https://github.example/acmeflow"]}</script>
<script>var claim = "Founded in 2011 by industry veterans";</script>
</head><body>
<h1>Workflow automation for small teams</h1>
<p>Acme Flow connects your tools and runs the busywork for you.</p>
<p>Trusted by 1,200 teams in 30 countries.</p>
<!-- Acme Flow is SOC 2 certified -->
<div hidden>Acme Flow won the Golden Robot award.</div>
<p style="display:none">Lifetime deal: $99 one-time.</p>
<p>We are based in Lisbon, Portugal.</p>
<h2>Features</h2><ul><li>Visual workflow builder</li><li>120 integrations</li></ul>
<a href="https://twitter.example/acmeflow">Twitter</a>
<a href="https://www.youtube.example/watch?v=abc123">Watch the demo</a>
</body></html>"""

ABOUT = """<html><head><title>About Acme Flow</title></head><body>
<h1>About</h1>
<p>Acme Flow was founded in 2021 by Rui Costa and Ana Lima.</p>
<p>Rui Costa — Co-founder &amp; CEO</p>
<p>Marta Silva, Head of Sales</p>
<p>Write to hello@acme.example.</p>
</body></html>"""

PRICING = """<html><head><title>Pricing</title></head><body>
<h1>Pricing</h1>
<p>Free plan for up to 3 users.</p>
<p>Pro costs $12 per month.</p>
<p>All paid plans include a 14-day free trial.</p>
<p>Every plan is no-code: build flows without writing code.</p>
<h3>Can I cancel anytime?</h3><p>Yes, cancel from the billing page at any time.</p>
</body></html>"""

CATEGORIES = [
    {"slug": "no-code", "name": "No-code", "description": "Build apps, sites and automations without writing code."},
    {"slug": "finance", "name": "Finance", "description": "Payments, accounting, invoicing and money tools."},
]


def page(path: str, html: str) -> CrawledPage:
    content = extract_page(html, BASE + path)
    return CrawledPage(
        url=BASE + path, requested_url=BASE + path, fetched_at="2025-01-06T09:00:00Z", status=200,
        content_type="text/html", robots_allowed=True, title=content.title, text=content.text,
        structured=content.structured, links=[u for u, _ in content.links],
    )


@pytest.fixture(scope="module")
def crawl() -> CrawlResult:
    return CrawlResult(
        start_url=BASE + "/", final_url=BASE + "/", site=BASE, user_agent="launchdirbot/1.0",
        started_at="2025-01-06T09:00:00Z", finished_at="2025-01-06T09:00:01Z",
        robots_txt_url=BASE + "/robots.txt", robots_found=True,
        pages=[page("/", HOME), page("/about", ABOUT), page("/pricing", PRICING)],
    )


def ev(path: str, quote: str, source: str | None = "text") -> dict[str, Any]:
    item = {"url": BASE + path, "quote": quote}
    if source is not None:
        item["source"] = source
    return item


def one(name: str, value: Any, *evidence: dict[str, Any]) -> dict[str, Any]:
    return {"drafter": "test", "fields": {name: {"value": value, "evidence": list(evidence)}}}


def check(crawl: CrawlResult, name: str, value: Any, *evidence: dict[str, Any]) -> ProfileDraft:
    return verify(one(name, value, *evidence), crawl, categories=CATEGORIES)


def assert_dropped(draft: ProfileDraft, name: str, reason_part: str) -> None:
    assert draft.fields[name].state == "not_found"
    assert draft.fields[name].value is None
    assert name in draft.not_found_on_website
    assert any(d["field"] == name and reason_part in json.dumps(d) for d in draft.dropped), draft.dropped


# --- quotes ---------------------------------------------------------------------------------------


def test_a_good_text_quote_is_kept_with_its_page(crawl: CrawlResult) -> None:
    draft = check(crawl, "name", "Acme Flow", ev("/", "Acme Flow connects your tools and runs the busywork for you."))
    field = draft.fields["name"]
    assert (field.state, field.value) == ("ai", "Acme Flow")
    assert field.evidence[0].url == BASE + "/"
    assert field.evidence[0].source == "text"
    assert "name" not in draft.not_found_on_website
    assert draft.dropped == []


def test_a_metadata_quote_is_checked_against_structured_values(crawl: CrawlResult) -> None:
    draft = check(crawl, "logo_url", "https://cdn.acme.example/og.png", ev("/", "https://cdn.acme.example/og.png", "metadata"))
    assert draft.fields["logo_url"].value == "https://cdn.acme.example/og.png"
    assert draft.fields["logo_url"].evidence[0].source == "metadata"


def test_a_quote_without_source_is_looked_up_in_text_then_metadata(crawl: CrawlResult) -> None:
    draft = check(crawl, "founded_year", "2021", ev("/", "2021", None))
    assert draft.fields["founded_year"].value == "2021"
    assert draft.fields["founded_year"].evidence[0].source == "metadata"


def test_an_invented_quote_is_dropped(crawl: CrawlResult) -> None:
    draft = check(crawl, "founded_year", "2011", ev("/about", "Founded in 2011"))
    assert_dropped(draft, "founded_year", "quote not found")


def test_a_quote_from_another_page_is_dropped(crawl: CrawlResult) -> None:
    draft = check(crawl, "contact_email", "hello@acme.example", ev("/pricing", "Write to hello@acme.example."))
    assert_dropped(draft, "contact_email", "quote not found")
    moved = check(crawl, "contact_email", "hello@acme.example", ev("/about", "Write to hello@acme.example."))
    assert moved.fields["contact_email"].value == "hello@acme.example"


@pytest.mark.parametrize(
    ("name", "value", "quote"),
    [
        ("founded_year", "2011", "Founded in 2011 by industry veterans"),  # <script>
        ("usps", ["SOC 2 certified"], "Acme Flow is SOC 2 certified"),  # <!-- comment -->
        ("usps", ["Golden Robot award"], "Acme Flow won the Golden Robot award."),  # hidden attribute
        ("pricing_model", "one-time", "Lifetime deal: $99 one-time."),  # display:none
    ],
)
def test_quotes_only_in_scripts_comments_or_hidden_elements_are_dropped(
    crawl: CrawlResult, name: str, value: Any, quote: str
) -> None:
    draft = check(crawl, name, value, ev("/", quote))
    assert_dropped(draft, name, "quote not found in the page's visible text")
    assert check(crawl, name, value, ev("/", quote, "metadata")).fields[name].state == "not_found"


def test_a_quote_from_a_page_outside_the_crawl_is_dropped(crawl: CrawlResult) -> None:
    """A robots-forbidden page was never fetched, so it is not in the crawl."""
    draft = check(crawl, "pricing_summary", "Enterprise costs $900 per month.", ev("/enterprise", "Enterprise costs $900 per month."))
    assert_dropped(draft, "pricing_summary", "page not in the crawl")


def test_a_path_names_a_page_of_the_crawled_site(crawl: CrawlResult) -> None:
    draft = check(crawl, "contact_email", "hello@acme.example", {"url": "/about", "quote": "Write to hello@acme.example."})
    assert draft.fields["contact_email"].evidence[0].url == BASE + "/about"
    assert check(crawl, "contact_email", "hello@acme.example", {"url": "//evil.example/about", "quote": "Write to hello@acme.example."}).fields["contact_email"].state == "not_found"


def test_too_short_and_empty_quotes_do_not_count(crawl: CrawlResult) -> None:
    assert_dropped(check(crawl, "name", "Acm", ev("/", "Acm")), "name", "too short")
    assert_dropped(check(crawl, "name", "Acme", ev("/", " ... ")), "name", "no words")


def test_malformed_evidence_is_dropped_without_raising(crawl: CrawlResult) -> None:
    draft = check(crawl, "name", "Acme Flow", {"quote": 12}, "text", {"url": BASE + "/"})  # type: ignore[arg-type]
    assert_dropped(draft, "name", "malformed evidence")


# --- support ----------------------------------------------------------------------------------------


def test_a_value_not_in_its_quote_is_dropped(crawl: CrawlResult) -> None:
    draft = check(crawl, "name", "Acme Cloud", ev("/", "Acme Flow connects your tools and runs the busywork for you."))
    assert_dropped(draft, "name", "not supported")


def test_a_value_must_match_on_word_boundaries(crawl: CrawlResult) -> None:
    draft = check(crawl, "city", "Lis", ev("/", "We are based in Lisbon, Portugal."))
    assert_dropped(draft, "city", "not supported")


def test_unsupported_list_items_are_dropped_one_by_one(crawl: CrawlResult) -> None:
    draft = check(
        crawl, "features", ["Visual workflow builder", "AI copilot", "120 integrations"],
        ev("/", "Visual workflow builder"), ev("/", "120 integrations"),
    )
    assert draft.fields["features"].value == ["Visual workflow builder", "120 integrations"]
    assert [d["value"] for d in draft.dropped if d["kind"] == "item"] == ["AI copilot"]


def test_a_list_with_no_supported_item_is_not_found(crawl: CrawlResult) -> None:
    assert_dropped(check(crawl, "tags", ["crm"], ev("/", "120 integrations")), "tags", "no item supported")


def test_prose_must_be_made_of_quoted_sentences(crawl: CrawlResult) -> None:
    quotes = (ev("/", "Acme Flow connects your tools and runs the busywork for you."), ev("/", "Trusted by 1,200 teams in 30 countries."))
    kept = check(crawl, "description", "Trusted by 1,200 teams in 30 countries. Acme Flow connects your tools and runs the busywork for you.", *quotes)
    assert kept.fields["description"].state == "ai"
    added = check(crawl, "description", "Acme Flow connects your tools and runs the busywork for you. It is the best tool ever.", *quotes)
    assert_dropped(added, "description", "not supported")
    cut = check(crawl, "short_description", "Acme Flow connects your tools.", *quotes)
    assert_dropped(cut, "short_description", "not supported")


def test_a_tagline_may_be_a_title_clause(crawl: CrawlResult) -> None:
    draft = check(crawl, "tagline", "Workflow automation for small teams", ev("/", "Acme Flow — Workflow automation for small teams", "metadata"))
    assert draft.fields["tagline"].value == "Workflow automation for small teams"


def test_country_is_an_iso_code_named_by_its_quote(crawl: CrawlResult) -> None:
    named = check(crawl, "country", "Portugal", ev("/", "We are based in Lisbon, Portugal."))
    assert named.fields["country"].value == "PT"
    coded = check(crawl, "country", "PT", ev("/", "PT", "metadata"))
    assert coded.fields["country"].value == "PT"
    city_only = check(crawl, "country", "PT", ev("/about", "Acme Flow was founded in 2021 by Rui Costa and Ana Lima."))
    assert_dropped(city_only, "country", "not supported")
    wrong = check(crawl, "country", "ES", ev("/", "We are based in Lisbon, Portugal."))
    assert_dropped(wrong, "country", "not supported")
    assert_dropped(check(crawl, "country", "Atlantis", ev("/", "We are based in Lisbon, Portugal.")), "country", "not a known country")


@pytest.mark.parametrize(
    ("value", "quotes", "kept"),
    [
        ("subscription", ["Pro costs $12 per month."], True),
        ("paid", ["Pro costs $12 per month."], True),
        ("freemium", ["Free plan for up to 3 users.", "Pro costs $12 per month."], True),
        ("freemium", ["Pro costs $12 per month."], False),
        ("free", ["All paid plans include a 14-day free trial."], False),
        ("free trial", ["All paid plans include a 14-day free trial.", "Pro costs $12 per month."], True),
        ("free_trial", ["All paid plans include a 14-day free trial."], True),  # the quote names a paid offer too
        ("free trial", ["Pro costs $12 per month."], False),
        ("one-time", ["Pro costs $12 per month."], False),
        ("bartering", ["Pro costs $12 per month."], False),
    ],
)
def test_pricing_model_needs_a_cue_in_its_quotes(crawl: CrawlResult, value: str, quotes: list[str], kept: bool) -> None:
    draft = check(crawl, "pricing_model", value, *(ev("/pricing", q) for q in quotes))
    assert (draft.fields["pricing_model"].state == "ai") is kept


def test_url_and_email_values_must_be_whole_tokens(crawl: CrawlResult) -> None:
    assert check(crawl, "contact_email", "hello@acme.example", ev("/about", "Write to hello@acme.example.")).fields["contact_email"].value
    assert_dropped(check(crawl, "contact_email", "hello@acme.ex", ev("/about", "Write to hello@acme.example.")), "contact_email", "not supported")
    video = check(crawl, "demo_video_url", "https://www.youtube.example/watch?v=abc123", ev("/", "https://www.youtube.example/watch?v=abc123", "metadata"))
    assert video.fields["demo_video_url"].state == "ai"
    not_video = check(crawl, "demo_video_url", "https://twitter.example/acmeflow", ev("/", "https://twitter.example/acmeflow", "metadata"))
    assert_dropped(not_video, "demo_video_url", "not a video link")


def test_categories_must_exist_and_be_supported_by_the_sites_words(crawl: CrawlResult) -> None:
    quote = ev("/pricing", "Every plan is no-code: build flows without writing code.")
    draft = check(crawl, "categories", ["No-code", "finance", "crm"], quote)
    assert draft.fields["categories"].value == ["no-code"]
    reasons = {d["value"]: d["reason"] for d in draft.dropped if d["kind"] == "item"}
    assert "not a category" in reasons["crm"]
    assert "not supported" in reasons["finance"]
    # "automation" is not "no-code": a weak signal supports no category
    weak = check(crawl, "categories", ["no-code"], ev("/", "Workflow automation for small teams"))
    assert weak.fields["categories"].state == "not_found"


# --- sections ----------------------------------------------------------------------------------------


def test_founders_need_a_quote_saying_they_founded_it(crawl: CrawlResult) -> None:
    candidate = {"drafter": "test", "founders": [
        {"name": "Rui Costa", "title": "Co-founder & CEO", "evidence": [ev("/about", "Rui Costa — Co-founder & CEO")]},
        {"name": "Ana Lima", "title": "CTO", "evidence": [ev("/about", "Acme Flow was founded in 2021 by Rui Costa and Ana Lima.")]},
        {"name": "Marta Silva", "title": "Head of Sales", "evidence": [ev("/about", "Marta Silva, Head of Sales")]},
        {"name": "Rui Costa", "evidence": [ev("/", "Rui Costa", "metadata")]},
        {"name": "Jo Bloggs", "evidence": [ev("/about", "Jo Bloggs, Founder")]},
    ]}
    draft = verify(candidate, crawl)
    assert [(f["name"], f["title"]) for f in draft.founders] == [("Rui Costa", "Co-founder & CEO"), ("Ana Lima", None)]
    reasons = {d.get("value"): d["reason"] for d in draft.dropped}
    assert "founded" in reasons["Marta Silva"]
    assert "not found" in json.dumps([d for d in draft.dropped if d.get("value") == "Jo Bloggs"])
    assert reasons["CTO"] == "title not supported by the founder's quotes"


def test_a_structured_founder_value_counts_as_a_founder_quote(crawl: CrawlResult) -> None:
    draft = verify({"founders": [{"name": "Rui Costa", "evidence": [ev("/", "Rui Costa", "metadata")]}]}, crawl)
    assert [f["name"] for f in draft.founders] == ["Rui Costa"]


def test_faqs_need_the_question_and_answer_sentences_on_the_page(crawl: CrawlResult) -> None:
    quotes = [ev("/pricing", "Can I cancel anytime?"), ev("/pricing", "Yes, cancel from the billing page at any time.")]
    draft = verify({"faqs": [
        {"question": "Can I cancel anytime?", "answer": "Yes, cancel from the billing page at any time.", "evidence": quotes},
        {"question": "Can I cancel anytime?", "answer": "Yes, and we refund the rest of the year.", "evidence": quotes},
        {"question": "Is it free?", "answer": "Yes, cancel from the billing page at any time.", "evidence": quotes},
    ]}, crawl)
    assert [f["question"] for f in draft.faqs] == ["Can I cancel anytime?"]
    assert sorted(d["reason"] for d in draft.dropped) == ["answer not made of quoted sentences", "question not in its quotes"]


def test_socials_must_be_links_found_on_the_site_under_the_right_key(crawl: CrawlResult) -> None:
    draft = verify({"company_socials": {
        "x": "https://twitter.example/acmeflow",
        "github": "https://github.example/acmeflow",
        "website": BASE + "/",
        "linkedin": "https://linkedin.example/company/acme",
        "facebook": "https://twitter.example/acmeflow",
        "myspace": "https://myspace.example/acme",
        "custom": "https://elsewhere.example/acme",
    }}, crawl)
    assert draft.company_socials == {"x": "https://twitter.example/acmeflow", "github": "https://github.example/acmeflow", "website": BASE + "/"}
    reasons = {d["key"]: d["reason"] for d in draft.dropped}
    assert reasons == {
        "linkedin": "link not found on the site",
        "facebook": "link is not a facebook link",
        "myspace": "not a social platform key",
        "custom": "link not found on the site",
    }


def test_every_kept_link_carries_the_page_and_the_link_that_show_it(crawl: CrawlResult) -> None:
    draft = verify({"company_socials": {"x": "https://twitter.example/acmeflow", "github": "https://github.example/acmeflow",
                                        "website": BASE + "/"}}, crawl)
    assert draft.social_evidence == {
        "x": [{"url": BASE + "/", "quote": "https://twitter.example/acmeflow", "source": "metadata"}],  # the anchor's href
        "github": [{"url": BASE + "/", "quote": "https://github.example/acmeflow", "source": "metadata"}],  # JSON-LD sameAs
        "website": [{"url": BASE + "/", "quote": BASE + "/", "source": "metadata"}],
    }
    home = crawl.page(BASE + "/")
    assert home is not None
    assert "https://twitter.example/acmeflow" in home.links
    assert "https://github.example/acmeflow" in json.dumps(home.structured["json-ld"])
    assert ProfileDraft.from_dict(draft.to_dict()).social_evidence == draft.social_evidence


# --- the draft ------------------------------------------------------------------------------------------


def test_every_field_is_reported_and_completeness_counts_values(crawl: CrawlResult) -> None:
    draft = check(crawl, "name", "Acme Flow", ev("/", "Acme Flow connects your tools and runs the busywork for you."))
    assert list(draft.fields) == list(FIELD_NAMES)
    assert draft.completeness == 10
    assert draft.missing == [n for n in FIELD_NAMES if n != "name"]
    assert draft.not_found_on_website == draft.missing
    assert draft.drafter == "test"


def test_fields_restricts_the_draft(crawl: CrawlResult) -> None:
    candidate = {"fields": {
        "name": {"value": "Acme Flow", "evidence": [ev("/", "Acme Flow connects your tools and runs the busywork for you.")]},
        "city": {"value": "Lisbon", "evidence": [ev("/", "We are based in Lisbon, Portugal.")]},
    }, "faqs": [{"question": "x", "answer": "y", "evidence": []}]}
    draft = verify(candidate, crawl, fields=["city"])
    assert list(draft.fields) == ["city"]
    assert draft.fields["city"].value == "Lisbon"
    assert draft.faqs == [] and draft.dropped == []
    with pytest.raises(ValueError):
        verify(candidate, crawl, fields=["nickname"])


@pytest.mark.parametrize(
    "candidate",
    [
        {}, {"fields": None}, {"fields": []}, {"fields": {"name": "Acme"}}, {"fields": {"name": {"value": 3.5, "evidence": None}}},
        {"fields": {"features": {"value": {"a": 1}, "evidence": "x"}}}, {"faqs": "nope", "founders": [None, 1], "company_socials": ["x"]},
        {"fields": {"founded_year": {"value": True, "evidence": [ev("/", "2021", "metadata")]}}},
    ],
)
def test_garbage_candidates_never_raise(crawl: CrawlResult, candidate: dict[str, Any]) -> None:
    draft = verify(candidate, crawl)
    assert all(not f.has_value for f in draft.fields.values())
    json.dumps(draft.to_dict())


def test_a_verified_draft_verifies_again_unchanged_and_round_trips(crawl: CrawlResult) -> None:
    candidate = {"drafter": "test", "fields": {
        "name": {"value": "Acme Flow", "evidence": [ev("/", "Acme Flow", None)]},
        "city": {"value": "Lisbon", "evidence": [ev("/", "We are based in Lisbon, Portugal.")]},
        "country": {"value": "PT", "evidence": [ev("/", "We are based in Lisbon, Portugal.")]},
        "features": {"value": ["Visual workflow builder"], "evidence": [ev("/", "Visual workflow builder")]},
    }, "faqs": [{"question": "Can I cancel anytime?", "answer": "Yes, cancel from the billing page at any time.",
                 "evidence": [ev("/pricing", "Can I cancel anytime?"), ev("/pricing", "Yes, cancel from the billing page at any time.")]}],
        "company_socials": {"x": "https://twitter.example/acmeflow"}}
    draft = verify(candidate, crawl)
    again = verify(draft, crawl)
    assert again == draft
    restored = ProfileDraft.from_dict(json.loads(json.dumps(draft.to_dict())))
    assert restored == draft
