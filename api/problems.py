"""RFC 9457 problem details: the one error shape of REST and MCP, and the one mapping from domain errors."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from events.errors import (
    Conflict,
    DomainError,
    FieldProblem,
    Forbidden,
    InvalidInput,
    NotFound,
    RateLimited,
    Unauthorized,
)

PROBLEM_BASE = "/problems/"

STATUS = {
    InvalidInput: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    RateLimited: 429,
}


class FieldError(BaseModel):
    field: str
    rule: str
    message: str


class Problem(BaseModel):
    """An RFC 9457 problem document; `errors` names each offending field and rule."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[FieldError] | None = None


class NotFoundAt(NotFound):
    """A 404 that also names the input fields whose values found nothing (rule `exists`), so a caller knows which
    id to fix: the line of an order, `a` or `b` of a comparison, the listing or the milestone of a path."""

    def __init__(self, detail: str, problems: list[FieldProblem]) -> None:
        super().__init__(detail)
        self.problems = problems


def problem(status: int, code: str, title: str, detail: str, errors: list[FieldProblem] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"type": PROBLEM_BASE + code, "title": title, "status": status, "detail": detail}
    if errors:
        body["errors"] = [{"field": e.field, "rule": e.rule, "message": e.message} for e in errors]
    return body


def status_of(error: DomainError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    if error.code == "conflict":
        return 409
    if error.code == "unavailable":
        return 503
    return 400


def from_domain(error: DomainError) -> dict[str, Any]:
    problems = error.problems if isinstance(error, (InvalidInput, NotFoundAt)) else None
    return problem(status_of(error), error.code, error.title, error.detail, problems)


def field_problems(exc: ValidationError, prefix: tuple[str | int, ...] = ()) -> list[FieldProblem]:
    """Turn pydantic's errors into (field, rule, message) triples with dotted field paths."""
    out = []
    for err in exc.errors(include_url=False):
        loc = [str(p) for p in (*prefix, *err.get("loc", ()))]
        field = ".".join(loc) or "body"
        rule = _RULES.get(err["type"], err["type"])
        out.append(FieldProblem(field=field, rule=rule, message=err["msg"]))
    return out


def validation_problem(exc: ValidationError) -> dict[str, Any]:
    return invalid_problem(field_problems(exc))


def invalid_problem(errors: list[FieldProblem]) -> dict[str, Any]:
    """The 400 naming every field of `errors` (schema and domain problems alike)."""
    names = ", ".join(sorted({e.field for e in errors}))
    return problem(400, "validation-error", "Invalid input", f"invalid value for: {names}", errors)


_RULES = {
    "missing": "required",
    "extra_forbidden": "unknown_field",
    "string_too_long": "max_length",
    "string_too_short": "min_length",
    "string_pattern_mismatch": "pattern",
    "greater_than_equal": "minimum",
    "less_than_equal": "maximum",
    "greater_than": "exclusive_minimum",
    "less_than": "exclusive_maximum",
    "too_long": "max_items",
    "too_short": "min_items",
    "int_parsing": "type_integer",
    "int_type": "type_integer",
    "int_from_float": "type_integer",
    "bool_parsing": "type_boolean",
    "bool_type": "type_boolean",
    "string_type": "type_string",
    "literal_error": "enum",
    "enum": "enum",
    "uuid_parsing": "format_uuid",
    "date_from_datetime_parsing": "format_date",
    "date_parsing": "format_date",
    "value_error": "format",
    "model_type": "type_object",
    "dict_type": "type_object",
    "list_type": "type_array",
    "url_parsing": "format_url",
    "url_scheme": "format_url",
}
