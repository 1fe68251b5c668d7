"""Drafted values show their evidence: a listing drafted from a fixture site carries, in get_listing and on its page,
the quote and the page of the product's own site each drafted value came from (a <details> disclosure), for profile
fields and for each drafted FAQ, founder and company link."""

from __future__ import annotations

from datetime import datetime, timezone

import httpx

from aggregates.base import Meta
from commands import listing as listing_cmd
from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import axe_violations
from tests.e2e.submission_support import person, saved_listing


def test_a_drafted_listing_shows_where_its_values_were_found(live: RunningServer, chromium) -> None:  # type: ignore[no-untyped-def]
    who = person(live)
    with httpx.Client(base_url=live.url + "/api/v1", timeout=15) as http:
        listing_id = saved_listing(http, who, "devtool")
        slug = http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()["slug"]
    c = live.container
    position = listing_cmd.staff_publish(c.store, listing_id, Meta(at=datetime.now(timezone.utc), actor="staff:test",
                                                                   channel="cli"))
    assert c.runtime.wait_for(["listing_view", "search_view"], position, timeout=10)

    doc = httpx.get(f"{live.url}/api/v1/listings/{slug}").json()
    evidence = doc["evidence"]
    assert evidence, "a listing drafted from its site carries evidence"
    for key, quotes in evidence.items():
        section, _, item = key.partition(".")
        assert (key in doc or key.startswith("pricing_")) if not item else (
            item in doc[section] if section == "socials" else int(item) < len(doc[section])), key
        assert all(q["quote"] and q["url"].startswith("http://127.0.0.1:") for q in quotes), quotes
    items = {key.partition(".")[0] for key in evidence if "." in key}
    assert items == {"faqs", "founders", "socials"}, evidence  # the devtool site shows FAQs, founders and links
    shown = next(f for f in ("description", "tagline", "features", "short_description") if f in evidence)
    quote = evidence[shown][0]["quote"]

    page = chromium.new_page()
    try:
        page.goto(f"{live.url}/listings/{slug}")
        disclosures = page.locator("details.evidence")
        assert disclosures.count() >= len([f for f in evidence if f in ("tagline", "description", "features", "usps")])
        block = page.locator("details.evidence", has=page.locator(f"blockquote:has-text({quote[:40]!r})")).first
        assert not block.locator("blockquote").first.is_visible()  # closed until asked
        summary = block.locator("summary")
        assert "from 127.0.0.1:" in summary.inner_text()
        summary.click()
        assert block.locator("blockquote").first.is_visible()
        assert quote[:40] in block.inner_text()

        faq = page.locator("details:not(.evidence)", has=page.locator("summary", has_text=doc["faqs"][0]["question"]))
        faq.locator("summary").first.click()  # the question opens; its answer's evidence is one more disclosure
        faq_evidence = faq.locator("details.evidence")
        assert "from 127.0.0.1:" in faq_evidence.locator("summary").inner_text()
        faq_evidence.locator("summary").click()
        assert evidence["faqs.0"][0]["quote"][:40] in faq_evidence.locator("blockquote").first.inner_text()
        founders = page.locator("section.box", has=page.locator("h2", has_text="Founders")).locator("li")
        assert doc["founders"][0]["name"] in founders.first.inner_text()
        assert founders.locator("details.evidence").count() == len([k for k in evidence if k.startswith("founders.")])
        assert founders.first.locator("details.evidence").count() == 1
        links = page.locator("section.box", has=page.locator("h2", has_text="Links")).locator("li")
        shown = [key for key in evidence if key.startswith("socials.")]
        assert links.locator("details.evidence").count() == len(shown)
        link = links.filter(has=page.locator("a", has_text=shown[0].partition(".")[2])).first
        link.locator("details.evidence summary").click()
        assert evidence[shown[0]][0]["quote"][:40] in link.locator("details.evidence blockquote").first.inner_text()
        assert axe_violations(page) == []  # with the disclosures open
    finally:
        page.close()
