"""Draft commands against real PostgreSQL: the submit-time URL check, duplicate submissions, edits and their
field states, the listing a draft becomes (and stays in step with), invites, reads of other accounts' drafts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID, uuid4

import pytest

from aggregates import draft as d
from aggregates.base import Emitter
from events.draft import DraftListingCreationStarted
from aggregates import listing, mail
from commands import draft as draft_cmd
from commands import invites as invites_cmd
from commands import listing as listing_cmd
from commands import my_listings as my_listings_cmd
from commands.my_listing_inputs import MyListingFields, UpdateMyListing
from events.draft import DraftCofounderInvited, DraftResubmitted, DraftStorySet
from events.errors import Conflict, InvalidInput, NotFound
from events.listing import ListingCreated, ListingEdited, ListingOwnerAdded, ListingStorySet
from events.mail import EmailQueued
from queries import drafts as drafts_q
from queries.paging import Paging
from tests.fixtures.drafting_sites import serve
from tests.integration import draft_helpers as h
from workers.adapters.websites import CrawlSettings
from workers.draft_jobs import url_guard


pytestmark = pytest.mark.usefixtures("draft_context")  # `c` and `draft_context`: conftest.py


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve("saas") as server:
        yield server.url("/")


def ready_draft(c: Any, url: str, who: str | None = None) -> tuple[str, UUID]:
    who = who or h.account()
    submitted = h.submit(c, url, who)
    assert h.wait_status(c, submitted.draft_id) == "ready"
    h.settle(c)
    return who, submitted.draft_id


def listing_events(c: Any, listing_id: int) -> list[Any]:
    return c.store.stream(listing.listing_stream(listing_id))


# ---------------------------------------------------------------- submit_listing


@pytest.mark.parametrize(("url", "rule"), [
    ("http://127.0.0.1:8080/", "loopback_address"),
    ("http://localhost/", "loopback_address"),
    ("http://[::1]/", "loopback_address"),
    ("http://10.1.2.3/", "private_address"),
    ("http://192.168.0.10/admin", "private_address"),
    ("http://169.254.169.254/latest/meta-data/", "metadata_address"),
    ("http://169.254.10.1/", "link_local_address"),
    ("http://2130706433/", "loopback_address"),
    ("http://0x7f000001/", "loopback_address"),
    ("http://[::ffff:10.0.0.1]/", "embedded_private_address"),
    ("ftp://example.com/", "bad_scheme"),
    ("javascript:alert(1)", "bad_scheme"),
    ("http://user:pw@example.com/", "userinfo"),
    ("https://", "missing_host"),
])
def test_non_public_urls_are_refused_at_submit_and_nothing_is_stored(c: Any, url: str, rule: str) -> None:
    who = h.account()
    guard = url_guard(CrawlSettings())  # production: no loopback
    with pytest.raises(InvalidInput) as err:
        draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url=url), who, h.meta(who), check_url=guard, jobs=None)
    (problem,) = err.value.problems
    assert (problem.field, problem.rule) == ("url", rule)
    assert "public http(s) address" in problem.message
    h.settle(c)
    assert drafts_q.list_my_drafts(c.services.reads, who, Paging())["total"] == 0


def test_loopback_is_allowed_only_by_the_test_setting_and_private_never(c: Any) -> None:
    guard = url_guard(CrawlSettings(allow_loopback=True))
    guard("http://127.0.0.1:8080/", "url")
    with pytest.raises(InvalidInput):
        guard("http://10.0.0.1/", "url")
    with pytest.raises(InvalidInput) as err:
        guard("http://no-such-host.invalid/", "url")
    assert err.value.problems[0].rule == "unresolvable_host"


def test_a_second_submission_of_a_site_returns_the_existing_draft(c: Any, site: str) -> None:
    who = h.account()
    first = h.submit(c, site, who)
    again = h.submit(c, site + "pricing?utm=x", who)  # another page of the same site
    assert (again.draft_id, again.existing, first.existing) == (first.draft_id, True, False)
    other = h.submit(c, site, h.account())
    assert other.draft_id != first.draft_id and not other.existing
    h.settle(c)
    assert drafts_q.list_my_drafts(c.services.reads, who, Paging())["total"] == 1


def test_a_failed_draft_of_a_site_can_be_submitted_again(c: Any) -> None:
    who = h.account()
    with serve("closed") as server:
        first = h.submit(c, server.url("/"), who)
        assert h.wait_status(c, first.draft_id) == "failed"
        second = h.submit(c, server.url("/"), who)
    assert second.draft_id != first.draft_id and not second.existing
    h.settle(c)
    page = drafts_q.list_my_drafts(c.services.reads, who, Paging())
    assert [i["id"] for i in page["items"]] == [str(second.draft_id), str(first.draft_id)]  # newest first
    assert page["items"][1]["failure"]["reason"] == "robots_forbidden"


def test_racing_submissions_of_one_site_make_one_draft(c: Any, site: str) -> None:
    import threading

    who = h.account()
    results: list[draft_cmd.Submitted] = []
    threads = [threading.Thread(target=lambda: results.append(h.submit(c, site, who))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({r.draft_id for r in results}) == 1 and sum(not r.existing for r in results) == 1


# ---------------------------------------------------------------- reads


def test_other_accounts_get_not_found(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    with pytest.raises(NotFound):
        drafts_q.get_draft(c.services.reads, draft_id, "someone-else", c.services.now())
    with pytest.raises(NotFound):
        drafts_q.get_draft(c.services.reads, uuid4(), who, c.services.now())
    with pytest.raises(NotFound):
        h.update(c, "someone-else", draft_id, fields={"name": "Mine"})


# ---------------------------------------------------------------- update_draft


def test_every_field_state_transition_shows_in_the_draft(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"name": "Acme Flow Pro", "stage": "beta", "tags": ["a", " a ", "b", ""]})
    h.update(c, who, draft_id, fields={"tagline": None})
    h.update(c, who, draft_id, lock_fields=["keywords"])
    h.settle(c)
    doc = h.doc(c, draft_id, who)
    f = doc["fields"]
    assert (f["name"]["state"], f["name"]["value"], f["name"]["evidence"]) == ("edited", "Acme Flow Pro", [])
    assert (f["stage"]["state"], f["stage"]["value"]) == ("manual", "beta")
    assert (f["tags"]["state"], f["tags"]["value"]) == ("manual", ["a", "b"])
    assert (f["tagline"]["state"], f["tagline"]["value"]) == ("deleted", None)
    assert f["keywords"]["state"] == "override" and f["keywords"]["evidence"]
    assert "stage" not in doc["not_found_on_website"] and "tagline" in doc["missing"]
    h.update(c, who, draft_id, restore=["name", "tagline", "stage"])
    h.settle(c)
    f = h.doc(c, draft_id, who)["fields"]
    assert (f["name"]["state"], f["name"]["value"]) == ("ai", "Acme Flow") and f["name"]["evidence"]
    assert f["tagline"]["state"] == "ai" and f["stage"] == {"value": None, "state": "not_found", "evidence": []}


def test_categories_take_names_or_slugs_and_unknown_ones_are_a_400(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": ["Productivity", "ai", "productivity"]})
    h.settle(c)
    assert h.doc(c, draft_id, who)["fields"]["categories"]["value"] == ["productivity", "ai"]
    with pytest.raises(InvalidInput) as err:
        h.update(c, who, draft_id, fields={"categories": ["ai", "Cooking"]})
    assert (err.value.problems[0].field, err.value.problems[0].rule) == ("fields.categories.1", "enum")


def test_sections_story_milestones_seo_socials(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id,
             faqs=[{"question": "Is there an API?", "answer": "Yes."}],
             founders=[{"name": "Ana Lima", "title": "CEO", "bio": "Builds flows."}],
             company_socials={"linkedin": "https://linkedin.com/company/acme", "x": None},
             founder_socials={"x": "https://x.com/ana"},
             story={"title": "Why Acme", "problem": "Busywork."},
             milestones=[{"date": "2024-03-01", "title": "Launch", "url": "https://acme.test/launch"}],
             seo={"title": "Acme Flow", "meta": "Automation for small teams"})
    h.update(c, who, draft_id, story={"problem": None, "journey": "Long."})
    h.settle(c)
    doc = h.doc(c, draft_id, who)
    assert doc["faqs"] == [{"question": "Is there an API?", "answer": "Yes."}]
    assert doc["section_states"] == {"faqs": "edited", "founders": "manual", "company_socials": "edited"}
    assert doc["founders"] == [{"name": "Ana Lima", "title": "CEO", "bio": "Builds flows."}]
    assert "x" not in doc["company_socials"] and doc["company_socials"]["linkedin"].startswith("https://linkedin")
    assert doc["story"] == {"title": "Why Acme", "journey": "Long."}
    assert doc["milestones"] == [{"date": "2024-03-01", "title": "Launch", "url": "https://acme.test/launch"}]
    assert doc["seo"] == {"title": "Acme Flow", "meta": "Automation for small teams"}
    assert "founders" not in doc["not_found_on_website"]


def test_edits_wait_for_ready(c: Any) -> None:
    who = h.account()
    pending = draft_cmd.submit_listing(c.store, draft_cmd.SubmitListing(url="http://127.0.0.1:9/"), who, h.meta(who),
                                       check_url=lambda url, field: None, jobs=None)
    with pytest.raises(Conflict):
        h.update(c, who, pending.draft_id, fields={"name": "Early"})
    with pytest.raises(Conflict):
        draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=pending.draft_id), who, h.meta(who))


# ---------------------------------------------------------------- submit_draft and the listing


def test_submit_draft_saves_an_unpublished_listing_and_resubmitting_updates_the_same_one(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": ["productivity", "ai"]},
             milestones=[{"date": "2024-03-01", "title": "Launch"}], story={"title": "Why"},
             founders=[{"name": "Ana Lima", "title": "CEO"}], founder_socials={"x": "https://x.com/ana"})
    listed = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    assert listed.created
    state = listing_cmd.load(c.store, listed.listing_id)
    assert (state.status, state.owner_ids, state.categories) == ("draft", (who,), ("productivity",))
    assert state.profile["name"] == "Acme Flow" and state.profile["website_url"] == site
    assert state.profile["founded_year"] == 2021
    assert "stage" in state.not_found_on_website and state.story == {"title": "Why"}
    assert [m["title"] for m in state.milestones.values()] == ["Launch"]
    assert state.founders[0]["socials"] == {"x": "https://x.com/ana"}
    (created,) = [e for e in listing_events(c, listed.listing_id) if isinstance(e, ListingCreated)]
    assert created.draft_id == str(draft_id) and created.source == "draft" and created.actor == f"account:{who}"

    # edits of a submitted draft reach the listing through the listing commands (version history)
    h.update(c, who, draft_id, fields={"tagline": "Flows, calmly"}, story={"title": "Why us"},
             milestones=[{"date": "2024-03-01", "title": "Launch"}, {"date": "2025-01-01", "title": "v2"}])
    events = listing_events(c, listed.listing_id)
    edit = next(e for e in events if isinstance(e, ListingEdited) and "tagline" in e.changes)
    assert edit.changes["tagline"] == "Flows, calmly" and edit.before["tagline"] == "Workflow automation for small teams"
    assert any(isinstance(e, ListingStorySet) and e.story == {"title": "Why us"} for e in events)
    state = listing_cmd.load(c.store, listed.listing_id)
    assert sorted(m["title"] for m in state.milestones.values()) == ["Launch", "v2"]

    again = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    assert (again.listing_id, again.created) == (listed.listing_id, False)
    assert isinstance(c.store.stream(draft_id)[-1], DraftResubmitted)
    h.settle(c)
    doc = h.doc(c, draft_id, who)
    assert (doc["listing_id"], doc["listing_slug"]) == (listed.listing_id, listed.slug) and doc["submitted_at"]
    with pytest.raises(InvalidInput) as err:  # a listed draft keeps what a listing needs
        h.update(c, who, draft_id, fields={"name": None})
    assert err.value.problems[0].field == "fields.name"


def test_resubmitting_keeps_edits_made_on_the_listing_since_and_carries_what_changed_in_the_draft(
        c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": ["productivity"], "city": "Dublin"})
    listed = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    assert listing_cmd.load(c.store, listed.listing_id).profile["city"] == "Dublin"
    my_listings_cmd.update_my_listing(c.store, UpdateMyListing.model_validate(
        {"listing_id": listed.listing_id, "fields": {"city": "Cork"}}), who, h.meta(who, "web"))

    h.update(c, who, draft_id, story={"title": "Why we built it"})  # the founder edits something else in the draft
    again = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))  # "Update the listing"
    assert (again.listing_id, again.created) == (listed.listing_id, False)
    state = listing_cmd.load(c.store, listed.listing_id)
    assert state.profile["city"] == "Cork" and state.story == {"title": "Why we built it"}
    edits = [e for e in listing_events(c, listed.listing_id) if isinstance(e, ListingEdited)]
    assert [e.changes for e in edits] == [{"city": "Cork"}]  # the owner's edit only: nothing undid it

    h.update(c, who, draft_id, fields={"city": "Galway"})  # a part changed in the draft still reaches the listing
    draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    assert listing_cmd.load(c.store, listed.listing_id).profile["city"] == "Galway"


def test_submit_draft_refuses_values_longer_than_a_listing_takes_naming_the_field(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": ["productivity"], "tagline": "t" * 312})  # a draft takes 500
    with pytest.raises(InvalidInput) as err:
        draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    (problem,) = err.value.problems
    assert (problem.field, problem.rule) == ("fields.tagline", "max_length")
    assert problem.message == "a listing's tagline is at most 200 characters (this one has 312); shorten it in the draft"
    assert draft_cmd.load(c.store, draft_id).listing_id is None  # nothing stored

    h.update(c, who, draft_id, fields={"tagline": "t" * 200})
    listed = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    profile = listing_cmd.load(c.store, listed.listing_id).profile
    own_form = {k: v for k, v in profile.items() if k in MyListingFields.model_fields}
    UpdateMyListing.model_validate({"listing_id": listed.listing_id, "fields": own_form})  # the owner's form saves

    with pytest.raises(InvalidInput) as err:  # an edit of a listed draft reaches the listing: the same bounds
        h.update(c, who, draft_id, story={"title": "s" * 300})
    assert [(p.field, p.rule) for p in err.value.problems] == [("story.title", "max_length")]
    assert draft_cmd.load(c.store, draft_id).story == {}

    # a long value stored in the draft without reaching the listing (a redraft, an older edit) stops a resubmit
    emit = Emitter(draft_cmd.load(c.store, draft_id), h.meta(who))
    emit(DraftStorySet, story={"title": "s" * 300})
    c.store.append(emit.events)
    with pytest.raises(InvalidInput) as err:
        draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    assert [(p.field, p.rule) for p in err.value.problems] == [("story.title", "max_length")]
    assert "at most 200 characters (this one has 300)" in err.value.problems[0].message
    assert listing_cmd.load(c.store, listed.listing_id).story == {}


def test_submit_draft_needs_a_name_and_a_category(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": None})
    with pytest.raises(InvalidInput) as err:
        draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    assert [p.field for p in err.value.problems] == ["fields.categories"]


def test_a_submit_draft_interrupted_before_moves_were_atomic_finds_its_listing(c: Any, site: str) -> None:
    """Streams written by the earlier two-step submit_draft: a started attempt and a listing never linked."""
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": ["productivity"]})  # the site's own words support none
    state = draft_cmd.load(c.store, draft_id)
    emit = Emitter(state, h.meta(who))
    emit(DraftListingCreationStarted, attempt_id="crashed")
    c.store.append(emit.events)
    content = d.listing_content(draft_cmd.load(c.store, draft_id))
    made = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile=content["profile"], categories=content["categories"], owner_ids=content["owner_ids"], source="draft",
        draft_id=str(draft_id)), h.meta(who))  # ...and the process died before linking it
    listed = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    assert (listed.listing_id, listed.created) == (made.listing_id, True)
    assert draft_cmd.load(c.store, draft_id).listing_id == made.listing_id


# ---------------------------------------------------------------- invites


def test_invites_queue_an_email_and_accepting_makes_a_co_owner_of_draft_and_listing(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"categories": ["productivity"]})  # the site's own words support none
    website = c.services.links["website"]
    first = invites_cmd.invite_cofounder(c.store, draft_cmd.InviteCofounder(id=draft_id, email="Ana@Example.com"), who,
                                         h.meta(who), website=website)
    assert first.email == "ana@example.com" and first.link.startswith(website.rstrip("/") + "/invites/accept?")
    (queued,) = c.store.stream(mail.message_id(f"draft-invite:{draft_id}:{first.invite_id}"))
    assert isinstance(queued, EmailQueued) and queued.to == "ana@example.com" and first.link in queued.text
    (invited,) = [e for e in c.store.stream(draft_id) if isinstance(e, DraftCofounderInvited)]
    token = first.link.rsplit("token=", 1)[1]
    assert token not in repr(invited) and invited.token_hash == invites_cmd.token_hash(token)

    with pytest.raises(NotFound):
        invites_cmd.accept_invite(c.store, draft_id, first.invite_id, "wrong-token", "ana", h.meta("ana"))
    invites_cmd.accept_invite(c.store, draft_id, first.invite_id, token, "ana", h.meta("ana"))
    h.settle(c)
    assert h.doc(c, draft_id, "ana")["owners"] == [who, "ana"]
    assert drafts_q.list_my_drafts(c.services.reads, "ana", Paging())["total"] == 1
    h.update(c, "ana", draft_id, fields={"city": "Porto"})  # a co-owner may edit

    listed = draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), "ana", h.meta("ana"))
    assert listing_cmd.load(c.store, listed.listing_id).owner_ids == (who, "ana")
    second = invites_cmd.invite_cofounder(c.store, draft_cmd.InviteCofounder(id=draft_id, email="bo@example.com"), who,
                                          h.meta(who), website=website)
    invites_cmd.accept_invite(c.store, draft_id, second.invite_id, second.link.rsplit("token=", 1)[1], "bo", h.meta("bo"))
    assert listing_cmd.load(c.store, listed.listing_id).owner_ids == (who, "ana", "bo")
    assert isinstance(listing_events(c, listed.listing_id)[-1], ListingOwnerAdded)
    with pytest.raises(Conflict):
        invites_cmd.accept_invite(c.store, draft_id, second.invite_id, second.link.rsplit("token=", 1)[1], "eve",
                                  h.meta("eve"))


def test_at_most_ten_invites(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    for i in range(d.MAX_INVITES):
        invites_cmd.invite_cofounder(c.store, draft_cmd.InviteCofounder(id=draft_id, email=f"p{i}@example.com"), who,
                                     h.meta(who), website="http://site.test/")
    with pytest.raises(InvalidInput) as err:
        invites_cmd.invite_cofounder(c.store, draft_cmd.InviteCofounder(id=draft_id, email="p11@example.com"), who,
                                     h.meta(who), website="http://site.test/")
    assert (err.value.problems[0].field, err.value.problems[0].rule) == ("email", "max_items")
    h.settle(c)
    assert len(h.doc(c, draft_id, who)["invites"]) == d.MAX_INVITES


# ---------------------------------------------------------------- the read model


def test_draft_view_rebuilds_from_the_events_to_the_same_documents(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    h.update(c, who, draft_id, fields={"name": "Rebuilt", "tagline": None, "categories": ["productivity"]}, lock_fields=["city"],
             faqs=[{"question": "Q?", "answer": "A."}], story={"title": "T"})
    invites_cmd.invite_cofounder(c.store, draft_cmd.InviteCofounder(id=draft_id, email="r@example.com"), who,
                                 h.meta(who), website="http://site.test/")
    draft_cmd.submit_draft(c.store, draft_cmd.SubmitDraft(id=draft_id), who, h.meta(who))
    h.settle(c)
    before = h.doc(c, draft_id, who)
    mine = drafts_q.list_my_drafts(c.services.reads, who, Paging())
    status = c.runtime.rebuild("draft_view")
    assert status.generation >= 2
    assert h.doc(c, draft_id, who) == before
    assert drafts_q.list_my_drafts(c.services.reads, who, Paging()) == mine


def test_an_edit_of_a_draft_that_is_not_yours_is_404_before_its_input_is_checked(c: Any, site: str) -> None:
    who, draft_id = ready_draft(c, site)
    with pytest.raises(NotFound):  # never a 400 that tells the draft exists, and never for an unknown id
        h.update(c, h.account(), draft_id, competitor_url="ftp://example.org/")
    with pytest.raises(NotFound):
        h.update(c, who, uuid4(), competitor_url="ftp://example.org/")
    with pytest.raises(InvalidInput):
        h.update(c, who, draft_id, competitor_url="ftp://example.org/")
