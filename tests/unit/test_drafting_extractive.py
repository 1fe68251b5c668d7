"""The extractive drafter on fixture pages (built with the crawler's own extraction, no server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.drafting_sites import crawl_from_files
from workers.adapters.websites import CrawlResult
from workers.drafting import FIELD_NAMES, ExtractiveDrafter, ProfileDraft, verify
from workers.drafting.extractive import extract_candidate

CATEGORIES = json.loads((Path(__file__).resolve().parents[2] / "launchdir" / "data" / "catalog.json").read_text())["categories"]
BASE = "https://site.example"


def draft_of(site: str, paths: list[str], **kwargs: object) -> tuple[ProfileDraft, CrawlResult]:
    crawl = crawl_from_files(site, BASE, paths)
    return ExtractiveDrafter().draft(crawl, CATEGORIES, **kwargs), crawl  # type: ignore[arg-type]


def test_every_candidate_value_passes_verification() -> None:
    """The extractive drafter proposes only what verify() accepts: nothing is dropped."""
    for site, paths in {
        "saas": ["/", "/about", "/pricing", "/faq", "/team", "/contact", "/features"],
        "devtool": ["/", "/pricing", "/about", "/features", "/faq", "/contact"],
        "studio": ["/", "/about", "/pricing", "/faq"],
        "market": ["/", "/pricing", "/about", "/features"],
    }.items():
        draft, _ = draft_of(site, paths)
        assert draft.dropped == [], (site, draft.dropped)
        assert draft.drafter == "extractive"


def test_an_empty_crawl_drafts_nothing() -> None:
    crawl = crawl_from_files("saas", BASE, [])
    draft = ExtractiveDrafter().draft(crawl, CATEGORIES)
    assert draft.completeness == 0
    assert draft.not_found_on_website == list(FIELD_NAMES) == draft.missing
    assert (draft.faqs, draft.founders, draft.company_socials) == ([], [], {})


def test_name_is_the_most_agreed_name_and_tagline_the_rest_of_the_title() -> None:
    draft, _ = draft_of("saas", ["/"])
    assert draft.value("name") == "Acme Flow"  # not the Organization's "Acme Flow Ltd"
    assert draft.value("tagline") == "Workflow automation for small teams"
    sources = {e.source for e in draft.fields["name"].evidence}
    assert sources == {"text", "metadata"}


def test_pricing_model_needs_a_pricing_page() -> None:
    home_only, _ = draft_of("devtool", ["/"])
    assert home_only.value("pricing_model") is None
    with_pricing, _ = draft_of("devtool", ["/", "/pricing"])
    assert with_pricing.value("pricing_model") == "freemium"
    quotes = [e.quote for e in with_pricing.fields["pricing_model"].evidence]
    assert quotes == ["Free", "$15 per user per month, billed annually."]
    summary = str(with_pricing.value("pricing_summary"))
    assert "$15 per user per month" in summary and "TRAP" not in summary and "$5 per month" not in summary


def test_short_price_lines_are_quoted_with_their_plan_name() -> None:
    draft, _ = draft_of("market", ["/", "/pricing"])
    assert draft.value("pricing_model") == "freemium"
    assert [e.quote for e in draft.fields["pricing_model"].evidence] == ["Starter \u20ac0", "Pro \u20ac12/mo"]
    assert "Pro \u20ac12/mo." in str(draft.value("pricing_summary"))


def test_features_from_a_list_a_comma_list_or_a_card_grid() -> None:
    listed, _ = draft_of("devtool", ["/", "/features"])
    assert listed.value("features") == ["Test impact analysis", "Remote build cache", "Flaky test quarantine", "GitHub and GitLab integration"]
    assert listed.value("usps") == ["Up to 10x faster pipelines", "No YAML rewrites"]
    grid, _ = draft_of("market", ["/"])
    assert grid.value("features") == ["Beautiful invoices", "Automatic reminders", "Card and bank payments", "Multi-currency"]
    commas, _ = draft_of("polite", ["/", "/features"])
    assert commas.value("features") == ["Digest mode", "VIP senders", "Focus hours"]


def test_founders_from_lines_sentences_cards_and_structured_data() -> None:
    devtool, _ = draft_of("devtool", ["/", "/about"])
    assert [(f["name"], f["title"]) for f in devtool.founders] == [("Lena Vogel", "Co-founder & CEO"), ("Tomasz Nowak", "Co-founder & CTO")]
    assert devtool.founders[0]["bio"] == "Lena led developer productivity at a large retailer."
    structured_only, _ = draft_of("devtool", ["/"])
    assert [(f["name"], f["title"]) for f in structured_only.founders] == [("Lena Vogel", "CEO"), ("Tomasz Nowak", None)]
    studio, _ = draft_of("studio", ["/about"])
    assert [f["name"] for f in studio.founders] == ["Priya Raman", "Daniel Okafor"]
    market, _ = draft_of("market", ["/about"])
    assert [(f["name"], f["title"]) for f in market.founders] == [("Noor Haddad", "Founder & CEO")]
    saas, _ = draft_of("saas", ["/", "/about", "/team"])
    assert saas.founders == []  # "Marta Silva, CEO" is not said to be a founder


def test_location_year_email_video_logo_and_socials() -> None:
    draft, crawl = draft_of("devtool", ["/", "/about", "/contact"])
    assert (draft.value("city"), draft.value("country"), draft.value("founded_year")) == ("Berlin", "DE", "2019")
    assert draft.value("contact_email") == "support@patchwork.example"
    assert draft.value("demo_video_url") == "https://www.youtube.example/watch?v=pAtChW0rk01"
    assert draft.value("logo_url") == BASE + "/static/logo.svg"
    assert draft.company_socials["website"] == crawl.final_url
    assert draft.company_socials["x"] == "https://x.example/patchworkci"  # not the share link before it
    studio, _ = draft_of("studio", ["/", "/about"])
    assert (studio.value("city"), studio.value("country"), studio.value("founded_year")) == ("Toronto", "CA", "2017")


def test_faqs_from_structured_data_and_from_question_lines() -> None:
    devtool, _ = draft_of("devtool", ["/faq"])
    assert [f["question"] for f in devtool.faqs] == [
        "Does Patchwork CI work with GitHub Actions?", "Can I self-host the runners?", "Which languages are supported?"]
    assert {e["source"] for f in devtool.faqs for e in f["evidence"]} == {"text"}  # the visible copy is quoted
    studio, _ = draft_of("studio", ["/faq"])
    assert [(f["question"], f["answer"]) for f in studio.faqs] == [
        ("Does Inkpot work offline?", "Yes. Everything is stored on your Mac."),
        ("Is there a Windows version?", "Not yet. A Windows version is planned."),
    ]


def test_categories_are_catalogue_slugs_with_the_sentences_that_matched() -> None:
    draft, _ = draft_of("devtool", ["/", "/about"])
    categories = draft.value("categories")
    assert isinstance(categories, list) and "testing" in categories  # "runs only the tests", "Flaky test quarantine"
    assert set(categories) <= {c["slug"] for c in CATEGORIES}
    assert draft.fields["categories"].evidence


@pytest.mark.parametrize("fields", [["name"], ["faqs"], ["pricing_model", "pricing_summary", "company_socials"]])
def test_fields_limits_the_candidate_and_the_draft(fields: list[str]) -> None:
    crawl = crawl_from_files("devtool", BASE, ["/", "/pricing", "/faq"])
    candidate = extract_candidate(crawl, CATEGORIES, fields)
    assert set(candidate["fields"]) <= set(fields)
    draft = ExtractiveDrafter().draft(crawl, CATEGORIES, fields=fields)
    assert list(draft.fields) == [f for f in FIELD_NAMES if f in fields]
    assert bool(draft.faqs) is ("faqs" in fields)
    assert bool(draft.company_socials) is ("company_socials" in fields)
    assert verify(candidate, crawl, categories=CATEGORIES, fields=fields) == draft


def _one_page_crawl(html: str) -> CrawlResult:
    from workers.adapters.websites import CrawledPage
    from workers.adapters.websites.extract import extract_page

    content = extract_page(html, BASE + "/")
    page = CrawledPage(url=BASE + "/", requested_url=BASE + "/", fetched_at="2025-01-06T09:00:00Z", status=200,
                       content_type="text/html", robots_allowed=True, title=content.title, text=content.text,
                       structured=content.structured, links=[link for link, _ in content.links])
    return CrawlResult(start_url=BASE + "/", final_url=BASE + "/", site=BASE, user_agent="launchdirbot/1.0",
                       started_at="2025-01-06T09:00:00Z", finished_at="2025-01-06T09:00:01Z",
                       robots_txt_url=BASE + "/robots.txt", robots_found=False, pages=[page])


def test_an_email_only_in_a_mailto_link_and_a_video_only_in_an_iframe_are_found_as_metadata() -> None:
    crawl = _one_page_crawl("""<html><head><title>Orbit - Tasks for teams</title></head><body>
        <h1>Orbit</h1><p>Tasks for teams.</p>
        <a href="mailto:you@example.com">placeholder</a>
        <a href="mailto:hello@orbit.example?subject=Hi">Write to us</a>
        <iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="Demo"></iframe>
        </body></html>""")
    draft = ExtractiveDrafter().draft(crawl, CATEGORIES)
    assert draft.value("contact_email") == "hello@orbit.example"  # the placeholder mailbox is skipped
    assert draft.value("demo_video_url") == "https://www.youtube.com/embed/dQw4w9WgXcQ"
    for name in ("contact_email", "demo_video_url"):
        (evidence,) = draft.fields[name].evidence
        assert evidence.source == "metadata" and evidence.quote == draft.value(name)
    assert draft.dropped == []  # the evidence gate accepts both
    again = verify(draft, crawl, categories=CATEGORIES)
    assert again.dropped == [] and again.value("contact_email") == "hello@orbit.example"
    # The same address in no link and no text is not on the site: a draft claiming it loses it.
    bare = _one_page_crawl("<html><head><title>Orbit</title></head><body><h1>Orbit</h1></body></html>")
    assert verify(draft, bare, categories=CATEGORIES).value("contact_email") is None
