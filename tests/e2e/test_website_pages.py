"""The public website over real HTTP with the demo directory: every page type, 404s, documents for machines,
CSRF and sign-in on votes; then an anonymous visitor in Chromium, axe-core on the main pages, and screenshots."""

from __future__ import annotations

import html
import json
import os
import re
import time
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from xml.etree import ElementTree

import httpx
import markupsafe
import pytest

from aggregates.base import Meta
from aggregates.weeks import monday_of
from commands import listing as listing_cmd

from events.draft_fields import SOCIAL_LABELS
from tests.conftest import RunningServer
from tests.e2e.test_web_accounts import _csrf, _signed_in
from tests.e2e.website_support import demo_server, offline

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or "/tmp/shots")
LD = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def site(databases) -> Iterator[RunningServer]:  # type: ignore[no-untyped-def]
    with demo_server(databases) as running:
        yield running


@pytest.fixture(scope="module")
def http(site: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=site.url, timeout=20, follow_redirects=False, headers={"accept": "text/html"}) as client:
        yield client


def _json_ld(html: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(m) for m in LD.findall(html)]


def _a_live_slug(http: httpx.Client) -> str:
    return str(http.get("/api/v1/launches", params={"section": "most-voted", "per_page": 1}).json()["items"][0]["listing"]["slug"])


def _an_alternative(http: httpx.Client, slug: str) -> str:
    return str(http.get(f"/api/v1/listings/{slug}/alternatives", params={"per_page": 1}).json()["items"][0]["slug"])


def _a_post(http: httpx.Client) -> str:
    return str(http.get("/api/v1/blog", params={"per_page": 1}).json()["items"][0]["slug"])


def _an_upcoming_slug(http: httpx.Client, status: str = "scheduled") -> str:
    items = http.get("/api/v1/listings", params={"status": "upcoming", "per_page": 50}).json()["items"]
    return str(next(x for x in items if x["status"] == status)["slug"])


def test_an_upcoming_listing_has_a_page_and_every_link_to_it_answers(http: httpx.Client) -> None:
    """Its badge (on the founder's homepage weeks before launch), the upcoming feed and next week's board link there."""
    items = http.get("/api/v1/listings", params={"status": "upcoming", "per_page": 50}).json()["items"]
    for status in ("scheduled", "awaiting_badge"):
        card = next(x for x in items if x["status"] == status)
        assert http.get(f"/api/v1/listings/{card['slug']}").status_code == 404  # get_listing answers live listings
        page = http.get(f"/listings/{card['slug']}")
        assert page.status_code == 200 and "Launching soon" in page.text, status
        assert f"<h1>{card['name']}</h1>" in page.text
        week_link = f'href="/launches/{card["launch_week"]}"'
        if status == "scheduled":  # on the calendar: the week's board and the upcoming feed list it
            assert week_link in page.text
            for listed_on in (f"/launches/{card['launch_week']}", "/launches?section=upcoming"):
                assert f'href="/listings/{card["slug"]}"' in http.get(listed_on).text, listed_on
        else:  # not on the calendar until its badge is found: no link to pages that do not list it
            assert week_link not in page.text and "section=upcoming" not in page.text.split('id="launch-date"')[1]
            assert "once our badge is on its homepage" in page.text
        assert 'class="vote"' not in page.text  # votes open at launch
        badge = http.get(f"/api/v1/listings/{card['slug']}/badges").json()["badges"][0]
        assert badge["link_url"].endswith(f"/listings/{card['slug']}")  # where the pasted badge takes people
    for path in ("/launches?section=upcoming", "/", "/launches/next"):
        linked = set(re.findall(r'href="/listings/([a-z0-9-]+)"', http.get(path).text))
        assert linked, path
        for slug in linked:
            assert http.get(f"/listings/{slug}").status_code == 200, (path, slug)
    assert http.get("/listings/no-such-listing").status_code == 404


def test_every_page_type_answers_with_demo_data(http: httpx.Client) -> None:
    slug = _a_live_slug(http)
    founder = http.get("/api/v1/founders", params={"per_page": 1}).json()["items"][0]["slug"]
    post = http.get("/api/v1/blog", params={"per_page": 1}).json()["items"][0]["slug"]
    other = http.get(f"/api/v1/listings/{slug}/alternatives", params={"per_page": 1}).json()["items"][0]["slug"]
    pages = ["/", f"/listings/{slug}", "/launches/this", "/launches/last", "/launches/next", "/launches",
             "/launches?section=trending", "/categories", "/categories/developer-tools", "/leaderboards/community-weekly",
             "/leaderboards/community-all-time", "/leaderboards/billboard", "/leaderboards/domain-rating",
             "/leaderboards/revenue", "/awards", "/founders", f"/founders/{founder}", "/blog", f"/blog/{post}",
             "/search?q=analytics", "/search?q=analytics&sort=votes&status=live", f"/compare?a={slug}&b={other}",
             "/compare", "/updates", "/voting", "/launches?section=most-voted&page=2", "/about", "/pricing"]
    for path in pages:
        r = http.get(path)
        assert r.status_code == 200, path
        assert "text/html" in r.headers["content-type"], path
        assert '<link rel="canonical"' in r.text and 'property="og:title"' in r.text, path
        assert '<main id="main">' in r.text and 'href="/static/site.css"' in r.text, path


def test_a_subcategorys_breadcrumb_names_and_links_its_parent(http: httpx.Client) -> None:
    parent = next(c for c in http.get("/api/v1/categories").json()["items"] if c.get("subcategories"))
    child = parent["subcategories"][0]["slug"]
    page = http.get(f"/categories/{child}").text
    crumb = page[page.index('aria-label="Breadcrumb"'):]
    crumb = crumb[:crumb.index("</nav>")]
    assert f'<a href="/categories/{parent["slug"]}">{html.escape(parent["name"])}</a>' in crumb, crumb
    assert http.get(f"/categories/{parent['slug']}").status_code == 200


def test_the_listing_page_shows_the_profile_the_api_answers(http: httpx.Client) -> None:
    board = http.get("/api/v1/leaderboards/domain-rating", params={"per_page": 1}).json()
    slug = board["items"][0]["listing"]["slug"]
    doc = http.get(f"/api/v1/listings/{slug}").json()
    page = http.get(f"/listings/{slug}").text
    assert doc["name"] in page and (doc["tagline"] or "") in page
    for feature in doc["features"]:
        assert feature in page
    assert f"<strong>{doc['domain_rating']['value']}</strong>" in page
    if len(doc["domain_rating"]["history"]) >= 2:
        assert '<svg class="trend"' in page and 'role="img"' in page
    [ld] = _json_ld(page)
    assert ld["@type"] == "SoftwareApplication" and ld["name"] == doc["name"]
    assert ld["url"].endswith(f"/listings/{slug}")
    assert "/badges/" in page  # the listing's badge images
    for badge in http.get(f"/api/v1/listings/{slug}/badges").json()["badges"]:  # and their code, to copy
        assert f"<summary>Embed code for the {badge['label']} badge</summary>" in page
        assert str(markupsafe.escape(badge["embed_html"])) in page
    for key in doc["socials"]:  # links named as people write them ("X", "GitHub"), not by their keys
        assert f'rel="noopener">{SOCIAL_LABELS[key]}</a>' in page, key
    assert doc["socials"] and doc["stage"] and f"<dt>Stage</dt><dd>{doc['stage'].capitalize()}" in page  # in words


def test_facts_and_the_compare_table_read_as_words(http: httpx.Client) -> None:
    """A pricing model and a stage in words ("Freemium", "Launched"), and every compare row in sentence case."""
    def first(**query: str) -> str:
        return str(http.get("/api/v1/listings", params={**query, "per_page": 1}).json()["items"][0]["slug"])

    freemium, launched = first(pricing_model="freemium"), first(stage="launched")
    assert re.search(r"<dt>Pricing</dt><dd>Freemium[:<]", http.get(f"/listings/{freemium}").text)
    assert "<dt>Stage</dt><dd>Launched<" in http.get(f"/listings/{launched}").text
    other = http.get(f"/api/v1/listings/{freemium}/alternatives", params={"per_page": 1}).json()["items"][0]["slug"]
    table = http.get("/compare", params={"a": freemium, "b": other}).text
    rows = re.findall(r'<th scope="row">([^<]*)</th>', table)
    assert rows[:3] == ["Tagline", "Category", "Votes"] and "Pricing model" in rows, rows
    for row in rows:  # sentence case: a capital first, then lower case but for acronyms ("API available")
        assert row[:1].isupper() and "_" not in row and all(w.islower() or w[:3].isupper() for w in row.split()[1:]), row
    assert "<td>Freemium</td>" in table and "<td>freemium</td>" not in table


def test_a_blog_post_has_one_main_heading(http: httpx.Client) -> None:
    """The post's title is the page's one <h1>; a body that opens with the title again does not repeat it."""
    posts = http.get("/api/v1/blog", params={"per_page": 5}).json()["items"]
    assert posts
    for post in posts:
        page = http.get(f"/blog/{post['slug']}").text
        assert page.count("<h1") == 1 and f"<h1>{post['title']}</h1>" in page, post["slug"]


def test_every_page_title_ends_with_the_sites_name(site: RunningServer, http: httpx.Client) -> None:
    """Account, founder and public pages alike: "... · <the site's name>", the name in the site's settings."""
    name = http.get("/api/v1/site").json()["name"]
    ending = f" · {name}</title>"
    for path in ("/blog", "/signin", "/signup"):
        assert ending in http.get(path).text, path
    with httpx.Client(base_url=site.url, timeout=20, follow_redirects=False) as person:
        _signed_in(site, person)
        for path in ("/account", "/my/listings", "/my/claims", "/my/orders", "/drafts", "/submit", "/account/following",
                     "/my/listings/999999"):
            page = person.get(path)
            assert ending in page.text, (path, re.search(r"<title>.*</title>", page.text))


def test_every_address_the_site_document_names_is_a_page(http: httpx.Client) -> None:
    urls = http.get("/api/v1/site").json()["urls"]
    assert {"about", "pricing", "blog", "launches"} <= set(urls)
    for name, path in urls.items():
        r = http.get(path, follow_redirects=True)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"], (name, path, r.status_code)


def test_the_pricing_page_prices_every_product_as_the_api_does(http: httpx.Client) -> None:
    site = http.get("/api/v1/site").json()
    products = http.get("/api/v1/products").json()["items"]
    page = http.get("/pricing").text
    assert len(products) >= 5
    for product in products:
        row = re.search(rf'<tr id="{product["code"]}">(.*?)</tr>', page, re.S)
        assert row, product["code"]
        cents = product["price_cents"]
        price = f"${cents // 100:,}" if cents % 100 == 0 else f"${cents / 100:,.2f}"
        assert product["name"] in row.group(1) and f">{price}<" in row.group(1).replace("from ", ""), product["code"]
    weeks = site["free_queue_weeks"]
    assert f"{weeks['min']} to {weeks['max']} weeks out" in page  # the free plan's terms, from the site's settings
    assert 'href="/submit"' in page and 'href="/pricing"' in http.get("/about").text


def _quiet_positions(site: RunningServer) -> dict[str, int]:
    """The projections' positions once they held still for a second (the demo's catch-up and first ticks done)."""
    runtime = site.container.runtime
    deadline = time.monotonic() + 60
    while True:
        before = dict(runtime.positions)
        time.sleep(1.0)
        if dict(runtime.positions) == before or time.monotonic() > deadline:
            return before


@pytest.mark.parametrize("path", ["/listings/{slug}", "/"])
def test_a_signed_out_page_is_the_same_for_every_new_browser_and_each_gets_its_cookie(site: RunningServer,
                                                                                     path: str) -> None:
    # The second browser is answered from the kept signed-out page; it still needs a CSRF cookie of its own.
    for _ in range(5):  # again if a projection moved meanwhile (then the second answer was rendered anew)
        quiet = _quiet_positions(site)
        with httpx.Client(base_url=site.url, timeout=20) as first, httpx.Client(base_url=site.url, timeout=20) as second:
            address = path.format(slug=_a_live_slug(first))
            a, b = first.get(address), second.get(address)
            again = first.get(address)  # a browser that has its cookie gets none again
        if dict(site.container.runtime.positions) == quiet:
            break
    assert a.status_code == b.status_code == again.status_code == 200
    assert a.text == b.text == again.text  # nothing of the visitor in a signed-out page
    assert a.cookies.get("ld_csrf") and b.cookies.get("ld_csrf") and a.cookies["ld_csrf"] != b.cookies["ld_csrf"]
    assert "set-cookie" not in again.headers
    for r in (a, b, again):
        assert r.headers["content-type"].startswith("text/html") and r.headers["cache-control"] == "no-store"


def _home_count(page: str, slug: str) -> int:
    """The votes the home page's "This week" ranking shows on `slug`'s card."""
    start = page.index(f'href="/listings/{slug}"', page.index('id="week-h"'))
    m = re.compile(r'<span class="n">(\d+)</span>').search(page, start)
    assert m, f"no vote count after {slug}"
    return int(m.group(1))


def test_the_kept_home_page_shows_a_vote_as_soon_as_the_rankings_do(site: RunningServer) -> None:
    slug = httpx.get(site.url + "/api/v1/launches/weeks/this").json()["launches"][-1]["listing"]["slug"]
    with httpx.Client(base_url=site.url, timeout=20) as visitor, \
            httpx.Client(base_url=site.url, timeout=20, follow_redirects=False) as person:
        _signed_in(site, person)
        token = _csrf(person.get(f"/listings/{slug}"))
        shown = _home_count(visitor.get("/").text, slug)  # rendered and kept for signed-out visitors
        r = person.post(f"/listings/{slug}/vote", data={"csrf_token": token}, headers={"accept": "application/json"})
        assert r.status_code == 200 and r.json()["voted"] is True  # answered once the rankings show it
        assert _home_count(visitor.get("/").text, slug) == shown + 1  # the kept page was dropped, not shown again


def test_week_and_boards_carry_item_lists_and_the_billboard_is_labelled_paid(http: httpx.Client) -> None:
    week = http.get("/api/v1/launches/weeks/this").json()
    page = http.get("/launches/this")
    [ld] = _json_ld(page.text)
    assert ld["@type"] == "ItemList"
    assert [i["name"] for i in ld["itemListElement"]] == [x["listing"]["name"] for x in week["launches"]]
    positions = [page.text.index(f'href="/listings/{x["listing"]["slug"]}"') for x in week["launches"]]
    assert positions == sorted(positions)  # the page ranks as the API does
    billboard = http.get("/leaderboards/billboard").text
    assert 'class="pill paid"' in billboard and "Paid placement" in billboard
    assert _json_ld(billboard)[0]["@type"] == "ItemList"
    assert "Paid placement" not in http.get("/leaderboards/community-all-time").text


def test_search_corrects_typos_and_says_so(http: httpx.Client) -> None:
    r = http.get("/search", params={"q": "analytcs"})
    assert r.status_code == 200 and "Did you mean" in r.text and "analytics" in r.text
    assert "Did you mean" not in http.get("/search", params={"q": "analytics"}).text
    bad = http.get("/search", params={"sort": "sideways"})
    assert bad.status_code == 400 and "sort" in bad.text
    for params, said in (({"q": "x" * 300}, "Search words are at most 200 characters"),
                         ({"q": "notes", "page": "99999"}, "choose a page from 1 to 1,000")):
        refused = http.get("/search", params=params)  # said on the search page, with the form to try again
        assert refused.status_code == 400 and said in refused.text and 'role="alert"' in refused.text
        assert 'action="/search" role="search"' in refused.text


def test_the_header_and_footer_carry_the_site_s_name(http: httpx.Client) -> None:
    name = http.get("/api/v1/site").json()["name"]
    for path in ("/", "/signin", "/launches/this"):
        page = http.get(path).text
        assert f'class="brand" href="/">{name}</a>' in page and f"<small>{name}</small>" in page, path


def test_a_refused_address_is_said_in_words(http: httpx.Client) -> None:
    week = http.get("/launches/garbage")
    assert week.status_code == 400 and "A week is this, next or last, or a date like 2026-11-30." in week.text
    assert "pattern" not in week.text and "invalid value for" not in week.text
    said = {  # each refusal in words: what the address may say there, never a pattern or the validator's wording
        "/leaderboards/community-weekly?week=next": "A week is this or last, or a date like 2026-11-30.",
        "/launches?section=bogus": "The section is one of today, this-week, trending, most-voted, recent, "
                                   "most-viewed, most-followed or upcoming.",
        "/search?q=&sort=bogus": "The sort is one of relevance, newest, votes, trending, most_viewed or most_followed.",
        "/search?q=&country=zz1": "The country: enter two letters, like DE.",
    }
    for path, words in said.items():
        page = http.get(path)
        assert page.status_code == 400 and html.escape(words, quote=False) in page.text, (path, page.text[-3000:])
        assert "pattern" not in page.text and "Input should" not in page.text, path
    slug = _a_live_slug(http)
    other = _an_alternative(http, slug)
    moved = http.get("/compare", params={"a": slug.upper(), "b": other})
    assert moved.status_code == 301 and moved.headers["location"] == f"/compare?a={slug}&b={other}"


def test_a_slug_in_capitals_leads_to_its_page(http: httpx.Client) -> None:
    slug = _a_live_slug(http)
    moved = http.get(f"/listings/{slug.upper()}", params={"ref": "x"})
    assert moved.status_code == 301 and moved.headers["location"] == f"/listings/{slug}?ref=x"


def test_unknown_pages_are_html_404s_with_search(http: httpx.Client) -> None:
    for path in ("/listings/no-such-listing", "/founders/no-such-person", "/blog/no-such-post", "/categories/nope",
                 "/leaderboards/nope", "/no/such/page", "/launches/1999-01-04"):
        r = http.get(path)
        assert r.status_code == 404, path
        assert "text/html" in r.headers["content-type"] and 'action="/search"' in r.text, path
    api = http.get("/api/v1/no-such-thing")
    assert api.status_code == 404 and api.headers["content-type"] == "application/problem+json"
    assert http.get("/launches/not-a-week").status_code == 400
    upcoming = http.get("/api/v1/listings", params={"status": "upcoming", "per_page": 1}).json()["items"][0]["slug"]
    soon = http.get(f"/listings/{upcoming}")  # its card and launch week only: the profile is public once live
    assert soon.status_code == 200 and "Launching soon" in soon.text and 'id="reviews' not in soon.text


def test_robots_txt_keeps_crawlers_off_signed_in_and_private_pages(http: httpx.Client) -> None:
    from urllib.robotparser import RobotFileParser

    rules = RobotFileParser()
    rules.parse(http.get("/robots.txt").text.splitlines())
    for path in ("/submit", "/drafts", "/drafts/0b1c", "/my/listings", "/my/orders/LD-1", "/claim/acme",
                 "/checkout/LD-1", "/staff", "/staff/reviews", "/account", "/signin", "/invites/accept?t=x"):
        assert not rules.can_fetch("AnyBot", path), path
    for path in ("/", "/launches", f"/listings/{_a_live_slug(http)}", "/categories", "/blog"):
        assert rules.can_fetch("AnyBot", path), path


def test_documents_for_machines(http: httpx.Client) -> None:
    robots = http.get("/robots.txt")
    assert robots.status_code == 200 and "Sitemap: " in robots.text and "Disallow: /account" in robots.text
    sitemap = http.get("/sitemap.xml")
    locs = [e.text for e in ElementTree.fromstring(sitemap.content).iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert any(u and u.endswith(f"/listings/{_a_live_slug(http)}") for u in locs)
    assert any(u and "/founders/" in u for u in locs) and any(u and "/blog/" in u for u in locs)
    llms = http.get("/llms.txt").text
    assert "/api/v1/openapi.json" in llms and "/mcp" in llms and "oauth-authorization-server" in llms
    for name in ("launches", "blog", "updates"):
        atom = http.get(f"/feeds/{name}.atom")
        assert atom.status_code == 200 and atom.headers["content-type"].startswith("application/atom+xml")
        ElementTree.fromstring(atom.content)  # well-formed
        feed = http.get(f"/feeds/{name}.json").json()
        assert feed["version"] == "https://jsonfeed.org/version/1.1"
    for unknown in ("/feeds/nope.atom", "/feeds/nope.json"):  # a machine's address: a problem even for a browser
        missing = http.get(unknown)
        assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"
        assert missing.json()["status"] == 404 and "launches, blog, updates" in missing.json()["detail"]
    launches = http.get("/feeds/launches.json").json()
    assert launches["items"] and launches["items"][0]["url"].startswith(http.base_url.scheme + "://")
    assert 'type="application/atom+xml"' in http.get("/").text


def test_votes_need_a_signed_in_person_and_the_csrf_token(http: httpx.Client) -> None:
    slug = _a_live_slug(http)
    page = http.get(f"/listings/{slug}")
    assert f'href="/signin?next=/listings/{slug}%23vote-{slug}"' in page.text  # signed out: the button asks to sign in
    token = re.search(r'name="csrf_token" value="([0-9a-f]{64})"', http.get("/signin").text)  # this browser's token
    assert token is not None
    assert http.post(f"/listings/{slug}/vote", data={}).status_code == 403  # no CSRF token: refused
    signed_out = http.post(f"/listings/{slug}/vote", data={"csrf_token": token.group(1)})
    assert signed_out.status_code == 303 and signed_out.headers["location"].startswith("/signin?next=")
    scripted = http.post(f"/listings/{slug}/vote", data={"csrf_token": token.group(1)},
                         headers={"accept": "application/json"})
    assert scripted.status_code == 401 and scripted.json()["signin"].startswith("/signin")
    assert "vote" not in json.dumps([op for op in http.get("/api/v1/openapi.json").json()["paths"]])


def test_an_anonymous_visitor_browses_in_chromium(site: RunningServer, chromium) -> None:  # type: ignore[no-untyped-def]
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        page.goto(site.url + "/")
        page.get_by_role("heading", name="This week", exact=False).first.wait_for()
        page.get_by_role("navigation", name="Main").get_by_role("link", name="Launches").click()
        page.wait_for_url("**/launches/this")
        first = page.locator("#ranking li h3 a").first
        name = first.inner_text()
        first.click()
        page.get_by_role("heading", level=1, name=name).wait_for()
        page.get_by_role("link", name=re.compile(f"^Sign in to vote for {re.escape(name)},")).click()
        page.wait_for_url(re.compile(r"/signin\?next="))
        page.goto(site.url + "/categories")
        page.get_by_role("link", name="Developer Tools").click()
        page.get_by_role("heading", level=1, name="Developer Tools").wait_for()
        page.get_by_role("search").first.get_by_label("Search listings").fill("analytcs")
        page.get_by_role("search").first.get_by_role("button", name="Search").click()
        page.get_by_text("Did you mean").wait_for()
        page.goto(site.url + "/no-such-page")
        page.get_by_role("heading", name="Page not found").wait_for()
    finally:
        context.close()


def _names_found(page, label: str, option: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Choose `option` in the search form's menu `label` (nothing else), search, and read the cards' names."""
    page.get_by_label(label).select_option(label=option)
    page.get_by_role("search", name="Search with filters").get_by_role("button", name="Search").click()
    page.locator("p.meta[role=status]").wait_for()
    return sorted(n.strip() for n in page.locator("ol.cards li h3").all_inner_texts())


def test_the_search_filters_are_menus_and_countries_are_shown_by_name(site: RunningServer, http: httpx.Client, chromium) -> None:  # type: ignore[no-untyped-def]
    slug = next(item["slug"] for item in http.get("/api/v1/listings", params={"per_page": 50}).json()["items"]
                if http.get(f"/api/v1/listings/{item['slug']}").json()["country"] == "EE")
    assert re.search(r"<dt>Based in</dt><dd>([^<]*, )?Estonia", http.get(f"/listings/{slug}").text)
    wanted = {("Country", "Estonia"): {"country": "EE"}, ("Pricing", "Freemium"): {"pricing_model": "freemium"},
              ("Stage", "Beta"): {"stage": "beta"}}
    context = chromium.new_context(java_script_enabled=False)  # a plain form: it works without scripts
    page = context.new_page()
    try:
        for (label, option), query in wanted.items():
            found = http.get("/api/v1/listings", params={**query, "per_page": 50}).json()
            assert 1 <= found["total"] <= 50, (label, found["total"])  # the demo has some of each, all on one page
            page.goto(site.url + "/search")
            assert _names_found(page, label, option) == sorted(item["name"] for item in found["items"]), label
            key, value = next(iter(query.items()))
            assert f"{key}={value.upper() if key == 'country' else value}" in page.url
            assert page.get_by_label(label).input_value().lower() == value.lower()  # the choice stays shown
    finally:
        context.close()
    assert 'value="EE" selected' in http.get("/search", params={"country": "ee"}).text  # the API takes either case
    assert '<option value="open-beta" selected>' in http.get("/search", params={"stage": "open-beta"}).text  # kept


@pytest.mark.parametrize("path", ["/", "/listings/{slug}", "/listings/{upcoming}", "/launches/this", "/search?q=analytcs",
                                  "/pricing", "/compare?a={slug}&b={other}", "/blog/{post}"])
def test_axe_finds_no_serious_or_critical_violations(site: RunningServer, http: httpx.Client, chromium, path: str) -> None:  # type: ignore[no-untyped-def]
    if not AXE.exists():
        pytest.skip("axe-core is not installed: npm install --prefix tests/e2e/axe")
    slug = _a_live_slug(http)
    url = site.url + path.format(slug=slug, upcoming=_an_upcoming_slug(http), other=_an_alternative(http, slug),
                                 post=_a_post(http))
    for scheme in ("light", "dark"):
        context = chromium.new_context(color_scheme=scheme)
        offline(context)
        page = context.new_page()
        try:
            page.goto(url)
            page.evaluate(AXE.read_text())  # evaluated, not a <script> the page's own policy would refuse
            result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
            bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
                   if v["impact"] in ("serious", "critical")]
            assert bad == [], (scheme, bad)
        finally:
            context.close()


def test_screenshots_at_390_and_1440(site: RunningServer, http: httpx.Client, chromium) -> None:  # type: ignore[no-untyped-def]
    """Not a check of looks (people look at them): the pages render at both widths without horizontal scrolling."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    slug = _a_live_slug(http)
    pages = {"home": "/", "listing": f"/listings/{slug}", "upcoming": f"/listings/{_an_upcoming_slug(http)}",
             "week": "/launches/this", "pricing": "/pricing",
             "about": "/about", "search": "/search?country=EE",  # a country chosen: the menu's longest names stay inside
             "compare": f"/compare?a={slug}&b={_an_alternative(http, slug)}", "post": f"/blog/{_a_post(http)}"}
    for width in (390, 1440):
        context = chromium.new_context(viewport={"width": width, "height": 900})
        offline(context)
        page = context.new_page()
        try:
            for name, path in pages.items():
                page.goto(site.url + path)
                page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
                overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                assert overflow <= 0, (name, width, overflow)
        finally:
            context.close()



def test_a_placement_featured_this_week_shows_on_the_home_page_and_its_category_whenever_it_launched(
        site: RunningServer, http: httpx.Client) -> None:
    """A featured week bought for a listing launched long ago still shows (it once showed only for recent launches)."""
    this = monday_of(date.today())
    items = http.get("/api/v1/launches", params={"section": "recent", "per_page": 100}).json()["items"]
    old = next(x["listing"] for x in items if x["listing"]["launch_week"] < (this - timedelta(weeks=2)).isoformat())
    c = site.container
    listing_id = listing_cmd.listing_id_for_slug(c.store, old["slug"])
    assert listing_id is not None
    position = listing_cmd.feature(c.store, listing_id, this.isoformat(),
                                   Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli"))
    assert c.runtime.wait_for(["launches_view", "listing_view", "search_view"], position, timeout=10)
    home = http.get("/").text
    box = home.split('id="featured-h"', 1)[1].split("</section>", 1)[0]
    assert f'href="/listings/{old["slug"]}"' in box
    category = http.get(f"/categories/{old['category']['slug']}").text
    featured = category.split('id="featured-h"', 1)[1].split("</section>", 1)[0]
    assert f'href="/listings/{old["slug"]}"' in featured and "Featured" in featured


def test_canonical_addresses_keep_what_chooses_the_content(http: httpx.Client) -> None:
    """A section, a page, a week and a comparison are pages of their own; filters and page 1 are not."""
    def canonical(path: str) -> str:
        found = re.search(r'<link rel="canonical" href="([^"]+)"', http.get(path).text)
        assert found, path
        return html.unescape(found.group(1)).split("://", 1)[1].split("/", 1)[1]

    slug = _a_live_slug(http)
    other = _an_alternative(http, slug)
    assert canonical("/launches?section=most-voted&page=2") == "launches?section=most-voted&page=2"
    assert canonical("/launches?page=1&section=today") == "launches?section=today"
    assert canonical("/leaderboards/community-weekly?week=last&page=1") == "leaderboards/community-weekly?week=last"
    assert canonical(f"/compare?a={slug}&b={other}") == f"compare?a={slug}&b={other}"
    assert canonical("/founders?country=gb") == "founders"
    page2 = http.get("/leaderboards/community-all-time", params={"page": 2}).text
    ranks = [int(r) for r in re.findall(r'<span class="rank">(\d+)</span>', page2)]
    [ld] = [x for x in _json_ld(page2) if x.get("@type") == "ItemList"]
    assert ranks and [e["position"] for e in ld["itemListElement"]] == ranks  # 21, 22, ... as the page shows
    titles = {re.search(r"<title>([^<]+)</title>", http.get(f"/launches?section={s}").text).group(1)  # type: ignore[union-attr]
              for s in ("recent", "today", "upcoming")}
    assert len(titles) == 3


def test_a_page_past_the_end_of_a_list_is_not_found(http: httpx.Client) -> None:
    """Not "Nothing matches … Page 4 of 3": the page says where the list ends, and answers 404."""
    total = http.get("/api/v1/listings", params={"q": "analytics", "per_page": 20}).json()["total"]
    last = max(1, -(-total // 20))
    assert http.get("/search", params={"q": "analytics", "page": last}).status_code == 200
    for path in (f"/search?q=analytics&page={last + 1}", "/awards?page=500", "/founders?page=500",
                 "/categories/developer-tools?page=500", "/updates?page=500", "/launches?section=today&page=500"):
        page = http.get(path)
        assert page.status_code == 404 and "This list ends at page" in page.text, path
        assert "Page 500 of" not in page.text, path


@pytest.mark.parametrize("path", ["/search?q=analytics", "/categories/developer-tools", "/categories/apis-sdks",
                                  "/launches?section=recent", "/leaderboards/community-all-time", "/founders",
                                  "/founders/{founder}"])
def test_lists_keep_the_heading_outline_and_unique_landmarks(site: RunningServer, http: httpx.Client, chromium,  # type: ignore[no-untyped-def]
                                                             path: str) -> None:
    """Cards' h3 sit under an h2 (no jump from the page's h1), and two search forms are told apart by name."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: npm install --prefix tests/e2e/axe")
    founder = http.get("/api/v1/founders", params={"per_page": 1}).json()["items"][0]["slug"]
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    try:
        page.goto(site.url + path.format(founder=founder))
        page.evaluate(AXE.read_text())  # evaluated, not a <script> the page's own policy would refuse
        result = page.evaluate("async () => await axe.run(document, {runOnly: ['heading-order', 'landmark-unique', "
                               "'page-has-heading-one'], resultTypes: ['violations']})")
        assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]] == [], path
        assert page.locator("li.card .rank:empty").count() == 0  # no empty rank column pushing a card in
    finally:
        context.close()


def test_the_pages_own_scripts_and_styles_keep_to_their_content_security_policy(site: RunningServer, http: httpx.Client,  # type: ignore[no-untyped-def]
                                                                               chromium) -> None:
    """The policy allows the site's own scripts and the logo fallback's handler; nothing the pages do is refused."""
    slug = _a_live_slug(http)
    context = chromium.new_context()
    offline(context)
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        for path in ("/", f"/listings/{slug}", "/launches/this", "/search?q=analytics", "/signin", "/api/v1/docs"):
            page.goto(site.url + path)
            assert "content-security-policy" in (page.context.request.get(site.url + path).headers), path
            page.wait_for_load_state("load")
        assert refused == []
    finally:
        context.close()


def test_page_numbers_in_other_scripts_digits_are_page_one_not_an_error(http: httpx.Client) -> None:
    """"²" and "٣" are digits to Python's str.isdigit but not to int(): the page answers, it does not fail."""
    slug = _a_live_slug(http)
    for value in ("²", "٣", "99999999999"):
        assert http.get(f"/listings/{slug}", params={"page": value}).status_code == 200, value
