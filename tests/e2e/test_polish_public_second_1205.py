"""The visitor's pages after the second round of polish of 2026-12-05, in Chromium with the demo directory.

A comparison with a mistyped name shows its form again with what was typed and the closest names the site's
search finds, one box or the same listing twice is said in words, and a comparison's boxes show names and its table
Stage, Founded and the rating; /privacy and /terms say what this service keeps and its rules and are linked from the
footer and the sign-up form; the review form's stars read "5 stars, excellent"; a listing's facts come right after
its description on a phone; the footer's agents link says what it opens; the API docs say how to get a key; the
header marks the section a page is in; the sign-in forms' error summaries name the field. No page scrolls sideways
at 390 or 1440 px, and axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote, urlencode

import httpx
import pytest

from aggregates.account import SCOPES
from aggregates.base import Meta
from api.field_labels import value_label
from api.sessions import ABSOLUTE
from api.web_account import SCOPE_LABELS
from commands import catalog as catalog_cmd
from tests.conftest import RunningServer
from tests.e2e import founder_support_listings as listings
from tests.e2e.test_public_pages_polish import person, sign_in
from tests.e2e.website_support import SHOTS, at_both_widths, demo_server, offline

CONTACT = "hello@launchdir.example"  # the demo's contact address (site setting contact_email)


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases, rate_limits=False) as running:
        yield running


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    offline(context)
    yield context
    context.close()


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()


def api(site: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=site.url + "/api/v1", timeout=20)


def web(site: RunningServer) -> httpx.Client:
    return httpx.Client(base_url=site.url, timeout=20, headers={"accept": "text/html"})



def a_pair(site: RunningServer) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two live listings of one category (a listing and its first alternative), as the API gives their profiles."""
    with api(site) as http:
        first = http.get("/launches/weeks/this").json()["launches"][0]["listing"]["slug"]
        other = http.get(f"/listings/{first}/alternatives", params={"per_page": 1}).json()["items"][0]["slug"]
        return http.get(f"/listings/{first}").json(), http.get(f"/listings/{other}").json()


def compare_rows(page: Any) -> dict[str, list[str]]:
    return dict(page.evaluate("""() => [...document.querySelectorAll('table.compare tbody tr')].map(r =>
        [r.querySelector('th').textContent.trim(), [...r.querySelectorAll('td')].map(d => d.textContent.trim())])"""))


def test_a_mistyped_name_shows_the_form_again_with_the_closest_names(site: RunningServer, page: Any) -> None:
    a, b = a_pair(site)
    typo = a["name"][:-1]  # "Alder Invoic"
    url = f"{site.url}/compare?" + urlencode({"a": typo, "b": b["name"]})
    with web(site) as http:
        answer = http.get(url, follow_redirects=False)
    assert answer.status_code == 404, answer.status_code  # the form again, not a move to an address of slugs

    at_both_widths(page, url, "compare-typo")
    assert page.locator("h1").inner_text() == "Compare listings"
    first, second = page.get_by_label("First listing"), page.get_by_label("Second listing")
    assert first.input_value() == typo and second.input_value() == b["name"]  # what was typed, as it was typed
    assert first.get_attribute("aria-invalid") == "true" and second.get_attribute("aria-invalid") is None
    error = page.locator("#compare-a-error").inner_text()
    assert error == f"No listing is named “{typo}”.", error
    assert page.locator(".error-summary li").all_inner_texts() == [f"First listing: {error}"]
    assert "compare-a-error" in str(first.get_attribute("aria-describedby"))
    offer = page.locator("#compare-a-offer")
    assert offer.inner_text().startswith("Did you mean ")
    closest = offer.get_by_role("link", name=a["name"], exact=True)
    assert closest.count() == 1, offer.inner_text()  # the site's search finds the listing meant
    assert b["name"] not in offer.inner_text()  # never the listing of the other box

    closest.click()  # compares at once, the other box kept
    page.wait_for_url(re.compile(re.escape("/compare?" + urlencode({"a": a["slug"], "b": b["slug"]})) + "$"))
    assert page.locator("h1").inner_text() == f"{a['name']} vs {b['name']}"

    page.goto(f"{site.url}/compare?" + urlencode({"a": a["name"], "b": "zzqx wvnothing"}))
    assert page.locator("#compare-b-error").inner_text() == "No listing is named “zzqx wvnothing”."
    assert page.get_by_label("First listing").input_value() == a["name"]
    assert page.locator("#compare-b-offer a").get_attribute("href") == "/search?q=zzqx%20wvnothing"


def test_one_box_or_the_same_listing_twice_is_said_in_words(site: RunningServer, page: Any) -> None:
    a, _ = a_pair(site)
    url = f"{site.url}/compare?" + urlencode({"a": a["name"]})
    with web(site) as http:
        assert http.get(url).status_code == 400
    at_both_widths(page, url, "compare-one-box")
    assert page.get_by_label("First listing").input_value() == a["name"]  # the box that was filled, kept
    second = page.get_by_label("Second listing")
    assert second.input_value() == "" and second.get_attribute("aria-invalid") == "true"
    assert page.locator("#compare-b-error").inner_text() == \
        "Type the second listing's name too: a comparison needs two listings."

    url = f"{site.url}/compare?" + urlencode({"a": a["slug"], "b": a["name"]})  # a slug and a name of one listing
    with web(site) as http:
        assert http.get(url, follow_redirects=False).status_code == 400
    at_both_widths(page, url, "compare-twice")
    assert page.locator("table.compare").count() == 0
    assert page.locator("#compare-b-error").inner_text() == \
        f"“{a['name']}” is in both boxes: choose another listing to compare it with."
    assert page.get_by_label("Second listing").input_value() == a["name"]


def test_a_comparison_names_its_listings_in_the_boxes_and_shows_stage_founded_and_rating(
        site: RunningServer, page: Any) -> None:
    a, b = a_pair(site)
    at_both_widths(page, f"{site.url}/compare?a={a['slug']}&b={b['slug']}", "compare")
    assert page.get_by_label("First listing").input_value() == a["name"]  # names, as the hint asks to type them
    assert page.get_by_label("Second listing").input_value() == b["name"]
    rows = compare_rows(page)

    def rating(doc: dict[str, Any]) -> str:
        r = doc["community"]["rating"]
        if not r["count"]:
            return "No genuine reviews yet"
        return f"{r['average']:.1f} / 5 from {r['count']} genuine review{'s' if r['count'] != 1 else ''}"

    assert rows["Rating"] == [rating(a), rating(b)], rows
    assert a.get("stage") or b.get("stage"), "the demo's listings state a stage"
    assert rows["Stage"] == [value_label(d["stage"], "stage") if d.get("stage") else "Not stated" for d in (a, b)]
    assert a.get("founded_year") or b.get("founded_year")
    assert rows["Founded"] == [str(d["founded_year"]) if d.get("founded_year") else "Not stated" for d in (a, b)]
    assert not [k for k, v in rows.items() if v == ["Not stated", "Not stated"]], rows  # no row that tells nothing


def test_privacy_and_terms_say_what_this_service_keeps_and_its_rules(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        name = http.get("/site").json()["name"]
    at_both_widths(page, f"{site.url}/privacy", "privacy")
    assert page.title() == f"Privacy · {name}"
    text = page.locator("main").inner_text()
    for said in ("argon2id", "IP address", "user agent", f"{ABSOLUTE.days} days after signing in",
                 "Failed sign-ins are counted", "fingerprints of your network", "billing details", "VAT number",
                 "your card details go to the provider, never to this site", "robots.txt", "outbox",
                 "only ever added to, never rewritten", "a former member", "Orders and invoices are kept",
                 "frees your address", "is deleted after 30 days"):  # LAUNCHDIR_CRAWL_RETENTION_DAYS, 30 here
        assert said in text, said
    assert page.locator("main a[href='mailto:hello@launchdir.example']").count() == 1
    for link in ("/account/data", "/account/close", "/account/sessions", "/about/votes", "/terms"):
        assert page.locator(f"main a[href='{link}']").count() >= 1, link

    at_both_widths(page, f"{site.url}/terms", "terms")
    assert page.title() == f"Terms · {name}"
    text = page.locator("main").inner_text()
    for said in ("One account is one person", "One vote per person and listing", "One review per person and listing",
                 "Nothing paid moves a vote ranking", "refund", "rate limits"):
        assert said in text, said
    assert page.locator("main a[href='/privacy']").count() >= 1

    for path in ("/", "/signin", "/api/v1/docs"):  # every page's footer links both
        page.goto(site.url + path)
        footer = page.get_by_role("navigation", name="About this site")
        assert footer.get_by_role("link", name="Privacy").get_attribute("href") == "/privacy", path
        assert footer.get_by_role("link", name="Terms").get_attribute("href") == "/terms", path

    at_both_widths(page, f"{site.url}/signup", "signup")
    agree = page.locator("form[action='/signup'] #signup-agree")
    assert agree.inner_text() == "By creating an account you agree to the terms and the privacy policy."
    assert agree.get_by_role("link", name="terms").get_attribute("href") == "/terms"
    assert agree.get_by_role("link", name="privacy policy").get_attribute("href") == "/privacy"
    with web(site) as http:
        sitemap = http.get("/sitemap.xml").text
    assert f"{site.url}/privacy</loc>" in sitemap and f"{site.url}/terms</loc>" in sitemap


def test_without_a_contact_address_the_pages_name_the_sites_team(site: RunningServer) -> None:
    c = site.container
    meta = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli")
    done = catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(changes={"contact_email": None}),
                                            meta)
    assert c.runtime.wait_for(["catalog_view"], done.position, timeout=10)
    try:
        with web(site) as http:
            for path in ("/privacy", "/terms"):
                html = http.get(path).text
                assert "ask the site's team" in html and "mailto:" not in html, path
    finally:
        done = catalog_cmd.change_site_settings(
            c.store, catalog_cmd.ChangeSiteSettings(changes={"contact_email": CONTACT}), meta)
        assert c.runtime.wait_for(["catalog_view"], done.position, timeout=10)


def test_the_review_forms_stars_read_as_words(site: RunningServer, page: Any) -> None:
    _, b = a_pair(site)
    sign_in(page, site, person(site))
    at_both_widths(page, f"{site.url}/listings/{b['slug']}/review", "review-form")
    labels = page.locator("fieldset.stars label").all_inner_texts()
    assert labels == ["5 stars, excellent", "4 stars, good", "3 stars, fair", "2 stars, poor", "1 star, bad"], labels
    for n, word in ((5, "excellent"), (1, "bad")):  # what a screen reader says for each choice
        name = f"{n} star{'s' if n != 1 else ''}, {word}"
        assert page.get_by_role("radio", name=name, exact=True).count() == 1, name
    page.get_by_role("radio", name="4 stars, good", exact=True).check()
    page.get_by_label("Your review").fill("Good for closing the books each month; the bank sync is slow.")
    page.get_by_role("button", name="Publish your review").click()
    page.wait_for_url(f"**/listings/{b['slug']}?done=published#review-done")
    assert page.get_by_role("radio", name="4 stars, good", exact=True).is_checked()  # the form after, the same words
    head = page.locator("#reviews li.review .review-head").first.text_content() or ""
    assert "4 out of 5 stars. A verified member" in " ".join(head.split()), head


def test_a_listings_facts_come_right_after_its_description_on_a_phone(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        slug = http.get("/launches/weeks/this").json()["launches"][0]["listing"]["slug"]
    at_both_widths(page, f"{site.url}/listings/{slug}", "listing")

    def top(selector: str) -> float:
        return float(page.locator(selector).first.bounding_box()["y"])

    page.set_viewport_size({"width": 390, "height": 844})
    community = "aside[aria-label=Facts] h2:text-is('Community')"
    assert top(community) < top("h2:text-is('Features')") < top("#reviews-title") < top("h2:text-is('Alternatives')"), \
        "on a phone the facts come right after the description"
    lead, facts, more = ".profile-lead", "aside[aria-label=Facts]", ".profile-more"
    assert top(lead) < top(community)
    for name in ("Facts", "Founders", "Links"):
        assert top(f"aside[aria-label=Facts] h2:text-is('{name}')") < top("#reviews-title"), name
    assert top("aside[aria-label=Badges]") > top("h2:text-is('Alternatives')")  # the owner's embed codes last

    page.set_viewport_size({"width": 1440, "height": 900})
    boxes = {s: page.locator(s).first.bounding_box() for s in (lead, facts, more, "aside[aria-label=Badges]")}
    assert boxes[facts]["x"] > boxes[lead]["x"] + boxes[lead]["width"], "beside the description, as before"
    assert abs(boxes[facts]["y"] - boxes[lead]["y"]) < 2
    assert boxes[more]["y"] - (boxes[lead]["y"] + boxes[lead]["height"]) < 2, "the rest follows the lead at once"
    badges = boxes["aside[aria-label=Badges]"]
    assert badges["x"] == boxes[facts]["x"] and 0 <= badges["y"] - (boxes[facts]["y"] + boxes[facts]["height"]) < 40


def test_the_footer_says_what_its_agents_link_opens_and_llms_names_the_mcp_address(
        site: RunningServer, page: Any) -> None:
    page.goto(site.url + "/")
    footer = page.get_by_role("navigation", name="For developers and agents")
    assert footer.get_by_role("link", name="For AI agents").get_attribute("href") == "/llms.txt"
    assert not [t for t in footer.get_by_role("link").all_inner_texts() if "/mcp" in t]
    with web(site) as http:
        llms = http.get("/llms.txt").text
    assert f"MCP server: {site.url}/mcp " in llms, llms


def test_the_api_docs_say_how_to_get_a_key_first(site: RunningServer, page: Any) -> None:
    at_both_widths(page, f"{site.url}/api/v1/docs", "api-docs")
    headings = page.locator("main h2").all_inner_texts()
    assert headings[0] == "Authentication", headings
    section = page.locator("section[aria-labelledby=auth-h]")
    text = section.inner_text()
    assert "Authorization: Bearer ldk_" in text and "public" in text and "only by people on the website" in text
    for scope in SCOPES:
        assert f"{scope}: {SCOPE_LABELS[scope]}" in text, scope
    assert section.get_by_role("link", name="account page").get_attribute("href") == "/account#create-title"
    assert f"{site.url}/mcp" in text
    metadata = section.get_by_role("link", name="authorization server metadata").get_attribute("href")
    resources = [a.get_attribute("href") for a in section.locator("a[href*='oauth-protected-resource']").all()]
    with httpx.Client(timeout=20) as http:
        assert http.get(str(metadata)).json()["issuer"] == site.url
        for url in resources:
            assert http.get(str(url)).json()["authorization_servers"] == [site.url], url
    assert len(resources) == 2
    with web(site) as http:  # the keys are made where the page says (signed out: the sign-in page first)
        signed_out = http.get("/account", follow_redirects=False)
        assert signed_out.status_code in (302, 303) and signed_out.headers["location"].startswith("/signin")
    sign_in(page, site, person(site))
    page.goto(f"{site.url}/account#create-title")
    assert page.locator("#create-title").inner_text() == "Create an API key"


def test_the_header_marks_the_section_a_page_is_in(site: RunningServer, page: Any) -> None:
    with api(site) as http:
        week = http.get("/launches/weeks/this").json()
        slug = week["launches"][0]["listing"]["slug"]
        category = http.get("/categories").json()["items"][0]["slug"]
        founder = http.get("/founders").json()["items"][0]["slug"]
        post = http.get("/blog").json()["items"][0]["slug"]
    expected = {
        "/launches/this": ("Launches", "page"), f"/launches/{week['week']}": ("Launches", "true"),
        "/launches?section=trending": ("Launches", "true"), "/categories": ("Categories", "page"),
        f"/categories/{category}": ("Categories", "true"), "/leaderboards/community-weekly": ("Leaderboards", "page"),
        "/leaderboards/revenue": ("Leaderboards", "true"), "/awards": ("Awards", "page"),
        "/founders": ("Founders", "page"), f"/founders/{founder}": ("Founders", "true"), "/blog": ("Blog", "page"),
        f"/blog/{post}": ("Blog", "true"), "/updates": ("Updates", "page"), "/": None, f"/listings/{slug}": None,
        "/search?q=analytics": None,
    }
    for path, mark in expected.items():
        page.goto(site.url + path)
        nav = page.get_by_role("navigation", name="Main")
        marked = nav.locator("a[aria-current]")
        if mark is None:
            assert marked.count() == 0, path
            continue
        assert marked.count() == 1 and marked.inner_text() == mark[0] and marked.get_attribute("aria-current") == mark[1], \
            (path, marked.all_inner_texts())
        look = marked.evaluate("a => getComputedStyle(a).textDecorationLine")
        other = nav.locator("a:not([aria-current])").first.evaluate("a => getComputedStyle(a).textDecorationLine")
        assert "underline" in look and "underline" not in other, (path, look, other)  # seen, not only announced
    at_both_widths(page, f"{site.url}/categories/{category}", "header-current")


def test_the_sign_in_forms_error_summaries_name_the_field(site: RunningServer, page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site.url}/signup?next={quote('/listings/' + a_pair(site)[0]['slug'], safe='')}")
    page.get_by_label("Email address").fill("voter1@walk.example")
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Create account").click()
    summary = page.locator(".error-summary li")
    message = page.locator("#password-error").inner_text().replace("Error:", "").strip()  # the field's own message
    assert message and summary.all_inner_texts() == [f"Password: {message}"]
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/signup-error-390.png", full_page=True)
    assert listings.axe_violations(page) == []

    page.goto(f"{site.url}/signin")
    page.get_by_label("Email address").fill("nobody@walk.example")
    page.get_by_label("Password").fill("not the right password")
    page.get_by_role("button", name="Sign in").click()
    assert page.locator(".error-summary li").first.inner_text().startswith("Password: The email address or the password")

    page.goto(f"{site.url}/reset")
    page.get_by_label("Email address").fill("not an address")
    page.get_by_role("button", name="Send the link").click()
    assert page.locator(".error-summary li").first.inner_text().startswith("Email address: ")
