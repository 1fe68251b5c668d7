"""The founder's drafts in Chromium: sign up, submit a local site, watch it draft, edit it every way, save as listing.

The server may crawl 127.0.0.1 (the fixture sites) and mails over SMTP to a
local server, so signing up is the real path. Also: field-level errors in plain
words (never the validator's wording or a pattern), another person's 404, a site whose robots.txt refuses, axe-core
on the pages, and screenshots of the editor at 390 and 1440 px.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx
import pytest

from events.draft_fields import STATES
from events.text import RULE

from tests.conftest import Databases, RunningServer
from tests.e2e import founder_support_drafts as steps
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import Body, FixtureServer
from tests.integration.test_accounts_mail import LocalSmtp

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or "/tmp/shots")
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:
    yield from steps.mailing_server(databases)


@pytest.fixture(scope="module")
def saas() -> Iterator[FixtureServer]:
    with serve("saas") as server:
        yield server


def steps_field_value(web: httpx.Client, draft_id: str, name: str) -> str:
    """The value the editor shows in a field's input (read over HTTP with the browser's session)."""
    page = web.get(f"/drafts/{draft_id}").text
    found = re.search(rf'name="fields\.{name}" type="text" value="([^"]*)"', page)
    return found.group(1) if found else ""


def _axe(page: Any) -> list[tuple[str, str, list[Any]]]:
    page.evaluate(AXE.read_text())  # evaluated, not a <script> the page's own policy would refuse
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


def test_a_founder_drafts_edits_and_saves_a_listing_in_the_browser(world: tuple[RunningServer, LocalSmtp], chromium: Any,
                                                                  saas: FixtureServer) -> None:
    server, smtp = world
    base = server.url
    context = chromium.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    try:
        page.goto(base + "/drafts")
        assert "/signin" in page.url, "signed out: the sign-in page, coming back after"
        steps.sign_up(page, base, smtp, steps.address("founder"))
        page.goto(base + "/drafts")
        page.get_by_text("You have no drafts yet").wait_for()

        draft_id = steps.submit_site(page, base, saas.url("/"))
        assert steps.wait_until_drafted(page) == "ready"
        assert page.locator(".evidence").count() > 0, "drafted values carry their quotes"
        first_quote = page.locator(".evidence a").first.get_attribute("href")
        assert first_quote is not None and first_quote.startswith(saas.url("/"))
        ai = [n for n in ("tagline", "short_description", "description", "name", "features")
              if steps.field_state(page, n) == "ai"]
        assert len(ai) >= 3, ai
        edited, regenerated, removed = ai[0], ai[1], ai[2]
        assert steps.field_state_words(page, edited) == "drafted from your site"  # words, not the state's code
        chips = {t.strip() for t in page.locator(".chip[data-state]").all_inner_texts()}
        assert chips and chips.isdisjoint(STATES), chips

        steps.edit_field(page, edited, "Invoices that chase themselves")
        assert steps.field_state(page, edited) == "edited"
        assert steps.field_state_words(page, edited) == "edited by you"
        steps.field_button(page, "Lock", page.locator(f'label[for="fields.{edited}"]').inner_text())
        assert steps.field_state(page, edited) == "override"
        assert steps.field_state_words(page, edited) == "locked by you"
        assert steps.field_input(page, edited).input_value() == "Invoices that chase themselves"

        label = page.locator(f'label[for="fields.{regenerated}"]').inner_text()
        steps.regenerate(page, [label])
        for _ in range(50):  # the redraft runs in the background; the page says so until it is done
            page.goto(f"{base}/drafts/{draft_id}")
            if page.get_by_text("Regenerating").count() == 0:
                break
            page.wait_for_timeout(200)
        assert steps.field_state(page, regenerated) == "ai"

        removed_label = page.locator(f'label[for="fields.{removed}"]').inner_text()
        before = steps.field_input(page, removed).input_value()
        steps.field_button(page, "Delete", removed_label)
        assert steps.field_state(page, removed) == "deleted" and steps.field_input(page, removed).input_value() == ""
        steps.field_button(page, "Restore", removed_label)
        assert steps.field_state(page, removed) == "ai" and steps.field_input(page, removed).input_value() == before

        steps.add_faq(page, "Does it work with Stripe?", "Yes, invoices sync both ways.")
        assert page.locator('[name="faqs.0.question"], [name="faqs.1.question"]').evaluate_all(
            "els => els.map(e => e.value)").count("Does it work with Stripe?") == 1
        steps.add_founder(page, "Ada Example", "CEO")
        page.get_by_role("group", name="Ada Example").wait_for()

        # bad input: the messages beside the inputs, nothing stored
        steps.field_input(page, "tagline").fill("x" * 501)
        page.get_by_role("button", name="Save changes").click()
        tagline_error = page.locator('[id="fields.tagline-error"]')
        assert "at most 500 characters" in tagline_error.inner_text()
        assert page.locator('[name="fields.tagline"]').get_attribute("aria-invalid") == "true"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "founder-editor-error-1440.png"))
        page.goto(f"{base}/drafts/{draft_id}")
        assert steps.field_input(page, "tagline").input_value() != "x" * 501

        milestone = page.get_by_role("group", name="Add a milestone")
        milestone.get_by_label("Date").fill("2024-03-01")
        milestone.get_by_label("Title").fill("Public beta")
        milestone.get_by_label("Link").fill("http://not-https.example.com/beta")
        page.get_by_role("button", name="Save milestones").click()
        assert page.locator('[id="milestones.0.url-error"]').inner_text().endswith("Enter a link that starts with https://.")
        assert page.get_by_role("alert").get_by_role("link").first.get_attribute("href") == "#milestones.0.url"

        page.goto(f"{base}/drafts/{draft_id}")
        page.get_by_label("Co-founder's email address").fill("not an address")
        page.get_by_role("button", name="Send invite").click()
        assert "email address" in page.locator('[id="email-error"]').inner_text()
        cofounder = steps.address("cofounder")
        page.get_by_label("Co-founder's email address").fill(cofounder)
        page.get_by_role("button", name="Send invite").click()
        page.get_by_text("The invite is on its way").wait_for()
        assert cofounder in page.locator(".invites").inner_text()
        invited = chromium.new_context()
        try:  # the co-founder signs up with the invited address, accepts, and edits the same draft
            theirs = invited.new_page()
            steps.sign_up(theirs, base, smtp, cofounder)
            theirs.goto(steps.mailed_link(smtp, cofounder, steps.INVITE_LINK))
            theirs.get_by_role("button", name="Accept the invite").click()
            said = theirs.get_by_role("status").inner_text()  # what they can do now, in the website's words
            assert "co-owner of the draft of" in said and "get_draft" not in said and draft_id not in said
            theirs.screenshot(path=str(SHOTS / "invite-accepted-1440.png"), full_page=True)
            theirs.set_viewport_size({"width": 390, "height": 900})
            theirs.screenshot(path=str(SHOTS / "invite-accepted-390.png"), full_page=True)
            assert theirs.get_by_role("link", name="Open the draft").get_attribute("href") == f"/drafts/{draft_id}"
            theirs.get_by_role("link", name="Open the draft").click()
            theirs.get_by_role("button", name="Save changes").wait_for()
            assert theirs.url.endswith(f"/drafts/{draft_id}")
        finally:
            invited.close()
        page.reload()
        assert "accepted" in page.locator(".invites").inner_text()

        steps.name_a_category_if_none(page)
        listing_id = steps.save_as_listing(page, base)
        assert page.get_by_role("button", name="Update the listing").count() == 1
        page.goto(base + "/drafts")
        listing_link = page.locator(f'.draft-list a[href="/my/listings/{listing_id}"]')
        assert "#" not in listing_link.inner_text(), "the listing by its name, not its number"

        owner_jar = {c["name"]: c["value"] for c in context.cookies()}
        r = httpx.get(f"{base}/drafts/{draft_id}", cookies=owner_jar, follow_redirects=False, timeout=15)
        assert r.status_code == 200 and f'href="/my/listings/{listing_id}"' in r.text
        with httpx.Client(base_url=base, cookies=owner_jar, follow_redirects=False, timeout=15) as web:
            token = CSRF.search(r.text)
            assert token is not None
            city_before = steps_field_value(web, draft_id, "city")
            broken = web.post(f"/drafts/{draft_id}", data={"csrf_token": token.group(1), "section": "fields",
                                                           "fields.city": "Lis\x00bon"})
            assert broken.status_code == 400 and 'id="fields.city-error"' in broken.text and RULE in broken.text
            assert steps_field_value(web, draft_id, "city") == city_before, "nothing stored"

        # a second person: the first person's draft is a 404, on every page and form of it
        other = chromium.new_context()
        try:
            them = other.new_page()
            steps.sign_up(them, base, smtp, steps.address("other"))
            for path in (f"/drafts/{draft_id}", f"/drafts/{uuid4()}", "/drafts/not-a-uuid"):
                answer = them.goto(base + path)
                assert answer is not None and answer.status == 404, path
                them.get_by_role("heading", name="Draft not found").wait_for()
            them.goto(base + "/drafts")
            assert them.get_by_text("You have no drafts yet").count() == 1
            jar = {c["name"]: c["value"] for c in other.cookies()}
            with httpx.Client(base_url=base, cookies=jar, follow_redirects=False, timeout=15) as web:
                assert web.get("/drafts", params={"page": "0"}).status_code == 400
                assert web.get("/drafts", params={"page": "2"}).status_code == 200
                token = CSRF.search(web.get("/submit").text)
                assert token is not None
                for path, form in ((f"/drafts/{draft_id}", {"section": "fields", "fields.name": "Taken"}),
                                   (f"/drafts/{draft_id}/invites", {"email": "x@example.com"}),
                                   (f"/drafts/{draft_id}/submit", {})):
                    refused = web.post(path, data={"csrf_token": token.group(1), **form})
                    assert refused.status_code == 404, path
                    assert web.post(path, data=form).status_code == 403, "without the CSRF token"
        finally:
            other.close()
    finally:
        context.close()


def test_save_as_listing_refuses_a_tagline_longer_than_a_listing_takes_next_to_the_field(
        world: tuple[RunningServer, LocalSmtp], chromium: Any, saas: FixtureServer) -> None:
    server, smtp = world
    context = chromium.new_context()
    page = context.new_page()
    try:
        steps.sign_up(page, server.url, smtp, steps.address("long"))
        steps.submit_site(page, server.url, saas.url("/"))
        assert steps.wait_until_drafted(page) == "ready"
        steps.name_a_category_if_none(page)
        steps.edit_field(page, "tagline", "t" * 312)  # a draft takes up to 500 characters
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/submit")) as answer:
            page.get_by_role("button", name="Save as listing").click()
        assert answer.value.status == 400
        said = "A listing's tagline is at most 200 characters (this one has 312); shorten it in the draft."
        assert page.locator('[id="fields.tagline-error"]').inner_text().endswith(said)
        assert steps.field_input(page, "tagline").get_attribute("aria-invalid") == "true"
        assert page.get_by_role("link", name="Open your listing").count() == 0
        steps.field_input(page, "tagline").fill("Calm automation")
        page.get_by_role("button", name="Save changes").click()
        page.get_by_role("status").filter(has_text="saved").wait_for()
        assert steps.save_as_listing(page, server.url) > 0
    finally:
        context.close()


RAW_WORDS = ("^(", "String should", "Input should", "List should", "Value error", "list_categories", "`")
"""What a page must never show in a field's message: the validator's wording, a pattern, an operation's name."""


def _summary(page: Any) -> str:
    """The error summary at the top of the page (each message after its field's label)."""
    text = str(page.get_by_role("alert").inner_text())
    assert not any(raw in text for raw in RAW_WORDS), text
    return text


def _error(page: Any, name: str) -> str:
    text = str(page.locator(f'[id="{name}-error"]').inner_text())
    assert not any(raw in text for raw in RAW_WORDS), text
    return text


def test_field_errors_are_plain_words_and_the_summary_names_each_field(
        world: tuple[RunningServer, LocalSmtp], chromium: Any, saas: FixtureServer) -> None:
    server, smtp = world
    base = server.url
    context = chromium.new_context()
    page = context.new_page()
    try:
        steps.sign_up(page, base, smtp, steps.address("plain"))
        page.goto(base + "/submit")
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/submit")) as answer:
            page.get_by_role("button", name="Read my site and draft").click()
        assert answer.value.status == 400
        assert _error(page, "url").endswith("This is required.")
        assert "Website address: This is required." in _summary(page)

        draft_id = steps.submit_site(page, base, saas.url("/"))
        assert steps.wait_until_drafted(page) == "ready"
        steps.field_input(page, "country").fill("Germany")
        steps.field_input(page, "founded_year").fill("99")
        steps.field_input(page, "logo_url").fill("ftp://files.example.com/logo.png")
        page.get_by_role("button", name="Save changes").click()
        said = {"country": ("Country", "Enter two letters, like DE."),
                "founded_year": ("Founded (year)", "Enter a year of four digits, like 2021."),
                "logo_url": ("Logo URL", "Enter a link that starts with https:// or http://.")}
        summary = _summary(page)
        for name, (label, words) in said.items():
            assert _error(page, f"fields.{name}").endswith(words)
            assert f"{label}: {words}" in summary

        page.goto(f"{base}/drafts/{draft_id}")
        page.locator('[id="fields.categories"]').evaluate(  # a menu of the directory's now: a page gone stale
            "(menu, name) => { menu.add(new Option(name, name)); menu.value = name; }", "not-a-category")
        page.get_by_role("button", name="Save changes").click()
        unknown = "“not-a-category” is not a category of the directory; use one from the categories page."
        assert _error(page, "fields.categories").endswith(unknown)
        assert f"Categories: {unknown}" in _summary(page)

        page.goto(f"{base}/drafts/{draft_id}")
        page.get_by_role("group", name="Add a question").get_by_label("Answer").fill("Yes, both ways.")
        page.get_by_role("button", name="Save FAQs").click()
        question = page.locator('[id^="faqs."][id$=".question-error"]')
        assert question.inner_text().endswith("This is required.")
        row = int(str(question.get_attribute("id")).split(".")[1])
        assert f"FAQ {row + 1}: Question: This is required." in _summary(page)

        page.goto(f"{base}/drafts/{draft_id}")
        page.get_by_role("group", name="Add a milestone").get_by_label("Title").fill("Public beta")
        page.get_by_role("button", name="Save milestones").click()
        date = page.locator('[id^="milestones."][id$=".date-error"]')
        assert date.inner_text().endswith("Enter a date like 2024-03-01.")
        row = int(str(date.get_attribute("id")).split(".")[1])
        assert f"Milestone {row + 1}: Date: Enter a date like 2024-03-01." in _summary(page)
    finally:
        context.close()


def test_progress_while_reading_then_the_editor_and_a_site_that_robots_txt_closes(
        world: tuple[RunningServer, LocalSmtp], chromium: Any) -> None:
    server, smtp = world
    context = chromium.new_context()
    page = context.new_page()
    try:
        steps.sign_up(page, server.url, smtp, steps.address("robots"))
        slow: dict[str, Any] = {"/robots.txt": Body(b"", "text/plain", status=404),
                "/": Body(b"<html><head><title>Slowly</title></head><body><h1>Slowly</h1><p>Slowly sends letters."
                          b"</p></body></html>", delay=3.0)}
        with FixtureServer(routes=slow) as slow_site:
            steps.submit_site(page, server.url, slow_site.url("/"))
            page.get_by_role("heading", name="Reading your site…").wait_for()
            assert page.locator('meta[http-equiv="refresh"]').count() == 1
            assert page.get_by_role("button").filter(has_text="Save").count() == 0, "nothing to edit while reading"
            assert steps.wait_until_drafted(page) == "ready", "the page reloads itself into the editor"
        assert page.locator('meta[http-equiv="refresh"]').count() == 0

        with FixtureServer("closed") as closed:
            steps.submit_site(page, server.url, closed.url("/"))
            assert steps.wait_until_drafted(page) == "failed"
        assert "robots.txt does not allow" in page.locator(".failure").inner_text()
        assert "robots_forbidden" in page.locator(".failure").inner_text()
        if AXE.exists():
            assert _axe(page) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.set_viewport_size({"width": 390, "height": 900})
        page.screenshot(path=str(SHOTS / "founder-failed-390.png"), full_page=True)
        page.get_by_role("link", name="Submit the site again").click()
        assert page.get_by_label("Website address").input_value() == closed.url("/")
        page.goto(server.url + "/drafts")
        assert "robots.txt does not allow" in page.locator(".draft-list").inner_text()

        page.goto(server.url + "/submit")
        page.get_by_label("Website address").fill("ftp://files.example.com")
        page.get_by_role("button", name="Read my site and draft").click()
        assert page.locator("#url-error").inner_text().strip() != ""
        assert page.get_by_label("Website address").get_attribute("aria-invalid") == "true"
    finally:
        context.close()


def test_the_editor_passes_axe_and_is_photographed(world: tuple[RunningServer, LocalSmtp], chromium: Any,
                                                   saas: FixtureServer) -> None:
    server, smtp = world
    if not AXE.exists():
        pytest.skip("axe-core is not installed: npm install --prefix tests/e2e/axe")
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context()
    page = context.new_page()
    try:
        steps.sign_up(page, server.url, smtp, steps.address("looks"))
        draft_id = steps.submit_site(page, server.url, saas.url("/"))
        assert steps.wait_until_drafted(page) == "ready"
        pages = {"editor": f"/drafts/{draft_id}", "drafts": "/drafts", "submit": "/submit"}
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for name, path in pages.items():
                page.goto(server.url + path)
                assert _axe(page) == [], (scheme, name)
        page.emulate_media(color_scheme="light")
        for width in (390, 1440):
            page.set_viewport_size({"width": width, "height": 900})
            for name, path in pages.items():
                page.goto(server.url + path)
                overflow = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
                assert overflow is False, (name, width)
                page.screenshot(path=str(SHOTS / f"founder-{name}-{width}.png"), full_page=True)
    finally:
        context.close()
