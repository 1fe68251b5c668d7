"""The draft editor's forms read into update_draft input: only what changed is sent, and errors land on inputs."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from starlette.datastructures import FormData

from api import web_draft_forms as forms
from api.web_draft_view import error_label
from commands.draft_inputs import UpdateDraft
from events.draft_fields import FIELD_NAMES
from events.errors import FieldProblem, InvalidInput

DRAFT_ID = "6f1c9a52-4a9e-4a53-9a0e-0c6b1f4a2b11"


def _doc(**fields: Any) -> dict[str, Any]:
    slots = {name: {"value": None, "state": "not_found", "evidence": []} for name in FIELD_NAMES}
    for name, value in fields.items():
        slots[name] = {"value": value, "state": "ai", "evidence": []}
    return {"id": DRAFT_ID, "fields": slots, "faqs": [{"question": "Q?", "answer": "A.", "evidence": []}],
            "founders": [], "milestones": [], "company_socials": {"x": "https://x.example/acme"},
            "founder_socials": {}, "story": {}, "seo": {}, "competitor": None}


def _all_fields(doc: dict[str, Any], **changed: str) -> list[tuple[str, str]]:
    """What the browser posts: every input of the fields form, as shown, with `changed` typed over."""
    items = [("section", "fields")]
    for name in FIELD_NAMES:
        shown = forms.field_value(name, doc["fields"][name]["value"])
        items.append((f"fields.{name}", changed.get(name, shown)))
    return items


def test_only_changed_fields_are_sent_untouched_empty_ones_are_not_deleted() -> None:
    doc = _doc(name="Acme", tagline="Old line", features=["Fast", "Small"])
    edit = forms.read(FormData(_all_fields(doc, tagline="New line ")), doc)
    assert edit.raw == {"id": DRAFT_ID, "fields": {"tagline": "New line "}}
    assert forms.read(FormData(_all_fields(doc)), doc).changes_nothing


def test_lists_are_one_item_a_line() -> None:
    doc = _doc(name="Acme", features=["Fast", "Small"])
    edit = forms.read(FormData(_all_fields(doc, features="Fast\n\n  Small \nCheap")), doc)
    assert edit.raw["fields"] == {"features": ["Fast", "Small", "Cheap"]}
    cleared = forms.read(FormData(_all_fields(doc, features="")), doc)
    assert cleared.raw["fields"] == {"features": []}


@pytest.mark.parametrize(("op", "expected"), [
    ("lock:tagline", {"lock_fields": ["tagline"]}),
    ("restore:tagline", {"restore": ["tagline"]}),
    ("delete:tagline", {"fields": {"tagline": None}}),
])
def test_per_field_buttons(op: str, expected: dict[str, Any]) -> None:
    doc = _doc(name="Acme", tagline="Line")
    edit = forms.read(FormData([*_all_fields(doc), ("op", op)]), doc)
    assert edit.raw == {"id": DRAFT_ID, **expected}
    UpdateDraft.model_validate(edit.raw)


def test_regenerate_sends_the_checked_fields_and_more_than_five_is_the_operations_message() -> None:
    doc = _doc(name="Acme")
    six = ["name", "tagline", "description", "city", "stage", "tags"]
    edit = forms.read(FormData([*_all_fields(doc, name="Typed"), ("op", "regenerate"),
                                *[("regenerate", n) for n in six]]), doc)
    assert edit.raw == {"id": DRAFT_ID, "regenerate": six}, "an unsaved edit of a regenerated field is dropped"
    with pytest.raises(ValidationError) as refused:
        UpdateDraft.model_validate(edit.raw)
    assert set(forms.problems(refused.value)) == {"regenerate"}


def test_item_rows_drop_empty_ones_and_errors_name_the_row_input() -> None:
    doc = _doc(name="Acme")
    form = FormData([("section", "milestones"), ("milestones.0.date", "2024-03-01"),
                     ("milestones.0.title", "Beta"), ("milestones.0.url", "http://plain.example.com"),
                     ("milestones.1.date", ""), ("milestones.1.title", "")])
    edit = forms.read(form, doc)
    assert edit.raw["milestones"] == [{"date": "2024-03-01", "title": "Beta", "description": None,
                                       "url": "http://plain.example.com"}]
    with pytest.raises(ValidationError) as refused:
        UpdateDraft.model_validate(edit.raw)
    assert forms.problems(refused.value) == {"milestones.0.url": "Enter a link that starts with https://."}


def test_unchanged_faqs_send_nothing_and_a_new_row_adds_one() -> None:
    doc = _doc(name="Acme")
    same = [("section", "faqs"), ("faqs.0.question", "Q?"), ("faqs.0.answer", "A.")]
    assert forms.read(FormData(same), doc).changes_nothing
    added = forms.read(FormData([*same, ("faqs.1.question", "New?"), ("faqs.1.answer", "Yes.")]), doc)
    assert added.raw["faqs"] == [{"question": "Q?", "answer": "A."}, {"question": "New?", "answer": "Yes."}]


def test_socials_send_changed_links_and_section_buttons_act_on_the_slot() -> None:
    doc = _doc(name="Acme")
    form = FormData([("section", "company_socials"), ("company_socials.x", "https://x.example/acme"),
                     ("company_socials.github", "https://github.example/acme")])
    assert forms.read(form, doc).raw == {"id": DRAFT_ID, "company_socials": {"github": "https://github.example/acme"}}
    locked = forms.read(FormData([*form.multi_items(), ("op", "lock")]), doc)
    assert locked.raw == {"id": DRAFT_ID, "company_socials": {"github": "https://github.example/acme"},
                          "lock_fields": ["company_socials"]}, "what was typed is saved, then locked"
    UpdateDraft.model_validate(locked.raw)
    restored = forms.read(FormData([*form.multi_items(), ("op", "restore")]), doc)
    assert restored.raw == {"id": DRAFT_ID, "restore": ["company_socials"]}, "restore asks for the drafted links back"
    deleted = forms.read(FormData([("section", "company_socials"), ("op", "delete")]), doc)
    assert deleted.raw == {"id": DRAFT_ID, "company_socials": {"x": ""}}


def test_a_domain_problem_on_a_list_item_lands_on_its_list_in_the_websites_words() -> None:
    exc = InvalidInput("unknown category", [FieldProblem("fields.categories.1", "enum",
                                                         "'Nope' is not a category of list_categories")])
    sent = {"id": DRAFT_ID, "fields": {"categories": ["developer-tools", "Nope"]}}
    assert forms.problems(exc, sent) == {
        "fields.categories": "“Nope” is not a category of the directory; use one from the categories page."}


@pytest.mark.parametrize(("name", "label"), [
    ("fields.tagline", "Tagline"), ("milestones.0.url", "Milestone 1: Link"), ("faqs.2.answer", "FAQ 3: Answer"),
    ("founders.0.title", "Founder 1: Role"), ("company_socials.github", "Company links: GitHub"),
    ("story.whats_next", "Story: What's next"), ("seo.title", "Page title"), ("email", "Co-founder's email address"),
    ("form", ""),
])
def test_errors_in_the_summary_say_which_input(name: str, label: str) -> None:
    assert error_label(name) == label


def test_one_form_every_section_is_sent_whichever_button_is_pressed() -> None:
    doc = _doc(name="Acme", tagline="Old line")
    typed = [*_all_fields(doc, tagline="New line"), ("faqs.0.question", "Q?"), ("faqs.0.answer", "A better answer."),
             ("seo.title", "Acme, invoices"), ("story.journey", "We began in 2023.")]
    expected = {"id": DRAFT_ID, "fields": {"tagline": "New line"},
                "faqs": [{"question": "Q?", "answer": "A better answer."}],
                "story": {"journey": "We began in 2023."}, "seo": {"title": "Acme, invoices"}}
    for op, at in (("save", "changes"), ("save:seo", "seo"), ("save:faqs", "faqs")):
        edit = forms.read(FormData([*typed, ("op", op)]), doc)
        assert (edit.raw, edit.at) == (expected, at), op
    locked = forms.read(FormData([*typed, ("op", "lock:city")]), doc)
    assert locked.raw == {**expected, "lock_fields": ["city"]} and locked.at == "slot-city"
    UpdateDraft.model_validate(locked.raw)


def test_the_error_summary_reads_the_shared_table_of_field_key_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    """One table (api/field_labels.py FIELD_KEY_LABELS) names a part an item of one field calls otherwise: the
    editor's error summary follows it, as the version pages do (`key_label`), rather than a copy of its own."""
    from api.field_labels import FIELD_KEY_LABELS, key_label

    monkeypatch.setitem(FIELD_KEY_LABELS, ("milestones", "url"), "Announcement")
    assert key_label("url", "milestones") == "Announcement"  # the version pages' words
    assert error_label("milestones.0.url") == "Milestone 1: Announcement"  # the error summary's, the same
    assert error_label("founders.0.title") == "Founder 1: Role"
