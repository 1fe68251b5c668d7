"""Reusable browser steps of the founder's drafts (Playwright pages): sign up, submit a site, edit, save as listing.

Each step takes the page and the site's base URL (and what it needs), acts
as a person would (labels and button names), and waits for the page that
follows, so a longer journey can chain them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.integration.test_accounts_mail import LocalSmtp

PASSWORD = "a good long password"
VERIFY_LINK = re.compile(r"(http://\S+/verify\?token=\S+)")
INVITE_LINK = re.compile(r"(http://\S+/invites/accept\?\S+)")
DRAFT_PATH = re.compile(r"/drafts/([0-9a-f-]{36})")


def mailing_server(databases: Databases) -> Iterator[tuple[RunningServer, LocalSmtp]]:
    """launchdir crawling 127.0.0.1 and mailing to a local SMTP server (a module fixture's body)."""
    from launchdir.bootstrap import bootstrap, ensure_catalog

    with LocalSmtp() as smtp:
        port = free_port()
        c = bootstrap(settings_for(databases.create(), port=port, smtp_url=smtp.url, crawl_allow_loopback=True,
                                   rate_limits=False))
        ensure_catalog(c)
        with RunningServer(c, port) as running:
            yield running, smtp
        c.close()


def address(tag: str) -> str:
    """A new person's email address."""
    return f"{tag}-{uuid4().hex[:10]}@example.com"


def sign_up(page: Any, base: str, smtp: LocalSmtp, address: str, password: str = PASSWORD) -> None:
    """Create an account, confirm it through the emailed link, and sign in (ending on the account page)."""
    page.goto(base + "/signup")
    page.get_by_label("Email address").fill(address)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Create account").click()
    page.get_by_role("heading", name="Check your email").wait_for()
    page.goto(mailed_link(smtp, address, VERIFY_LINK))
    page.get_by_role("heading", name="Email address confirmed").wait_for()
    sign_in(page, base, address, password)


def mailed_link(smtp: LocalSmtp, address: str, pattern: re.Pattern[str], timeout: float = 15.0) -> str:
    """The first link matching `pattern` in the mail `address` received (waiting for it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in smtp.to(address):
            found = pattern.search(message.get_content())
            if found:
                return found.group(1)
        time.sleep(0.05)
    raise AssertionError(f"no mail to {address} with a link like {pattern.pattern}")


def sign_in(page: Any, base: str, address: str, password: str = PASSWORD) -> None:
    page.goto(base + "/signin")
    page.get_by_label("Email address").fill(address)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="Your account").wait_for()


def submit_site(page: Any, base: str, site_url: str) -> str:
    """Submit a website on /submit; answers the new draft's id (the page is then the draft's page)."""
    page.goto(base + "/submit")
    page.get_by_label("Website address").fill(site_url)
    page.get_by_role("button", name="Read my site and draft").click()
    page.wait_for_url(DRAFT_PATH)
    found = DRAFT_PATH.search(page.url)
    assert found is not None, page.url
    return found.group(1)


def wait_until_drafted(page: Any, timeout_ms: float = 60_000) -> str:
    """Wait while the draft page reloads itself; answers `ready` (the editor is shown) or `failed`."""
    page.locator("#complete-title, #failure-title").first.wait_for(timeout=timeout_ms)
    return "ready" if page.locator("#complete-title").count() else "failed"


def field_input(page: Any, name: str) -> Any:
    return page.locator(f'[name="fields.{name}"]')


def field_state(page: Any, name: str) -> str:
    """The field's state code (`ai`, `edited`, `override`, ...), which its chip keeps in `data-state`."""
    return str(page.locator(f"#slot-{name} .chip").first.get_attribute("data-state"))


def field_state_words(page: Any, name: str) -> str:
    """What the field's state chip says to a person ("drafted from your site", "locked by you", ...)."""
    return str(page.locator(f"#slot-{name} .chip").first.inner_text()).strip()


def edit_field(page: Any, name: str, value: str) -> None:
    field_input(page, name).fill(value)
    page.get_by_role("button", name="Save changes").click()
    page.get_by_role("status").filter(has_text="saved").wait_for()


def field_button(page: Any, action: str, label: str) -> None:
    """Press Lock, Restore or Delete of the field labelled `label` and wait for the saved page."""
    page.get_by_role("button", name=f"{action} {label}", exact=True).click()
    page.get_by_role("status").filter(has_text="saved").wait_for()


def regenerate(page: Any, labels: list[str]) -> None:
    for label in labels:
        page.get_by_role("checkbox", name=f"Regenerate {label}", exact=True).check()
    page.get_by_role("button", name="Regenerate checked fields").click()
    page.get_by_role("status").filter(has_text="Regenerating").first.wait_for()


def add_faq(page: Any, question: str, answer: str) -> None:
    group = page.get_by_role("group", name="Add a question")
    group.get_by_label("Question").fill(question)
    group.get_by_label("Answer").fill(answer)
    page.get_by_role("button", name="Save FAQs").click()
    page.get_by_role("status").filter(has_text="saved").wait_for()


def add_founder(page: Any, name: str, role: str) -> None:
    group = page.get_by_role("group", name="Add a founder")
    group.get_by_label("Name").fill(name)
    group.get_by_label("Role").fill(role)
    page.get_by_role("button", name="Save founders").click()
    page.get_by_role("status").filter(has_text="saved").wait_for()


def name_a_category_if_none(page: Any, category: str = "developer-tools") -> None:
    """A listing needs a category; drafting names one only from the site's own words, so the founder may have to
    (the primary category is a menu of the directory's categories, the first of the `fields.categories` inputs)."""
    primary = page.locator('select[name="fields.categories"]')
    if primary.input_value().strip() == "":
        primary.select_option(category)
        page.get_by_role("button", name="Save changes").click()
        page.get_by_role("status").filter(has_text="saved").wait_for()


def save_as_listing(page: Any, base: str) -> int:
    """Press "Save as listing"; answers the listing's id from the "Open your listing" link."""
    page.get_by_role("button", name="Save as listing").click()
    link = page.get_by_role("link", name="Open your listing")
    link.wait_for()
    found = re.search(r"/my/listings/(\d+)$", str(link.get_attribute("href")))
    assert found is not None
    return int(found.group(1))
