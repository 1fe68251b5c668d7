"""What the operations' adapters share: who calls, waiting for a write to show (read-your-writes), and 404s
that name the input field whose value found nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.problems import NotFoundAt
from api.registry import Handler
from api.services import Call, Services
from events.errors import FieldProblem, NotFound, Unauthorized
from queries import my_listings as my_listings_q

WAIT = 2.0
EXISTS = "exists"  # the rule of a 404's field: its value names nothing of yours (or nothing public)
FieldsOf = Callable[[Services, Any, Call], list[FieldProblem]]
"""(services, the validated input, call) -> the input fields whose values found nothing (rule `exists`, each with
its own sentence), asked after a 404."""


def account_of(c: Call) -> str:
    """The caller's account id (the executor refuses anonymous calls first; kept for direct callers)."""
    if c.principal is None:
        raise Unauthorized("this operation needs credentials")
    return c.principal.account_id


def wait_for(s: Services, position: int, views: tuple[str, ...]) -> None:
    """Wait, bounded, until `views` have applied `position`; a 503 saying the read model is behind otherwise."""
    s.runtime.require([v for v in views if v in s.runtime.projections], position, WAIT)


def naming(fields: str | FieldsOf, handler: Handler) -> Handler:
    """`handler`, whose 404 also names the input fields that found nothing (rule `exists`), the same on REST and MCP.

    `fields` is the one field (a path parameter) or a function that works out which ones did (an order's lines,
    a comparison's `a` and `b`); when it names none, the 404 stays as the handler raised it.
    """

    def named(s: Services, i: Any, c: Call) -> Any:
        try:
            return handler(s, i, c)
        except NotFoundAt:
            raise
        except NotFound as exc:
            found = [FieldProblem(fields, EXISTS, exc.detail)] if isinstance(fields, str) else fields(s, i, c)
            if not found:
                raise
            raise NotFoundAt(exc.detail, found) from exc

    named.__name__ = getattr(handler, "__name__", "handler")
    named.__doc__ = handler.__doc__
    return named


def owns(s: Services, c: Call, listing_id: int) -> bool:
    """Whether the caller owns the listing (asked only after a 404, to say which id it was about)."""
    try:
        my_listings_q.get_my_listing(s.reads, account_of(c), listing_id, s.links)
    except NotFound:
        return False
    return True
