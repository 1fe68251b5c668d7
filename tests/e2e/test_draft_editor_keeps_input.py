"""The founder's draft editor keeps what people type, in Chromium: whichever Save button is pressed, every change is kept.

The editor is one form: the top "Save changes", each section's Save, Lock, Delete, "Save as listing" and
"Send invite" all post every input of the page, so a typed FAQ answer survives the top Save and a typed tagline
survives "Save SEO". A mistake in one section shows every section again with what was typed and the message beside
its field, storing nothing. The confirmation is next to the button pressed (in view on a 390 px phone), stage and
pricing model are menus in words, buttons in one row are one height, and the drafts list names the listing and
says each status in words. axe-core and no sideways scroll at 390 px on the editor and the list; screenshots in
`$LAUNCHDIR_SCREENSHOTS` (default /tmp/draftshots).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from events.draft_fields import STATUSES
from tests.conftest import Databases, RunningServer
from tests.e2e import founder_support_drafts as steps
from tests.e2e.founder_support_listings import AXE, axe_violations
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import FixtureServer
from tests.integration.test_accounts_mail import LocalSmtp

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or "/tmp/draftshots")
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1440, "height": 900}


@dataclass(frozen=True)
class Founder:
    base: str
    email: str
    draft_id: str

    @property
    def editor(self) -> str:
        return f"{self.base}/drafts/{self.draft_id}"


@pytest.fixture(scope="module")
def world(databases: Databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:
    yield from steps.mailing_server(databases)


@pytest.fixture(scope="module")
def saas() -> Iterator[FixtureServer]:
    with serve("saas") as server:
        yield server


@pytest.fixture(scope="module")
def founder(world: tuple[RunningServer, LocalSmtp], saas: FixtureServer, chromium: Any) -> Founder:
    """A signed-up founder with a ready draft of the fixture site that names a category (so it can be listed)."""
    server, smtp = world
    context = chromium.new_context(viewport=WIDE)
    try:
        page = context.new_page()
        email = steps.address("keeps")
        steps.sign_up(page, server.url, smtp, email)
        draft_id = steps.submit_site(page, server.url, saas.url("/"))
        assert steps.wait_until_drafted(page) == "ready"
        steps.name_a_category_if_none(page)
    finally:
        context.close()
    return Founder(server.url, email, draft_id)


@pytest.fixture
def page(chromium: Any, founder: Founder) -> Iterator[Any]:
    """A new browser signed in as the founder, on the editor at 1440 px."""
    context = chromium.new_context(viewport=WIDE)
    page = context.new_page()
    steps.sign_in(page, founder.base, founder.email)
    page.goto(founder.editor)
    yield page
    context.close()


def _shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def _value(page: Any, name: str) -> str:
    return str(page.locator(f'[name="{name}"]').input_value())


def _new_faq_row(page: Any) -> int:
    """The index of the empty row that adds a question."""
    legend = page.get_by_role("group", name="Add a question")
    name = str(legend.get_by_label("Question").get_attribute("name"))
    return int(name.split(".")[1])


def _in_view(page: Any, locator: Any) -> bool:
    """Whether the element is on the screen whole, and not under the sticky save bar."""
    box, bar = locator.bounding_box(), page.locator(".save-bar").bounding_box()
    height = page.viewport_size["height"]
    below_bar = bar is None or box is None or box["y"] >= bar["y"] + bar["height"] or box["y"] + box["height"] <= bar["y"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height and below_bar


def _type_everywhere(page: Any, tag: str) -> dict[str, str]:
    """Type a new value into a profile field and into every other section; answers input name -> value typed."""
    faq = _new_faq_row(page)
    typed = {
        "fields.tagline": f"Tagline {tag}",
        f"faqs.{faq}.question": f"Question {tag}?",
        f"faqs.{faq}.answer": f"Answer {tag}.",
        "story.journey": f"Journey {tag}",
        "seo.title": f"Title {tag}",
        "company_socials.github": f"https://github.example/{tag}",
    }
    for name, value in typed.items():
        page.locator(f'[name="{name}"]').fill(value)
    return typed


def _kept(page: Any, typed: dict[str, str]) -> dict[str, str]:
    """What the page shows now in each typed input, for the ones that differ from what was typed."""
    return {name: _value(page, name) for name, value in typed.items() if _value(page, name) != value}


def test_the_top_save_keeps_a_typed_faq_answer_and_every_other_section(page: Any, founder: Founder) -> None:
    typed = _type_everywhere(page, uuid4().hex[:8])
    page.get_by_role("button", name="Save changes").click()
    page.get_by_role("status").filter(has_text="Your changes are saved.").wait_for()
    page.goto(founder.editor)  # read again from the server, not from what the browser kept
    assert _kept(page, typed) == {}, "every typed change is saved by the top Save"


def test_a_sections_own_save_keeps_the_profile_fields_typed_above_it(page: Any, founder: Founder) -> None:
    typed = _type_everywhere(page, uuid4().hex[:8])
    page.get_by_role("button", name="Save SEO").click()
    page.get_by_role("status").filter(has_text="Your changes are saved.").wait_for()
    page.goto(founder.editor)
    assert _kept(page, typed) == {}, "Save SEO saves the tagline and the FAQ typed elsewhere too"


def test_a_mistake_in_one_section_shows_every_typed_value_again_and_stores_nothing(page: Any, founder: Founder) -> None:
    before = _value(page, "fields.tagline")
    typed = _type_everywhere(page, uuid4().hex[:8])
    milestone = page.get_by_role("group", name="Add a milestone")
    milestone.get_by_label("Date").fill("2024-03-01")
    milestone.get_by_label("Title").fill("Public beta")
    milestone.get_by_label("Link").fill("http://not-https.example.com/beta")
    with page.expect_response(lambda r: r.request.method == "POST" and "/drafts/" in r.url) as answer:
        page.get_by_role("button", name="Save FAQs").click()
    assert answer.value.status == 400
    link_error = page.locator('[id^="milestones."][id$=".url-error"]')
    assert link_error.inner_text().endswith("Enter a link that starts with https://.")
    assert "Link: Enter a link that starts with https://." in page.get_by_role("alert").inner_text()
    assert _kept(page, typed) == {}, "the other sections come back as typed"
    shown = page.get_by_role("group", name="Public beta")  # the refused milestone, as typed
    assert shown.get_by_label("Link").input_value() == "http://not-https.example.com/beta"
    _shot(page, "editor-error-kept-1440")

    page.goto(founder.editor)
    assert _value(page, "fields.tagline") == before, "nothing stored while a section is refused"


def test_the_confirmation_is_where_the_person_is_on_a_phone(page: Any, founder: Founder) -> None:
    page.set_viewport_size(PHONE)
    page.goto(founder.editor)
    page.locator('[name="fields.city"]').fill(f"Lisbon {uuid4().hex[:6]}")
    page.get_by_role("button", name="Save changes").click()
    saved = page.get_by_role("status").filter(has_text="Your changes are saved.")
    saved.wait_for()
    _shot(page, "editor-saved-390")
    assert _in_view(page, saved), saved.bounding_box()

    faq = _new_faq_row(page)
    page.locator(f'[name="faqs.{faq}.question"]').fill("Is there a phone app?")
    page.locator(f'[name="faqs.{faq}.answer"]').fill("Not yet.")
    page.get_by_role("button", name="Save FAQs").click()
    saved.wait_for()
    assert _in_view(page, saved), "beside the FAQs' own Save"

    listed = page.get_by_role("button", name=re.compile(r"^(Save as listing|Update the listing)$"))
    first = listed.inner_text().strip() == "Save as listing"
    listed.click()
    said = page.get_by_role("status").filter(has_text="listing")
    said.wait_for()
    assert _in_view(page, said), said.bounding_box()
    if first:
        assert "Saved as a listing" in said.inner_text()
        page.get_by_role("button", name="Update the listing").wait_for()

    city = f"Porto {uuid4().hex[:6]}"
    page.locator('[name="fields.city"]').fill(city)  # typed, then "Update the listing": saved and carried
    page.get_by_role("button", name="Update the listing").click()
    said = page.get_by_role("status").filter(has_text="The listing is updated from this draft.")
    said.wait_for()
    assert _in_view(page, said), said.bounding_box()
    _shot(page, "editor-listing-updated-390")
    page.goto(founder.editor)
    assert _value(page, "fields.city") == city


def test_stage_and_pricing_model_are_menus_in_words(page: Any, founder: Founder) -> None:
    stage, pricing = page.get_by_label("Stage", exact=True), page.get_by_label("Pricing model", exact=True)
    for menu in (stage, pricing):
        assert menu.evaluate("e => e.tagName") == "SELECT"
        labels = [t.strip() for t in menu.locator("option").all_inner_texts()]
        assert labels[0] == "Not stated", labels
        assert not any(label == label.lower() for label in labels), labels  # words, never the code
    assert "Beta" in stage.locator("option").all_inner_texts()
    assert "Freemium" in pricing.locator("option").all_inner_texts()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#group-business").screenshot(path=str(SHOTS / "editor-business-1440.png"))
    stage.select_option(label="Beta")
    pricing.select_option(label="Subscription")
    page.get_by_role("button", name="Save changes").click()
    page.get_by_role("status").filter(has_text="Your changes are saved.").wait_for()
    page.goto(founder.editor)
    assert stage.locator("option:checked").inner_text() == "Beta"
    assert pricing.locator("option:checked").inner_text() == "Subscription"
    text = page.locator("main").inner_text()
    assert "One per line" in text and "One a line" not in text


def test_milestone_boxes_line_up_and_buttons_in_a_row_are_one_height(page: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#faqs").screenshot(path=str(SHOTS / "editor-faqs-1440.png"))
    page.locator("#milestones").screenshot(path=str(SHOTS / "editor-milestones-1440.png"))
    milestone = page.get_by_role("group", name="Add a milestone")
    date, title = (milestone.get_by_label(n).bounding_box() for n in ("Date", "Title"))
    assert date is not None and title is not None
    assert abs(date["y"] - title["y"]) <= 1 and abs(date["height"] - title["height"]) <= 1, (date, title)
    rows = page.locator("form .actions, .save-bar, .slot-row")
    assert rows.count() > 5
    for i in range(rows.count()):
        heights = rows.nth(i).locator("button:visible").evaluate_all(
            "els => els.map(e => Math.round(e.getBoundingClientRect().height))")
        assert len(set(heights)) <= 1, (i, heights)


def test_the_drafts_list_names_the_listing_and_says_statuses_in_words(page: Any, founder: Founder) -> None:
    from api.web_draft_view import STATUS_WORDS  # noqa: PLC0415 - the words the pages use

    assert set(STATUS_WORDS) == set(STATUSES), "every draft status of the SPEC has its words"
    page.goto(f"{founder.base}/drafts")
    page.get_by_role("navigation", name="Your work").wait_for()  # the founder pages' navigation
    text = page.locator("main").inner_text()
    assert "Submit a site" not in text and "Submit a product" in text
    assert "Ready to edit" in page.locator(".draft-list").inner_text()
    assert page.locator(".draft-list .chip").first.inner_text().strip() not in STATUSES
    listing = page.locator('.draft-list a[href^="/my/listings/"]')
    if listing.count():  # listed by an earlier test: named, not numbered
        assert "#" not in listing.first.inner_text() and "Acme" in listing.first.inner_text()
    page.goto(founder.editor)
    assert "Ready to edit" in page.locator(".draft-head").inner_text()


def test_leaving_with_typed_changes_asks_first(page: Any, founder: Founder) -> None:
    asked: list[str] = []

    def stay(dialog: Any) -> None:
        asked.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", stay)
    page.locator('[name="fields.city"]').click()
    page.keyboard.type(" typed")
    page.get_by_role("link", name="Your drafts").first.click()
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"] and page.url == founder.editor


@pytest.mark.parametrize("width", [390, 1440])
def test_the_editor_and_the_list_fit_and_pass_axe(page: Any, founder: Founder, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    for name, url in (("editor", founder.editor), ("drafts", f"{founder.base}/drafts")):
        page.goto(url)
        over = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert over <= 0, (name, width)
        if AXE.exists():
            assert axe_violations(page) == [], (name, width)
        _shot(page, f"{name}-{width}", full=True)
