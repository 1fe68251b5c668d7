"""The website words a refused field for people: by the field's known rule, then by the error's type, never raw."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError

from api.problems import field_problems
from api.web_errors import PATTERNS, domain_sentence, sentence, worded
from api.web_founder_pages import nested_problems
from api.web_pages import form_problems
from commands.catalog import SetProductPrice
from commands.claim_inputs import ClaimListing
from commands.draft_inputs import DraftFieldsInput, InviteCofounder, MilestoneInput, SubmitListing, UpdateDraft
from commands.my_listing_inputs import AddMilestone, PostListingUpdate, UpdateMyListing
from commands.order_inputs import QuoteOrder
from events.errors import FieldProblem, InvalidInput
from queries.badges import GetBadges

DRAFT_ID = "6f1c9a52-4a9e-4a53-9a0e-0c6b1f4a2b11"
RAW = ("String should", "Input should", "List should", "Value error", "^(", "pattern", "valid integer", "`",
       "list_categories", "after validation")


def _refusal(model: type[BaseModel], body: dict[str, Any]) -> ValidationError:
    with pytest.raises(ValidationError) as refused:
        model.model_validate(body)
    return refused.value


def _plain(text: str) -> bool:
    return not any(raw in text for raw in RAW) and text[:1].isupper() and text.endswith(".")


class Every(BaseModel):
    """One field per error type the translator words by type alone."""

    text: str = Field(min_length=3, max_length=5)
    required: str = Field(min_length=1)
    tags: list[str] = Field(min_length=2, max_length=3)
    count: int = Field(ge=1, le=9)
    above: float = Field(gt=0, lt=1)
    flag: bool
    shape: Literal["pill", "square"]
    when: str = Field(pattern=r"^x+$")
    missing: str


@pytest.mark.parametrize(("field", "value", "said"), [
    ("text", "ab", "Write at least 3 characters (you wrote 2)."),
    ("text", "abcdefg", "Write at most 5 characters (you wrote 7)."),
    ("required", "", "This is required."),
    ("tags", ["a"], "Choose at least 2 items."),
    ("tags", ["a", "b", "c", "d"], "At most 3 items (you gave 4)."),
    ("count", "seven", "Enter a whole number."),
    ("count", 1.5, "Enter a whole number."),
    ("count", 0, "Enter 1 or more."),
    ("count", 10, "Enter 9 or less."),
    ("above", "x", "Enter a number."),
    ("above", 0, "Enter more than 0."),
    ("above", 1, "Enter less than 1."),
    ("flag", "maybe", "Choose yes or no."),
    ("shape", "hexagon", "Choose one of the options offered."),
    ("when", "y", "This is not in the form this field takes; check it and try again."),
])
def test_each_error_type_has_plain_words(field: str, value: Any, said: str) -> None:
    good: dict[str, Any] = {"text": "abcd", "required": "r", "tags": ["a", "b"], "count": 5, "above": 0.5,
                            "flag": True, "shape": "pill", "when": "xx", "missing": "m"}
    refused = _refusal(Every, {**good, field: value})
    assert worded(refused) == [(field, said)]
    missing = _refusal(Every, {k: v for k, v in good.items() if k != "missing"})
    assert worded(missing) == [("missing", "This is required.")]


def test_a_built_in_type_without_words_gets_a_plain_fallback_and_a_custom_one_keeps_its_message() -> None:
    class Odd(BaseModel):
        items: frozenset[int]
        token: bytes = Field(max_length=2)

    refused = _refusal(Odd, {"items": "x", "token": b"long"})
    assert all(_plain(message) for _, message in worded(refused)), worded(refused)


@pytest.mark.parametrize(("model", "body", "field", "said"), [
    (DraftFieldsInput, {"country": "Germany"}, "country", "Enter two letters, like DE."),
    (DraftFieldsInput, {"founded_year": "99"}, "founded_year", "Enter a year of four digits, like 2021."),
    (DraftFieldsInput, {"logo_url": "ftp://files.example.com/logo.png"}, "logo_url",
     "Enter a link that starts with https:// or http://."),
    (DraftFieldsInput, {"contact_email": "not an address"}, "contact_email",
     "Enter an email address like name@example.com."),
    (DraftFieldsInput, {"tagline": "t" * 501}, "tagline", "Write at most 500 characters (you wrote 501)."),
    (MilestoneInput, {"date": "", "title": "Beta"}, "date", "Enter a date like 2024-03-01."),
    (MilestoneInput, {"date": "2024-02-30", "title": "Beta"}, "date", "Enter a date like 2024-03-01."),
    (MilestoneInput, {"date": "2024-03-01", "title": "Beta", "url": "http://a.example"}, "url",
     "Enter a link that starts with https://."),
    (UpdateDraft, {"id": DRAFT_ID, "faqs": [{"question": "", "answer": "Yes."}]}, "faqs.0.question",
     "This is required."),
    (UpdateDraft, {"id": DRAFT_ID, "regenerate": ["name"] * 6}, "regenerate", "At most 5 fields (you gave 6)."),
    (SubmitListing, {"url": ""}, "url", "This is required."),
    (InviteCofounder, {"id": DRAFT_ID, "email": "nobody"}, "email", "Enter an email address like name@example.com."),
    (UpdateMyListing, {"listing_id": 1, "fields": {"country": "Germany"}}, "fields.country",
     "Enter two letters, like DE."),
    (UpdateMyListing, {"listing_id": 1, "fields": {"founded_year": "soon"}}, "fields.founded_year",
     "Enter a year of four digits, like 2021."),
    (PostListingUpdate, {"listing_id": 1, "title": "", "body": "b"}, "title", "This is required."),
    (QuoteOrder, {"items": []}, "items", "Choose at least one product."),
    (QuoteOrder, {"items": [{"product": "billboard_min", "amount_cents": "10.001"}]}, "items.0.amount_cents",
     "Enter an amount in dollars, like 25 or 25.50."),
    (QuoteOrder, {"items": [{"product": "launch"}], "billing_country": "Germany"}, "billing_country",
     "Enter two letters, like DE."),
    (QuoteOrder, {"items": [{"product": "extra_categories", "categories": ["Dev Tools"]}]}, "items.0.categories.0",
     "Use lower-case letters, digits and hyphens, like developer-tools."),
    (SetProductPrice, {"code": "launch", "price_cents": -100}, "price_cents", "Enter $1.00 or more."),
    (ClaimListing, {"slug": "acme", "method": None}, "method", "Choose one of the options offered."),
    (GetBadges, {"slug": "acme", "shape": "hexagon"}, "shape", "Choose one of the options offered."),
])
def test_the_website_forms_models_in_words(model: type[BaseModel], body: dict[str, Any], field: str, said: str) -> None:
    refused = _refusal(model, body)
    assert dict(worded(refused))[field] == said
    assert all(_plain(message) for _, message in worded(refused))


def test_the_api_keeps_its_messages_and_rules() -> None:
    refused = _refusal(DraftFieldsInput, {"country": "Germany", "logo_url": "ftp://x"})
    api = {p.field: (p.rule, p.message) for p in field_problems(refused)}
    assert api == {"country": ("pattern", "String should match pattern '^(|[A-Za-z]{2})$'"),
                   "logo_url": ("format", "Value error, must be an http or https URL")}


def test_every_pattern_of_the_website_forms_models_has_words() -> None:
    def patterns(schema: Any) -> set[str]:
        if isinstance(schema, dict):
            own = {schema["pattern"]} if isinstance(schema.get("pattern"), str) and "format" not in schema else set()
            return own.union(*(patterns(v) for v in schema.values()))
        if isinstance(schema, list):
            return set().union(*(patterns(v) for v in schema))
        return set()

    models: list[type[BaseModel]] = [UpdateDraft, SubmitListing, UpdateMyListing, AddMilestone, ClaimListing,
                                     QuoteOrder, GetBadges]
    declared = set().union(*(patterns(m.model_json_schema()) for m in models))
    checked_by_function = {p for p in declared if "https?" in p or "https:" in p or "@" in p}  # links, addresses
    assert declared - checked_by_function <= set(PATTERNS), declared - checked_by_function - set(PATTERNS)


@pytest.mark.parametrize(("problem", "value", "said"), [
    (FieldProblem("fields.categories.2", "enum", "'not-a-category' is not a category of list_categories"),
     "not-a-category", "“not-a-category” is not a category of the directory; use one from the categories page."),
    (FieldProblem("fields.categories", "enum", "category slugs from list_categories"), None,
     "Use categories from the categories page."),
    (FieldProblem("email", "not_allowed", "Only send `email` with method `email`."), None,
     "Leave the email address empty unless you prove it by email."),
    (FieldProblem("answers.0.question_id", "enum", "9 is not the id of a question of list_interview_questions"), None,
     "This question is no longer asked; reload the page to see the current ones."),
    (FieldProblem("fields.categories", "required", "set categories before submitting the draft"), None,
     "A listing needs this: fill it in."),
    (FieldProblem("items.0.categories", "enum", "unknown categories: nope (see list_categories)"), None,
     "Unknown categories: nope."),
    (FieldProblem("email", "domain", "Use an address at acme.com or one of its subdomains."), None,
     "Use an address at acme.com or one of its subdomains."),
    (FieldProblem("fields.tagline", "max_length", "a listing's tagline is at most 200 characters (this one has 312); "
                  "shorten it in the draft"), None,
     "A listing's tagline is at most 200 characters (this one has 312); shorten it in the draft."),
])
def test_domain_messages_worded_for_api_clients_have_the_websites_words(problem: FieldProblem, value: Any,
                                                                        said: str) -> None:
    assert domain_sentence(problem, value) == said


def test_a_refused_value_is_quoted_from_what_was_sent() -> None:
    exc = InvalidInput("unknown categories", [FieldProblem("fields.categories.1", "enum", "'Nope' is not a category "
                                                                                          "of list_categories")])
    sent = {"id": DRAFT_ID, "fields": {"categories": ["developer-tools", "Nope"]}}
    assert worded(exc, sent) == [("fields.categories.1", "“Nope” is not a category of the directory; use one from "
                                                         "the categories page.")]
    assert worded(InvalidInput("nothing to name")) == [("form", "nothing to name")]


def test_the_pages_helpers_name_the_form_field() -> None:
    refused = _refusal(UpdateMyListing, {"listing_id": 1, "fields": {"country": "Germany"}})
    assert form_problems(refused) == {"fields": "Enter two letters, like DE."}
    assert nested_problems(refused, lambda path: path.split(".")[-1]) == {"country": "Enter two letters, like DE."}
    assert sentence(refused.errors()[0]) == "Enter two letters, like DE."
