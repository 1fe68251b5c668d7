"""The staff's blog pages over real HTTP and in headless Chromium: write, publish, revise and unpublish a post.

What staff do on `/staff/blog` shows on the public blog, is recorded as `staff:<email>` through the web, and a
step that changes nothing says so. Refusals sit next to their fields with what was typed kept; the pages are
staff only, have no serious axe-core violation and never scroll sideways at 390 or 1440 px.
"""

from __future__ import annotations

import os
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import uuid4

import httpx

from aggregates.content import post_stream
from tests.e2e.founder_support_listings import WIDTHS, axe_violations, screenshots, wider_than_the_screen
from tests.e2e.test_staff_review_web import CSRF, account, signed_in, staff_signs_in

SHOTS = Path(os.environ.get("LAUNCHDIR_SCREENSHOTS") or "/tmp/blogshots")
TEXT = "# Launch day\n\nShip on a Tuesday.\n\n- Tell your users first\n- Then the press\n"


def recorded(server: Any, slug: str) -> list[tuple[str, str, str]]:
    """(event type, actor, channel) of every event of the post's stream, oldest first, as the log holds them."""
    found = server.container.runtime.events.newest(None, 50, (), post_stream(slug))
    return [(type(e).__name__, e.actor, e.channel) for _, e in reversed(found)]


def public_titles(server: Any) -> list[str]:
    return [p["title"] for p in httpx.get(f"{server.url}/api/v1/blog", params={"per_page": 100}).json()["items"]]


def write_in_browser(page: Any, slug: str, title: str, tags: str = "", publish: bool = False) -> None:
    page.get_by_label("Slug").fill(slug)
    page.get_by_label("Title").fill(title)
    page.get_by_label("Tags (optional)").fill(tags)
    page.get_by_label("Text").fill(TEXT)
    if publish:
        page.get_by_label("Publish now").check()
    page.get_by_role("button", name="Write the post").click()


def test_staff_write_publish_revise_and_unpublish_a_post_in_the_browser(server, chromium) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    slug, title = f"launch-day-{uuid4().hex[:8]}", f"Launch day {uuid4().hex[:6]}"
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        page.get_by_role("navigation", name="Staff").get_by_role("link", name="Blog posts").click()
        page.get_by_role("heading", name="Blog posts").wait_for()
        page.get_by_role("link", name="Write a post").click()
        write_in_browser(page, slug, title, tags="Launch, Checklists")
        page.get_by_role("status").filter(has_text="The post is written").wait_for()
        assert page.url == f"{server.url}/staff/blog/{slug}?done=written"
        assert page.locator("#post-state").inner_text() == "draft"
        assert page.get_by_label("Tags (optional)").input_value() == "launch, checklists"  # stored lower case
        assert page.get_by_label("Text").input_value() == TEXT  # the text as typed, line for line
        assert title not in public_titles(server)  # a draft is not on the blog
        assert httpx.get(f"{server.url}/blog/{slug}").status_code == 404

        page.get_by_role("button", name="Publish").click()
        page.get_by_role("status").filter(has_text="The post is published").wait_for()
        page.get_by_role("link", name="See it on the blog").click()
        page.get_by_role("heading", name=title).wait_for()
        page.goto(f"{server.url}/blog")
        assert page.get_by_role("link", name=title).count() == 1

        page.goto(f"{server.url}/staff/blog/{slug}")
        page.get_by_role("button", name="Save the changes").click()  # nothing typed: nothing to record
        page.get_by_role("status").filter(has_text="Nothing changed").wait_for()
        page.get_by_label("Title").fill(title + " revised")
        page.get_by_label("Text").fill(TEXT + "\nAnd thank everyone.\n")
        page.get_by_role("button", name="Save the changes").click()
        page.get_by_role("status").filter(has_text="The changes are saved").wait_for()
        assert page.get_by_role("heading", level=1).inner_text() == title + " revised"
        assert "revised: markdown, title" in page.locator("ol.history li").first.inner_text()
        page.goto(f"{server.url}/blog/{slug}")
        page.get_by_role("heading", name=title + " revised").wait_for()
        assert "And thank everyone." in page.locator("main").inner_text()

        page.goto(f"{server.url}/staff/blog")
        row = page.locator(f"#post-{slug}")
        assert "published" in row.inner_text() and f"by staff:{staff} (web)" in row.inner_text()
        row.get_by_role("link", name=title + " revised").click()
        page.get_by_role("button", name="Take it off the site").click()
        page.get_by_role("status").filter(has_text="taken off the site").wait_for()
        assert page.locator("#post-state").inner_text() == "unpublished"
        page.goto(f"{server.url}/blog")
        assert page.get_by_role("link", name=title + " revised").count() == 0
        assert httpx.get(f"{server.url}/blog/{slug}").status_code == 404
    finally:
        context.close()

    me = (f"staff:{staff}", "web")
    assert recorded(server, slug) == [("BlogPostWritten", *me), ("BlogPostPublished", *me), ("BlogPostRevised", *me),
                                      ("BlogPostUnpublished", *me)]  # the unchanged save recorded nothing


def test_publish_now_and_steps_that_change_nothing_say_so(server) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    slug, title = f"at-once-{uuid4().hex[:8]}", f"At once {uuid4().hex[:6]}"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/blog/new").text).group(1)  # type: ignore[union-attr]
        written = client.post("/staff/blog/new", data={"csrf_token": token, "slug": slug, "title": title,
                                                       "markdown": "Line one\r\nLine two\r\n", "publish": "yes"})
        assert written.status_code == 303 and written.headers["location"] == f"/staff/blog/{slug}?done=written-published"
        assert title in public_titles(server)
        again = client.post(f"/staff/blog/{slug}/publish", data={"csrf_token": token})
        assert again.headers["location"] == f"/staff/blog/{slug}?done=unchanged-published"
        assert "Nothing changed: the post is published already" in client.get(again.headers["location"]).text
        same = client.post(f"/staff/blog/{slug}", data={"csrf_token": token, "title": title, "summary": "", "tags": "",
                                                        "markdown": "Line one\r\nLine two\r\n"})  # a browser's CRLF
        assert same.headers["location"] == f"/staff/blog/{slug}?done=unchanged"
        off = client.post(f"/staff/blog/{slug}/unpublish", data={"csrf_token": token})
        assert off.headers["location"] == f"/staff/blog/{slug}?done=unpublished"
        off_again = client.post(f"/staff/blog/{slug}/unpublish", data={"csrf_token": token})
        assert off_again.headers["location"] == f"/staff/blog/{slug}?done=unchanged-unpublished"
        assert "Nothing changed: the post is not published" in client.get(off_again.headers["location"]).text
        assert client.get("/staff/blog/no-such-post").status_code == 404
        assert client.post("/staff/blog/no-such-post/publish", data={"csrf_token": token}).status_code == 404
        assert client.post(f"/staff/blog/{slug}/publish", data={}).status_code == 403  # no CSRF token
    me = (f"staff:{staff}", "web")
    assert recorded(server, slug) == [("BlogPostWritten", *me), ("BlogPostPublished", *me), ("BlogPostUnpublished", *me)]


def test_refusals_show_next_to_their_fields_and_keep_what_was_typed(server, chromium) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    taken = f"taken-{uuid4().hex[:8]}"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/blog/new").text).group(1)  # type: ignore[union-attr]
        first = client.post("/staff/blog/new", data={"csrf_token": token, "slug": taken, "title": "First", "markdown": "x"})
        assert first.status_code == 303
        long_title = client.post("/staff/blog/new", data={"csrf_token": token, "slug": f"long-{uuid4().hex[:8]}",
                                                          "title": "t" * 201, "markdown": "x"})
        assert long_title.status_code == 400 and 'id="title-error"' in long_title.text
        assert "Write at most 200 characters (you wrote 201)." in long_title.text  # the rule, named
        long_tag = client.post("/staff/blog/new", data={"csrf_token": token, "slug": f"long-{uuid4().hex[:8]}",
                                                        "title": "Tags", "markdown": "x", "tags": "a, " + "b" * 41})
        assert long_tag.status_code == 400 and 'id="tags-error"' in long_tag.text
        assert "Tag 2: at most 40 characters." in long_tag.text
        long_revision = client.post(f"/staff/blog/{taken}", data={"csrf_token": token, "title": "t" * 201,
                                                                  "markdown": "x"})
        assert long_revision.status_code == 400 and 'id="title-error"' in long_revision.text
        assert "200 characters" in long_revision.text
        for path in ("/staff/blog/new", f"/staff/blog/{taken}"):  # a control character: refused before any command
            control = client.post(path, data={"csrf_token": token, "slug": f"ctl-{uuid4().hex[:8]}", "title": "Bell\x07",
                                              "markdown": "Kept text"})
            assert control.status_code == 400 and 'id="title-error"' in control.text and "Kept text" in control.text

    context = chromium.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    try:
        staff_signs_in(page, server.url, staff)
        page.goto(f"{server.url}/staff/blog/new")
        write_in_browser(page, taken, "   ", tags="ideas")
        slug_error, title_error = page.locator("#slug-error"), page.locator("#title-error")
        assert "A post has this slug already; choose another." in slug_error.inner_text()
        assert page.get_by_label("Slug").get_attribute("aria-invalid") == "true"
        assert "slug-error" in (page.get_by_label("Slug").get_attribute("aria-describedby") or "")
        assert page.get_by_label("Slug").input_value() == taken  # what was typed stays
        assert page.get_by_label("Tags (optional)").input_value() == "ideas"
        assert page.get_by_label("Text").input_value() == TEXT
        assert page.get_by_role("alert").filter(has_text="There is a problem").count() == 1

        page.get_by_label("Slug").fill(f"fresh-{uuid4().hex[:8]}")
        page.get_by_role("button", name="Write the post").click()  # the title is still only spaces
        assert "This is required." in title_error.inner_text() and page.locator("#slug-error").count() == 0
        assert page.get_by_label("Title").get_attribute("aria-invalid") == "true"
        assert page.get_by_label("Text").input_value() == TEXT

        page.goto(f"{server.url}/staff/blog/{taken}")
        page.get_by_label("Title").fill("")
        page.get_by_label("Text").fill("Kept text")
        page.get_by_role("button", name="Save the changes").click()
        assert "Title is required." in page.locator("#title-error").inner_text()
        assert page.get_by_label("Text").input_value() == "Kept text"
    finally:
        context.close()


def test_the_pages_are_for_staff_only(server) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    slug = f"staff-only-{uuid4().hex[:8]}"
    with closing(signed_in(server, staff)) as client:
        token = CSRF.search(client.get("/staff/blog/new").text).group(1)  # type: ignore[union-attr]
        assert client.post("/staff/blog/new", data={"csrf_token": token, "slug": slug, "title": "Mine",
                                                    "markdown": "x"}).status_code == 303
    pages = ["/staff/blog", "/staff/blog/new", f"/staff/blog/{slug}"]
    with httpx.Client(base_url=server.url, timeout=10) as anonymous:
        for path in pages:
            refused = anonymous.get(path)
            assert refused.status_code == 403 and 'href="/signin?next=/staff"' in refused.text, path
    _, person = account(server, staff=False)
    with closing(signed_in(server, person)) as client:
        assert all(client.get(p).status_code == 403 for p in pages)
        token = CSRF.search(client.get("/account").text).group(1)  # type: ignore[union-attr]
        assert client.post("/staff/blog/new", data={"csrf_token": token, "slug": f"not-{slug}", "title": "No",
                                                    "markdown": "x"}).status_code == 403
        assert client.post(f"/staff/blog/{slug}/publish", data={"csrf_token": token}).status_code == 403
        assert client.post(f"/staff/blog/{slug}", data={"csrf_token": token, "title": "Theirs",
                                                        "markdown": "x"}).status_code == 403
    assert recorded(server, f"not-{slug}") == []
    assert [kind for kind, _, _ in recorded(server, slug)] == ["BlogPostWritten"]


def test_the_three_pages_fit_a_phone_and_a_wide_screen_without_axe_violations(server, chromium) -> None:  # type: ignore[no-untyped-def]
    _, staff = account(server, staff=True)
    slug = f"a-rather-long-slug-for-a-narrow-screen-{uuid4().hex[:8]}"
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        staff_signs_in(page, server.url, staff)
        page.goto(f"{server.url}/staff/blog/new")
        write_in_browser(page, slug, "A post about launching on a phone, with a title long enough to wrap",
                         tags="launch, phones", publish=True)
        page.get_by_role("status").filter(has_text="written and published").wait_for()
        for name, path in (("list", "/staff/blog"), ("new", "/staff/blog/new"), ("post", f"/staff/blog/{slug}")):
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                page.goto(server.url + path)
                over = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
                assert over <= 0, (path, width, wider_than_the_screen(page)[:5])
                assert axe_violations(page) == [], (path, width)
            shots = screenshots(page, server.url + path, SHOTS, f"staff-blog-{name}")
            assert all(p.stat().st_size > 0 for p in shots)
        page.goto(f"{server.url}/staff/blog/new")
        write_in_browser(page, slug, "")  # taken slug, no title: the page with its errors
        page.locator("#slug-error").wait_for()
        page.set_viewport_size({"width": 390, "height": 900})
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        assert axe_violations(page) == []
        page.screenshot(path=str(SHOTS / "staff-blog-new-errors-390.png"), full_page=True)
    finally:
        context.close()
