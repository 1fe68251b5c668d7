"""The Draft decider, given/when/then, no database: status, field states (SPEC §3.2), invites, the listing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import reduce
from typing import Any
from uuid import uuid4

import pytest

from aggregates import draft as d
from aggregates import draft_listing, listing
from aggregates.base import Meta
from aggregates.draft import Patch
from events.base import Event
from events.draft import (
    DraftCompletenessChanged,
    DraftFailed,
    DraftFieldEdited,
    DraftFieldsLocked,
    DraftFieldsRegenerated,
    DraftFieldsRestored,
    DraftListingSynced,
    DraftRegenerationRequested,
    DraftResubmitted,
    DraftSubmittedAsListing,
)
from events.errors import Conflict, InvalidInput, NotFound

T0 = datetime(2026, 11, 20, 12, 0, tzinfo=timezone.utc)


def meta(minutes: float = 0) -> Meta:
    return Meta(at=T0 + timedelta(minutes=minutes), actor="account:a1", channel="rest")


def fold(state: d.DraftState, events: list[Event]) -> d.DraftState:
    return reduce(lambda s, e: d.evolve(e, s), events, state)


def ev(url: str, quote: str) -> dict[str, str]:
    return {"url": url, "quote": quote, "source": "text"}


DRAFTED: dict[str, Any] = {
    "drafter": "extractive",
    "fields": {
        "name": {"value": "Acme", "state": "ai", "evidence": [ev("https://acme.test/", "Acme")]},
        "tagline": {"value": "Flows for teams", "state": "ai", "evidence": [ev("https://acme.test/", "Flows for teams")]},
        "categories": {"value": ["productivity"], "state": "ai", "evidence": [ev("https://acme.test/", "workflow")]},
        "city": {"value": "Lisbon", "state": "ai", "evidence": []},  # no evidence: never accepted
        "country": {"value": None, "state": "not_found", "evidence": []},
    },
    "faqs": [{"question": "Is it free?", "answer": "Yes.", "evidence": [ev("https://acme.test/faq", "Is it free?")]}],
    "founders": [],
    "company_socials": {"x": "https://x.com/acme"},
    "dropped": [{"field": "city"}],
}


def submitted() -> d.DraftState:
    draft_id = uuid4()
    events, existing = d.decide_submit(
        d.initial_site(uuid4()), None, d.initial(draft_id),
        account_id="a1", url="https://www.Acme.test/", site=d.site_key("https://www.Acme.test/"), meta=meta())
    assert existing is None
    return fold(d.initial(draft_id), events[1:])


def ready() -> d.DraftState:
    s = submitted()
    s = fold(s, d.decide_start_crawl(s, meta()))
    s = fold(s, d.decide_crawled(s, crawl_id="c1", final_url="https://acme.test/", site="https://acme.test",
                                 pages=["https://acme.test/"], skipped=0, size=10, digest="x", meta=meta()))
    s = fold(s, d.decide_start_drafting(s, "extractive", meta()))
    return fold(s, d.decide_ready(s, "c1", DRAFTED, meta()))


def update(state: d.DraftState, **patch: Any) -> tuple[d.DraftState, list[Event]]:
    events = d.decide_update(state, Patch(**patch), meta(1), request_id="r1")
    return fold(state, events), events


# ---------------------------------------------------------------- submission and status


def test_site_key_ignores_scheme_www_case_path_and_default_ports() -> None:
    assert d.site_key("https://www.Acme.com/pricing?x=1") == "acme.com"
    assert d.site_key("http://acme.com:80") == "acme.com"
    assert d.site_key("https://acme.com:8443/") == "acme.com:8443"
    assert d.site_key("http://127.0.0.1:5000/") == "127.0.0.1:5000"
    assert d.site_key("https://bücher.example/") == "xn--bcher-kva.example"


def test_a_second_submission_of_the_same_site_returns_the_existing_draft_unless_it_failed() -> None:
    site = d.initial_site(uuid4())
    first = submitted()
    site = d.evolve(d.decide_submit(site, None, d.initial(first.id), account_id="a1", url="x", site="s",
                                    meta=meta())[0][0], site)
    events, existing = d.decide_submit(site, first, d.initial(uuid4()), account_id="a1", url="x", site="s", meta=meta())
    assert (events, existing) == ([], first.id)
    failed = fold(first, d.decide_fail(first, "robots_forbidden", "no", "crawl", meta()))
    events, existing = d.decide_submit(site, failed, d.initial(uuid4()), account_id="a1", url="x", site="s", meta=meta())
    assert existing is None and len(events) == 2 and events[0].originator_version == 2


def test_status_moves_crawling_drafting_ready_and_late_results_are_ignored() -> None:
    s = submitted()
    assert s.status == "crawling"
    assert d.decide_start_drafting(s, "extractive", meta()) == []
    r = ready()
    assert r.status == "ready" and r.crawl_attempts == 1
    assert d.decide_crawled(r, crawl_id="c2", final_url="", site="", pages=[], skipped=0, size=0, digest="",
                            meta=meta()) == []
    assert d.decide_fail(r, "timeout", "", "timeout", meta()) == []
    assert d.decide_ready(r, "c1", DRAFTED, meta()) == []


def test_failure_is_terminal_with_its_reason() -> None:
    s = submitted()
    (failed,) = d.decide_fail(s, "robots_forbidden", "robots_disallowed: /", "crawl", meta())
    assert isinstance(failed, DraftFailed)
    s = fold(s, [failed])
    assert s.status == "failed" and s.failure == {"reason": "robots_forbidden", "detail": "robots_disallowed: /",
                                                   "stage": "crawl"}
    assert d.decide_start_crawl(s, meta()) == []
    with pytest.raises(Conflict):
        d.decide_update(s, Patch(fields={"name": "X"}), meta(), request_id="r")


def test_stalled_work_times_out_but_progress_resets_the_clock() -> None:
    s = submitted()
    assert d.decide_timeouts(s, timedelta(minutes=10), meta(5)) == []
    (timed_out,) = d.decide_timeouts(s, timedelta(minutes=10), meta(11))
    assert isinstance(timed_out, DraftFailed) and timed_out.reason == "timeout"
    s = fold(s, d.decide_start_crawl(s, meta(9)))
    assert d.decide_timeouts(s, timedelta(minutes=10), meta(11)) == []


def test_ready_keeps_only_values_with_evidence_and_lists_what_was_not_found() -> None:
    assert d.decide_ready(submitted(), "c1", DRAFTED, meta()) == []  # not crawled yet: nothing to record
    r = ready()
    assert r.slot("name").doc() == {"value": "Acme", "state": "ai", "evidence": [ev("https://acme.test/", "Acme")]}
    assert r.slot("city").state == "not_found" and r.slot("city").value is None
    assert r.slot("faqs").state == "ai" and r.slot("founders").state == "not_found"
    assert "city" in r.not_found_on_website and "founders" in r.not_found_on_website
    assert "name" not in r.missing and "city" in r.missing
    assert r.completeness == round(100 * (10 + 8 + 10) / 100)


# ---------------------------------------------------------------- field states (SPEC §3.2)


def test_typing_a_value_is_edited_when_the_ai_had_one_and_manual_when_not() -> None:
    s, events = update(ready(), fields={"name": "Acme Flow", "city": "Porto"})
    assert [type(e) for e in events][:2] == [DraftFieldEdited, DraftFieldEdited]
    assert (s.slot("name").state, s.slot("name").value, s.slot("name").evidence) == ("edited", "Acme Flow", ())
    assert (s.slot("city").state, s.slot("city").value) == ("manual", "Porto")
    assert "city" not in s.not_found_on_website and isinstance(events[-1], DraftCompletenessChanged)


def test_setting_the_same_value_changes_nothing() -> None:
    _, events = update(ready(), fields={"name": "Acme"})
    assert events == []


def test_null_deletes_and_restore_brings_back_the_ai_value_or_not_found() -> None:
    s, _ = update(ready(), fields={"tagline": None, "city": "Porto"})
    assert (s.slot("tagline").state, s.slot("tagline").value) == ("deleted", None)
    assert "tagline" in s.missing and "tagline" not in s.not_found_on_website
    s, events = update(s, restore=("tagline", "city"))
    assert any(isinstance(e, DraftFieldsRestored) for e in events)
    assert s.slot("tagline").doc() == {"value": "Flows for teams", "state": "ai",
                                       "evidence": [ev("https://acme.test/", "Flows for teams")]}
    assert s.slot("city").doc() == {"value": None, "state": "not_found", "evidence": []}
    _, again = update(s, restore=("tagline",))
    assert again == []


def test_lock_marks_override_and_edits_keep_it_locked_while_regenerate_skips_it() -> None:
    s, events = update(ready(), lock_fields=("tagline",))
    assert isinstance(events[0], DraftFieldsLocked) and s.slot("tagline").state == "override"
    s, _ = update(s, fields={"tagline": "Ours"})
    assert (s.slot("tagline").state, s.slot("tagline").value) == ("override", "Ours")
    s, events = update(s, regenerate=("tagline", "city"))
    (request,) = [e for e in events if isinstance(e, DraftRegenerationRequested)]
    assert (request.fields, request.skipped) == (["city"], ["tagline"])


def test_edit_and_lock_in_one_call_and_contradictions_are_refused() -> None:
    s, _ = update(ready(), fields={"name": "Mine"}, lock_fields=("name",))
    assert (s.slot("name").state, s.slot("name").value) == ("override", "Mine")
    for patch in ({"fields": {"name": "x"}, "restore": ("name",)}, {"fields": {"name": "x"}, "regenerate": ("name",)},
                  {"lock_fields": ("city",), "regenerate": ("city",)}, {"restore": ("city",), "regenerate": ("city",)}):
        with pytest.raises(InvalidInput) as err:
            update(ready(), **patch)
        assert err.value.problems[0].rule == "conflict"


def test_regeneration_applies_to_untouched_fields_and_replaces_the_ai_original() -> None:
    s, _ = update(ready(), regenerate=("tagline", "city", "faqs"))
    assert set(s.regenerations["r1"].fields) == {"tagline", "city", "faqs"}
    s, _ = update(s, fields={"city": "Porto"})  # changed after the request: kept
    redraft = {"drafter": "extractive", "fields": {
        "tagline": {"value": "Calm flows", "state": "ai", "evidence": [ev("https://acme.test/", "Calm flows")]},
        "city": {"value": "Lisbon", "state": "ai", "evidence": [ev("https://acme.test/", "Lisbon")]}},
        "faqs": []}
    events = d.decide_regenerated(s, "r1", redraft, meta(2))
    (done,) = [e for e in events if isinstance(e, DraftFieldsRegenerated)]
    assert set(done.fields) == {"tagline", "faqs"} and done.skipped == ["city"]
    s = fold(s, events)
    assert s.slot("tagline").doc()["value"] == "Calm flows" and s.slot("tagline").state == "ai"
    assert s.slot("faqs").state == "not_found" and s.slot("city").value == "Porto"
    assert s.regenerations == {}
    s, _ = update(s, fields={"tagline": "Typed"})
    s, _ = update(s, restore=("tagline",))
    assert s.slot("tagline").value == "Calm flows"  # restore gives the newest AI value
    assert d.decide_regenerated(s, "r1", redraft, meta(3)) == []  # a repeated job does nothing


def test_sections_have_states_too() -> None:
    s, _ = update(ready(), faqs=[{"question": "Q?", "answer": "A."}], founders=[{"name": "Ana"}],
                  company_socials={"github": "https://github.com/acme", "x": None})
    assert s.slot("faqs").state == "edited" and s.slot("founders").state == "manual"
    assert s.slot("company_socials").value == {"github": "https://github.com/acme"}
    s, _ = update(s, faqs=[])
    assert s.slot("faqs").state == "deleted"


def test_merged_parts_and_replaced_lists() -> None:
    s, _ = update(ready(), story={"title": "Why", "problem": "P"}, seo={"title": "T"},
                  milestones=[{"date": "2024-01-02", "title": "Launch"}], founder_socials={"x": "https://x.com/ana"})
    s, events = update(s, story={"problem": None, "journey": "J"}, seo={"meta": "M"})
    assert s.story == {"title": "Why", "journey": "J"} and s.seo == {"title": "T", "meta": "M"}
    assert len(events) == 2
    _, none = update(s, milestones=[{"date": "2024-01-02", "title": "Launch"}])
    assert none == []


def test_competitor_url_sets_a_request_and_empty_clears_it() -> None:
    s, events = update(ready(), competitor_url="https://rival.test/")
    assert s.competitor is not None and s.competitor.status == "pending" and s.competitor.request_id == "r1"
    _, same = update(s, competitor_url="https://rival.test/")
    assert same == []
    s, _ = update(s, competitor_url="")
    assert s.competitor is None


def test_edits_wait_for_ready() -> None:
    with pytest.raises(Conflict):
        d.decide_update(submitted(), Patch(fields={"name": "x"}), meta(), request_id="r")
    with pytest.raises(NotFound):
        d.decide_update(d.initial(uuid4()), Patch(), meta(), request_id="r")


# ---------------------------------------------------------------- invites


def test_at_most_ten_invites_then_a_400_naming_email() -> None:
    s = ready()
    for i in range(d.MAX_INVITES):
        s = fold(s, d.decide_invite(s, invite_id=f"i{i}", email=f"p{i}@x.test", token_hash=f"h{i}",
                                    expires_at=T0 + d.INVITE_TTL, meta=meta()))
    with pytest.raises(InvalidInput) as err:
        d.decide_invite(s, invite_id="i11", email="q@x.test", token_hash="h", expires_at=T0, meta=meta())
    assert (err.value.problems[0].field, err.value.problems[0].rule) == ("email", "max_items")


def test_accepting_an_invite_makes_a_co_owner_once() -> None:
    s = ready()
    s = fold(s, d.decide_invite(s, invite_id="i1", email="p@x.test", token_hash="good", expires_at=T0 + timedelta(days=1),
                                meta=meta()))
    with pytest.raises(NotFound):
        d.decide_accept_invite(s, invite_id="i1", token_hash="bad", account_id="b2", meta=meta())
    with pytest.raises(InvalidInput):
        d.decide_accept_invite(s, invite_id="i1", token_hash="good", account_id="b2", meta=meta(60 * 25))
    s = fold(s, d.decide_accept_invite(s, invite_id="i1", token_hash="good", account_id="b2", meta=meta()))
    assert s.owners == ("a1", "b2")
    assert d.decide_accept_invite(s, invite_id="i1", token_hash="good", account_id="b2", meta=meta()) == []
    with pytest.raises(Conflict):
        d.decide_accept_invite(s, invite_id="i1", token_hash="good", account_id="c3", meta=meta())


# ---------------------------------------------------------------- the listing


def test_submitting_needs_ready_a_name_and_a_category() -> None:
    fresh, slug = listing.initial(listing.listing_stream(7)), listing.initial_slug(listing.slug_stream("acme"))
    with pytest.raises(Conflict):
        d.require_ready(submitted())
    s, _ = update(ready(), fields={"name": None, "categories": None})
    with pytest.raises(InvalidInput) as err:
        draft_listing.decide_create_from_draft(s, fresh, slug, listing_id=7, slug="acme", meta=meta())
    assert {p.field for p in err.value.problems} == {"fields.name", "fields.categories"}


def test_a_draft_becomes_a_listing_in_one_decision_over_draft_slug_and_listing() -> None:
    s = ready()
    fresh, slug = listing.initial(listing.listing_stream(7)), listing.initial_slug(listing.slug_stream("acme"))
    events = draft_listing.decide_create_from_draft(s, fresh, slug, listing_id=7, slug="acme", meta=meta())
    streams = {e.originator_id for e in events}
    assert streams == {s.id, listing.listing_stream(7), listing.slug_stream("acme")}
    s = fold(s, [e for e in events if e.originator_id == s.id])
    assert (s.listing_id, s.listing_slug) == (7, "acme")
    assert d.decide_link_listing(s, 7, "acme", meta()) == []
    with pytest.raises(InvalidInput):
        d.decide_update(s, Patch(fields={"name": None}), meta(), request_id="r")


def test_a_listed_draft_edit_brings_the_listing_along_with_before_and_after() -> None:
    s = ready()
    fresh, slug = listing.initial(listing.listing_stream(7)), listing.initial_slug(listing.slug_stream("acme"))
    made = draft_listing.decide_create_from_draft(s, fresh, slug, listing_id=7, slug="acme", meta=meta())
    current = draft_listing.fold(fresh, [e for e in made if e.originator_id == fresh.id], listing.evolve)
    s = fold(s, [e for e in made if e.originator_id == s.id])
    s, _ = update(s, fields={"tagline": "Sharper"}, milestones=[{"date": "2024-01-02", "title": "Launch"}])
    synced = draft_listing.decide_sync(current, s, meta())
    moved = [e for e in synced if e.originator_id == current.id]
    kinds = [type(e).__name__ for e in moved]
    assert kinds == ["ListingEdited", "ListingMilestoneAdded"]
    assert moved[0].changes["tagline"] == "Sharper" and moved[0].before["tagline"] != "Sharper"
    assert [e.originator_version for e in moved] == [current.version + 1, current.version + 2]
    (record,) = [e for e in synced if e.originator_id == s.id]  # the draft remembers what it sent
    assert isinstance(record, DraftListingSynced) and record.originator_version == s.version + 1
    assert set(record.sent) == {"tagline", "milestones"}


def listed(s: d.DraftState) -> tuple[d.DraftState, listing.ListingState]:
    """The draft saved as listing 7: the draft linked to it and the listing as created."""
    fresh, slug = listing.initial(listing.listing_stream(7)), listing.initial_slug(listing.slug_stream("acme"))
    made = draft_listing.decide_create_from_draft(s, fresh, slug, listing_id=7, slug="acme", meta=meta())
    return (fold(s, [e for e in made if e.originator_id == s.id]),
            draft_listing.fold(fresh, [e for e in made if e.originator_id == fresh.id], listing.evolve))


def both(s: d.DraftState, current: listing.ListingState,
         events: list[Event]) -> tuple[d.DraftState, listing.ListingState]:
    """Both states after a move's events."""
    return (fold(s, [e for e in events if e.originator_id == s.id]),
            draft_listing.fold(current, [e for e in events if e.originator_id == current.id], listing.evolve))


OWNER = Meta(at=T0 + timedelta(minutes=5), actor="account:a1", channel="web")


def test_resubmit_keeps_what_the_owner_changed_on_the_listing_since_and_carries_the_drafts_own_changes() -> None:
    s, current = listed(ready())
    assert s.listing_sent is not None and s.listing_sent["tagline"] == "Flows for teams"
    # the owner edits the listing itself (update_my_listing): a city, a story section, a milestone
    current = draft_listing.fold(current, listing.decide_edit(current, {"city": "Cork", "tagline": "Ours"}, OWNER),
                                 listing.evolve)
    current = draft_listing.fold(current, listing.decide_set_story(current, {"why_started": "Because"}, OWNER),
                                 listing.evolve)
    current = draft_listing.fold(current, listing.decide_add_milestone(
        current, {"date": "2023-05-01", "title": "Beta"}, OWNER), listing.evolve)
    # later the founder edits other parts in the draft and presses "Update the listing"
    s, _ = update(s, story={"title": "Why us"}, fields={"short_description": "Calm flows"},
                  milestones=[{"date": "2024-01-02", "title": "Launch"}])
    events = draft_listing.decide_resubmit(current, s, meta(10))
    s, current = both(s, current, events)
    assert (current.profile["city"], current.profile["tagline"]) == ("Cork", "Ours")  # the owner's edits stay
    assert current.profile["short_description"] == "Calm flows"  # the draft's changes arrive
    assert current.story == {"why_started": "Because", "title": "Why us"}
    assert sorted(m["title"] for m in current.milestones.values()) == ["Beta", "Launch"]
    assert isinstance(events[-1], DraftResubmitted) and events[-1].originator_version == s.version
    assert draft_listing.decide_resubmit(current, s, meta(11))[:-1] == []  # nothing changed since: nothing moves
    # a part the draft changes again reaches the listing, even one the owner changed there
    s, _ = update(s, fields={"tagline": "Sharper"}, milestones=[])
    s, current = both(s, current, draft_listing.decide_sync(current, s, meta(12)))
    assert (current.profile["tagline"], current.profile["city"]) == ("Sharper", "Cork")
    assert [m["title"] for m in current.milestones.values()] == ["Beta"]  # the draft's own milestone went


def test_a_history_that_does_not_know_what_it_sent_sends_everything_once_then_only_changes() -> None:
    s = ready()
    fresh, slug = listing.initial(listing.listing_stream(7)), listing.initial_slug(listing.slug_stream("acme"))
    made = draft_listing.decide_create_from_draft(s, fresh, slug, listing_id=7, slug="acme", meta=meta())
    linked = next(e for e in made if isinstance(e, DraftSubmittedAsListing))
    old = object.__new__(DraftSubmittedAsListing)  # stored before drafts kept what they sent: no `sent` key
    object.__setattr__(old, "__dict__", {k: v for k, v in vars(linked).items() if k != "sent"})
    s = d.evolve(old, s)
    current = draft_listing.fold(fresh, [e for e in made if e.originator_id == fresh.id], listing.evolve)
    assert (s.listing_id, s.listing_sent) == (7, None)
    current = draft_listing.fold(current, listing.decide_edit(current, {"city": "Cork"}, OWNER), listing.evolve)
    s, _ = update(s, story={"title": "Why us"})
    events = draft_listing.decide_resubmit(current, s, meta(10))
    s, current = both(s, current, events)
    assert "city" not in current.profile and current.story == {"title": "Why us"}  # as before: the draft wins
    assert s.listing_sent == draft_listing.sync_parts(d.listing_content(s))
    current = draft_listing.fold(current, listing.decide_edit(current, {"city": "Cork"}, OWNER), listing.evolve)
    s, _ = update(s, story={"title": "Why we"})
    s, current = both(s, current, draft_listing.decide_resubmit(current, s, meta(12)))
    assert current.profile["city"] == "Cork" and current.story == {"title": "Why we"}


def test_listing_content_maps_the_draft() -> None:
    s, _ = update(ready(), fields={"founded_year": "2021", "categories": ["productivity", "ai"]},
                  founders=[{"name": "Ana", "title": "CEO"}], founder_socials={"x": "https://x.com/ana"},
                  seo={"title": "Acme SEO"}, milestones=[{"date": "2024-01-02", "title": "Launch"}])
    content = d.listing_content(s)
    assert content["profile"]["name"] == "Acme" and content["profile"]["founded_year"] == 2021
    assert content["profile"]["website_url"] == "https://acme.test/" and content["profile"]["seo_title"] == "Acme SEO"
    assert content["categories"] == ["productivity"]  # free listings have one category
    assert d.listing_content(s, 3)["categories"] == ["productivity", "ai"]
    assert content["founders"] == [{"name": "Ana", "title": "CEO", "socials": {"x": "https://x.com/ana"}}]
    assert content["faqs"] == [{"question": "Is it free?", "answer": "Yes."}]
    assert content["owner_ids"] == ["a1"] and "city" in content["not_found_on_website"]


def test_vocabulary_matches_the_drafter() -> None:
    from events.draft_fields import SOCIAL_PLATFORMS
    from workers import drafting

    assert d.FIELD_NAMES == drafting.FIELD_NAMES
    assert d.COMPLETENESS_WEIGHTS == drafting.COMPLETENESS_WEIGHTS
    assert SOCIAL_PLATFORMS == drafting.SOCIAL_PLATFORMS
