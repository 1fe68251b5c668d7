"""The submission flow over real HTTP (REST) with API keys: submit a fixture website, poll until ready, edit
(every field-state move), save as a listing, edit and resubmit the same listing; bad input, auth, invites and
the invite acceptance page of the website."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from queries import drafts as drafts_q
from tests.conftest import RunningServer
from tests.e2e.submission_support import PASSWORD, Person, person
from tests.fixtures.drafting_sites import serve
from tests.fixtures.sites.server import Body, FixtureServer

API = "/api/v1"
CSRF = re.compile(r'name="csrf_token" value="([0-9a-f]{64})"')


@pytest.fixture(scope="module")
def saas() -> Iterator[FixtureServer]:
    with serve("saas") as server:
        yield server


def ik() -> dict[str, str]:
    return {"Idempotency-Key": "e2e-" + uuid.uuid4().hex}


def poll(http: httpx.Client, who: Person, draft_id: str, until: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = http.get(f"/drafts/{draft_id}", headers=who.headers())
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if until(body):
            return body
        assert time.monotonic() < deadline, body["status"]
        time.sleep(0.1)


def ready(http: httpx.Client, who: Person, url: str) -> dict[str, Any]:
    r = http.post("/drafts", json={"url": url}, headers=who.headers(**ik()))
    assert r.status_code == 201, r.text
    return poll(http, who, r.json()["id"], lambda d: d["status"] in ("ready", "failed"))


def patch(http: httpx.Client, who: Person, draft_id: str, body: dict[str, Any]) -> dict[str, Any]:
    r = http.patch(f"/drafts/{draft_id}", json=body, headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def problem(r: httpx.Response, status: int = 400) -> tuple[str, str]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    first = r.json()["errors"][0]
    return first["field"], first["rule"]


# ---------------------------------------------------------------- the whole flow


def test_submit_poll_edit_submit_and_resubmit(live: RunningServer, http: httpx.Client, saas: FixtureServer) -> None:
    who = person(live)
    key = ik()
    r = http.post("/drafts", json={"url": saas.url("/")}, headers=who.headers(**key))
    assert r.status_code == 201, r.text
    draft = r.json()
    drafts_q.SubmittedDraft.model_validate(draft)  # answers match their documented schemas
    assert (draft["status"], draft["existing"], draft["url"]) == ("crawling", False, saas.url("/"))
    replay = http.post("/drafts", json={"url": saas.url("/")}, headers=who.headers(**key))
    assert replay.status_code == 201 and replay.json()["id"] == draft["id"]
    assert replay.headers.get("idempotent-replayed") == "true"
    again = http.post("/drafts", json={"url": saas.url("/about")}, headers=who.headers(**ik()))
    assert again.status_code == 201 and again.json()["id"] == draft["id"] and again.json()["existing"] is True

    draft = poll(http, who, draft["id"], lambda d: d["status"] == "ready")
    draft_id = draft["id"]
    fields = draft["fields"]
    assert fields["name"]["value"] == "Acme Flow" and fields["name"]["state"] == "ai" and fields["name"]["evidence"]
    assert fields["stage"] == {"value": None, "state": "not_found", "evidence": []}
    assert (fields["country"]["value"], fields["country"]["state"]) == ("PT", "ai")  # "founded in 2021 in Lisbon"
    drafts_q.Draft.model_validate(draft)
    listed = http.get("/drafts", headers=who.headers()).json()
    drafts_q.DraftList.model_validate(listed)
    assert listed["total"] == 1 and listed["items"][0]["id"] == draft_id
    assert listed["items"][0]["completeness"] == draft["completeness"] and listed["items"][0]["status"] == "ready"

    # every field-state move, each answered with the draft as it now is
    d = patch(http, who, draft_id, {"fields": {"name": "Acme Flow Pro", "stage": "beta", "categories": ["productivity"]}})
    assert (d["fields"]["name"]["state"], d["fields"]["stage"]["state"]) == ("edited", "manual")
    assert d["fields"]["categories"]["state"] == "manual"  # the site's own words support no category
    d = patch(http, who, draft_id, {"fields": {"tagline": None}})
    assert d["fields"]["tagline"] == {"value": None, "state": "deleted", "evidence": []}
    d = patch(http, who, draft_id, {"lock_fields": ["city"]})
    assert d["fields"]["city"]["state"] == "override"
    d = patch(http, who, draft_id, {"restore": ["name", "tagline"]})
    assert (d["fields"]["name"]["value"], d["fields"]["name"]["state"]) == ("Acme Flow", "ai")
    assert d["fields"]["tagline"]["state"] == "ai"
    d = patch(http, who, draft_id, {"regenerate": ["tagline", "city"]})
    assert d["last_regeneration"]["skipped"] == ["city"]
    d = poll(http, who, draft_id, lambda x: not x["regenerating"])
    assert d["last_regeneration"]["status"] == "done" and d["fields"]["tagline"]["state"] == "ai"
    d = patch(http, who, draft_id, {"faqs": [{"question": "Is there an API?", "answer": "Yes."}],
                                     "founders": [{"name": "Ana Lima", "title": "CEO"}],
                                     "story": {"title": "Why we built it"}, "seo": {"title": "Acme"},
                                     "milestones": [{"date": "2024-03-01", "title": "Launch"}]})
    assert d["section_states"]["faqs"] == "edited" and d["founders"][0]["name"] == "Ana Lima"
    drafts_q.Draft.model_validate(d)

    r = http.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    listing_id = r.json()["listing_id"]
    drafts_q.DraftAsListing.model_validate(r.json())
    assert isinstance(listing_id, int) and r.json()["created"] is True
    mine = http.get(f"/me/listings/{listing_id}", headers=who.headers())
    if mine.status_code != 404 or "get_my_listing" in live.container.executor.registry.operations:
        assert mine.status_code == 200, mine.text

    d = patch(http, who, draft_id, {"fields": {"tagline": "Calm automation"}})
    assert d["listing_id"] == listing_id
    r = http.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
    assert r.status_code == 200 and r.json()["listing_id"] == listing_id and r.json()["created"] is False
    from aggregates import listing
    from events.listing import ListingEdited

    events = live.container.store.stream(listing.listing_stream(listing_id))
    assert any(isinstance(e, ListingEdited) and e.changes.get("tagline") == "Calm automation" for e in events)


# ---------------------------------------------------------------- fixture websites


@pytest.mark.parametrize("site", ["saas", "polite", "traps", "devtool", "studio", "market"])
def test_fixture_sites_state_only_what_the_site_states(http: httpx.Client, live: RunningServer, site: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from commands import draft as draft_cmd
    from tests.integration import draft_helpers as h
    from workers.adapters.websites import CrawlResult

    who = person(live)
    with serve(site) as server:
        d = ready(http, who, server.url("/"))
        base = server.base
    assert d["status"] == "ready", d["failure"]
    facts = h.expected(site, base)
    shown = http.get(f"/drafts/{d['id']}", headers=who.headers()).text.replace(base, "{{BASE}}")
    for forbidden in facts["never"]:
        assert forbidden not in shown, forbidden
    for name in facts["not_stated"]:
        assert d["fields"][name]["value"] is None and name in d["not_found_on_website"], name
    state = draft_cmd.load(live.container.store, uuid.UUID(d["id"]))
    crawl = CrawlResult.from_dict(live.container.draft_workers.submission.crawls.load(state.id, state.crawl_id))
    for quote in h.all_evidence(d):
        assert h.evidence_checks_out(crawl, quote), quote
    found = sum(h.fact_found(d, fact) for fact in facts["facts"])
    with capsys.disabled():
        print(f"\n[submission recall over REST] {site}: {found}/{len(facts['facts'])}")
    assert found / len(facts["facts"]) >= 0.7


# ---------------------------------------------------------------- refusals


def test_non_public_urls_are_400_naming_url(http: httpx.Client, live: RunningServer) -> None:
    who = person(live)
    for url, rule in (("http://10.0.0.1/", "private_address"), ("http://169.254.169.254/", "metadata_address"),
                      ("http://[fd00::1]/", "private_address"), ("file:///etc/passwd", "bad_scheme")):
        assert problem(http.post("/drafts", json={"url": url}, headers=who.headers())) == ("url", rule)
    assert problem(http.post("/drafts", json={"url": "https://a.example/", "plan": "x"}, headers=who.headers())) == (
        "plan", "unknown_field")
    assert problem(http.post("/drafts", json={"url": "x" * 2049}, headers=who.headers())) == ("url", "max_length")
    assert problem(http.post("/drafts", json={}, headers=who.headers())) == ("url", "required")
    assert http.get("/drafts", headers=who.headers()).json()["total"] == 0


def test_robots_forbidden_site_ends_failed_with_that_reason(http: httpx.Client, live: RunningServer) -> None:
    who = person(live)
    with FixtureServer("closed") as closed:
        d = ready(http, who, closed.url("/"))
        assert closed.paths() == ["/robots.txt"]
    assert d["status"] == "failed" and d["failure"]["reason"] == "robots_forbidden"


@pytest.mark.parametrize(("body", "field", "rule"), [
    ({"fields": {"name": "x" * 501}}, "fields.name", "max_length"),
    ({"fields": {"description": "x" * 20001}}, "fields.description", "max_length"),
    ({"fields": {"features": ["x"] * 21}}, "fields.features", "max_items"),
    ({"fields": {"tags": ["x" * 201]}}, "fields.tags.0", "max_length"),
    ({"fields": {"colour": "red"}}, "fields.colour", "unknown_field"),
    ({"lock_fields": ["name"] * 21}, "lock_fields", "max_items"),
    ({"regenerate": ["name", "tagline", "city", "country", "stage", "tags"]}, "regenerate", "max_items"),
    ({"restore": ["nope"]}, "restore.0", "enum"),
    ({"faqs": [{"question": "q", "answer": "a"}] * 11}, "faqs", "max_items"),
    ({"faqs": [{"question": "q" * 301, "answer": "a"}]}, "faqs.0.question", "max_length"),
    ({"company_socials": {"myspace": "https://m.example/"}}, "company_socials.myspace", "unknown_field"),
    ({"founder_socials": {"x": "https://x.example/" + "a" * 490}}, "founder_socials.x", "max_length"),
    ({"founders": [{"name": "n"}] * 7}, "founders", "max_items"),
    ({"founders": [{"title": "CEO"}]}, "founders.0.name", "required"),
    ({"story": {"journey": "s" * 8001}}, "story.journey", "max_length"),
    ({"milestones": [{"date": "2024-1-1", "title": "t"}]}, "milestones.0.date", "pattern"),
    ({"milestones": [{"date": "2024-01-01", "title": "t", "url": "http://a.example/"}]}, "milestones.0.url", "format"),
    ({"milestones": [{"date": "2024-01-01", "title": "t"}] * 51}, "milestones", "max_items"),
    ({"competitor_url": "x" * 2049}, "competitor_url", "max_length"),
    ({"competitor_url": "http://192.168.1.1/"}, "competitor_url", "private_address"),
    ({"seo": {"title": "t" * 71}}, "seo.title", "max_length"),
    ({"seo": {"meta": "m" * 171}}, "seo.meta", "max_length"),
    ({"plan": "gold"}, "plan", "unknown_field"),
])
def test_update_draft_bounds_are_400_naming_the_field(http: httpx.Client, live: RunningServer, saas: FixtureServer,
                                                      body: dict[str, Any], field: str, rule: str) -> None:
    who = _owner(live, http, saas)
    r = http.patch(f"/drafts/{who[1]}", json=body, headers=who[0].headers())
    assert problem(r) == (field, rule)


_OWNER: dict[str, tuple[Person, str]] = {}


def _owner(live: RunningServer, http: httpx.Client, saas: FixtureServer) -> tuple[Person, str]:
    if "x" not in _OWNER:
        who = person(live)
        _OWNER["x"] = (who, ready(http, who, saas.url("/"))["id"])
    return _OWNER["x"]


def test_auth_scopes_and_other_accounts(http: httpx.Client, live: RunningServer, saas: FixtureServer) -> None:
    owner, draft_id = _owner(live, http, saas)
    assert http.post("/drafts", json={"url": saas.url("/")}).status_code == 401
    assert http.get(f"/drafts/{draft_id}").status_code == 401
    reader = person(live, scopes=("account:read",))
    r = http.post("/drafts", json={"url": saas.url("/")}, headers=reader.headers())
    assert r.status_code == 403 and "listings:write" in r.json()["detail"]
    stranger = person(live)
    assert http.get(f"/drafts/{draft_id}", headers=stranger.headers()).status_code == 404
    assert http.patch(f"/drafts/{draft_id}", json={"fields": {"name": "Mine"}},
                      headers=stranger.headers()).status_code == 404
    assert http.post(f"/drafts/{draft_id}/submit", headers=stranger.headers()).status_code == 404
    assert http.get(f"/drafts/{uuid.uuid4()}", headers=owner.headers()).status_code == 404
    assert problem(http.get("/drafts/not-a-uuid", headers=owner.headers())) == ("id", "format_uuid")


def test_drafts_that_are_not_ready_cannot_be_edited_or_submitted(http: httpx.Client, live: RunningServer) -> None:
    who = person(live)
    slow = {"/robots.txt": Body(b"", "text/plain", status=404),
            "/": Body(b"<html><head><title>Slow</title></head><body><p>Slow.</p></body></html>", delay=3.0)}
    with FixtureServer(routes=slow) as server:
        r = http.post("/drafts", json={"url": server.url("/")}, headers=who.headers())
        draft_id = r.json()["id"]
        submit = http.post(f"/drafts/{draft_id}/submit", headers=who.headers())
        edit = http.patch(f"/drafts/{draft_id}", json={"fields": {"name": "Early"}}, headers=who.headers())
        assert submit.status_code == edit.status_code == 409
        assert submit.json()["type"] == "/problems/conflict" and "poll get_draft" in submit.json()["detail"]
        poll(http, who, draft_id, lambda d: d["status"] == "ready")


def test_submit_draft_refuses_text_longer_than_a_listing_takes_over_rest_and_on_the_website(
        http: httpx.Client, live: RunningServer, saas: FixtureServer) -> None:
    who = person(live, password=PASSWORD)
    draft_id = ready(http, who, saas.url("/"))["id"]
    patch(http, who, draft_id, {"fields": {"categories": ["productivity"], "tagline": "t" * 312}})  # a draft takes 500
    r = http.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
    assert problem(r) == ("fields.tagline", "max_length")
    said = "a listing's tagline is at most 200 characters (this one has 312); shorten it in the draft"
    assert r.json()["errors"][0]["message"] == said
    assert http.get(f"/drafts/{draft_id}", headers=who.headers()).json()["listing_id"] is None

    with httpx.Client(base_url=live.url, timeout=10, follow_redirects=False) as browser:  # "Save as listing"
        token = CSRF.search(browser.get("/signin").text).group(1)  # type: ignore[union-attr]
        r = browser.post("/signin", data={"csrf_token": token, "email": who.email, "password": PASSWORD,
                                          "next": f"/drafts/{draft_id}"})
        assert r.status_code == 303
        editor = browser.get(f"/drafts/{draft_id}")
        token = CSRF.search(editor.text).group(1)  # type: ignore[union-attr]
        page = browser.post(f"/drafts/{draft_id}/submit", data={"csrf_token": token})
        assert page.status_code == 400, page.text[:500]
        shown = (said[0].upper() + said[1:] + ".").replace("'", "&#39;")  # the website's sentence of the same words
        assert f'id="fields.tagline-error"><span class="visually-hidden">Error:</span> {shown}</p>' in page.text

    patch(http, who, draft_id, {"fields": {"tagline": "Calm automation"}})
    r = http.post(f"/drafts/{draft_id}/submit", headers=who.headers(**ik()))
    assert r.status_code == 200 and r.json()["created"] is True


# ---------------------------------------------------------------- invites and the acceptance page


def test_invite_a_cofounder_who_accepts_on_the_website(http: httpx.Client, live: RunningServer,
                                                      saas: FixtureServer) -> None:
    owner = person(live)
    draft_id = ready(http, owner, saas.url("/"))["id"]
    r = http.post(f"/drafts/{draft_id}/invites", json={"email": "not-an-email"}, headers=owner.headers(**ik()))
    assert problem(r) == ("email", "format")
    cofounder = person(live, password=PASSWORD)
    r = http.post(f"/drafts/{draft_id}/invites", json={"email": cofounder.email}, headers=owner.headers(**ik()))
    assert r.status_code == 201, r.text
    sent = r.json()
    drafts_q.InviteSent.model_validate(sent)
    assert sent["invite"]["status"] == "pending" and sent["invites_left"] == 9
    assert http.get(f"/drafts/{draft_id}", headers=cofounder.headers()).status_code == 404

    link = _emailed_link(live, cofounder.email)
    with httpx.Client(base_url=live.url, timeout=10, follow_redirects=False) as browser:
        first = browser.get(link.removeprefix(live.url))
        assert first.status_code == 303 and first.headers["location"].startswith("/signin?next=")
        signin = browser.get("/signin")
        token = CSRF.search(signin.text).group(1)  # type: ignore[union-attr]
        r = browser.post("/signin", data={"csrf_token": token, "email": cofounder.email, "password": PASSWORD,
                                          "next": first.headers["location"].split("next=", 1)[1]})
        assert r.status_code == 303
        page = browser.get(link.removeprefix(live.url))
        assert page.status_code == 200 and "Accept the invite" in page.text and "Acme Flow" in page.text
        form = {k: re.search(rf'name="{k}" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
                for k in ("csrf_token", "draft", "invite", "token")}
        forged = browser.post("/invites/accept", data={**form, "csrf_token": "0" * 64})
        assert forged.status_code == 403
        accepted = browser.post("/invites/accept", data=form)
        assert accepted.status_code == 200 and "Invite accepted" in accepted.text
        assert browser.post("/invites/accept", data=form).status_code == 200  # the same person again: fine
    d = http.get(f"/drafts/{draft_id}", headers=cofounder.headers())
    assert d.status_code == 200 and d.json()["owners"] == [owner.account_id, cofounder.account_id]
    assert d.json()["invites"][0]["status"] == "accepted"

    for i in range(9):
        assert http.post(f"/drafts/{draft_id}/invites", json={"email": f"p{i}@example.com"},
                         headers=owner.headers()).status_code == 201
    assert problem(http.post(f"/drafts/{draft_id}/invites", json={"email": "p10@example.com"},
                             headers=owner.headers())) == ("email", "max_items")


def _emailed_link(live: RunningServer, address: str) -> str:
    from queries import mail as mail_q

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [m for m in mail_q.outbox(live.container.services.reads, to=address) if m["kind"] == "cofounder_invite"]
        if found:
            return re.search(r"(https?://\S+/invites/accept\?\S+)", found[0]["text"]).group(1)  # type: ignore[union-attr]
        time.sleep(0.05)
    raise AssertionError(f"no invite email to {address}")


def test_a_submitted_page_robots_txt_forbids_is_said_on_the_draft(live: RunningServer, http: httpx.Client,
                                                                   tmp_path: Any) -> None:
    """The crawl starts at the root instead; the draft says the page was not read, in the API and on its page."""
    from tests.fixtures.drafting_sites import serve_dir

    pages = {"index.html": "<html><head><title>Quayside</title></head><body><h1>Stop paying for stale images</h1>"
                           "<p>Quayside deletes container images nobody pulls.</p></body></html>",
             "pricing/index.html": "<html><body><p>Quayside costs $49 per month.</p></body></html>",
             "robots.txt": "User-agent: *\nDisallow: /pricing\n"}
    for path, text in pages.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    who = person(live, password=PASSWORD)
    with serve_dir(tmp_path) as site:
        forbidden = ready(http, who, site.url("/pricing/"))
        allowed = ready(http, person(live), site.url("/"))
    assert forbidden["status"] == "ready" and forbidden["submitted_page_read"] is False
    assert allowed["submitted_page_read"] is True
    from tests.e2e.founder_support_listings import signed_in_client

    web = signed_in_client(live.url, who.email, PASSWORD)
    try:
        page = web.get(f"/drafts/{forbidden['id']}").text
    finally:
        web.close()
    assert 'id="page-not-read"' in page and "robots.txt does not allow it" in page
