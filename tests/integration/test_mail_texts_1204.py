"""Every mail the service sends, triggered for real on a served site and read as its recipient.

One module-wide run signs up, resets, changes and undoes an address, closes an account, invites a co-owner,
claims a listing by email (and staff void it), removes an owner and an update (each mail linking to the listing),
posts an update to followers, schedules, launches, holds back, takes down and puts back listings, and pays and
refunds orders, on a site staff named "Shipyard" with a contact address. The served site's own loops (notices,
followers' updates, fulfilment) queue their mails as they do in production. Each mail is then checked for what its
reader needs: a subject that names the site, a greeting and a sign-off, absolute links that answer on the served
site, no codes or "None", and plain-text lines that read well.
"""

from __future__ import annotations

import email
import email.policy
import re
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any
from uuid import UUID, uuid4

import httpx
import pytest
from pydantic import SecretStr

from aggregates import listing
from aggregates.base import Meta
from aggregates.weeks import week_of, weeks_after
from commands import account as account_cmd
from commands import account_closure as closure_cmd
from commands import account_email_undo as undo_cmd
from commands import account_settings as settings_cmd
from commands import catalog as catalog_cmd
from commands import claims as claims_cmd
from commands import community
from commands import free_plan
from commands import invites as invites_cmd
from commands import listing as listing_cmd
from commands import orders as orders_cmd
from commands import owners as owners_cmd
from commands import review as review_cmd
from commands.claim_inputs import ClaimListing
from commands.order_inputs import CreateCheckout
from queries import history as history_q
from queries import mail as mail_q
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from workers.fulfilment import Fulfilment
from workers.notices import OwnerNotices

NOW = datetime.now(timezone.utc)
SITE, CONTACT = "Shipyard", "team@shipyard.example"
PASSWORD = "correct horse battery staple 7"
KINDS = {  # every kind of mail, and the address it goes to (filled in by the run)
    "verify_email", "signup_existing", "password_reset", "password_changed", "email_change", "email_change_taken",
    "email_changed", "email_change_undone", "account_closed", "cofounder_invite", "claim_link",
    "claim_owner_notice", "claim_voided_notice", "owner_removed_notice", "update_removed_notice", "listing_update",
    "notice_scheduled", "notice_live", "notice_badge_lost", "notice_unpublished", "notice_restored", "notice_paid",
    "notice_refunded", "order_review",
}


def _meta(actor: str = "staff:ops@shipyard.example", at: datetime | None = None, channel: str = "cli") -> Meta:
    return Meta(at=at or datetime.now(timezone.utc), actor=actor, channel=channel)


URL = re.compile(r"\bhttps?://\S+")


def _addr(tag: str) -> str:
    return f"{tag}-{uuid4().hex[:8]}@example.com"


class Run:
    """The served site and the mails its run queued, by kind (the first of each, and all of them)."""

    def __init__(self, c: Any, server: RunningServer) -> None:
        self.c = c
        self.url = server.url
        self.website = c.services.links["website"]
        self.links = c.identity.links
        self.opened: dict[str, tuple[str, int, str]] = {}  # each link, opened as its mail arrives: kind, status, goes to

    def person(self, tag: str, verified: bool = True) -> tuple[str, str]:
        email = _addr(tag)
        reg = account_cmd.register_account(self.c.store, account_cmd.RegisterAccount(
            account_id=uuid4(), email=email, password=None, verified=verified), _meta(), self.links)
        assert reg.account_id is not None
        return reg.account_id, email

    def listing(self, name: str, owners: list[str], domain: str = "", publish: bool = True) -> tuple[int, str]:
        website = f"https://{domain or listing.slugify(name) + '.example'}/"
        made = listing_cmd.create_listing(self.c.store, listing_cmd.CreateListing(
            profile={"name": name, "tagline": "Notes for teams that ship", "website_url": website},
            categories=["notes-docs"], owner_ids=owners), _meta())
        if publish:
            listing_cmd.staff_publish(self.c.store, made.listing_id, _meta())
        return made.listing_id, made.slug

    def outbox(self) -> list[dict[str, Any]]:
        self.c.runtime.catch_up("mail_view")
        return mail_q.outbox(self.c.services.reads, limit=1000)

    def wait(self, kind: str, to: str | None = None, timeout: float = 40.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            found = [m for m in self.outbox() if m["kind"] == kind and (to is None or m["to"] == to)]
            if found:
                self.open_links(found[-1])
                return found[-1]
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kind} mail to {to}")
            self.nudge()

    def open_links(self, message: dict[str, Any]) -> None:
        """Open each link of the site in `message` as its reader would, before the run uses the link up."""
        for link in URL.findall(message["text"]):
            link = link.rstrip(".,)")
            if link.startswith(self.website) and link not in self.opened:
                answer = httpx.get(link, timeout=15, follow_redirects=False)
                self.opened[link] = (message["kind"], answer.status_code, answer.headers.get("location", ""))

    def nudge(self) -> None:
        """Move the views and run the notices and fulfilment once here too (the served loops wake on their own
        timers; the outbox's dedupe keys make a second runner harmless)."""
        for view in ("listing_view", "orders_view", "accounts_view", "notices_view", "updates_view"):
            self.c.runtime.catch_up(view)
        OwnerNotices(self.c.store, self.c.services.reads, self.website, self.c.services.clock).run_once()
        Fulfilment(self.c.store, self.c.services.reads, self.c.services.clock, website=self.website).run_once()
        time.sleep(0.1)

    def link(self, text: str, path: str) -> str:
        found = re.search(re.escape(self.website + path) + r"\S*", text)
        assert found is not None, (path, text)
        return found.group(0)


def _accounts(r: Run) -> None:
    c, links = r.c, r.links
    email = _addr("signup")
    reg = account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=SecretStr(PASSWORD)), _meta("anonymous", channel="web"), links)
    assert reg.account_id is not None
    account_id = reg.account_id
    r.wait("verify_email", email)  # opening its link (as `wait` does) confirms the address
    account_cmd.register_account(c.store, account_cmd.RegisterAccount(
        account_id=uuid4(), email=email, password=SecretStr(PASSWORD)), _meta("anonymous", channel="web"), links)
    account_cmd.request_password_reset(c.store, email, _meta("anonymous", channel="web"), links)
    reset = r.wait("password_reset", email)
    token = r.link(reset["text"], "reset/confirm?token=").split("token=")[1]
    account_cmd.reset_password(c.store, account_cmd.ResetPassword(token=token, password=SecretStr(PASSWORD + "x")),
                               _meta("anonymous", channel="web"), links)
    r.wait("password_changed", email)
    _taken_id, taken = r.person("taken")
    settings_cmd.request_email_change(c.store, account_id, taken, _meta(f"account:{account_id}"), links)
    r.wait("email_change_taken", taken)
    new = _addr("moved")
    settings_cmd.request_email_change(c.store, account_id, new, _meta(f"account:{account_id}"), links)
    change = r.wait("email_change", new)
    token = r.link(change["text"], "account/email/confirm?token=").split("token=")[1]
    settings_cmd.confirm_email_change(c.store, token, _meta(f"account:{account_id}"), links)
    changed = r.wait("email_changed", email)
    token = r.link(changed["text"], "account/email/undo?token=").split("token=")[1]
    undo_cmd.revert_email_change(c.store, token, [], _meta("anonymous", channel="web"), links)
    r.wait("email_change_undone", new)
    closing_id, closing = r.person("closing")
    account_cmd.set_password(c.store, closing, PASSWORD, _meta())
    closure_cmd.close_account(c.store, closure_cmd.CloseAccount(
        account_id=UUID(closing_id), email=closing, password=SecretStr(PASSWORD)), closure_cmd.ClosureScope(),
        _meta(f"account:{closing_id}"), links)
    r.wait("account_closed", closing)


def _owners(r: Run) -> None:
    c = r.c
    founder, founder_email = r.person("founder")
    cofounder, _ = r.person("cofounder")
    domain = f"acme-{uuid4().hex[:6]}.com"
    listing_id, slug = r.listing("Acme Notes", [founder, cofounder], domain=domain)
    invites_cmd.invite_to_listing(c.store, invites_cmd.InviteListingCoOwner(listing_id=listing_id, email=_addr("inv")),
                                  founder, _meta(f"account:{founder}"), website=r.website)
    r.wait("cofounder_invite")
    claimant, _ = r.person("claimant")
    address = f"ceo@{domain}"
    started = claims_cmd.claim_listing(c.store, ClaimListing(slug=slug, method="email", email=address), claimant,
                                       _meta(f"account:{claimant}"), website=r.website)
    link = r.wait("claim_link", address)
    secret = r.link(link["text"], "claims/confirm?").split("token=")[1]
    claims_cmd.confirm_claim_link(c.store, started.claim_id, secret, _meta("anonymous", channel="web"))
    r.wait("claim_owner_notice", founder_email)
    claims_cmd.void_claim(c.store, started.claim_id, "The address was a former employee's", _meta())
    r.wait("claim_voided_notice", founder_email)
    owners_cmd.remove_owner(c.store, listing_id, cofounder, "Asked to leave by the founder", _meta(),
                            website=r.website)  # the mail links to the listing's public page
    r.wait("owner_removed_notice")
    fan, fan_email = r.person("fan")
    community.follow(c.store, listing_id, fan, _meta(f"account:{fan}"))
    _, version = listing_cmd.post_update(c.store, listing_id, "Dark mode is here",
                                         "Dark mode is here.\nTry it in the settings.", _meta(f"account:{founder}"))
    r.wait("listing_update", fan_email)
    c.runtime.catch_up("history_view")
    v = history_q.version(c.services.reads, version)
    review_cmd.remove_update(c.store, review_cmd.VersionRef(v["version_id"], v["listing_id"], v["stream_version"],
                                                            v["kind"]), "Links to a phishing page", _meta(),
                             c.services.links["website"])  # the mail links to the owners' page of the listing
    r.wait("update_removed_notice", founder_email)


def _paid(r: Run, buyer: str, items: list[dict[str, Any]]) -> str:
    c, meta = r.c, _meta(f"account:{buyer}", channel="rest")
    body = CreateCheckout.model_validate({"items": items, "billing_country": "US"})
    placed = orders_cmd.create_checkout(c.store, body, buyer, meta, NOW.date(), c.services.orders)
    orders_cmd.set_billing(c.store, placed.token, "Buyer", "US", "", "", meta, c.services.orders)
    total = orders_cmd.load(c.store, placed.number).total_cents
    orders_cmd.start_payment(c.store, placed.number, "test", "test_1", meta)
    orders_cmd.confirm_payment(c.store, placed.number, provider="test", reference="test_1", amount_cents=total,
                               source="test", event_id="", meta=meta)
    return placed.number


def _notices(r: Run) -> None:
    c = r.c
    owner, owner_email = r.person("launcher")
    free_id, _ = r.listing("Quillnote", [owner], publish=False)
    week = weeks_after(NOW.date(), 3)
    listing_cmd.queue_free(c.store, free_id, week, _meta())
    listing_cmd.badge_found(c.store, free_id, "https://quillnote.example/", _meta())
    r.wait("notice_scheduled", owner_email)
    lost_id, _ = r.listing("Badgeless", [owner], publish=False)
    lost_week = weeks_after(NOW.date(), 2)
    listing_cmd.queue_free(c.store, lost_id, lost_week, _meta())
    listing_cmd.badge_found(c.store, lost_id, "https://badgeless.example/", _meta())
    gone = free_plan.BadgeOutcome(found=False, checked_url="https://badgeless.example/", reason="unreachable")
    monday = datetime.combine(datetime.fromisoformat(lost_week).date(), datetime.min.time(), tzinfo=timezone.utc)
    free_plan.record_check(c.store, lost_id, gone, lost_week, None, _meta("system:badges", monday + timedelta(minutes=1)))
    r.wait("notice_badge_lost", owner_email)
    paid_id, _ = r.listing("Ledgerly", [owner], publish=False)
    number = _paid(r, owner, [{"product": "launch", "listing_id": paid_id, "week": week_of(NOW.date())}])
    r.wait("notice_live", owner_email)
    r.wait("notice_paid", owner_email)
    orders_cmd.refund(c.store, number, "asked by the buyer", "", _meta())
    r.wait("notice_refunded", owner_email)
    down_id, _ = r.listing("Pillbox", [owner])
    listing_cmd.unpublish(c.store, down_id, "Sells counterfeit medicine", _meta())
    r.wait("notice_unpublished", owner_email)
    listing_cmd.staff_publish(c.store, down_id, _meta())
    r.wait("notice_restored", owner_email)
    review_id, _ = r.listing("Reviewly", [owner])
    _paid(r, owner, [{"product": "ai_review", "listing_id": review_id}])
    r.wait("order_review", owner_email, timeout=40)


@pytest.fixture(scope="module")
def run(databases: Databases, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    c = bootstrap(settings_for(databases.create(), port=port, mail_dir=tmp_path_factory.mktemp("mailbox")))
    ensure_catalog(c)
    catalog_cmd.change_site_settings(c.store, catalog_cmd.ChangeSiteSettings(
        changes={"name": SITE, "contact_email": CONTACT}), _meta())
    with RunningServer(c, port) as server:
        r = Run(c, server)
        c.runtime.catch_up("catalog_view")
        _accounts(r)
        _owners(r)
        _notices(r)
        yield r
    c.close()


@pytest.fixture(scope="module")
def mails(run: Run) -> list[dict[str, Any]]:
    return run.outbox()


NOT_ASKED = {  # mails that answer no action of their reader's: each says why it was sent
    "cofounder_invite", "claim_link", "claim_owner_notice", "claim_voided_notice", "owner_removed_notice",
    "update_removed_notice", "listing_update", "notice_scheduled", "notice_live", "notice_badge_lost",
    "notice_unpublished", "notice_restored", "notice_paid", "notice_refunded", "order_review", "email_change_undone",
}
ABOUT_A_PRODUCT = {"cofounder_invite", "claim_link", "claim_owner_notice", "claim_voided_notice",
                   "owner_removed_notice", "update_removed_notice", "listing_update", "notice_scheduled", "notice_live",
                   "notice_badge_lost", "notice_unpublished", "notice_restored", "notice_paid", "notice_refunded",
                   "order_review"}
PRODUCTS = ("Acme Notes", "Quillnote", "Badgeless", "Ledgerly", "Pillbox", "Reviewly")


def test_every_kind_of_mail_was_sent(mails: list[dict[str, Any]]) -> None:
    assert {m["kind"] for m in mails} >= KINDS, KINDS - {m["kind"] for m in mails}


def test_every_subject_names_the_site_and_each_product_mail_its_product(mails: list[dict[str, Any]]) -> None:
    for m in mails:
        assert SITE in m["subject"], (m["kind"], m["subject"])
        if m["kind"] in ABOUT_A_PRODUCT:
            assert any(p in m["subject"] for p in PRODUCTS), (m["kind"], m["subject"])


def test_every_mail_greets_its_reader_and_is_signed_by_the_team(mails: list[dict[str, Any]]) -> None:
    for m in mails:
        text = m["text"]
        assert text.startswith("Hello,\n\n") and text[len("Hello,\n\n")].isupper(), (m["kind"], text[:40])
        assert f"\n\nThe {SITE} team\n" in text, m["kind"]


def test_mails_that_answer_no_action_of_the_reader_say_why_they_were_sent(mails: list[dict[str, Any]]) -> None:
    for m in mails:
        if m["kind"] in NOT_ASKED:
            assert "You get this email because" in m["text"], m["kind"]


def test_no_codes_empty_values_or_the_default_name_in_running_text(mails: list[dict[str, Any]]) -> None:
    for m in mails:
        words = URL.sub("<link>", m["subject"] + "\n" + m["text"])
        assert not re.search(r"\bNone\b|\bnull\b|\{|\}|\(\)|: \n|\d{4}-W\d{2}|\d{4}-\d{2}-\d{2}", words), (m["kind"], words)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", words.replace(m["to"], "")), (m["kind"], words)  # statuses, kinds
        assert "launchdir" not in words, m["kind"]  # the site is named as staff named it
        assert "answer this email" not in words and "reply to this" not in words.lower(), m["kind"]  # no-reply sender


def test_lines_read_well(mails: list[dict[str, Any]]) -> None:
    for m in mails:
        for line in m["text"].split("\n"):
            assert line == line.strip(), (m["kind"], line)  # no stray indentation or trailing spaces
        assert "\n\n\n" not in m["text"] and m["text"].endswith("\n") and not m["text"].endswith("\n\n"), m["kind"]


def test_the_site_s_contact_address_is_given_where_a_reader_may_need_the_team(mails: list[dict[str, Any]]) -> None:
    for kind in ("account_closed", "email_changed", "claim_owner_notice", "claim_voided_notice", "owner_removed_notice",
                 "update_removed_notice", "notice_unpublished", "notice_refunded", "order_review"):
        assert any(CONTACT in m["text"] for m in mails if m["kind"] == kind), kind


def test_every_link_is_absolute_and_lands_on_a_page_of_the_served_site(run: Run, mails: list[dict[str, Any]]) -> None:
    internal = [(m["kind"], u.rstrip(".,)")) for m in mails for u in URL.findall(m["text"])
                if not u.startswith(("https://acme-", "https://badgeless.example"))]
    assert internal and all(u.startswith(run.website) for _, u in internal), internal
    for m in mails:
        run.open_links(m)  # the mails the run did not wait for
    for link, (kind, status, location) in run.opened.items():
        assert status in (200, 303), (kind, link, status)
        if status == 303:  # the owner's pages: sign in first, then back to the page
            assert "/signin" in location, (kind, link, location)


def test_the_removed_update_mail_links_to_where_its_owners_post_a_new_one(run: Run, mails: list[dict[str, Any]]) -> None:
    [removed] = [m for m in mails if m["kind"] == "update_removed_notice"]
    assert re.search(re.escape(run.website.rstrip("/")) + r"/my/listings/\d+\.", removed["text"]), removed["text"]


def test_the_removed_owner_s_mail_links_to_the_listing_s_public_page(run: Run, mails: list[dict[str, Any]]) -> None:
    [removed] = [m for m in mails if m["kind"] == "owner_removed_notice"]
    page = run.link(removed["text"], "listings/")
    assert re.fullmatch(re.escape(run.website) + r"listings/acme-notes[-\w]*", page), removed["text"]
    assert run.opened[page][1] == 200  # public: no sign-in, which the removed owner could no longer pass


def test_the_profile_review_mail_links_to_the_owner_s_listing_page(run: Run, mails: list[dict[str, Any]]) -> None:
    [review] = [m for m in mails if m["kind"] == "order_review"]
    page = run.link(review["text"], "my/listings/")
    assert re.fullmatch(re.escape(run.website) + r"my/listings/\d+", page), review["text"]
    assert "Your listing, to edit its profile and read the review again: " + page + "\n" in review["text"]


def test_a_follower_s_mail_unsubscribes_by_its_link_and_by_its_one_click_header(run: Run) -> None:
    sent = run.c.settings.mail_dir
    deadline = time.monotonic() + 20
    while not (found := [p for p in sent.glob("*fan-*.eml")]) and time.monotonic() < deadline:
        time.sleep(0.1)
    message = email.message_from_bytes(found[0].read_bytes(), policy=email.policy.default)
    assert str(message["Subject"]).startswith(f"Acme Notes on {SITE}: ")
    one_click = str(message["List-Unsubscribe"]).strip("<>")
    link = run.link(str(message.get_content()), "unsubscribe/")
    assert one_click == link + "/one-click" and message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    with httpx.Client(timeout=15) as program:
        assert program.get(link).status_code == 200
        assert program.post(one_click, data={"List-Unsubscribe": "One-Click"}).status_code == 200
    others = [p for p in sent.glob("*.eml") if "fan-" not in p.name]
    assert others and not any("List-Unsubscribe" in p.read_text() for p in others)  # own listing, order, account


def test_a_notice_missing_a_value_or_a_contact_address_still_reads_whole() -> None:
    """Built from plain values: no page checked, no reason, no contact address set: words, never "None" or a gap."""
    from commands.notices import Notice, notice_email
    from commands.site import Site

    listing_doc = {"slug": "pillbox", "name": "Pillbox", "listing_id": 5}
    lost = notice_email(Notice("k1", "badge_lost", listing=listing_doc), "http://site.test/", Site("Shipyard"))
    down = notice_email(Notice("k2", "unpublished", listing=listing_doc), "http://site.test/", Site("Shipyard"))
    refund = notice_email(Notice("k3", "refunded", order={"number": "AB123", "refunded_cents": 4900}),
                          "http://site.test/", Site("Shipyard"))
    for subject, text in (lost, down, refund):
        assert "None" not in subject + text and "()" not in text and ": \n" not in text, text
        assert text.endswith("The Shipyard team\n\n--\n" + text.rsplit("--\n", 1)[1]) and "Shipyard" in subject
    assert "not found on your homepage (" in lost[1]
    assert "The reason given: none was recorded." in down[1]
    assert "If you think this is a mistake, contact the Shipyard team and name Pillbox." in down[1]
    assert "We refunded $49.00 of order AB123. The money" in refund[1]
    assert "contact the Shipyard team and name order AB123." in refund[1].replace("Contact", "contact")
