"""The checkout page: where the person reviews an order, enters billing details and pays (no sign-in needed).

`/checkout/{token}` is the link create_checkout answers; the token is the
credential (`<number>.<secret>`, compared in constant time), so the page needs
no account and another site cannot post its forms without knowing it. The page
is server-rendered and works without JavaScript:

- billing details (name, country, address, optional VAT number) are posted and
  VAT is decided again by the same code as quote_order; with JavaScript the
  amounts follow the country and VAT number as they are typed
  (`api/web_checkout_quote.py`, `static/checkout.js`). A refused update stores
  nothing: each message stands next to its field, the page says the totals are
  still those of the saved details, and Pay waits until the form is saved;
- Pay starts a payment with the provider (Stripe Checkout) and sends the
  person there; back on `/checkout/{token}/return` the session is retrieved as
  a fallback to the webhook. Without a provider, a clearly marked test payment
  page confirms the payment without moving money;
- a paid order shows its receipt, each line's fulfilment, and the invoice.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import tzinfo
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from aggregates.base import Meta
from aggregates.order import OrderState
from api.identity import Identity
from api.services import Services
from api.web_checkout_quote import requote_endpoint, vat_label, vat_note
from events.week_names import week_name
from api.web_pages import WebPages, form_problems, moment_markup
from commands import orders as cmd
from events.countries import countries, country_name
from events.errors import Conflict, DomainError, InvalidInput, NotFound, Unavailable
from queries import accounts as accounts_q
from queries import catalog as catalog_q
from queries import updates as updates_q
from queries.catalog import category_names

InvoiceRenderer = Callable[[OrderState, dict[int, str]], bytes]  # the order and its listings' names
SignedIn = Callable[[Request], dict[str, Any] | None]  # the account signed in on this browser (the header's link)
FIELD_MAX = {"name": 200, "country": 2, "address": 500, "vat_number": 32}


def money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def checkout_templates(zone: tzinfo) -> Jinja2Templates:
    """The checkout pages' templates and filters; times read as on every other page (`moment_markup`, in `zone`)."""
    templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
    templates.env.auto_reload = False  # templates are read once, as the code is: a deploy restarts both together
    templates.env.filters["money"] = money
    templates.env.filters["vat_label"] = vat_label
    templates.env.filters["vat_note"] = vat_note
    templates.env.filters["country_name"] = country_name
    templates.env.filters["week_name"] = week_name  # an order line's week as every page names it (events/week_names.py)
    templates.env.filters["when"] = lambda value: moment_markup(value, zone)  # "4 Dec 2026, 17:19 UTC" in <time>
    templates.env.globals["countries"] = countries()
    return templates


@dataclass
class Checkout:
    """The checkout routes over the store: the page, billing, pay, test payment, return, invoice."""

    s: Services
    provider: cmd.PaymentProvider | None  # None: test mode (no money moves)
    invoice: InvoiceRenderer
    on_paid: Callable[[], None] = lambda: None  # wakes fulfilment
    signed_in: SignedIn = lambda request: None
    templates: Jinja2Templates = field(init=False)

    def __post_init__(self) -> None:
        self.templates = checkout_templates(self.s.timezone)

    def routes(self) -> list[BaseRoute]:
        base = "/checkout/{token}"
        return [
            Route(base, self._page, methods=["GET"]),
            Route(base + "/billing", self._billing, methods=["POST"]),
            Route(base + "/quote", requote_endpoint(self.s, money), methods=["POST"]),
            Route(base + "/pay", self._pay, methods=["POST"]),
            Route(base + "/test-pay", self._test_page, methods=["GET"]),
            Route(base + "/test-pay", self._test_pay, methods=["POST"]),
            Route(base + "/return", self._return, methods=["GET"]),
            Route(base + "/invoice.pdf", self._invoice, methods=["GET"]),
        ]

    def _meta(self, state: OrderState) -> Meta:
        return Meta(at=self.s.clock(), actor=f"checkout:{state.number}", channel="web", via="checkout_token")

    def _here(self, token: str, suffix: str = "") -> str:
        return f"{self.s.links['website'].rstrip('/')}/checkout/{token}{suffix}"

    async def _render(self, request: Request, template: str, ctx: dict[str, Any], status: int = 200) -> Response:
        me = await run_in_threadpool(self.signed_in, request)  # the header says "Account" as on every page
        site = await run_in_threadpool(catalog_q.site_name, self.s.reads)  # page titles end with it, as elsewhere
        response = self.templates.TemplateResponse(request, template, {"me": me, "site_name": site, **ctx},
                                                   status_code=status)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the address
        return response

    def _load(self, token: str) -> OrderState:
        return cmd.load_by_token(self.s.store, token)

    async def _names(self, state: OrderState) -> dict[int, str]:
        """The name of each listing the order's lines are for."""
        ids = {int(line["listing_id"]) for line in state.lines if line.get("listing_id")}
        return await run_in_threadpool(updates_q.listing_names, self.s.reads, ids) if ids else {}

    async def _view(self, request: Request, state: OrderState, token: str, errors: dict[str, str] | None = None,
                    status: int = 200, form: dict[str, str] | None = None) -> Response:
        """The page; `form` with `errors` is a refused billing update: the typed values, the saved figures."""
        names = await self._names(state)
        now = self.s.clock()
        expired = state.status == "expired" or state.is_due_to_expire(now)
        ctx = {
            "order": state, "token": token, "errors": errors or {}, "refused": form is not None, "expired": expired,
            "payable": state.is_payable(now), "test_mode": self.provider is None,
            "form": form or {"name": "", "address": "", "vat_number": "",
                             "country": state.vat.get("country") or "", **state.billing},  # the quote's country first
            "names": names, "category_names": await run_in_threadpool(category_names, self.s.reads),
            "lines": state.lines, "fulfilled": state.fulfilled, "tasks": state.tasks,
            "not_fulfilled": state.not_fulfilled,
        }
        me = await run_in_threadpool(self.signed_in, request)
        ctx["owner"] = str((me or {}).get("account_id") or "") == str(state.account_id)  # the next steps are theirs
        return await self._render(request, "checkout/page.html", ctx, status)

    async def _page(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            state = await run_in_threadpool(self._load, token)
        except NotFound:
            return await self._render(request, "checkout/missing.html", {}, 404)
        return await self._view(request, state, token)

    async def _billing(self, request: Request) -> Response:
        token = request.path_params["token"]
        data = await request.form()
        form = {k: str(data.get(k) or "").strip()[: FIELD_MAX[k] + 1] for k in FIELD_MAX}
        try:
            state = await run_in_threadpool(self._load, token)
        except NotFound:
            return await self._render(request, "checkout/missing.html", {}, 404)
        if errors := billing_problems(form):
            errors = await run_in_threadpool(self._vat_problems, token, form) | errors
            return await self._view(request, state, token, errors, 400, form)
        try:
            await run_in_threadpool(cmd.set_billing, self.s.store, token, form["name"], form["country"].upper(),
                                    form["address"], form["vat_number"], self._meta(state), self.s.orders)
        except InvalidInput as exc:
            return await self._view(request, state, token, on_fields(exc), 400, form)
        except (Conflict, Unavailable) as exc:
            return await self._view(request, state, token, {"form": exc.detail},
                                    409 if isinstance(exc, Conflict) else 503, form)
        return RedirectResponse(self._here(token), status_code=303)

    def _vat_problems(self, token: str, form: dict[str, str]) -> dict[str, str]:
        """The VAT number's problem next to the form's others, so one answer names every mistake."""
        country = form["country"].upper()
        if not form["vat_number"] or "vat_number" in billing_problems(form) or not (len(country) == 2 and country.isalpha()):
            return {}
        try:
            cmd.requote(self.s.store, token, country, form["vat_number"], self.s.orders)
        except InvalidInput as exc:
            return on_fields(exc)
        except (Conflict, Unavailable):
            pass  # saving the details asks again and says so
        return {}

    async def _pay(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            state = await run_in_threadpool(self._load, token)
        except NotFound:
            return await self._render(request, "checkout/missing.html", {}, 404)
        try:
            if self.provider is None:
                reference = "test_" + secrets.token_hex(8)
                await run_in_threadpool(cmd.start_payment, self.s.store, state.number, "test", reference,
                                        self._meta(state))
                return RedirectResponse(self._here(token, "/test-pay"), status_code=303)
            cmd.require_payable_now(state, self.s.clock())
            provider = self.provider
            session = await run_in_threadpool(
                provider.start, state.number, state.total_cents, f"launchdir order {state.number}",
                self._here(token, "/return"), self._here(token))
            await run_in_threadpool(cmd.start_payment, self.s.store, state.number, provider.name, session.reference,
                                    self._meta(state))
        except (InvalidInput, Conflict, Unavailable) as exc:
            return await self._view(request, state, token, {"form": exc.detail}, 409)
        return RedirectResponse(session.url, status_code=303)

    async def _test_page(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            state = await run_in_threadpool(self._load, token)
        except NotFound:
            return await self._render(request, "checkout/missing.html", {}, 404)
        if self.provider is not None or state.provider != "test" or not state.is_payable(self.s.clock()):
            return RedirectResponse(self._here(token), status_code=303)
        return await self._render(request, "checkout/test_pay.html", {"order": state, "token": token})

    async def _test_pay(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            state = await run_in_threadpool(self._load, token)
        except NotFound:
            return await self._render(request, "checkout/missing.html", {}, 404)
        if self.provider is not None or state.provider != "test":
            return RedirectResponse(self._here(token), status_code=303)
        try:
            await run_in_threadpool(self._confirm, state, cmd.PaymentStatus(
                True, state.total_cents, state.reference, state.number), "test")
        except DomainError as exc:
            return await self._view(request, state, token, {"form": exc.detail}, 409)
        return RedirectResponse(self._here(token), status_code=303)

    def _confirm(self, state: OrderState, status: cmd.PaymentStatus, source: str) -> None:
        cmd.confirm_payment(self.s.store, state.number, provider=state.provider or "test", reference=status.reference,
                            amount_cents=status.amount_cents, source=source, event_id=status.event_id,
                            meta=self._meta(state))
        self.on_paid()

    async def _return(self, request: Request) -> Response:
        """Back from the provider: if the webhook has not arrived yet, ask the provider about the session."""
        token = request.path_params["token"]
        try:
            state = await run_in_threadpool(self._load, token)
        except NotFound:
            return await self._render(request, "checkout/missing.html", {}, 404)
        if state.paid_at is None and self.provider is not None and state.reference:
            try:
                status = await run_in_threadpool(self.provider.retrieve, state.reference)
                if status.paid and status.number == state.number:
                    await run_in_threadpool(self._confirm, state, status, "return")
            except DomainError:
                pass  # the webhook will confirm it; the page says the payment is being confirmed
        return RedirectResponse(self._here(token), status_code=303)

    async def _invoice(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            state = await run_in_threadpool(self._load, token)
        except NotFound:
            return await self._render(request, "checkout/missing.html", {}, 404)
        if state.paid_at is None:
            return await self._render(request, "checkout/missing.html", {}, 404)
        pdf = await run_in_threadpool(self.invoice, state, await self._names(state))
        return Response(pdf, media_type="application/pdf", headers={
            "Content-Disposition": f'inline; filename="invoice-{state.invoice_number}.pdf"',
            "Cache-Control": "private, no-store"})


def billing_problems(form: dict[str, str]) -> dict[str, str]:
    """Field -> message for what the billing form needs before VAT is decided (empty: go on)."""
    out = {k: f"At most {FIELD_MAX[k]} characters." for k, v in form.items() if len(v) > FIELD_MAX[k]}
    if not form["name"]:
        out["name"] = "Enter your name or your company's name."
    if len(form["country"]) != 2 or not form["country"].isalpha():
        out["country"] = "Choose your country."
    return out


def on_fields(exc: InvalidInput) -> dict[str, str]:
    """The refusal's messages by billing field (a problem of no field of the form stays at the top)."""
    out: dict[str, str] = {}
    for name, message in form_problems(exc).items():
        key = name if name in FIELD_MAX else "form"
        out[key] = f"{out[key]} {message}" if key in out else message
    return out


class _Header(WebPages):
    """Reads the session as every page does, for the header's "Account" or "Sign in"."""

    def account(self, request: Request) -> dict[str, Any] | None:
        session = self.id.sessions.lookup(request.cookies.get(self.session_cookie))
        return accounts_q.account(self.s.reads, session.account_id) if session else None


def checkout_routes(s: Services, provider: cmd.PaymentProvider | None, invoice: InvoiceRenderer,
                    on_paid: Callable[[], None] = lambda: None, identity: Identity | None = None) -> list[BaseRoute]:
    """The routes; with `identity` the header knows who is signed in (the page itself needs no sign-in)."""
    signed_in: SignedIn = _Header(identity).account if identity is not None else (lambda request: None)
    return Checkout(s, provider, invoice, on_paid, signed_in).routes()
