"""The founder interview against real PostgreSQL (answers on the founder profile only while the person owns a live
listing), and `launchdir staff unlock` opening the story and milestones of a live listing's public profile."""

from __future__ import annotations

from datetime import datetime, timezone
from uuid import uuid4

import pytest
from click.testing import CliRunner

from aggregates.base import Meta
from commands import content as content_cmd
from commands import interview as interview_cmd
from commands import listing as listing_cmd
from aggregates.listing import listing_stream
from events.errors import InvalidInput
from events.listing import ListingSectionsUnlocked
from launchdir.cli import main
from queries import founders as founders_q
from queries import interview as interview_q
from queries.listings import GetListing, get_listing

VIEWS = ("listing_view", "interview_view", "content_view", "catalog_view")


def _meta(actor: str = "staff:test") -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor=actor, channel="cli")


def _caught_up(c) -> None:  # type: ignore[no-untyped-def]
    for name in VIEWS:
        c.runtime.catch_up(name)


def _answer(c, account_id: str, *answers: tuple[int, str]) -> None:  # type: ignore[no-untyped-def]
    cmd = interview_cmd.AnswerInterview.model_validate({"answers": [{"question_id": q, "answer": a} for q, a in answers]})
    interview_cmd.answer_interview(c.store, cmd, account_id, _meta(f"account:{account_id}"))


def test_answers_show_on_the_founder_profile_only_while_the_person_owns_a_live_listing(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    person, cofounder = str(uuid4()), str(uuid4())
    content_cmd.create_founder_profile(c.store, content_cmd.CreateFounderProfile(
        slug="ada-builds", name="Ada", account_id=person), _meta())
    _answer(c, person, (3, "  Because invoices hurt.  "), (1, "Invoicing for freelancers."))
    _caught_up(c)
    reads = c.services.reads
    mine = interview_q.my_interview(reads, person)
    assert [(i["question_id"], i["answer"]) for i in mine["items"]] == [(1, "Invoicing for freelancers."),
                                                                      (3, "Because invoices hurt.")]
    assert mine["items"][1]["question"] == "Why did you start building it?" and mine["shown_publicly"] is False
    assert interview_q.interview_standing(reads, person) == {"owns_live": False,  # what is missing: a live listing
                                                             "profile": {"slug": "ada-builds", "name": "Ada"}}
    assert interview_q.interview_standing(reads, cofounder) == {"owns_live": False, "profile": None}
    assert founders_q.get_founder(reads, founders_q.GetFounder(slug="ada-builds"))["interview"] == []

    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Invoicely"}, categories=["notes-docs"], owner_ids=[cofounder]), _meta())
    listing_cmd.staff_publish(c.store, created.listing_id, _meta())
    _caught_up(c)
    assert founders_q.get_founder(reads, founders_q.GetFounder(slug="ada-builds"))["interview"] == []  # not hers
    listing_cmd.add_owner(c.store, created.listing_id, person, _meta())
    _caught_up(c)
    shown = founders_q.get_founder(reads, founders_q.GetFounder(slug="ada-builds"))["interview"]
    assert [(i["question_id"], i["question"], i["answer"]) for i in shown] == [
        (1, "What does your product do, in one or two sentences?", "Invoicing for freelancers."),
        (3, "Why did you start building it?", "Because invoices hurt.")]
    assert interview_q.my_interview(reads, person)["shown_publicly"] is True
    assert interview_q.interview_standing(reads, cofounder) == {"owns_live": True, "profile": None}  # no profile

    _answer(c, person, (3, ""), (8, "Teams."))
    listing_cmd.unpublish(c.store, created.listing_id, "taken down", _meta())
    _caught_up(c)
    assert founders_q.get_founder(reads, founders_q.GetFounder(slug="ada-builds"))["interview"] == []
    assert [i["question_id"] for i in interview_q.my_interview(reads, person)["items"]] == [1, 8]
    c.runtime.rebuild("interview_view")
    assert [i["question_id"] for i in interview_q.my_interview(reads, person)["items"]] == [1, 8]


def test_unknown_and_repeated_questions_are_refused_and_nothing_is_stored(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    person = str(uuid4())
    with pytest.raises(InvalidInput) as refused:
        _answer(c, person, (1, "ok"), (999, "no such question"))
    assert [(p.field, p.rule) for p in refused.value.problems] == [("answers.1.question_id", "enum")]
    with pytest.raises(InvalidInput):
        _answer(c, person, (2, "a"), (2, "b"))
    assert interview_cmd.load(c.store, person).version == 0


def test_staff_unlock_shows_milestones_and_the_story_on_the_public_profile(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    created = listing_cmd.create_listing(c.store, listing_cmd.CreateListing(
        profile={"name": "Locked Away"}, categories=["notes-docs"], story={"problem": "Too many tabs."},
        milestones=[{"milestone_id": 1, "date": "2025-01-02", "title": "Beta", "description": "", "url": ""}]), _meta())
    listing_cmd.staff_publish(c.store, created.listing_id, _meta())
    c.runtime.catch_up("listing_view")

    def public() -> dict:  # type: ignore[type-arg]
        c.runtime.catch_up("listing_view")
        return get_listing(c.services.reads, GetListing(slug=created.slug), c.services.links)

    assert not public().get("milestones") and not public().get("story")
    runner = CliRunner()
    one = runner.invoke(main, ["staff", "unlock", created.slug, "milestones", "--actor", "ops"], obj=c)
    assert one.exit_code == 0, one.output
    assert one.stdout.strip() == f"{created.slug}: unlocked milestones"
    doc = public()
    assert [m["title"] for m in doc["milestones"]] == ["Beta"] and not doc.get("story")
    both = runner.invoke(main, ["staff", "unlock", created.slug, "story", "milestones"], obj=c)
    assert both.exit_code == 0, both.output
    assert both.stdout.splitlines() == [f"{created.slug}: unlocked story", f"{created.slug}: already unlocked: milestones"]
    assert public()["story"]["problem"] == "Too many tabs."
    unlocked = [e for e in c.store.stream(listing_stream(created.listing_id)) if isinstance(e, ListingSectionsUnlocked)]
    assert [e.sections for e in unlocked] == [["milestones"], ["story"]]
    assert (unlocked[0].actor, unlocked[0].channel, unlocked[0].reason) == ("staff:ops", "cli", "unlocked by staff")
    assert runner.invoke(main, ["staff", "unlock", "no-such-listing", "story"], obj=c).exit_code == 1
    assert runner.invoke(main, ["staff", "unlock", created.slug, "billboard"], obj=c).exit_code == 2
