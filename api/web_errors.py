"""How the website words a refused field: one sentence a person can act on, never the validator's own wording.

The website's forms build the operations' own input models, so a refusal is
a pydantic error (the model's bounds) or a domain `InvalidInput` (the
command's rules). The REST API and MCP show both as they are, with their
`rule` codes (`api/problems.py`); the website shows them through here:

- a pydantic error by the field's known rule first (the pattern it failed,
  the format of a field like `country`), then by its type: "Enter two
  letters, like DE.", "Write at most 200 characters (you wrote 312).",
  "This is required.", "Choose at least one product.", "Enter a whole number.";
  any other built-in type gets a plain sentence too, and a project's own error
  type (a password rule) keeps its message, which is written for people;
- a domain problem keeps its message unless it is worded for API clients
  (names an operation such as list_categories, or a parameter in backticks):
  those have the website's own wording here, keyed by rule and field.

Nothing here checks a value: it only words what the models and commands decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, get_args

from pydantic import ValidationError
from pydantic_core import ErrorDetails
from pydantic_core.core_schema import ErrorType

from events.errors import FieldProblem, InvalidInput

TWO_LETTERS = "Enter two letters, like DE."
YEAR = "Enter a year of four digits, like 2021."
DATE = "Enter a date like 2024-03-01."
SLUG = "Use lower-case letters, digits and hyphens, like developer-tools."
HTTP_LINK = "Enter a link that starts with https:// or http://."
HTTPS_LINK = "Enter a link that starts with https://."
EMAIL = "Enter an email address like name@example.com."
DOLLARS = "Enter an amount in dollars, like 25 or 25.50."
REQUIRED = "This is required."

PATTERNS: dict[str, str] = {
    r"^(|[A-Za-z]{2})$": TWO_LETTERS,
    r"^[A-Za-z]{2}$": TWO_LETTERS,
    r"^(|[0-9]{4})$": YEAR,
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$": DATE,
    r"^\d{4}-\d{2}-\d{2}$": DATE,
    r"^[a-z0-9][a-z0-9-]{0,219}$": SLUG,
}
"""A pattern an input model declares -> what a value must look like, in words."""

FORMATS: dict[str, str] = {"country": TWO_LETTERS, "billing_country": TWO_LETTERS, "founded_year": YEAR,
                           "date": DATE, "week": DATE}
"""Fields with a format of their own: any length, pattern or parsing error of theirs says that format."""

VALUE_ERRORS: dict[str, str] = {
    "must be an http or https URL": HTTP_LINK,
    "must be an https URL": HTTPS_LINK,
    "must be an email address like name@example.com": EMAIL,
}
"""The input models' own checks (`ValueError` texts) -> the website's words."""

LIST_NOUNS: dict[str, tuple[str, str]] = {
    "items": ("product", "products"), "categories": ("category", "categories"), "regenerate": ("field", "fields"),
    "lock_fields": ("field", "fields"), "restore": ("field", "fields"), "faqs": ("question", "questions"),
    "founders": ("founder", "founders"), "milestones": ("milestone", "milestones"), "scopes": ("scope", "scopes"),
    "answers": ("answer", "answers"),
}
"""What a list's entries are called ("Choose at least one product."); other lists count "items"."""

_FORMAT_TYPES = {"string_too_short", "string_too_long", "string_pattern_mismatch", "int_parsing", "int_type",
                 "int_from_float", "date_parsing", "date_type", "date_from_datetime_parsing"}
_BUILT_IN = frozenset(get_args(ErrorType))
_OPERATION_HINT = re.compile(r"\s*\(see (?:list|get)_\w+\)")


def sentence(error: ErrorDetails) -> str:
    """One pydantic error as the website says it."""
    kind, ctx = error["type"], dict(error.get("ctx") or {})
    field = next((str(p) for p in reversed(error.get("loc") or ()) if isinstance(p, str)), "")
    if kind == "string_pattern_mismatch" and str(ctx.get("pattern")) in PATTERNS:
        return PATTERNS[str(ctx["pattern"])]
    if kind in _FORMAT_TYPES and field in FORMATS and not _empty_required(kind, ctx):
        return FORMATS[field]
    if kind == "value_error":
        said = str(ctx.get("error", "")).strip()
        return VALUE_ERRORS.get(said) or _polish(said) or "Check this value."
    if field.endswith("_cents") and kind in _NUMBER_WORDS:
        return _NUMBER_WORDS[kind](_in_dollars(ctx))
    worded = _BY_TYPE.get(kind)
    if worded is not None:
        return worded(ctx, error.get("input"), field)
    if kind in _BUILT_IN:
        return "This value is not accepted here; check it and try again."
    return _polish(error["msg"])  # a project's own error type: its message is written for people


def domain_sentence(problem: FieldProblem, value: Any = None) -> str:
    """A command's problem as the website says it: its message, unless that is worded for API clients."""
    for rule, where, words in _DOMAIN:
        if problem.rule == rule and where.fullmatch(problem.field):
            return words(value)
    return _polish(_OPERATION_HINT.sub("", problem.message).replace("`", ""))


def worded(exc: InvalidInput | ValidationError, sent: Any = None) -> list[tuple[str, str]]:
    """(dotted field path, sentence) for each problem in order; a problem of no field is `form`.

    `sent` is the input the model or command was given, for the few sentences
    that quote the value (a domain problem carries only its field's path).
    """
    if isinstance(exc, InvalidInput):
        found = [(p.field or "form", domain_sentence(p, _at(sent, p.field))) for p in exc.problems]
        return found or [("form", exc.detail)]
    return [(".".join(str(p) for p in err.get("loc") or ()) or "form", sentence(err))
            for err in exc.errors(include_url=False)]


# ---------------------------------------------------------------- by the error's type


def _empty_required(kind: str, ctx: Mapping[str, Any]) -> bool:
    return kind == "string_too_short" and ctx.get("min_length") == 1


def _chars(n: Any) -> str:
    return "1 character" if n == 1 else f"{n} characters"


def _length(value: Any) -> str:
    return f" (you wrote {len(value)})" if isinstance(value, str) else ""


def _count(n: Any, field: str) -> str:
    one, many = LIST_NOUNS.get(field, ("item", "items"))
    return f"one {one}" if n == 1 else f"{n} {many}"


def _too_short(ctx: Mapping[str, Any], value: Any, field: str) -> str:
    if _empty_required("string_too_short", ctx):
        return REQUIRED
    return f"Write at least {_chars(ctx.get('min_length'))}{_length(value)}."


def _too_long(ctx: Mapping[str, Any], value: Any, field: str) -> str:
    return f"Write at most {_chars(ctx.get('max_length'))}{_length(value)}."


def _too_few(ctx: Mapping[str, Any], value: Any, field: str) -> str:
    return f"Choose at least {_count(ctx.get('min_length'), field)}."


def _too_many(ctx: Mapping[str, Any], value: Any, field: str) -> str:
    gave = ctx.get("actual_length")
    return f"At most {_count(ctx.get('max_length'), field)}" + (f" (you gave {gave})." if gave is not None else ".")


def _fixed(words: str) -> Callable[[Mapping[str, Any], Any, str], str]:
    return lambda ctx, value, field: words


def _bound(template: str, key: str) -> Callable[[Mapping[str, Any], Any, str], str]:
    return lambda ctx, value, field: template.format(_number(ctx.get(key)))


def _number(value: Any) -> Any:
    """A bound as people write it: 0.0 -> 0."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


_BY_TYPE: dict[str, Callable[[Mapping[str, Any], Any, str], str]] = {
    "missing": _fixed(REQUIRED),
    "string_too_short": _too_short,
    "string_too_long": _too_long,
    "string_pattern_mismatch": _fixed("This is not in the form this field takes; check it and try again."),
    "string_type": _fixed("Enter text."),
    "too_short": _too_few,
    "too_long": _too_many,
    "int_parsing": _fixed("Enter a whole number."),
    "int_type": _fixed("Enter a whole number."),
    "int_from_float": _fixed("Enter a whole number."),
    "float_parsing": _fixed("Enter a number."),
    "float_type": _fixed("Enter a number."),
    "decimal_parsing": _fixed("Enter a number."),
    "greater_than_equal": _bound("Enter {} or more.", "ge"),
    "greater_than": _bound("Enter more than {}.", "gt"),
    "less_than_equal": _bound("Enter {} or less.", "le"),
    "less_than": _bound("Enter less than {}.", "lt"),
    "bool_parsing": _fixed("Choose yes or no."),
    "bool_type": _fixed("Choose yes or no."),
    "literal_error": _fixed("Choose one of the options offered."),
    "enum": _fixed("Choose one of the options offered."),
    "date_parsing": _fixed(DATE),
    "date_type": _fixed(DATE),
    "date_from_datetime_parsing": _fixed(DATE),
    "datetime_parsing": _fixed("Enter a date and time like 2024-03-01 14:30."),
    "url_parsing": _fixed(HTTP_LINK),
    "url_scheme": _fixed(HTTP_LINK),
    "url_type": _fixed(HTTP_LINK),
    "uuid_parsing": _fixed("This is not a valid identifier."),
    "uuid_type": _fixed("This is not a valid identifier."),
    "extra_forbidden": _fixed("This form does not take this value."),
    "list_type": _fixed("Enter one value a line."),
    "dict_type": _fixed("Fill in the values of this group."),
    "model_type": _fixed("Fill in the values of this group."),
}
"""Every pydantic error type the website's input models meet, in words; other built-in types get a plain fallback."""

_NUMBER_WORDS: dict[str, Callable[[str], str]] = {
    "int_parsing": lambda bound: DOLLARS, "int_type": lambda bound: DOLLARS, "int_from_float": lambda bound: DOLLARS,
    "greater_than_equal": lambda bound: f"Enter {bound} or more.",
    "greater_than": lambda bound: f"Enter more than {bound}.",
    "less_than_equal": lambda bound: f"Enter {bound} or less.",
    "less_than": lambda bound: f"Enter less than {bound}.",
}
"""An amount in cents is typed in dollars on every form: its bounds are said in dollars."""


def _in_dollars(ctx: Mapping[str, Any]) -> str:
    bound = next((ctx[k] for k in ("ge", "gt", "le", "lt") if k in ctx), 0)
    whole, rest = divmod(int(bound), 100)
    return f"${whole:,}.{rest:02d}"


# ---------------------------------------------------------------- domain problems worded for API clients


def _category(value: Any) -> str:
    if isinstance(value, str) and value.strip():
        return f"“{value.strip()}” is not a category of the directory; use one from the categories page."
    return "Use categories from the categories page."


_DOMAIN: list[tuple[str, re.Pattern[str], Callable[[Any], str]]] = [
    ("enum", re.compile(r"fields\.categories(\.\d+)?"), _category),
    ("not_allowed", re.compile(r"email"), lambda value: "Leave the email address empty unless you prove it by email."),
    ("enum", re.compile(r"answers\.\d+(\.question_id)?"),
     lambda value: "This question is no longer asked; reload the page to see the current ones."),
    ("required", re.compile(r"fields\.\w+"), lambda value: "A listing needs this: fill it in."),
    ("required", re.compile(r"items\.\d+\.week"), lambda value: "Choose a week."),
    ("enum", re.compile(r"items\.\d+\.week"), lambda value: "Choose one of the weeks offered."),
]
"""(rule, field path, words) of the domain problems whose API messages name operations, parameters or keys."""


def _at(sent: Any, path: str) -> Any:
    """The value at a dotted path of the input (`fields.categories.2`), or None."""
    for part in path.split("."):
        if isinstance(sent, Mapping):
            sent = sent.get(part)
        elif isinstance(sent, list) and (part.isascii() and part.isdigit()) and int(part) < len(sent):
            sent = sent[int(part)]
        else:
            return None
    return sent


def _polish(text: str) -> str:
    """A sentence: a capital letter first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
