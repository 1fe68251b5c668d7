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
    assert story.before == [Segment("del", "title: A\n"), Segment("same", "lessons: Many\n")]
    faqs = field_diffs({"faqs": {"before": [], "after": [{"question": "Free?", "answer": "Yes."}]}})
    assert faqs[0].after == [Segment("ins", "question: Free?; answer: Yes.\n")] and faqs[0].before == []
