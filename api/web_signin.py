"""The website's way in: sign up, confirm the address, sign in and out, reset a forgotten password.

Sign-up and reset requests answer before the address is looked up (identity's
`DeferredWork` port runs that part), so their timing does not tell whether an
account exists. A failed sign-in answers a little later (`FAILED_SIGNIN_DELAY`)
and counts against the address and the caller's IP (`SigninThrottle`).

Each of these pages keeps `next`, the page of this site the person was on
(`safe_next`: a relative path, never another site), from the sign-in page
through sign-up and the emailed confirmation link (signed into it) to the
sign-in that ends on it, and says what the person was doing ("Sign in to vote
for Acme") when `next` tells (`purpose`).
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID, uuid4

from pydantic import SecretStr
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.account import normalise_email
from api.sessions import ABSOLUTE, WebSession
from api.web_invites import INVITE_PAGE, invite_purpose
from api.web_pages import WebPages, form_problems, safe_next
from commands import account as account_cmd
from commands import apikeys as apikeys_cmd
from commands import oauth as oauth_cmd
from events import text as text_rule
from events.errors import InvalidInput
from queries import accounts as accounts_q
from queries import listings as listings_q
from queries import mail as mail_q
from queries import oauth as oauth_q

ACTION_ANCHOR = re.compile(r"(vote|follow)-([^/?#\s]{1,200})")  # `#vote-<slug>`: the button a listing's page lands on
LISTING_PAGE = re.compile(r"/listings/([^/?#\s]{1,200})")
LISTING_REVIEW = re.compile(r"/listings/([^/?#\s]{1,200})/review")


class SigninPages(WebPages):
    """/signup, /verify, /signin, /signout, /reset and /account/verification (a new confirmation link)."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/signup", page(self.signup_form), methods=["GET"]),
            Route("/signup", page(self.signup, form=True, invalid=self._redisplay(
                "auth/signup.html", lambda data: self._returning(text_rule.storable(str(data.get("next") or ""))))),
                  methods=["POST"]),
            Route("/verify", page(self.verify), methods=["GET"]),
            Route("/signin", page(self.signin_form), methods=["GET"]),
            Route("/signin", page(self.signin, form=True, delay_on=400, invalid=self._redisplay(
                "auth/signin.html", lambda data: self._returning(text_rule.storable(str(data.get("next") or ""))))),
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
            Route("/account/verification", page(self.resend_verification, form=True), methods=["POST"]),
        ]

    # ------------------------------------------------------------ where the person comes back to

    def _returning(self, value: str | None) -> dict[str, Any]:
        """`next` (a path of this site, else the account page) and what it says the person was doing."""
        next_path = safe_next(value)
        return {"next": next_path, "purpose": self._purpose(next_path)}

    def _purpose(self, next_path: str) -> str | None:
        """What the person was doing, from `next`: "vote for Acme", "submit your product"; None when it does not say.

        Only the site's own words and a live listing's name are shown, never text taken from the address.
        """
        path, _, anchor = next_path.partition("#")
        path = path.partition("?")[0]
        if action := ACTION_ANCHOR.fullmatch(anchor):
            name = self._listing_name(action[2])
            verb = "vote for" if action[1] == "vote" else "follow"
            return f"{verb} {name}" if name else action[1]
        if path == "/submit":
            return "submit your product"
        listing = LISTING_REVIEW.fullmatch(path) or (LISTING_PAGE.fullmatch(path) if anchor == "reviews" else None)
        if listing and (name := self._listing_name(listing[1])):
            return f"review {name}"
        if path == INVITE_PAGE:
            return invite_purpose(self.s.store, next_path.partition("#")[0].partition("?")[2])
        return None

    def _listing_name(self, slug: str) -> str | None:
        doc = listings_q.live_document(self.s.reads, slug)
        return str(doc["name"]) if doc and doc.get("name") else None

    # ------------------------------------------------------------ sign up and verify

    def signup_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        # where to come back to after confirming and signing in (an invite's Accept page, a vote)
        return self._render(request, "auth/signup.html", self._returning(request.query_params.get("next")), session)

    def signup(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        email, password = str(data.get("email") or ""), str(data.get("password") or "")
        returning = self._returning(str(data.get("next") or ""))
        next_path = returning["next"]
        errors: dict[str, str] = {}
        try:
            email = normalise_email(email)
        except InvalidInput as exc:
            errors.update(form_problems(exc))
        if problem := account_cmd.password_problem(password, [email]):
            errors["password"] = problem
        if errors:
            return self._render(request, "auth/signup.html", {"errors": errors, "values": {"email": email},
                                                              **returning}, session, 400)
        # The same work whatever the address: hash here, then hand the rest over. A new address gets its
        # account and a verification link, a taken one a notice to its owner, both after this answer.
        # Both emailed links lead back to `next` (the account page needs no carrying).
        pw_hash = account_cmd.hash_password(password)
        account_id, meta, store, links = str(uuid4()), self._meta(session), self.s.store, self.id.links
        back = None if next_path == "/account" else next_path
        self.id.deferred.submit("register_account", lambda: account_cmd.register_hashed(
            store, account_id, email, pw_hash, meta, links, next_path=back))
        return self._render(request, "auth/signup_sent.html", {"email": email, **returning}, session)

    def verify(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token = request.query_params.get("token", "")
        try:
            if not token or len(token) > 1000:
                raise InvalidInput("no token", [])
            position, _ = account_cmd.verify_email(self.s.store, token, self._meta(session), self.id.links)
        except InvalidInput as exc:
            if account_cmd.verify_link_confirmed(self.s.store, token[:1000], self.id.links):  # opened again (or by a
                return self._confirmed(request, session, token[:1000], "Email address already confirmed",  # scanner)
                                       "Your email address is confirmed: this link has done its work.")
            reason = form_problems(exc).get("token", "This link is not valid.")
            return self._message(request, session, "This link does not work", reason + " Sign in to ask for a new link.",
                                 400, [("/signin", "Sign in")])
        self._wait(position)
        return self._confirmed(request, session, token, "Email address confirmed",
                               "Thank you: your email address is confirmed.")

    def _confirmed(self, request: Request, session: WebSession | None, token: str, title: str, text: str) -> Response:
        """After a confirmation link, on to the page the person signed up from (`n` in the signed link).

        Signed in already: a link there. Otherwise the sign-in form, the address filled in and `next`
        kept. The link itself signs no one in: it proves the mailbox, not the password, and mail
        scanners open it too (docs/identity.md, "Coming back after signing in").
        """
        email, back = account_cmd.verify_link_return(self.s.store, token, self.id.links)
        returning = self._returning(back)
        if session is not None:
            purpose = returning["purpose"]
            onward = [] if returning["next"] == "/account" else [
                (returning["next"], f"Continue to {purpose}" if purpose else "Continue where you were")]
            return self._message(request, session, title, text, 200, onward + [("/account", "Go to your account")])
        return self._render(request, "auth/signin.html", {**returning, "heading": title, "notice": text,
                                                          "values": {"email": email or ""}}, session)

    def resend_verification(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._redirect("/signin?next=/account")
        position, sent = account_cmd.resend_verification(self.s.store, session.account_id, self._meta(session),
                                                         self.id.links)
        self._wait(position, [mail_q.VIEW])
        if not sent and (me := accounts_q.account(self.s.reads, session.account_id)) and me["email_verified"]:
            return self._redirect("/account")  # confirmed already: nothing to send, nothing to say
        return self._redirect("/account?verification=" + ("sent" if sent else "recent"))

    def _revoke_credentials(self, account_id: str, session: WebSession | None) -> None:
        """Every API key and connected app of the account stops working (a reset after a stolen password)."""
        meta = self._meta(session)
        position = 0
        for key in accounts_q.account_keys(self.s.reads, account_id):
            if key["revoked_at"] is None:
                position = apikeys_cmd.revoke_api_key(
                    self.s.store, apikeys_cmd.RevokeApiKey(account_id=UUID(account_id), key_id=key["key_id"]), meta)
                self.id.api_keys.forget(key["key_id"])
        for app in oauth_q.connected_apps(self.s.reads, account_id, self.s.clock()):
            position = oauth_cmd.revoke_grant(self.s.store, oauth_cmd.RevokeGrant(grant_id=app["grant_id"],
                                                                                  account_id=account_id), meta)
        if position:
            self._wait(position, ["accounts_view", oauth_q.VIEW])

    # ------------------------------------------------------------ sign in and out

    def signin_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        notice = "Your password was changed. Sign in with the new one." if request.query_params.get("reset") == "done" else None
        return self._render(request, "auth/signin.html",
                            {**self._returning(request.query_params.get("next")), "notice": notice}, session)

    def signin(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        email, password = str(data.get("email") or ""), str(data.get("password") or "")
        returning = self._returning(str(data.get("next") or ""))
        next_path = returning["next"]
        values = {"email": email}
        keys = [f"email:{email.strip().lower()[:254]}", f"ip:{self._ip(request)}"]
        locked = self.id.throttle.locked_for(keys)
        if locked is not None:
            minutes = max(1, int(locked.total_seconds() // 60) + 1)
            errors = {"password": f"Too many failed attempts. Try again in {minutes} minutes, or reset your password."}
            return self._render(request, "auth/signin.html", {"errors": errors, "values": values, **returning},
                                session, 429)
        state = account_cmd.check_password(self.s.store, email, password, self._meta(session))
        if state is None:
            self.id.throttle.failed(keys)
            errors = {"password": "The email address or the password is not right. Check both, "
                                  "or reset your password with “Forgot your password?” below."}
            return self._render(request, "auth/signin.html", {"errors": errors, "values": values, **returning},
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
                                {"errors": form_problems(exc), "values": {"email": email}}, session, 400)
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
        problem = account_cmd.reset_link_problem(self.s.store, token[:1000], self.id.links, self.s.now())
        if problem is not None:  # used, expired or forged: said now, not after a new password is typed
            return self._reset_link_problem(request, session, problem)
        email = account_cmd.reset_link_email(self.s.store, token[:1000], self.id.links)
        return self._render(request, "auth/reset_confirm.html", {"token": token, "email": email, "revoke": True}, session)

    def reset_confirm(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token, password = str(data.get("token") or ""), str(data.get("password") or "")
        revoke = data.get("revoke") == "yes"  # API keys and connected apps too (ticked unless the person unticks it)
        email = account_cmd.reset_link_email(self.s.store, token[:1000], self.id.links)
        shown = {"token": token, "email": email, "revoke": revoke}
        if problem := account_cmd.password_problem(password, [email] if email else []):  # as strict as sign-up
            return self._render(request, "auth/reset_confirm.html", {**shown, "errors": {"password": problem}},
                                session, 400)
        try:
            cmd = account_cmd.ResetPassword(token=token[:1000], password=SecretStr(password))
            position, account_id = account_cmd.reset_password(self.s.store, cmd, self._meta(session), self.id.links,
                                                              revoke_credentials=revoke)
        except InvalidInput as exc:
            problems = form_problems(exc)
            if "password" in problems:
                return self._render(request, "auth/reset_confirm.html",
                                    {**shown, "errors": {"password": problems["password"]}}, session, 400)
            return self._reset_link_problem(request, session, problems.get("token", "This link is not valid."))
        self._wait(position)
        self.id.sessions.end_all(account_id)  # whoever knew the old password is signed out everywhere
        if revoke:
            self._revoke_credentials(account_id, session)
        if email:  # the owner proved the mailbox: a lock from others' wrong guesses ends (they cannot lock them out)
            self.id.throttle.succeeded(f"email:{email}")
        response = self._redirect("/signin?reset=done")
        response.delete_cookie(self.session_cookie, path="/", secure=self.secure, httponly=True, samesite="lax")
        return response
