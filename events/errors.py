"""The one domain error tree.

It lives beside the events because every layer may import `events`; the API
maps each class to an HTTP status and an RFC 9457 problem in one place
(`api/problems.py`), so REST and MCP report the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FieldProblem:
    """One offending input: where, which rule, and a sentence for people."""

    field: str
    rule: str
    message: str


class DomainError(Exception):
    """Base of every error the domain raises on purpose."""

    code = "domain-error"
    title = "Request cannot be completed"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


@dataclass
class _Problems:
    items: list[FieldProblem] = field(default_factory=list)


class InvalidInput(DomainError):
    """Input that passed the schema but breaks a rule of the domain."""

    code = "validation-error"
    title = "Invalid input"

    def __init__(self, detail: str, problems: list[FieldProblem] | None = None) -> None:
        super().__init__(detail)
        self.problems = problems or []


class NotFound(DomainError):
    """The resource does not exist, or belongs to someone else (never say which)."""

    code = "not-found"
    title = "Not found"


class Conflict(DomainError):
    """The request contradicts the current state (a taken slug, a duplicate)."""

    code = "conflict"
    title = "Conflict"


class Unauthorized(DomainError):
    """No valid credentials on a protected operation."""

    code = "unauthorized"
    title = "Authentication required"


class Forbidden(DomainError):
    """Credentials are valid but lack the scope or role the operation needs."""

    code = "insufficient-scope"
    title = "Insufficient scope"

    def __init__(self, detail: str, scope: str | None = None) -> None:
        super().__init__(detail)
        self.scope = scope


class RateLimited(DomainError):
    """Too many requests in the current window."""

    code = "rate-limited"
    title = "Too many requests"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class Unavailable(DomainError):
    """A dependency is not answering; the caller may retry later."""

    code = "unavailable"
    title = "Service unavailable"
