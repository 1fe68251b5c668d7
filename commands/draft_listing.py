"""What a draft carries into its listing must fit the listing's own bounds.

A draft takes wider text than a listing (SPEC §4.4 against §4.5: a draft's
tagline may have 500 characters, a listing's 200), so the founder can paste
and trim. Whatever a draft move carries into the listing (the first
submit_draft, submitting again, an edit of a listed draft) is checked here
against the listing operations' own input models (`UpdateMyListing`,
`SetFounderStory`, `AddMilestone`), never against copied numbers: a value
that does not fit is a 400 naming the draft's field and the listing's rule,
and nothing is stored, so the owner is never left with a listing whose own
form cannot be saved unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from aggregates.draft_listing import MILESTONES, STORY_PART
from commands.my_listing_inputs import AddMilestone, MyListingFields, SetFounderStory, UpdateMyListing
from events.errors import FieldProblem, InvalidInput

_ANY_LISTING = 1  # the listing models want an id; only the values are checked here

DRAFT_PATHS = {"seo_title": "seo.title", "seo_description": "seo.meta", "socials": "company_socials"}
"""Listing names whose draft input is named otherwise (the rest are `fields.<name>` or the same section)."""

_WORDS = {"seo_title": "SEO title", "seo_description": "SEO description", "usps": "USPs",
          "demo_video_url": "demo video link"}

_RULES = {"string_too_long": "max_length", "too_long": "max_items", "string_pattern_mismatch": "pattern",
          "greater_than_equal": "minimum", "less_than_equal": "maximum", "value_error": "format"}


def check_fits_listing(parts: Mapping[str, Any]) -> None:
    """Refuse (InvalidInput, 400) when a part the draft carries breaks a bound of the listing's own inputs.

    `parts` are the draft's parts as the listing takes them
    (`aggregates.draft_listing.sync_parts` / `parts_to_send`); absent values are not checked.
    """
    problems: list[tuple[str, FieldProblem]] = []
    fields = {k: v for k, v in parts.items() if k in MyListingFields.model_fields and v is not None}
    profile: dict[str, Any] = {"listing_id": _ANY_LISTING, "fields": fields}
    for section in ("socials", "faqs"):
        if parts.get(section):
            profile[section] = parts[section]
    problems += _problems(UpdateMyListing, profile, ())
    story = {k[len(STORY_PART):]: v for k, v in parts.items() if k.startswith(STORY_PART) and v}
    if story:
        problems += _problems(SetFounderStory, {"listing_id": _ANY_LISTING, **story}, ("story",))
    for i, milestone in enumerate(parts.get(MILESTONES) or ()):
        problems += _problems(AddMilestone, {"listing_id": _ANY_LISTING, **milestone}, (MILESTONES, i))
    if problems:
        names = ", ".join(dict.fromkeys(name for name, _ in problems))
        raise InvalidInput(f"a listing cannot take these draft values as they are: {names}; change them in the draft",
                           [problem for _, problem in problems])


def _problems(model: type[BaseModel], values: dict[str, Any],
              prefix: tuple[str | int, ...]) -> list[tuple[str, FieldProblem]]:
    """(how the value is named, the problem) for each listing bound `values` break."""
    try:
        model.model_validate(values)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        return [(_name((*prefix, *err["loc"])), _problem((*prefix, *err["loc"]), err)) for err in errors]
    return []


def _problem(loc: Sequence[str | int], err: Any) -> FieldProblem:
    """One broken listing bound, named as the draft's input and worded for the founder."""
    path = [str(p) for p in loc]
    if path[0] == "fields":
        path = DRAFT_PATHS.get(path[1], f"fields.{path[1]}").split(".") + path[2:]
    else:
        path[0] = DRAFT_PATHS.get(path[0], path[0])
    what = _name(loc)
    ctx = err.get("ctx") or {}
    value = err.get("input")
    size = len(value) if isinstance(value, (str, list, dict)) else 0
    kind = err["type"]
    if kind == "string_too_long":
        message = (f"a listing's {what} is at most {ctx.get('max_length')} characters (this one has {size}); "
                   "shorten it in the draft")
    elif kind == "too_long":
        message = f"a listing has at most {ctx.get('max_length')} {what} (this one has {size}); remove some in the draft"
    elif kind in ("greater_than_equal", "less_than_equal"):
        bound = f"at least {ctx.get('ge')}" if kind == "greater_than_equal" else f"at most {ctx.get('le')}"
        message = f"a listing's {what} is {bound} (this one is {value}); change it in the draft"
    elif kind == "value_error":
        message = f"a listing's {what} {str(err['msg']).removeprefix('Value error, ')}; change it in the draft"
    else:
        message = f"a listing's {what} does not fit: {err['msg']}; change it in the draft"
    return FieldProblem(".".join(path), _RULES.get(kind, kind), message)


def _name(loc: Sequence[str | int]) -> str:
    """How the message names the value: `tagline`, `features` item 3, story title, FAQ 2 answer, milestone 1 title."""
    head, rest = str(loc[0]), list(loc[1:])
    if head == "fields" and rest:
        name, rest = str(rest[0]), rest[1:]
        label = _WORDS.get(name, name.replace("_", " "))
        return f"{label} item {int(rest[0]) + 1}" if rest and isinstance(rest[0], int) else label
    if head == "story" and rest:
        return f"story {str(rest[0]).replace('_', ' ')}"
    if head in ("faqs", MILESTONES):
        singular = "FAQ" if head == "faqs" else "milestone"
        if rest and isinstance(rest[0], int):
            return f"{singular} {rest[0] + 1} {' '.join(str(p) for p in rest[1:])}".strip()
        return "FAQs" if head == "faqs" else "milestones"
    if head == "socials":
        return f"{' '.join(str(p) for p in rest)} link".strip()
    return " ".join(str(p) for p in loc)
