"""The website's identity pages: sign up, verify, sign in and out, password reset, the account page
with API keys, and the staff pages. Also `build_identity`, which the composition root calls once.

Pages are server-rendered (Jinja2, no script needed). Every POST form carries
a CSRF token (`api/csrf.py`); sessions are server-side (`api/sessions.py`).
Handlers call the command and query functions directly, never HTTP.

Every form field and query parameter keeps the text rule (`events.text`):
one that breaks it is refused before any handler runs, with the page's own
error display and status 400, so nothing is stored. Sign-up and reset
requests answer before the address is looked up (the `DeferredWork` port runs
that part), so their timing does not tell whether an account exists. Both mail
ports are implemented in `workers/mail.py` and wired in `launchdir/bootstrap.py`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote
from uuid import UUID, uuid4

import anyio
from pydantic import SecretStr, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, ImmutableMultiDict
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp

from aggregates.account import SCOPES, normalise_email
from aggregates.base import Meta
from api.auth import ApiKeyVerifier, BearerAuthenticator, KeyUsage, McpBearerGuard, challenge_for, protected_resource_routes
from api.csrf import FIELD as CSRF_FIELD
from api.csrf import Csrf
from api.services import Services
from api.sessions import ABSOLUTE, SessionStore, SigninThrottle, WebSession, setup as setup_sessions, signing_secret
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd
from events import text as text_rule
from events.errors import InvalidInput, NotFound, Unavailable
from queries import accounts as accounts_q
from queries import mail as mail_q

log = logging.getLogger(__name__)
TEMPLATE_DIR = Path(__file__).parent / "templates"
VIEWS = ["accounts_view"]
FAILED_SIGNIN_DELAY = 0.3  # seconds added to every failed sign-in (slows online guessing)
Redisplay = Callable[[Request, FormData, WebSession | None, dict[str, str]], Response]  # a form page with errors
SCOPE_LABELS = {
    "account:read": "Read your account, drafts, listings, claims and orders",
    "listings:write": "Submit and edit drafts and listings, claims, invites, the free plan",
    "orders:write": "Quote orders and create checkout links",
}


class MailSender(Protocol):
    """Sends the outbox's due messages on a thread of its own; identity starts and stops it."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


class DeferredWork(Protocol):
    """Runs named work after the answer, in order; `stop` runs what is queued first."""

    def submit(self, name: str, work: Callable[[], object]) -> None: ...

    def stop(self) -> None: ...


@dataclass
class Identity:
    """What identity adds to the service: the bearer authenticator, sessions, email links, the mail sender."""

    services: Services
    base_url: str
    links: account_cmd.AccountLinks
    sessions: SessionStore
    throttle: SigninThrottle
    csrf: Csrf
    usage: KeyUsage
    api_keys: ApiKeyVerifier
    authenticator: BearerAuthenticator
    challenge: Callable[..., str]
    sender: MailSender | None  # None without SMTP_URL: mail stays queued in the outbox
    secure_cookies: bool
    deferred: DeferredWork  # sign-up and reset work, after the answer

    def routes(self) -> list[BaseRoute]:
        return WebAuth(self).routes() + protected_resource_routes(self.base_url)

    def mcp_guard(self, app: ASGIApp) -> ASGIApp:
        return McpBearerGuard(app, self.authenticator, self.base_url)

    def start(self) -> None:
        self.usage.start()
        if self.sender is not None:
            self.sender.start()

    def stop(self) -> None:
        self.deferred.stop()  # runs what is queued: its mail reaches the outbox before the sender stops
        if self.sender is not None:
            self.sender.stop()
        self.usage.stop()


def build_identity(services: Services, base_url: str, *, sender: MailSender | None, deferred: DeferredWork) -> Identity:
    """Create the identity tables, read the signing secret, and wire the verifier chain with the mail ports."""
    pool = services.reads.pool
    setup_sessions(pool)
    secret = signing_secret(pool)
    usage = KeyUsage(pool)
    usage.setup()
    api_keys = ApiKeyVerifier(services.reads, services.clock, usage)
    # An OAuth access-token verifier joins this chain when the authorization server exists.
    authenticator = BearerAuthenticator([api_keys])
    secure = base_url.startswith("https://")
    return Identity(
        services=services, base_url=base_url, links=account_cmd.AccountLinks(secret, services.links["website"]),
        sessions=SessionStore(pool, services.clock), throttle=SigninThrottle(pool, services.clock),
        csrf=Csrf(secret, ("__Host-" if secure else "") + "ld_csrf"), usage=usage, api_keys=api_keys,
        authenticator=authenticator, challenge=challenge_for(base_url), sender=sender, secure_cookies=secure,
        deferred=deferred,
    )


# ---------------------------------------------------------------- helpers


def _problems(exc: InvalidInput | ValidationError) -> dict[str, str]:
    """Field -> message for the form (the first message per field)."""
    out: dict[str, str] = {}
    if isinstance(exc, InvalidInput):
        for p in exc.problems:
            out.setdefault(p.field, p.message)
        if not exc.problems:
            out["form"] = exc.detail
    else:
        for err in exc.errors(include_url=False):
            name = str(err["loc"][0]) if err.get("loc") else "form"
            out.setdefault(name, err["msg"])
    return out


def _safe_next(value: str | None) -> str:
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


class WebAuth:
    """The routes; each handler reads the form, then does its (blocking) work in a worker thread."""

    def __init__(self, identity: Identity) -> None:
        self.id = identity
        self.s = identity.services
        self.secure = identity.secure_cookies
        self.session_cookie = ("__Host-" if self.secure else "") + "ld_session"
        self.templates = Jinja2Templates(directory=str(TEMPLATE_DIR))
        self.templates.env.filters["when"] = self._when

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/signup", page(self.signup_form), methods=["GET"]),
            Route("/signup", page(self.signup, form=True, invalid=self._redisplay("auth/signup.html")),
                  methods=["POST"]),
            Route("/verify", page(self.verify), methods=["GET"]),
            Route("/signin", page(self.signin_form), methods=["GET"]),
            Route("/signin", page(self.signin, form=True, delay_on=400, invalid=self._redisplay(
                "auth/signin.html",
                lambda data: {"next": _safe_next(text_rule.storable(str(data.get("next") or "")))})),
                methods=["POST"]),
            Route("/signout", page(self.signout, form=True), methods=["POST"]),
            Route("/reset", page(self.reset_form), methods=["GET"]),
            Route("/reset", page(self.reset, form=True, invalid=self._redisplay("auth/reset_request.html")),
                  methods=["POST"]),
            Route("/reset/confirm", page(self.reset_confirm_form), methods=["GET"]),
            Route("/reset/confirm", page(self.reset_confirm, form=True, invalid=self._redisplay(
                "auth/reset_confirm.html",
                lambda data: {"token": text_rule.storable(str(data.get("token") or ""))[:1000]})),
                methods=["POST"]),
            Route("/account", page(self.account_page), methods=["GET"]),
            Route("/account/verification", page(self.resend_verification, form=True), methods=["POST"]),
            Route("/account/keys", page(self.create_key, form=True, invalid=self._key_form_invalid), methods=["POST"]),
            Route("/account/keys/{key_id}/revoke", page(self.revoke_key, form=True), methods=["POST"]),
            Route("/staff", page(self.staff_page), methods=["GET"]),
            Route("/staff/outbox", page(self.staff_outbox), methods=["GET"]),
        ]

    def _page(self, handler: Callable[..., Response], form: bool = False, delay_on: int | None = None,
              invalid: Redisplay | None = None) -> Callable[..., Any]:
        """An endpoint around `handler`; `invalid` shows the form again with errors (else a message page)."""
        async def endpoint(request: Request) -> Response:
            data = await request.form() if form else FormData()
            response = await run_in_threadpool(self._run, handler, request, data, form, invalid)
            if delay_on is not None and response.status_code == delay_on:
                await anyio.sleep(FAILED_SIGNIN_DELAY)
            return response

        endpoint.__name__ = handler.__name__
        return endpoint

    def _run(self, handler: Callable[..., Response], request: Request, data: FormData, form: bool,
             invalid: Redisplay | None = None) -> Response:
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

    def _key_form_invalid(self, request: Request, data: FormData, session: WebSession | None,
                          errors: dict[str, str]) -> Response:
        if session is None:
            return self._redirect("/signin?next=/account")
        values = {"name": text_rule.storable(str(data.get("name") or "")),
                  "expires_on": text_rule.storable(str(data.get("expires_on") or "")),
                  "scopes": [text_rule.storable(str(v)) for v in data.getlist("scopes")]}
        return self.account_page(request, data, session, {"errors": errors, "values": values}, 400)

    # ------------------------------------------------------------ rendering

    def _when(self, value: datetime | None) -> str:
        if value is None:
            return ""
        return value.astimezone(self.s.timezone).strftime("%Y-%m-%d %H:%M")

    def _render(self, request: Request, template: str, ctx: dict[str, Any], session: WebSession | None,
                status: int = 200) -> Response:
        browser = request.cookies.get(self.id.csrf.cookie_name)
        new_browser = None
        if not browser:
            browser = new_browser = Csrf.new_browser_value()
        me = accounts_q.account(self.s.reads, session.account_id) if session else None
        context = {"csrf_field": CSRF_FIELD, "csrf_token": self.id.csrf.token(session.id if session else None, browser),
                   "me": me, "errors": {}, "values": {}, **ctx}
        response = self.templates.TemplateResponse(request, template, context, status_code=status)
        if new_browser:
            response.set_cookie(self.id.csrf.cookie_name, new_browser, httponly=True, samesite="lax",
                                secure=self.secure, path="/")
        self._private(response)
        return response

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

    def _meta(self, session: WebSession | None) -> Meta:
        actor = f"account:{session.account_id}" if session else "anonymous"
        return Meta(at=self.s.now(), actor=actor, channel="web", via="session" if session else "")

    def _wait(self, position: int, views: list[str] = VIEWS) -> None:
        self.s.runtime.wait_for(views, position, timeout=2.0)

    @staticmethod
    def _ip(request: Request) -> str:
        return request.client.host if request.client else ""

    # ------------------------------------------------------------ sign up and verify

    def signup_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._render(request, "auth/signup.html", {}, session)

    def signup(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        email, password = str(data.get("email") or ""), str(data.get("password") or "")
        errors: dict[str, str] = {}
        try:
            email = normalise_email(email)
        except InvalidInput as exc:
            errors.update(_problems(exc))
        if problem := account_cmd.password_problem(password, [email]):
            errors["password"] = problem
        if errors:
            return self._render(request, "auth/signup.html", {"errors": errors, "values": {"email": email}}, session, 400)
        # The same work whatever the address: hash here, then hand the rest over. A new address gets its
        # account and a verification link, a taken one a notice to its owner, both after this answer.
        pw_hash = account_cmd.hash_password(password)
        account_id, meta, store, links = str(uuid4()), self._meta(session), self.s.store, self.id.links
        self.id.deferred.submit("register_account", lambda: account_cmd.register_hashed(
            store, account_id, email, pw_hash, meta, links))
        return self._render(request, "auth/signup_sent.html", {"email": email}, session)

    def verify(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token = request.query_params.get("token", "")
        try:
            if not token or len(token) > 1000:
                raise InvalidInput("no token", [])
            position, _ = account_cmd.verify_email(self.s.store, token, self._meta(session), self.id.links)
        except InvalidInput as exc:
            reason = _problems(exc).get("token", "This link is not valid.")
            return self._message(request, session, "This link does not work", reason + " Sign in to ask for a new link.",
                                 400, [("/signin", "Sign in")])
        self._wait(position)
        next_links = [("/account", "Go to your account")] if session else [("/signin", "Sign in")]
        return self._message(request, session, "Email address confirmed", "Thank you: your email address is confirmed.",
                             200, next_links)

    def resend_verification(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._redirect("/signin?next=/account")
        position = account_cmd.resend_verification(self.s.store, session.account_id, self._meta(session), self.id.links)
        self._wait(position, [mail_q.VIEW])
        return self._redirect("/account?verification=sent")

    # ------------------------------------------------------------ sign in and out

    def signin_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        notice = "Your password was changed. Sign in with the new one." if request.query_params.get("reset") == "done" else None
        return self._render(request, "auth/signin.html",
                            {"next": _safe_next(request.query_params.get("next")), "notice": notice}, session)

    def signin(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        email, password = str(data.get("email") or ""), str(data.get("password") or "")
        next_path = _safe_next(str(data.get("next") or ""))
        values = {"email": email}
        keys = [f"email:{email.strip().lower()[:254]}", f"ip:{self._ip(request)}"]
        locked = self.id.throttle.locked_for(keys)
        if locked is not None:
            minutes = max(1, int(locked.total_seconds() // 60) + 1)
            errors = {"password": f"Too many failed attempts. Try again in {minutes} minutes, or reset your password."}
            return self._render(request, "auth/signin.html", {"errors": errors, "values": values, "next": next_path},
                                session, 429)
        state = account_cmd.check_password(self.s.store, email, password, self._meta(session))
        if state is None:
            self.id.throttle.failed(keys)
            errors = {"password": "The email address or the password is not right."}
            return self._render(request, "auth/signin.html", {"errors": errors, "values": values, "next": next_path},
                                session, 400)
        self.id.throttle.succeeded(keys[0])
        if session is not None:
            self.id.sessions.end(request.cookies.get(self.session_cookie))  # a fresh session id on every sign-in
        token = self.id.sessions.create(str(state.id), self._ip(request), request.headers.get("user-agent", ""))
        response = self._redirect(next_path)
        response.set_cookie(self.session_cookie, token, max_age=int(ABSOLUTE.total_seconds()), httponly=True,
                            samesite="lax", secure=self.secure, path="/")
        return response

    def signout(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        self.id.sessions.end(request.cookies.get(self.session_cookie))
        response = self._redirect("/")
        response.delete_cookie(self.session_cookie, path="/", secure=self.secure, httponly=True, samesite="lax")
        return response

    # ------------------------------------------------------------ password reset

    def reset_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._render(request, "auth/reset_request.html", {}, session)

    def reset(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        email = str(data.get("email") or "")
        try:
            email = normalise_email(email)
        except InvalidInput as exc:
            return self._render(request, "auth/reset_request.html",
                                {"errors": _problems(exc), "values": {"email": email}}, session, 400)
        # looked up after this answer, so its timing says nothing about whether the address has an account
        meta, store, links = self._meta(session), self.s.store, self.id.links
        self.id.deferred.submit("request_password_reset", lambda: account_cmd.request_password_reset(
            store, email, meta, links))
        return self._render(request, "auth/reset_sent.html", {"email": email}, session)

    def _reset_link_problem(self, request: Request, session: WebSession | None, text: str) -> Response:
        return self._message(request, session, "This link does not work", text + " You can ask for a new link.", 400,
                             [("/reset", "Ask for a new link")])

    def reset_confirm_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token = request.query_params.get("token", "")
        try:
            self.id.links.read("reset", token[:1000])
        except InvalidInput:
            return self._reset_link_problem(request, session, "This link is not valid.")
        return self._render(request, "auth/reset_confirm.html", {"token": token}, session)

    def reset_confirm(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token, password = str(data.get("token") or ""), str(data.get("password") or "")
        if problem := account_cmd.password_problem(password):
            return self._render(request, "auth/reset_confirm.html", {"token": token, "errors": {"password": problem}},
                                session, 400)
        try:
            cmd = account_cmd.ResetPassword(token=token[:1000], password=SecretStr(password))
            position, account_id = account_cmd.reset_password(self.s.store, cmd, self._meta(session), self.id.links)
        except InvalidInput as exc:
            return self._reset_link_problem(request, session, _problems(exc).get("token", "This link is not valid."))
        self._wait(position)
        self.id.sessions.end_all(account_id)  # whoever knew the old password is signed out everywhere
        response = self._redirect("/signin?reset=done")
        response.delete_cookie(self.session_cookie, path="/", secure=self.secure, httponly=True, samesite="lax")
        return response

    # ------------------------------------------------------------ account and API keys

    def _account_context(self, session: WebSession) -> dict[str, Any]:
        keys = accounts_q.account_keys(self.s.reads, session.account_id)
        used = self.id.usage.last_used([k["key_id"] for k in keys])
        now = self.s.clock()
        for k in keys:
            k["last_used"] = used.get(k["key_id"])
            k["status"] = ("revoked" if k["revoked_at"] else
                           "expired" if k["expires_at"] and k["expires_at"] <= now else "active")
        return {"keys": keys, "scopes": SCOPES, "scope_labels": SCOPE_LABELS, "today": self.s.today().isoformat()}

    def account_page(self, request: Request, data: FormData, session: WebSession | None,
                     extra: dict[str, Any] | None = None, status: int = 200) -> Response:
        if session is None:
            return self._redirect("/signin?next=" + quote("/account"))
        notices = []
        if revoked := request.query_params.get("revoked"):
            notices.append(f"The key ldk_{revoked[:16]}_… was revoked. It no longer works.")
        if request.query_params.get("verification") == "sent":
            notices.append("We sent you a new confirmation link.")
        ctx = {"notices": notices, **self._account_context(session), **(extra or {})}
        return self._render(request, "account/account.html", ctx, session, status)

    def create_key(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._redirect("/signin?next=/account")
        name = str(data.get("name") or "")
        scopes = [str(s) for s in data.getlist("scopes")]
        raw_expiry = str(data.get("expires_on") or "").strip()
        values = {"name": name, "scopes": scopes, "expires_on": raw_expiry}
        errors: dict[str, str] = {}
        expires_on = None
        if raw_expiry:
            try:
                expires_on = date.fromisoformat(raw_expiry)
            except ValueError:
                errors["expires_on"] = "Enter a date as YYYY-MM-DD, or leave it empty for a key that does not expire."
        if not name.strip():
            errors["name"] = "Give the key a name, so you recognise it later."
        if not scopes:
            errors["scopes"] = "Choose at least one scope."
        elif set(scopes) - set(SCOPES):
            errors["scopes"] = "Choose among the scopes listed."
        new_key = None
        if not errors:
            try:
                cmd = apikeys_cmd.CreateApiKey(account_id=session.account_id, name=name, scopes=scopes,  # type: ignore[arg-type]
                                               expires_on=expires_on)
                new_key = apikeys_cmd.create_api_key(self.s.store, cmd, self._meta(session), self.s.timezone)
            except (InvalidInput, ValidationError) as exc:
                errors = _problems(exc)
                if "account" in errors:
                    errors["form"] = errors.pop("account")
        if errors:
            return self.account_page(request, data, session, {"errors": errors, "values": values}, 400)
        assert new_key is not None
        self._wait(new_key.position)
        return self.account_page(request, data, session, {"new_key": new_key.key, "new_key_id": new_key.key_id})

    def revoke_key(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._redirect("/signin?next=/account")
        key_id = request.path_params["key_id"]
        try:
            position = apikeys_cmd.revoke_api_key(
                self.s.store, apikeys_cmd.RevokeApiKey(account_id=UUID(session.account_id), key_id=key_id[:16]), self._meta(session))
        except (NotFound, ValidationError):
            return self._message(request, session, "No such key", "There is no such API key on your account.", 404,
                                 [("/account", "Back to your account")])
        self._wait(position)
        self.id.api_keys.forget(key_id)
        return self._redirect("/account?revoked=" + quote(key_id[:16]))

    # ------------------------------------------------------------ staff

    def _staff_only(self, request: Request, session: WebSession | None) -> Response | None:
        me = accounts_q.account(self.s.reads, session.account_id) if session else None
        if me is not None and me["is_staff"]:
            return None
        text = "This page is for the site's staff." + ("" if session else " Sign in with a staff account.")
        links = [] if session else [("/signin?next=/staff", "Sign in")]
        return self._message(request, session, "Staff only", text, 403, links)

    def staff_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        ctx = {"counts": accounts_q.counts(self.s.reads), "accounts": accounts_q.recent_accounts(self.s.reads),
               "mail": mail_q.status_counts(self.s.reads), "smtp": self.id.sender is not None}
        return self._render(request, "account/staff.html", ctx, session)

    def staff_outbox(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        to = (request.query_params.get("to") or "").strip().lower()[:254] or None
        messages = mail_q.outbox(self.s.reads, limit=100, to=to)
        return self._render(request, "account/outbox.html",
                            {"messages": messages, "to": to or "", "smtp": self.id.sender is not None}, session)

