"""The owner's listing operations over real HTTP (REST) with API keys: a listing saved from a drafted fixture site is
listed, read, edited (publishing at once and recorded with who, when and through what), given updates, milestones and
a story; strangers get 404, bad input 400 naming the field and rule, a taken-down listing 409."""

from __future__ import annotations

from contextlib import closing
from datetime import datetime, timezone
from typing import Any

import httpx
import pytest

from aggregates import listing as listing_agg
from aggregates.base import Meta
from commands import listing as listing_cmd
from tests.conftest import RunningServer
from tests.e2e.founder_support_listings import signed_in_client
from tests.e2e.submission_support import PASSWORD, Person, ik, person, saved_listing

API = "/api/v1"
STAFF = Meta(at=datetime.now(timezone.utc), actor="staff:test", channel="cli", via="staff")


@pytest.fixture(scope="module")
def owner(live: RunningServer) -> Person:
    return person(live)


@pytest.fixture(scope="module")
def listing_id(http: httpx.Client, owner: Person) -> int:
    return saved_listing(http, owner, "saas")


def problem(r: httpx.Response, status: int = 400) -> tuple[str, str]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    errors = r.json().get("errors") or [{"field": None, "rule": None}]
    return errors[0]["field"], errors[0]["rule"]


def test_list_and_get_show_a_saved_listing_with_its_owner_facts(http: httpx.Client, owner: Person, listing_id: int) -> None:
    r = http.get("/me/listings", headers=owner.headers())
    assert r.status_code == 200, r.text
    page = r.json()
    assert [i["listing_id"] for i in page["items"]] == [listing_id]
    item = page["items"][0]
    assert item["status"] == "draft" and item["plan"] is None and item["public_url"] is None
    r = http.get(f"/me/listings/{listing_id}", headers=owner.headers())
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["listing_id"] == listing_id and doc["status"] == "draft" and doc["public"] is False
    assert doc["name"] and doc["categories"]["primary"] is not None
    assert "choose_free_listing" in doc["next_step"] and doc["badge_check"] is None
    assert http.get(f"/listings/{doc['slug']}").status_code == 404  # saved is not published


def test_update_publishes_at_once_and_records_the_version(live: RunningServer, http: httpx.Client, owner: Person,
                                                           listing_id: int) -> None:
    before = http.get(f"/me/listings/{listing_id}", headers=owner.headers()).json()
    body = {"fields": {"tagline": "Invoices that pay themselves", "founded_year": 2021, "city": "Lyon",
                       "features": ["Recurring invoices", "Dunning"], "seo_title": "Invoicing for freelancers"},
            "socials": {"x": "https://x.com/invoicely", "github": "https://github.com/invoicely"},
            "faqs": [{"question": "Is there a free plan?", "answer": "Yes, up to 5 invoices a month."}]}
    r = http.patch(f"/me/listings/{listing_id}", json=body, headers=owner.headers(**ik()))
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["tagline"] == "Invoices that pay themselves" and doc["founded_year"] == 2021 and doc["city"] == "Lyon"
    assert doc["features"] == ["Recurring invoices", "Dunning"] and doc["seo"]["title"] == "Invoicing for freelancers"
    assert doc["socials"] == {"x": "https://x.com/invoicely", "github": "https://github.com/invoicely"}
    assert doc["faqs"] == [{"question": "Is there a free plan?", "answer": "Yes, up to 5 invoices a month."}]
    assert doc["name"] == before["name"]  # untouched fields stay
    # the event says who, when and through what, and what each field was before
    c: Any = live.container
    events = c.store.stream(listing_agg.listing_stream(listing_id))
    edit = events[-1]
    assert type(edit).__name__ == "ListingEdited"
    assert edit.actor == f"account:{owner.account_id}" and edit.channel == "rest"
    assert edit.via.startswith("api_key:") and len(edit.via) > len("api_key:")
    assert edit.changes["tagline"] == "Invoices that pay themselves"
    assert edit.before["tagline"] == before["tagline"]
    # "" clears a text field; the same edit again records nothing
    r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"city": ""}}, headers=owner.headers(**ik()))
    assert r.status_code == 200 and r.json()["city"] is None
    count = len(c.store.stream(listing_agg.listing_stream(listing_id)))
    r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"city": ""}}, headers=owner.headers(**ik()))
    assert r.status_code == 200
    assert len(c.store.stream(listing_agg.listing_stream(listing_id))) == count


def test_updates_milestones_and_story(http: httpx.Client, owner: Person, listing_id: int) -> None:
    r = http.post(f"/me/listings/{listing_id}/updates", json={"title": "v2 is out", "body": "Faster exports."},
                  headers=owner.headers(**ik()))
    assert r.status_code == 201, r.text
    posted = r.json()
    assert posted["update"]["title"] == "v2 is out" and posted["shown_publicly"] is False
    r = http.post(f"/me/listings/{listing_id}/milestones",
                  json={"date": "2025-03-01", "title": "1,000 customers", "url": "https://invoicely.example/blog/1k"},
                  headers=owner.headers(**ik()))
    assert r.status_code == 201, r.text
    milestone = r.json()["milestone"]
    assert milestone["milestone_id"] >= 1 and milestone["title"] == "1,000 customers"
    r = http.put(f"/me/listings/{listing_id}/story", json={"title": "Why we built it", "why_started": "Late invoices."},
                 headers=owner.headers(**ik()))
    assert r.status_code == 200, r.text
    assert r.json()["story"] == {"title": "Why we built it", "why_started": "Late invoices."}
    assert r.json()["shown_publicly"] is False  # the story section is paid
    doc = http.get(f"/me/listings/{listing_id}", headers=owner.headers()).json()
    assert [m["title"] for m in doc["milestones"]] == ["1,000 customers"]
    assert doc["latest_updates"][0]["title"] == "v2 is out"
    r = http.delete(f"/me/listings/{listing_id}/milestones/{milestone['milestone_id']}", headers=owner.headers(**ik()))
    assert r.status_code == 200 and r.json()["deleted"] is True
    assert http.get(f"/me/listings/{listing_id}", headers=owner.headers()).json()["milestones"] == []
    r = http.delete(f"/me/listings/{listing_id}/milestones/{milestone['milestone_id']}", headers=owner.headers(**ik()))
    assert r.status_code == 404


def test_strangers_get_404_and_scopes_are_enforced(live: RunningServer, http: httpx.Client, listing_id: int) -> None:
    stranger = person(live)
    for method, path, body in [
        ("GET", f"/me/listings/{listing_id}", None),
        ("PATCH", f"/me/listings/{listing_id}", {"fields": {"tagline": "mine now"}}),
        ("POST", f"/me/listings/{listing_id}/updates", {"title": "t", "body": "b"}),
        ("POST", f"/me/listings/{listing_id}/milestones", {"date": "2025-01-01", "title": "t"}),
        ("DELETE", f"/me/listings/{listing_id}/milestones/1", None),
        ("PUT", f"/me/listings/{listing_id}/story", {"title": "t"}),
        ("GET", "/me/listings/999999", None),
    ]:
        r = http.request(method, path, json=body, headers=stranger.headers(**ik()))
        assert r.status_code == 404, (method, path, r.text)
    assert http.get("/me/listings", headers=stranger.headers()).json()["items"] == []
    assert http.get(f"/me/listings/{listing_id}").status_code == 401
    reader = person(live, scopes=("account:read",))
    r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"tagline": "x"}}, headers=reader.headers(**ik()))
    assert r.status_code == 403


@pytest.mark.parametrize(("path", "body", "field", "rule"), [
    ("/me/listings/0", {"fields": {"tagline": "x"}}, "listing_id", "minimum"),
    ("/me/listings/{id}", {"fields": {"tagline": "x" * 201}}, "fields.tagline", "max_length"),
    ("/me/listings/{id}", {"fields": {"founded_year": 1799}}, "fields.founded_year", "minimum"),
    ("/me/listings/{id}", {"fields": {"country": "DEU"}}, "fields.country", "max_length"),
    ("/me/listings/{id}", {"fields": {"name": "Renamed"}}, "fields.name", "unknown_field"),
    ("/me/listings/{id}", {"faqs": [{"question": "q", "answer": "a"}] * 11}, "faqs", "max_items"),
    ("/me/listings/{id}", {"socials": {"myspace": "https://myspace.com/x"}}, "socials.myspace", "unknown_field"),
    ("/me/listings/{id}", {"fields": {"contact_email": "not an address"}}, "fields.contact_email", "format"),
])
def test_bad_edits_are_400_naming_field_and_rule(http: httpx.Client, owner: Person, listing_id: int, path: str,
                                                 body: dict[str, Any], field: str, rule: str) -> None:
    r = http.patch(path.format(id=listing_id), json=body, headers=owner.headers(**ik()))
    assert problem(r) == (field, rule)


def test_bad_milestones_updates_and_stories_are_400(http: httpx.Client, owner: Person, listing_id: int) -> None:
    base = f"/me/listings/{listing_id}"
    assert problem(http.post(f"{base}/milestones", json={"title": "no date"}, headers=owner.headers(**ik())))[0] == "date"
    assert problem(http.post(f"{base}/milestones", json={"date": "2025-02-30", "title": "t"},
                             headers=owner.headers(**ik())))[0] == "date"
    assert problem(http.post(f"{base}/milestones", json={"date": "2025-02-01", "title": "t", "url": "http://x.example"},
                             headers=owner.headers(**ik())))[0] == "url"
    assert problem(http.post(f"{base}/updates", json={"title": "t"}, headers=owner.headers(**ik())))[0] == "body"
    assert problem(http.post(f"{base}/updates", json={"title": "t", "body": "b" * 5001},
                             headers=owner.headers(**ik())))[0] == "body"
    assert problem(http.put(f"{base}/story", json={"title": "t" * 201}, headers=owner.headers(**ik())))[0] == "title"
    assert problem(http.delete(f"{base}/milestones/0", headers=owner.headers(**ik())))[0] == "milestone_id"


def test_a_taken_down_listing_refuses_owner_changes_with_409(live: RunningServer, http: httpx.Client) -> None:
    who = person(live)
    listing_id = saved_listing(http, who, "devtool")
    c: Any = live.container
    listing_cmd.unpublish(c.store, listing_id, "spam report upheld", STAFF)
    r = http.post(f"/me/listings/{listing_id}/milestones", json={"date": "2025-01-01", "title": "t"},
                  headers=who.headers(**ik()))
    assert r.status_code == 409, r.text
    assert "taken down" in r.json()["detail"]
    r = http.patch(f"/me/listings/{listing_id}", json={"fields": {"tagline": "x"}}, headers=who.headers(**ik()))
    assert r.status_code == 409


def test_editing_the_submitted_draft_updates_the_listing_as_a_version(live: RunningServer, http: httpx.Client) -> None:
    who = person(live)
    listing_id = saved_listing(http, who, "saas")
    draft_id = http.get("/drafts", headers=who.headers()).json()["items"][0]["id"]
    r = http.patch(f"/drafts/{draft_id}", json={"fields": {"tagline": "Edited in the draft"}}, headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    assert http.get(f"/me/listings/{listing_id}", headers=who.headers()).json()["tagline"] == "Edited in the draft"
    c: Any = live.container
    edit = c.store.stream(listing_agg.listing_stream(listing_id))[-1]
    assert type(edit).__name__ == "ListingEdited" and edit.changes == {"tagline": "Edited in the draft"}
    assert edit.actor == f"account:{who.account_id}" and edit.via.startswith("api_key:")


def test_links_are_only_addresses_that_answer_now(live: RunningServer, http: httpx.Client) -> None:
    """Saved: no public page or badges yet (null), only the owners' page. Queued for a free launch: the site's page
    announcing it and its badges answer. Live: the profile too. Every link given answers 200 when given."""
    who = person(live, password=PASSWORD)
    lid = saved_listing(http, who, "devtool")
    site = live.url

    def links() -> dict[str, Any]:
        r = http.get(f"/me/listings/{lid}", headers=who.headers())
        assert r.status_code == 200, r.text
        return dict(r.json()["links"])

    def answers(url: str) -> int:
        return httpx.get(url, timeout=15).status_code

    saved = links()
    slug = http.get(f"/me/listings/{lid}", headers=who.headers()).json()["slug"]
    assert saved["listing"] is None and saved["badges"] is None
    assert answers(f"{site}/listings/{slug}") == 404 and answers(f"{site}{API}/listings/{slug}/badges") == 404
    assert saved["manage"] == f"{site}/my/listings/{lid}"
    with closing(signed_in_client(site, who.email, PASSWORD)) as web:
        assert web.get(saved["manage"]).status_code == 200

    r = http.post(f"/me/listings/{lid}/free", headers=who.headers(**ik()))
    assert r.status_code == 200, r.text
    queued = links()
    assert queued["listing"] == f"{site}/listings/{slug}" and queued["badges"] == f"{site}{API}/listings/{slug}/badges"
    assert answers(queued["listing"]) == 200 and answers(queued["badges"]) == 200

    c: Any = live.container
    position = listing_cmd.staff_publish(c.store, lid, STAFF)
    assert c.runtime.wait_for(["listing_view", "search_view", "launches_view"], position, timeout=10)
    shown = links()
    assert all(answers(shown[k]) == 200 for k in ("listing", "badges"))
    assert http.get(f"/me/listings/{lid}", headers=who.headers()).json()["public_url"] == shown["listing"]
