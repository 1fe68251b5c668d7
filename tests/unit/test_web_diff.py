"""The readable before/after of the staff pages: whole words for text, lines for lists and objects."""

from __future__ import annotations

from api.web_diff import Segment, diff, field_diffs


def test_text_is_compared_word_by_word() -> None:
    d = diff("description", "We build docs for teams.", "We build great docs for teams.")
    assert d.before == [Segment("same", "We build docs for teams.")]
    assert d.after == [Segment("same", "We build "), Segment("ins", "great "), Segment("same", "docs for teams.")]
    assert not d.lines


def test_a_replaced_value_is_one_removal_and_one_addition_and_empty_values_have_no_segments() -> None:
    d = diff("tagline", "An honest tagline", "Cheap pills here")
    assert d.before == [Segment("del", "An honest tagline")] and d.after == [Segment("ins", "Cheap pills here")]
    cleared = diff("city", "Lyon", None)
    assert cleared.before == [Segment("del", "Lyon")] and cleared.after == []


def test_lists_objects_and_lists_of_objects_are_compared_line_by_line() -> None:
    d = diff("features", ["Sync", "Search"], ["Sync", "Share"])
    assert d.lines and d.before == [Segment("same", "Sync\n"), Segment("del", "Search\n")]
    assert d.after == [Segment("same", "Sync\n"), Segment("ins", "Share\n")]
    story = diff("story", {"title": "A", "lessons": "Many"}, {"title": "B", "lessons": "Many"})
    assert story.before == [Segment("del", "Title: A\n"), Segment("same", "Lessons learned: Many\n")]
    faqs = field_diffs({"faqs": {"before": [], "after": [{"question": "Free?", "answer": "Yes."}]}})
    assert faqs[0].after == [Segment("ins", "Question: Free?\nAnswer: Yes.\n")] and faqs[0].before == []


def test_fields_read_as_the_forms_name_them_in_the_forms_order() -> None:
    """A created listing's version lists every field: by label, in form order, items' parts in reading order."""
    created = field_diffs({
        "socials": {"before": None, "after": {"github": "https://github.example/a", "x": "https://x.example/a"}},
        "faqs": {"before": None, "after": [{"answer": "Yes.", "question": "Free?"}]},
        "founded_year": {"before": None, "after": "2021"},
        "not_found_on_website": {"before": None, "after": ["stage", "usps"]},
        "name": {"before": None, "after": "Abacus"},
        "a_field_no_form_names": {"before": None, "after": "x"},
    })
    assert [d.label for d in created] == ["Name", "Founded (year)", "FAQs", "Links", "Not found on the website",
                                          "A field no form names"]
    assert [d.field for d in created][:2] == ["name", "founded_year"]  # the key stays for staff's put-back
    by_label = {d.label: d for d in created}
    assert by_label["FAQs"].after == [Segment("ins", "Question: Free?\nAnswer: Yes.\n")]
    assert by_label["Links"].after == [Segment("ins", "GitHub: https://github.example/a\nX: https://x.example/a\n")]
    assert by_label["Not found on the website"].after == [Segment("ins", "Stage\nWhat sets it apart\n")]


def test_a_milestone_reads_without_its_internal_id() -> None:
    milestone = {"milestone_id": 7, "date": "2024-03-01", "title": "First paying customer", "url": ""}
    deleted = field_diffs({"milestones": {"before": milestone, "after": None}})
    assert "".join(s.text for s in deleted[0].before) == "Title: First paying customer\nDate: 2024-03-01\n"
    listed = diff("milestones", [milestone], [])
    assert listed.before == [Segment("del", "Title: First paying customer\nDate: 2024-03-01\n")]


def test_values_read_as_the_pages_show_them() -> None:
    """A stage, a pricing model, a country and categories in words, as the listing's page names them."""
    shown = field_diffs({
        "stage": {"before": "alpha", "after": "beta"},
        "pricing_model": {"before": None, "after": "free trial"},
        "country": {"before": "IE", "after": "EE"},
        "categories": {"before": None, "after": ["productivity", "notes-docs", "gone-now"]},
    }, {"productivity": "Productivity", "notes-docs": "Notes & Docs"})
    by_label = {d.label: d for d in shown}
    assert (by_label["Stage"].before, by_label["Stage"].after) == ([Segment("del", "Alpha")], [Segment("ins", "Beta")])
    assert by_label["Pricing model"].after == [Segment("ins", "Free trial")]
    assert by_label["Country"].before == [Segment("del", "Ireland")] and by_label["Country"].after == [Segment("ins", "Estonia")]
    assert by_label["Categories"].after == [Segment("ins", "Productivity\nNotes & Docs\ngone-now\n")]
    assert [d.field for d in shown] == ["stage", "pricing_model", "country", "categories"]  # keys stay for put-back


def test_faqs_read_one_part_a_line_and_a_changed_answer_is_one_changed_line() -> None:
    before = [{"question": "Free?", "answer": "Yes."}, {"question": "Export?", "answer": "CSV."}]
    after = [{"question": "Free?", "answer": "Yes, for one user."}, {"question": "Export?", "answer": "CSV."}]
    d = diff("faqs", before, after)
    assert d.after == [Segment("same", "Question: Free?\n"), Segment("ins", "Answer: Yes, for one user.\n"),
                       Segment("same", "\nQuestion: Export?\nAnswer: CSV.\n")]
    assert "?;" not in "".join(s.text for s in d.before + d.after)
