"""The checkout page's live re-quote: a small JSON endpoint the page's script asks while the person types.

`POST /checkout/{token}/quote` (form fields `country`, `vat_number`) runs the
same VAT code as saving the billing details (`commands.orders.requote`) on the
order's frozen prices and stores nothing. It answers the amounts and the
words the page shows, or an RFC 9457 problem naming the field and the rule
(an invalid VAT number, a country that is not two letters). The token is the
credential, as for the page. Without JavaScript nothing asks it: saving the
billing details re-quotes on the server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from api.problems import from_domain
from api.services import Services
from commands import orders as cmd
from events.countries import country_name
from events.errors import DomainError, FieldProblem, InvalidInput
from queries.orders import rate_percent, vat_doc

HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


def vat_label(vat: dict[str, Any]) -> str:
    """The VAT row's words on the checkout page (the page and the live re-quote say the same)."""
    treatment = vat.get("treatment")
    if treatment == "standard":
        return f"VAT {rate_percent(int(vat.get('rate_bp', 0)))} % ({country_name(vat.get('country'))})"
    if treatment == "reverse_charge":
        return "VAT reverse charge (0 %)"
    if treatment == "outside_scope":
        return "VAT outside the scope of EU VAT (0 %)"
    return "VAT decided once you enter your country"


def vat_note(vat: dict[str, Any]) -> str:
    """The VAT note shown under the totals, or "" where the VAT row (`vat_label`) already says all of it.

    "VAT 19 % (Germany)" is followed by no "Standard VAT of Germany.", nor "VAT decided once you enter your country"
    by "VAT is decided once the billing country is known."; a note that adds something (a reverse charge and who
    accounts for it, no EU VAT outside the EU, VAT charged to a business at home) is shown, once.
    """
    treatment = vat.get("treatment")
    if treatment == "not_determined" or (treatment == "standard" and not vat.get("vat_number")):
        return ""
    return str(vat.get("note") or "")


def _fields(data: Any) -> tuple[str, str]:
    """The two inputs, checked as the billing form checks them (400 naming the field otherwise)."""
    country = str(data.get("country") or "").strip().upper()
    vat_number = str(data.get("vat_number") or "").strip()
    found: list[FieldProblem] = []
    if country and (len(country) != 2 or not country.isalpha()):
        found.append(FieldProblem("country", "format", "Two letters, e.g. DE."))
    if len(vat_number) > 32:
        found.append(FieldProblem("vat_number", "max_length", "At most 32 characters."))
    if found:
        raise InvalidInput("invalid value for: " + ", ".join(p.field for p in found), found)
    return country, vat_number


def requote_endpoint(s: Services, money: Callable[[int], str]) -> Callable[[Request], Any]:
    """The route's handler over the services (`money` formats cents as the page does)."""

    async def requote(request: Request) -> Response:
        token = request.path_params["token"]
        try:
            country, vat_number = _fields(await request.form())
            quote = await run_in_threadpool(cmd.requote, s.store, token, country, vat_number, s.orders)
        except DomainError as exc:
            body = from_domain(exc)
            return JSONResponse(body, status_code=body["status"], media_type="application/problem+json",
                                headers=HEADERS)
        vat = vat_doc(quote.vat.as_dict(), quote.vat_cents)
        return JSONResponse({
            "subtotal_cents": quote.subtotal_cents, "vat": vat, "total_cents": quote.total_cents, "currency": "USD",
            "shown": {"vat_label": vat_label(vat), "vat": money(quote.vat_cents), "total": money(quote.total_cents),
                      "note": vat_note(vat)},
        }, headers=HEADERS)

    return requote
