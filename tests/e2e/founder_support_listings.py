"""Playwright steps of the founder's listings, claims and orders pages: each takes a page and the site's base URL.

They drive the website as a person does (labels, buttons), so the whole
founder journey can chain them after the draft steps.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (390, 1440)
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')


def sign_in(page: Any, base: str, email: str, password: str, then: str = "/my/listings") -> None:
    """Sign in through the sign-in page and land on `then`."""
    page.goto(f"{base}/signin?next={then}")
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(base + then)))


def open_dashboard(page: Any, base: str, listing_id: int) -> None:
    page.goto(f"{base}/my/listings/{listing_id}")
    page.locator("#listing-status").wait_for()


def edit_field(page: Any, base: str, listing_id: int, label: str, value: str) -> str:
    """Change one public field: preview it (answers the preview's text), then save; back on the dashboard."""
    page.goto(f"{base}/my/listings/{listing_id}/edit")
    page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Preview").click()
    preview = str(page.locator("#preview").inner_text())
    page.get_by_role("button", name="Save").click()
    page.get_by_role("status").wait_for()
    return preview


def launch_free(page: Any, base: str, listing_id: int) -> str:
    """Press "Launch for free" on the dashboard; answers the embed code of the first badge shown."""
    open_dashboard(page, base, listing_id)
    page.get_by_role("button", name="Launch for free").click()
    page.get_by_role("heading", name="Badges and their code").wait_for()
    return str(page.locator("textarea.code").first.input_value())


def check_badge_now(page: Any, base: str, listing_id: int) -> str:
    """Press "Check my badge now" on the badge page; answers the result's code (`found` or `missing`), which the
    result's words ("Found on your homepage", "Not found on your homepage") keep in `data-result`."""
    page.goto(f"{base}/my/listings/{listing_id}/badge")
    page.get_by_role("button", name="Check my badge now").click()
    page.locator("#badge-result").wait_for()
    return str(page.locator("#badge-result").get_attribute("data-result")).strip()


def buy_launch(page: Any, base: str, listing_id: int, week: str) -> str:
    """Order `launch` for `week` from the listing, see the quote, pay on the test payment page; the order number."""
    page.goto(f"{base}/my/listings/{listing_id}/order?product=launch")
    page.get_by_label("Week for Launch", exact=True).select_option(week)
    page.get_by_role("button", name="See the quote").click()
    page.locator("#quote-total").wait_for()
    page.get_by_role("button", name="Go to checkout").click()
    page.wait_for_url(re.compile(r"/checkout/"))
    number = str(page.url.rsplit("/", 1)[-1].split(".")[0])
    page.get_by_label("Name or company").fill("Ada Founder")
    page.get_by_label("Country", exact=True).select_option("US")
    page.get_by_role("button", name="Save billing details").click()
    page.locator("#pay").click()
    page.locator("#confirm").click()  # the test payment page (no payment provider configured)
    page.wait_for_url(re.compile(r"/checkout/[^/]+$"))
    return number


def axe_violations(page: Any) -> list[tuple[str, list[Any]]]:
    """Serious and critical axe-core violations of the page as it is now: (rule, the elements' selectors)."""
    page.evaluate(AXE.read_text())  # evaluated, not a <script> the page's own policy would refuse
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], [n["target"] for n in v["nodes"]]) for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


def screenshots(page: Any, url: str, out: Path, name: str) -> list[Path]:
    """The page at 390 and 1440 px wide, full height, as PNG files in `out`."""
    shots = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url)
        path = out / f"{name}-{width}.png"
        page.screenshot(path=str(path), full_page=True)
        shots.append(path)
    return shots


def signed_in_client(base: str, email: str, password: str) -> Any:
    """An httpx client signed in through the sign-in form (for status checks without a browser)."""
    import httpx

    client = httpx.Client(base_url=base, timeout=15, follow_redirects=False)
    token = CSRF.search(client.get("/signin").text)
    assert token is not None
    r = client.post("/signin", data={"csrf_token": token.group(1), "email": email, "password": password,
                                     "next": "/my/listings"})
    assert r.status_code == 303, r.text[:300]
    return client


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found is not None, "the page has no form"
    return found.group(1)


def wider_than_the_screen(page: Any) -> list[str]:
    """Elements whose right edge passes the viewport's (a page that scrolls sideways on a phone), innermost first."""
    return list(page.evaluate("""() => {
        const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')]
          .filter(e => e.getBoundingClientRect().right > w + 1 && !e.closest('.table-wrap'))
          .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : ''))
          .reverse();
    }"""))


def words_split_across_lines(page: Any, selector: str, at_hyphens: bool = False) -> list[str]:
    """Words in the elements matching `selector` that the browser broke across two lines ("Descriptio" / "n");
    with `at_hyphens`, a break after a hyphen ("2024-" / "03-01") is a line break between words, as in print."""
    return list(page.evaluate("""([selector, atHyphens]) => {
        const split = [];
        for (const element of document.querySelectorAll(selector)) {
          const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let node = texts.nextNode(); node; node = texts.nextNode()) {
            for (const word of node.data.matchAll(atHyphens ? /[^\\s-]+-*|-+/g : /\\S+/g)) {
              const range = document.createRange();
              range.setStart(node, word.index);
              range.setEnd(node, word.index + word[0].length);
              const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
              if (lines.size > 1) split.push(word[0]);
            }
          }
        }
        return split;
    }""", [selector, at_hyphens]))


def words_split_in_diffs(page: Any) -> list[str]:
    """Words of a version diff's names and values broken across lines; a web or mail address longer than its
    column may break, since nothing else fits it on a phone."""
    return [w for w in words_split_across_lines(page, "table.diff th, table.diff td", at_hyphens=True)
            if "://" not in w and "@" not in w]


def overflowing(page: Any, selector: str) -> list[str]:
    """The text of elements matching `selector` whose content is wider than they are (a word that does not fit)."""
    return list(page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())""", selector))


def reload_until(page: Any, url: str, selector: str, wanted: tuple[str, ...], seconds: float = 20.0) -> str:
    """Open `url` again until `selector`'s text is one of `wanted` (the read models follow the log in the
    background, e.g. an order's payment and its fulfilment); answers the text, fails after `seconds`."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        page.goto(url)
        text = str(page.locator(selector).inner_text()).strip()
        if text in wanted:
            return text
        assert time.monotonic() < deadline, f"{selector} is still {text!r}"
        time.sleep(0.2)
