"""The plumbing every website page shares: session lookup, CSRF, the text rule, rendering, redirects, Meta.

Each page module (sign-in, account, staff, invites, OAuth consent, ...)
subclasses `WebPages`, lists its `routes()` and writes handlers of the shape
`handler(request, form data, session) -> Response`; `_page` wraps them. It
imports only `api.identity` and the layers below, never a page module, so
every page module can import it, and `api/web_auth.py` can assemble the pages,
without a cycle.

Pages are server-rendered (Jinja2, no script needed). Every POST form carries
a CSRF token (`api/csrf.py`); sessions are server-side (`api/sessions.py`).
Handlers call the command and query functions directly, never HTTP.

Every form field and query parameter keeps the text rule (`events.text`):
one that breaks it is refused before any handler runs, with the page's own
error display and status 400, so nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from pathlib import Path
from typing import Any, TypeVar

import re

import anyio
from markupsafe import Markup, escape
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, ImmutableMultiDict
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute
from starlette.templating import Jinja2Templates

from aggregates.base import Meta
from api import web_errors
from api.csrf import FIELD as CSRF_FIELD
from api.csrf import Csrf
from api.identity import Identity
from api.sessions import WebSession
from api.vote_signals import FirstViews
from events.week_names import MONTHS, NBSP, month_name, week_name
from api.web_forms import read_form
from events import text as text_rule
from events.countries import countries, country_name
from events.draft_fields import SOCIAL_LABELS
from events.errors import InvalidInput, Unavailable
from queries import accounts as accounts_q
from queries import catalog as catalog_q

TEMPLATE_DIR = Path(__file__).parent / "templates"
VIEWS = ["accounts_view"]
T = TypeVar("T")
WAIT_SECONDS = 2.0  # the longest an answer waits for the views to show its write (then it answers anyway)
FAILED_SIGNIN_DELAY = 0.3  # seconds added to every failed sign-in (slows online guessing)
Redisplay = Callable[[Request, FormData, WebSession | None, dict[str, str]], Response]  # a form page with errors
WEB_ADDRESS = re.compile(r"(?:https?://|www\.)[^\s<>\"]+")
# where a web address may break: before a separator (not inside "://"), and after "//"
ADDRESS_BREAK = re.compile(r"(?<=[^/:])(?=[/.?#&=~_%])|(?<=//)(?=[^/])")


def url_breaks(text: str | None) -> Markup:
    """The text, escaped, with a line-break opportunity (`<wbr>`) at the separators of each web address in it.

    A long address then wraps at "/", ".", "?" and the like, as in print ("github.com/" / "patchwork"), instead of
    wherever the column ends ("githu" / "b.com"); the rest of the text is left as it is.
    """
    text = text or ""
    out, last = [], 0
    for found in WEB_ADDRESS.finditer(text):
        out.append(escape(text[last:found.start()]))
        out.append(Markup("<wbr>").join(escape(part) for part in ADDRESS_BREAK.split(found.group())))
        last = found.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


@dataclass(frozen=True)
class AfterViews:
    """A handler's answer that is due once `views` have processed `position` (a write's log position).

    The handler returns it from its worker thread instead of waiting there: the
    endpoint awaits the projections on the event loop, holding no thread, then
    calls `answer` (in a thread of the handler's pool when `reads`, since it
    reads the views; on the loop otherwise). The wait is bounded by
    `WAIT_SECONDS`, after which the answer is given anyway.
    """

    position: int
    views: list[str]
    answer: Callable[[], Response]
    reads: bool = True


def _day_words(day: date) -> str:
    """A day as "4 Dec 2026", kept on one line (no-break spaces)."""
    return f"{day.day}{NBSP}{MONTHS[day.month - 1][:3]}{NBSP}{day.year}"


def moment_words(value: datetime, zone: tzinfo) -> str:
    """A moment in `zone` as people read it, "4 Dec 2026, 17:19 UTC": its day, its time, the zone's abbreviation
    (summer time's own, "EEST"); the day and the time each kept on one line."""
    moment = value.astimezone(zone)
    return f"{_day_words(moment.date())}, {moment:%H:%M}{NBSP}{moment.tzname() or ''}".rstrip(NBSP)


def moment_markup(value: datetime | None, zone: tzinfo) -> Markup:
    """`moment_words` in a `<time>` element that keeps the exact value for machines; nothing for no moment. Every
    page's `when` filter (the checkout pages' own template set too)."""
    if value is None:
        return Markup("")
    moment = value.astimezone(zone)
    return Markup('<time datetime="{}">{}</time>').format(moment.isoformat(), moment_words(moment, zone))


def form_problems(exc: InvalidInput | ValidationError) -> dict[str, str]:
    """Field -> message for the form (the first message per field), worded for people (`api.web_errors`).

    A pydantic error is named by the first part of its location (the form's field), a domain problem by its field.
    """
    out: dict[str, str] = {}
    for path, message in web_errors.worded(exc):
        out.setdefault(path if isinstance(exc, InvalidInput) else path.split(".")[0], message)
    return out


def safe_next(value: str | None) -> str:
    """Only paths on this site (no //host, no backslashes), else the account page."""
    if value and value.startswith("/") and not value.startswith("//") and "\\" not in value and len(value) <= 500:
        if not any(c in value for c in "\r\n\t"):
            return value
    return "/account"


def text_problems(*sources: ImmutableMultiDict[str, Any]) -> dict[str, str]:
    """Field -> message for every form field or query parameter (name or value) that breaks the text rule."""
    out: dict[str, str] = {}
    for source in sources:
        for key, value in source.multi_items():
            if not isinstance(value, str):
                continue  # an uploaded file: no page takes one
            if not text_rule.is_clean(key) or not text_rule.is_clean(value):
                name = text_rule.storable(key)
                out.setdefault(name, f"{name} {text_rule.MESSAGE} (rule: {text_rule.RULE}).")
    return out


class WebPages:
    """The base of every page class; each handler reads the form, then does its (blocking) work in a worker thread."""

    def __init__(self, identity: Identity) -> None:
        self.id = identity
        self.s = identity.services
        self.secure = identity.secure_cookies
        self.session_cookie = ("__Host-" if self.secure else "") + "ld_session"
        self.templates = Jinja2Templates(directory=str(TEMPLATE_DIR))
        self.templates.env.auto_reload = False  # read once, as the code is: a template never meets older code
        self.templates.env.filters["when"] = self._when  # a moment as "4 Dec 2026, 17:19 UTC", in <time>
        self.templates.env.filters["when_text"] = self._when_text  # the same words, plain (inside an attribute)
        self.templates.env.filters["country_name"] = country_name  # "EE" -> "Estonia" (events/countries.py)
        self.templates.env.globals["countries"] = countries()  # the country menus' options
        self.templates.env.filters["social_label"] = lambda key: SOCIAL_LABELS.get(key, key)  # "github" -> "GitHub"
        self.templates.env.filters["url_breaks"] = url_breaks  # long web addresses wrap at their separators
        self.templates.env.filters["week_name"] = week_name  # a week as people read it (events/week_names.py)
        self.templates.env.filters["month_name"] = month_name  # "2026-10" -> "October 2026"
        self.templates.env.filters["day_name"] = self._day_name  # a moment or a day as "4 Dec 2026", in <time>
        self.first_views = FirstViews(self.s.store)  # a vote's "time since first page view" (docs/voting.md)

    def routes(self) -> list[BaseRoute]:
        """The page class's routes; each subclass lists its own."""
        return []

    def _page(self, handler: Callable[..., Response | AfterViews], form: bool = False, delay_on: int | None = None,
              invalid: Redisplay | None = None, threads: anyio.CapacityLimiter | None = None) -> Callable[..., Any]:
        """An endpoint around `handler`; `invalid` shows the form again with errors (else a message page).

        `threads`: a pool of its own for handlers whose answers wait for the
        projections (a vote's answer waits until the rankings show it), so a
        burst of them never takes every thread of the shared pool that renders
        the pages. A handler returning `AfterViews` waits on the event loop,
        not in a thread.
        """
        async def in_thread(work: Callable[[], T]) -> T:
            if threads is None:
                return await run_in_threadpool(work)
            return await anyio.to_thread.run_sync(work, limiter=threads)

        async def endpoint(request: Request) -> Response:
            data = await read_form(request) if form else FormData()
            first = await in_thread(lambda: self._run(handler, request, data, form, invalid))
            if isinstance(first, AfterViews):
                await self.s.runtime.wait_for_async(first.views, first.position, timeout=WAIT_SECONDS)
                response = await in_thread(first.answer) if first.reads else first.answer()
            else:
                response = first
            if delay_on is not None and response.status_code == delay_on:
                await anyio.sleep(FAILED_SIGNIN_DELAY)
            return response

        endpoint.__name__ = handler.__name__
        return endpoint

    def _run(self, handler: Callable[..., Response | AfterViews], request: Request, data: FormData, form: bool,
             invalid: Redisplay | None = None) -> Response | AfterViews:
        session = self.id.sessions.lookup(request.cookies.get(self.session_cookie))
        if form and not self.id.csrf.valid(
            str(data.get(CSRF_FIELD) or ""), session.id if session else None, request.cookies.get(self.id.csrf.cookie_name)
        ):
            return self._message(request, session, "This form has expired",
                                 "The form was not sent from this site or is too old. Go back, reload the page and try again.",
                                 403)
        if errors := text_problems(request.query_params, data):  # before any handler: nothing is stored
            if invalid is not None:
                return invalid(request, data, session, errors)
            return self._message(request, session, "This cannot be sent", " ".join(errors.values()), 400)
        try:
            return handler(request, data, session)
        except Unavailable as exc:
            return self._message(request, session, "Please try again in a minute", exc.detail, 503)

    def _redisplay(self, template: str, context: Callable[[FormData], dict[str, Any]] | None = None) -> Redisplay:
        """The form page again with its errors, status 400, keeping the (storable) values except passwords."""
        def show(request: Request, data: FormData, session: WebSession | None, errors: dict[str, str]) -> Response:
            values = {k: text_rule.storable(v) for k, v in data.items() if isinstance(v, str) and k != "password"}
            ctx = {"errors": errors, "values": values, **(context(data) if context else {})}
            return self._render(request, template, ctx, session, 400)

        return show

    # ------------------------------------------------------------ rendering

    def _when(self, value: datetime | None) -> Markup:
        """A moment as people read it, "4 Dec 2026, 17:19 UTC" (in the site's timezone, named by its abbreviation),
        in a `<time>` element that keeps the exact value for machines; nothing for no moment."""
        return moment_markup(value, self.s.timezone)

    def _when_text(self, value: datetime | None) -> str:
        """`when` as plain words, for an attribute (a button's accessible name) where no element may stand."""
        return moment_words(value, self.s.timezone) if value is not None else ""

    def _day_name(self, value: datetime | date | str | None) -> Markup:
        """A moment or a day as people read it, "4 Dec 2026" (its day in the site's timezone), in a `<time>` element
        that keeps the exact value for machines. The public pages say dates so, never `2026-12-04 17:19`; a value
        that names no day is shown as it is."""
        moment: datetime | date | None = value if isinstance(value, (datetime, date)) else None
        if moment is None:
            try:
                moment = datetime.fromisoformat(str(value or "").strip())
            except ValueError:
                return Markup(escape(value or ""))
            if len(str(value).strip()) == 10:  # a bare day, "2026-12-04": no time, no timezone to move it by
                moment = moment.date()
        if isinstance(moment, datetime):
            moment = moment.astimezone(self.s.timezone) if moment.tzinfo else moment
            day, machine = moment.date(), moment.isoformat()
        else:
            day, machine = moment, moment.isoformat()
        return Markup('<time datetime="{}">{}</time>').format(machine, _day_words(day))

    def _render(self, request: Request, template: str, ctx: dict[str, Any], session: WebSession | None,
                status: int = 200) -> Response:
        browser = request.cookies.get(self.id.csrf.cookie_name)
        new_browser = None
        if not browser:
            browser = new_browser = Csrf.new_browser_value()
        me = accounts_q.account(self.s.reads, session.account_id) if session else None
        if session is not None and me is not None:
            self.first_views.seen(session.account_id, self.s.now())
        context = {"csrf_field": CSRF_FIELD, "csrf_token": self.id.csrf.token(session.id if session else None, browser),
                   "me": me, "errors": {}, "values": {}, "site_name": catalog_q.site_name(self.s.reads), **ctx}
        response = self.templates.TemplateResponse(request, template, context, status_code=status)
        if new_browser:
            self._browser_cookie(response, new_browser)
        self._private(response)
        return response

    def _browser_cookie(self, response: Response, value: str) -> None:
        """The CSRF browser cookie a browser without one gets with its first page."""
        response.set_cookie(self.id.csrf.cookie_name, value, httponly=True, samesite="lax", secure=self.secure, path="/")

    @staticmethod
    def _private(response: Response) -> None:
        response.headers["cache-control"] = "no-store"
        response.headers["referrer-policy"] = "no-referrer"  # links carry tokens in their query
        response.headers["x-frame-options"] = "DENY"

    def _message(self, request: Request, session: WebSession | None, title: str, text: str, status: int = 200,
                 links: list[tuple[str, str]] | None = None) -> Response:
        return self._render(request, "auth/message.html", {"title": title, "text": text, "links": links or []},
                            session, status)

    def _redirect(self, to: str) -> Response:
        response = RedirectResponse(to, status_code=303)
        self._private(response)
        return response

    # ------------------------------------------------------------ who, and waiting for the views

    def _meta(self, session: WebSession | None) -> Meta:
        actor = f"account:{session.account_id}" if session else "anonymous"
        return Meta(at=self.s.now(), actor=actor, channel="web", via="session" if session else "")

    def _staff_meta(self, session: WebSession) -> Meta:
        """Who a staff decision on the website is recorded as: `staff:<email>`."""
        me = accounts_q.account(self.s.reads, session.account_id)
        email = me["email"] if me else session.account_id
        return Meta(at=self.s.now(), actor=f"staff:{email}", channel="web", via="session")

    def _wait(self, position: int, views: list[str] = VIEWS) -> None:
        self.s.runtime.wait_for(views, position, timeout=WAIT_SECONDS)

    @staticmethod
    def _ip(request: Request) -> str:
        return request.client.host if request.client else ""

    def _staff_only(self, request: Request, session: WebSession | None) -> Response | None:
        """None for a signed-in staff account, else the 403 page every staff page gives."""
        me = accounts_q.account(self.s.reads, session.account_id) if session else None
        if me is not None and me["is_staff"]:
            return None
        text = "This page is for the site's staff." + ("" if session else " Sign in with a staff account.")
        links = [] if session else [("/signin?next=/staff", "Sign in")]
        return self._message(request, session, "Staff only", text, 403, links)
