"""The founder's listing pages in Chromium against a real server and a local website on 127.0.0.1.

A founder signs in, finds the listing saved through the API on `/my/listings`,
edits a public field with a preview, meets the API's own field-level messages
on bad input, posts an update, adds and deletes a milestone, writes the story
and answers the interview; launches for free, gets the badge code in another
style, puts the badge on the homepage and has it checked now. A second person
gets 404 on the first person's pages. axe-core on the dashboard; screenshots of
the dashboard (and the badge page) at 390 and 1440 px.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import (
    axe_violations,
    check_badge_now,
    edit_field,
    launch_free,
    open_dashboard,
    overflowing,
    screenshots,
    sign_in,
    signed_in_client,
    wider_than_the_screen,
    words_split_in_diffs,
)
from tests.e2e.submission_support import PASSWORD, person
from tests.e2e.test_free_plan import saved_listing, with_badge
from tests.fixtures.drafting_sites import serve

API = "/api/v1"
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or tempfile.mkdtemp(prefix="founder-shots-"))


def test_the_founder_runs_a_listing_from_the_browser(live: RunningServer, http: httpx.Client, chromium: Any) -> None:
    base = live.url
    who, other = person(live, password=PASSWORD), person(live, password=PASSWORD)
    with serve("devtool") as site:
        listing_id, slug = saved_listing(http, who, site)
        context = chromium.new_context()
        page = context.new_page()
        try:
            sign_in(page, base, who.email, PASSWORD)
            assert page.get_by_role("link", name=page.locator("tbody a").first.inner_text()).count() == 1
            page.locator(f"a[href='/my/listings/{listing_id}']").click()
            page.locator("#listing-status").wait_for()
            assert page.locator("#listing-status").get_attribute("data-status") == "draft"
            assert page.locator("#listing-plan").inner_text().strip() == "not chosen yet"

            # bad input: the API's check in plain words, next to the field and named in the summary; nothing saved
            page.goto(f"{base}/my/listings/{listing_id}/edit")
            page.get_by_label("Country", exact=True).fill("Germany")
            with page.expect_response(lambda r: r.url.endswith("/edit")) as answer:
                page.get_by_role("button", name="Preview").click()
            assert answer.value.status == 400
            error, summary = page.locator("#country-error").inner_text(), page.get_by_role("alert").inner_text()
            assert error.endswith("Enter two letters, like DE.")
            assert "Country: Enter two letters, like DE." in summary
            r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"country": "Germany"}},
                           headers=who.headers(**{"Idempotency-Key": "bad-country"}))
            assert r.status_code == 400
            problem = r.json()["errors"][0]  # the API keeps the validator's message and its rule
            assert problem["rule"] == "max_length" and problem["message"].startswith("String should")
            assert "String should" not in summary and "String should" not in error
            assert page.get_by_label("Country", exact=True).get_attribute("aria-invalid") == "true"

            preview = edit_field(page, base, listing_id, "Tagline", "Deploys in one honest command")
            assert "Deploys in one honest command" in preview
            assert "saved" in page.get_by_role("status").inner_text()
            mine = http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()
            assert mine["tagline"] == "Deploys in one honest command"
            # company links and FAQs: sent whole, only when changed; bad ones named by their box
            n = len(mine["faqs"])
            page.goto(f"{base}/my/listings/{listing_id}/edit")
            new_faq = page.get_by_role("group", name="Add a question").first  # labelled as in the draft editor
            new_faq.get_by_label("Question", exact=True).fill("Does it run on my laptop?")
            page.get_by_label("GitHub", exact=True).fill("not a link")
            page.get_by_role("button", name="Preview").click()
            assert page.locator(f"#faq-{n}-answer-error").inner_text().endswith("This is required.")  # needs its answer
            assert f"FAQ {n + 1}: Answer: This is required." in page.get_by_role("alert").inner_text()
            assert page.locator("#social-github-error").is_visible()
            page.locator(f"#faq-{n}-answer").fill("Yes, and in CI.")
            page.get_by_label("GitHub", exact=True).fill("https://github.com/patchwork")
            page.get_by_role("button", name="Save").click()
            page.get_by_role("status").wait_for()
            mine = http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()
            assert mine["faqs"][-1] == {"question": "Does it run on my laptop?", "answer": "Yes, and in CI."}
            assert mine["socials"]["github"] == "https://github.com/patchwork"
            assert mine["tagline"] == "Deploys in one honest command"  # untouched fields are not sent

            page.goto(f"{base}/my/listings/{listing_id}/history")
            edited = page.locator("article.version").nth(1)
            assert "Tagline" in edited.inner_text() and who.email in edited.inner_text()
            titles = page.locator("article.version h3").all_inner_texts()  # numbered in the listing's own order
            assert [t.split(":")[0] for t in titles] == [f"Version {n}" for n in range(len(titles), 0, -1)]
            assert edited.locator("ins").first.inner_text() != ""

            # updates, milestones, story, interview
            page.goto(f"{base}/my/listings/{listing_id}/updates")
            page.get_by_role("button", name="Post the update").click()
            assert page.locator("#title-error").is_visible()  # required, as the API says
            page.get_by_label("Title").fill("Version 2 is out")
            page.get_by_label("What's new (plain text)").fill("Faster deploys and a new dashboard.")
            page.get_by_role("button", name="Post the update").click()
            page.get_by_role("status").wait_for()
            assert page.locator("section[id^=update-] h3").first.inner_text() == "Version 2 is out"

            page.goto(f"{base}/my/listings/{listing_id}/milestones")
            page.get_by_label("Title").fill("First paying customer")
            page.get_by_role("button", name="Add the milestone").click()  # no date
            assert page.locator("#date-error").inner_text().endswith("Enter a date like 2024-03-01.")
            assert "Date: Enter a date like 2024-03-01." in page.get_by_role("alert").inner_text()
            page.get_by_label("Date").fill("2024-03-01")
            page.get_by_label("Title").fill("First paying customer")
            page.get_by_label("Link (optional, https)").fill("http://not-https.example")
            page.get_by_role("button", name="Add the milestone").click()
            assert page.locator("#url-error").is_visible()
            page.get_by_label("Link (optional, https)").fill("")
            page.get_by_role("button", name="Add the milestone").click()
            page.get_by_role("status").wait_for()
            assert "First paying customer" in page.locator("ul.milestones").inner_text()
            page.get_by_role("button", name="Delete the milestone First paying customer").click()
            page.get_by_role("status").filter(has_text="deleted").wait_for()
            assert page.locator("ul.milestones").count() == 0

            page.goto(f"{base}/my/listings/{listing_id}/story")
            page.get_by_label("The story", exact=True).fill("We kept breaking production on Fridays.")
            page.get_by_role("button", name="Save the story").click()
            page.get_by_role("status").wait_for()
            story = http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()["story"]
            assert story == {"story": "We kept breaking production on Fridays."}

            page.goto(f"{base}/my/interview")
            first = page.locator("form textarea").first
            first.fill("Small tools, honest pricing.")
            page.get_by_role("button", name="Save the answers").click()
            page.get_by_role("status").wait_for()
            assert page.locator("form textarea").first.input_value() == "Small tools, honest pricing."
            standing = page.locator("#interview-standing").inner_text()  # says what is missing, each apart
            assert "A live listing of yours: not yet" in standing and "Your founder profile: not made yet" in standing

            # launch for free, the badge code in another style, the badge on the homepage, checked now
            embed = launch_free(page, base, listing_id)
            assert f"/listings/{slug}" in embed and f"/badges/{slug}/" in embed
            page.get_by_label("Shape").select_option("pill")  # site.js sends the form at once
            page.wait_for_url(lambda url: "shape=pill" in url)
            assert "shape=pill" in str(page.locator("textarea.code").first.input_value())
            assert "shape=pill" in str(page.locator(".badge-preview img").first.get_attribute("src"))
            bad = page.goto(f"{base}/my/listings/{listing_id}/badge?shape=hexagon")
            assert bad is not None and bad.status == 400 and page.locator("#shape-error").is_visible()

            assert check_badge_now(page, base, listing_id) == "missing"
            assert page.locator("#badge-reason").inner_text() != ""
            with_badge(site, embed)
            assert check_badge_now(page, base, listing_id) == "found"
            open_dashboard(page, base, listing_id)
            assert page.locator("#listing-status").get_attribute("data-status") == "scheduled"
            assert page.locator("#listing-plan").inner_text().strip() == "Free"
            assert "if the badge is missing when its week begins" in page.locator("#launch-mail").inner_text()

            assert axe_violations(page) == []
            shots = screenshots(page, f"{base}/my/listings/{listing_id}", SHOTS, "listing-dashboard")
            shots += screenshots(page, f"{base}/my/listings/{listing_id}/badge", SHOTS, "listing-badge")
            shots += screenshots(page, f"{base}/my/listings/{listing_id}/edit", SHOTS, "listing-edit")
            shots += screenshots(page, f"{base}/my/listings/{listing_id}/history", SHOTS, "listing-history")
            assert all(p.stat().st_size > 0 for p in shots)
            for path in ("", "/badge", "/edit", "/history"):
                page.set_viewport_size({"width": 390, "height": 900})
                page.goto(f"{base}/my/listings/{listing_id}{path}")
                assert (path, wider_than_the_screen(page)) == (path, [])
                assert (path, words_split_in_diffs(page)) == (path, [])  # names and values wrap between words
                assert (path, overflowing(page, "table.diff th[scope=row]")) == (path, [])
            page.goto(f"{base}/my/listings/{listing_id}/edit")
            assert axe_violations(page) == []
        finally:
            context.close()

    with closing(signed_in_client(base, other.email, PASSWORD)) as stranger:
        mine = f"/my/listings/{listing_id}"
        for path in (mine, f"{mine}/edit", f"{mine}/history", f"{mine}/badge", f"{mine}/updates", f"{mine}/order"):
            assert stranger.get(path).status_code == 404, path
        assert stranger.get("/my/listings/999999").status_code == 404
        assert slug not in stranger.get("/my/listings").text
    with httpx.Client(base_url=base, timeout=15, follow_redirects=False) as anonymous:
        r = anonymous.get(f"/my/listings/{listing_id}")
        assert r.status_code == 303 and r.headers["location"].startswith("/signin?next=/my/listings/")


def test_saving_an_untouched_form_with_a_multi_paragraph_description_records_nothing(
        live: RunningServer, http: httpx.Client, chromium: Any) -> None:
    """Chromium sends the text box's line breaks as CRLF; the stored description has LF: no phantom edit."""
    who = person(live, password=PASSWORD)
    with serve("devtool") as site:
        listing_id, _ = saved_listing(http, who, site)
    text = "Deploys from one command.\n\nRolls back just as fast."
    r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"description": text}},
                   headers=who.headers(**{"Idempotency-Key": "two-paragraphs"}))
    assert r.status_code == 200, r.text
    context = chromium.new_context()
    page = context.new_page()
    try:
        sign_in(page, live.url, who.email, PASSWORD)
        page.goto(f"{live.url}/my/listings/{listing_id}/history")
        versions = page.locator("article.version").count()
        page.goto(f"{live.url}/my/listings/{listing_id}/edit")
        page.get_by_role("button", name="Preview").click()
        assert page.locator("#preview").inner_text().endswith("Nothing changed yet.")
        page.goto(f"{live.url}/my/listings/{listing_id}/edit")
        page.get_by_role("button", name="Save").click()
        page.get_by_role("status").wait_for()
        page.goto(f"{live.url}/my/listings/{listing_id}/history")
        assert page.locator("article.version").count() == versions
        assert http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()["description"] == text
    finally:
        context.close()
