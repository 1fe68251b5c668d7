"""What the founder's page modules share on top of `WebPages`: sign-in required, 404 pages, money, field names.

Every founder page (`/my/...`, `/claim/{slug}`) is for a signed-in person: a
visitor without a session is sent to the sign-in page and back. A listing,
claim or order of someone else is the same 404 page as one that does not
exist, because the queries answer NotFound for both. Validation is never
repeated here: the pages build the operations' own input models and show their
refusals field by field, worded for people by `api.web_errors`; `nested_problems`
only turns a nested location (`items.0.week`) into the form field's name.
This module has no routes, so page modules may import it like `web_pages`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import quote

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from aggregates.order.state import LAUNCH_SECTIONS
from api.identity import Identity
from api.sessions import WebSession
from api import web_errors
from api.web_pages import WebPages
from commands import orders as orders_cmd
from events.errors import InvalidInput, NotFound
from queries import drafts as drafts_q
from queries import my_listings as my_listings_q
from queries.paging import Paging

MY_LINKS = [("/my/listings", "Your listings")]
NEW_IS_THE_FORM = "“new” is the address of this form; choose another slug."  # staff forms that make a slugged thing


def money(cents: int | None) -> str:
    """Cents as dollars for people: 4900 -> $49.00."""
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{rest:02d}"


def nested_problems(exc: InvalidInput | ValidationError, rename: Callable[[str], str] = lambda f: f) -> dict[str, str]:
    """Field -> message like `form_problems`, keeping the whole location (`fields.city`), renamed to a form field."""
    out: dict[str, str] = {}
    for path, message in web_errors.worded(exc):
        out.setdefault(rename(path), message)
    return out


def cents(value: str) -> int | str:
    """Dollars as typed ("25", "25.50") to cents; anything else is passed on for the model to refuse."""
    try:
        amount = Decimal(value)
    except InvalidOperation:
        return value
    if not amount.is_finite() or amount != amount.quantize(Decimal("0.01")):
        return value
    return int(amount * 100)


def lines(value: str) -> list[str]:
    """A textarea with one item per line as the list an input model takes (blank lines dropped)."""
    return [line.strip() for line in value.splitlines() if line.strip()]


class FounderPages(WebPages):
    """The founder pages' base: who is signed in, the sign-in redirect, the 404 page, money in templates."""

    def __init__(self, identity: Identity) -> None:
        super().__init__(identity)
        self.templates.env.filters["money"] = money
        self.templates.env.filters["when"] = self._when_any

    def _when_any(self, value: datetime | str | None) -> str:
        """`when` for datetimes and for the ISO texts the stored documents (orders) hold."""
        if isinstance(value, str):
            try:
                return self._when(datetime.fromisoformat(value))
            except ValueError:
                return value
        return self._when(value)

    def _signin(self, request: Request) -> Response:
        """To the sign-in page, and back here afterwards."""
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return self._redirect("/signin?next=" + quote(here, safe="/"))

    def _missing(self, request: Request, session: WebSession | None, what: str) -> Response:
        """The one page for "not there" and "not yours" (the queries answer NotFound for both)."""
        return self._message(request, session, f"No such {what}",
                             f"There is no such {what} among yours. It may have been removed, or belong to another "
                             "account.", 404, MY_LINKS)

    @staticmethod
    def _paging(request: Request, per_page: int) -> Paging:
        """The `page` query parameter as paging: 1 to 1000, anything else the first page (a list never fails on it)."""
        number = request.query_params.get("page") or "1"
        page = min(int(number), 1000) if number.isascii() and number.isdigit() and int(number) > 0 else 1
        return Paging(page=page, per_page=per_page)

    @staticmethod
    def _form(data: Mapping[str, Any], *names: str) -> dict[str, str]:
        """The named form fields as trimmed text ("" when absent)."""
        return {n: str(data.get(n) or "").strip() for n in names}

    @staticmethod
    def _notice(request: Request, notices: Mapping[str, str]) -> str | None:
        """The message of a `?done=` key after a post/redirect/get (unknown keys show nothing)."""
        return notices.get(request.query_params.get("done", ""))

    @staticmethod
    def _int_param(request: Request, name: str) -> int | None:
        """A positive integer path parameter (ids), else None (the page answers 404)."""
        value = str(request.path_params.get(name, ""))
        return int(value) if value.isascii() and value.isdigit() and 0 < len(value) <= 10 and int(value) < 2**31 else None

    def _draft_of(self, session: WebSession, listing_id: int) -> str | None:
        """The id of this person's draft that became the listing, if they own one: its editor changes what the
        listing editor cannot (a saved draft reaches its listing, docs/submission.md "Becoming a listing"), and its
        invites make co-owners of both."""
        drafts = drafts_q.list_my_drafts(self.s.reads, session.account_id, Paging(page=1, per_page=100))["items"]
        return next((str(d["id"]) for d in drafts if d.get("listing_id") == listing_id), None)

    def _sections_offer(self, session: WebSession, doc: dict[str, Any]) -> str | None:
        """The product that would show this listing's story, milestones and media, while they are locked: "launch",
        "launch_bundle" (an upgrade of a free listing that has its week) or None, as the pricing rules answer for
        this listing now (`commands.orders.order_offers`), so a page never offers what the order form refuses."""
        if set(LAUNCH_SECTIONS) <= set(doc.get("unlocked_sections") or ()):
            return None
        offers = orders_cmd.order_offers(self.s.store, int(doc["listing_id"]), session.account_id, self.s.today(),
                                         self.s.orders)
        return offers.unlocks_sections()

    def _my_listing(self, session: WebSession, listing_id: int | None) -> dict[str, Any] | None:
        """get_my_listing's document, or None for a listing that is not there or not this person's."""
        if listing_id is None:
            return None
        try:
            return my_listings_q.get_my_listing(self.s.reads, session.account_id, listing_id, self.s.links)
        except NotFound:
            return None
