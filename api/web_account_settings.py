"""The account's settings pages: change the password, see and end where you are signed in, change the address.

- `/account/password`: the current password and a new one. A wrong current password is a field
  error and counts against the sign-in throttle (the same counters as `/signin`), so the form
  cannot be used to guess. On success every other session of the account ends (this browser
  stays signed in), the owner is mailed, and API keys and connected apps are revoked when asked.
- `/account/sessions`: the account's live sessions (browser and system in words, IP, signed in,
  last seen), this browser marked. A session is named by `api.sessions.reference`, a short hash
  that only picks among the signed-in account's own sessions: another account's is a 404.
- `/account/email`: a new address and the current password; a link mailed to the new address
  (`/account/email/confirm`) opens a page whose Confirm button moves the account. The request is
  handled after the answer, so the answer is the same whether or not the address is taken.
- `/account/email/undo`: the link in the notice to the old address. Its page says what happened;
  its Undo button (a POST, CSRF as every form; no sign-in needed, the link proves the old
  mailbox) moves the account back, signs out every browser, stops the keys and connected apps,
  and mails a link to choose a new password to the old address.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from pydantic import SecretStr, ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.sessions import SessionRow, WebSession
from api.web_pages import WebPages, form_problems
from api.web_signin import SigninPages
from commands import account as account_cmd
from commands import account_email_undo as undo_cmd
from commands import account_settings as settings_cmd
from events import text as text_rule
from events.errors import Conflict, InvalidInput, NotFound
from queries import account_export as export_q
from queries import mail as mail_q
from queries import oauth as oauth_q

REFERENCE = re.compile(r"^[0-9a-f]{16}$")
BROWSERS = (  # the first match names the browser; order matters (Edge and Opera also say Chrome and Safari)
    ("Edg/", "Edge"), ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("HeadlessChrome/", "Chrome (headless)"), ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("Version/", "Safari"), ("curl/", "curl"),
    ("python-httpx/", "a Python program"), ("python-requests/", "a Python program"),
)
SYSTEMS = (
    ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
    ("Mac OS X", "macOS"), ("Macintosh", "macOS"), ("Linux", "Linux"),
)


def signed_out_everywhere(identity: Identity, account_id: str, revoked_keys: Iterable[str]) -> None:
    """Every browser of the account signed out, and the keys just revoked dropped from this process's caches.

    Sessions are not events, so this follows the append that revoked the keys: closing the account,
    undoing a change of address.
    """
    identity.sessions.end_all(account_id)
    for key_id in revoked_keys:
        identity.api_keys.forget(key_id)


def describe_agent(user_agent: str) -> str:
    """A browser's User-Agent in plain words: "Firefox on Windows", "Safari on iPhone", "An unknown browser"."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in SYSTEMS if mark in user_agent), None)
    if browser is None:
        return f"A browser on {system}" if system else "An unknown browser"
    return f"{browser} on {system}" if system else browser


class AccountSettingsPages(WebPages):
    """/account/password, /account/sessions and /account/email."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._signin = SigninPages(self.id)  # its revocation of keys and apps, as a reset does it

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/account/password", page(self.password_form), methods=["GET"]),
            Route("/account/password", page(self.change_password, form=True, delay_on=400,
                                            invalid=self._redisplay("account/password.html")), methods=["POST"]),
            Route("/account/sessions", page(self.sessions_page), methods=["GET"]),
            Route("/account/sessions/others/end", page(self.end_others, form=True), methods=["POST"]),
            Route("/account/sessions/{ref}/end", page(self.end_session, form=True), methods=["POST"]),
            Route("/account/email", page(self.email_form), methods=["GET"]),
            Route("/account/email", page(self.request_email, form=True, delay_on=400,
                                         invalid=self._redisplay("account/email.html")), methods=["POST"]),
            Route("/account/email/confirm", page(self.confirm_form), methods=["GET"]),
            Route("/account/email/confirm", page(self.confirm_email, form=True), methods=["POST"]),
            Route("/account/email/undo", page(self.undo_form), methods=["GET"]),
            Route("/account/email/undo", page(self.undo_email, form=True), methods=["POST"]),
        ]

    def _signin_first(self, path: str) -> Response:
        return self._redirect("/signin?next=" + path)

    def _throttle_keys(self, request: Request, account_id: str) -> list[str]:
        """The sign-in throttle's keys for this account's address (as the write side has it) and this client."""
        return [f"email:{account_cmd.load_account(self.s.store, account_id).email}", f"ip:{self._ip(request)}"]

    def _locked(self, keys: list[str]) -> str | None:
        locked = self.id.throttle.locked_for(keys)
        if locked is None:
            return None
        minutes = max(1, int(locked.total_seconds() // 60) + 1)
        return f"Too many failed attempts. Try again in {minutes} minutes."

    def _refused(self, exc: InvalidInput | ValidationError, keys: list[str]) -> dict[str, str]:
        """The form's errors; a wrong current password counts as a failed sign-in."""
        if isinstance(exc, InvalidInput) and any(p.field == "current_password" and p.rule == "wrong"
                                                 for p in exc.problems):
            self.id.throttle.failed(keys)
        return form_problems(exc)

    # ------------------------------------------------------------ the password

    def password_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin_first("/account/password")
        notice = None
        if request.query_params.get("changed") == "yes":
            notice = "Your password was changed. Every other browser signed in to your account was signed out."
        return self._render(request, "account/password.html", {"notice": notice}, session)

    def change_password(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin_first("/account/password")
        revoke = data.get("revoke") == "yes"
        keys = self._throttle_keys(request, session.account_id)
        if (locked := self._locked(keys)) is not None:
            return self._render(request, "account/password.html",
                                {"errors": {"current_password": locked}, "revoke": revoke}, session, 429)
        try:
            cmd = settings_cmd.ChangePassword(
                account_id=UUID(session.account_id), current_password=SecretStr(str(data.get("current_password") or "")),
                new_password=SecretStr(str(data.get("new_password") or "")), revoke_credentials=revoke)
            position = settings_cmd.change_password(self.s.store, cmd, self._meta(session), self.id.links)
        except (InvalidInput, ValidationError) as exc:
            return self._render(request, "account/password.html",
                                {"errors": self._refused(exc, keys), "revoke": revoke}, session, 400)
        self._wait(position, ["accounts_view", mail_q.VIEW])
        self.id.sessions.end_others(session.account_id, session.id)  # whoever knew the old one is signed out
        if revoke:
            self._signin._revoke_credentials(session.account_id, session)
        self.id.throttle.succeeded(keys[0])  # the owner proved the password: others' wrong guesses no longer lock it
        return self._redirect("/account/password?changed=yes")

    # ------------------------------------------------------------ where you are signed in

    def sessions_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin_first("/account/sessions")
        rows = self.id.sessions.live(session.account_id, session.id)
        notices = []
        if request.query_params.get("ended") == "one":
            notices.append("That session was ended: the browser is signed out.")
        elif (others := request.query_params.get("ended", "")).isdigit():
            notices.append("Every other session was ended." if others != "0" else "There was no other session to end.")
        return self._render(request, "account/sessions.html",
                            {"sessions": [self._shown(r) for r in rows], "notices": notices,
                             "others": sum(1 for r in rows if not r.current)}, session)

    @staticmethod
    def _shown(row: SessionRow) -> dict[str, Any]:
        return {"ref": row.reference, "device": describe_agent(row.user_agent), "ip": row.ip or "unknown",
                "created_at": row.created_at, "last_seen_at": row.last_seen_at, "current": row.current}

    def end_session(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin_first("/account/sessions")
        ref = str(request.path_params["ref"])
        ended = self.id.sessions.end_reference(session.account_id, ref) if REFERENCE.match(ref) else None
        if ended is None:
            return self._message(request, session, "No such session",
                                 "None of the browsers signed in to your account has this session.", 404,
                                 [("/account/sessions", "Where you are signed in")])
        if ended == session.id:  # this browser: as Sign out
            response = self._redirect("/")
            response.delete_cookie(self.session_cookie, path="/", secure=self.secure, httponly=True, samesite="lax")
            return response
        return self._redirect("/account/sessions?ended=one")

    def end_others(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin_first("/account/sessions")
        ended = self.id.sessions.end_others(session.account_id, session.id)
        return self._redirect(f"/account/sessions?ended={ended}")

    # ------------------------------------------------------------ the address

    def _email_context(self, session: WebSession) -> dict[str, Any]:
        pending = settings_cmd.pending_email_change(self.s.store, session.account_id, self.s.now())
        return {"pending": pending}

    def email_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin_first("/account/email")
        return self._render(request, "account/email.html", self._email_context(session), session)

    def request_email(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin_first("/account/email")
        values = {"new_email": text_rule.storable(str(data.get("new_email") or ""))}
        keys = self._throttle_keys(request, session.account_id)
        if (locked := self._locked(keys)) is not None:
            return self._render(request, "account/email.html", {**self._email_context(session), "values": values,
                                                                "errors": {"current_password": locked}}, session, 429)
        try:
            cmd = settings_cmd.RequestEmailChange(account_id=UUID(session.account_id), new_email=values["new_email"],
                                                  current_password=SecretStr(str(data.get("current_password") or "")))
            _, new_email = settings_cmd.check_new_address(self.s.store, cmd)
        except (InvalidInput, ValidationError) as exc:
            return self._render(request, "account/email.html", {**self._email_context(session), "values": values,
                                                                "errors": self._refused(exc, keys)}, session, 400)
        self.id.throttle.succeeded(keys[0])
        # Whether another account holds the address is looked at after this answer (a link, or a notice to that
        # address), so the answer is the same either way.
        account_id, meta, store, links = session.account_id, self._meta(session), self.s.store, self.id.links
        self.id.deferred.submit("request_email_change", lambda: settings_cmd.request_email_change(
            store, account_id, new_email, meta, links))
        return self._render(request, "account/email.html", {"sent": new_email, "pending": None}, session)

    def _link_problem(self, request: Request, session: WebSession | None, text: str) -> Response:
        return self._message(request, session, "This link does not work",
                             text + " Ask for a new link on your account's email address page.", 400,
                             [("/account/email", "Change your email address")])

    def _done_already(self, request: Request, session: WebSession | None) -> Response:
        links = [("/account", "Go to your account")] if session else [("/signin", "Sign in")]
        return self._message(request, session, "Email address changed already",
                             "Your account uses its new address: this link has done its work.", 200, links)

    def confirm_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token = request.query_params.get("token", "")[:1000]
        link = settings_cmd.email_change_link(self.s.store, token, self.id.links, self.s.now())
        if link.done:  # the link of a change that was made (opened again, or first by a mail scanner's click)
            return self._done_already(request, session)
        if link.problem is not None:
            return self._link_problem(request, session, link.problem)
        return self._render(request, "account/email_confirm.html", {"token": token, "new_email": link.new_email},
                            session)

    def confirm_email(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token = str(data.get("token") or "")[:1000]
        try:
            moved = settings_cmd.confirm_email_change(self.s.store, token, self._meta(session), self.id.links)
        except InvalidInput as exc:
            problems = exc.problems
            if problems and problems[0].rule == "used":
                return self._done_already(request, session)
            return self._link_problem(request, session, problems[0].message if problems else "This link is not valid.")
        except Conflict:
            return self._message(request, session, "This address has another account",
                                 "An account was opened with this address after the link was sent, so your account "
                                 "keeps its address.", 409, [("/account/email", "Change your email address")])
        except NotFound:
            return self._link_problem(request, session, "This link is not valid.")
        self._wait(moved.position, ["accounts_view", mail_q.VIEW])
        links = [("/account", "Go to your account")] if session else [("/signin", "Sign in")]
        return self._message(request, session, "Email address changed",
                             f"Your account's address is now {moved.new_email}. Sign in with it from now on; "
                             "the old address no longer signs in.", 200, links)

    # ------------------------------------------------------------ undoing a change, from the old address

    def _undo_refused(self, request: Request, session: WebSession | None, text: str, status: int = 400) -> Response:
        return self._message(request, session, "This link does not undo anything", text + " Nothing was changed.",
                             status, [("/signin", "Sign in"), ("/reset", "Forgot your password?")])

    def _undone_already(self, request: Request, session: WebSession | None) -> Response:
        return self._message(request, session, "Change undone already",
                             "This link was used already: the account is back at its old address. Choose a new "
                             "password with the link we mailed there, or ask for a new one.", 200,
                             [("/reset", "Reset your password"), ("/signin", "Sign in")])

    def undo_form(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token = request.query_params.get("token", "")[:1000]
        link = undo_cmd.email_undo_link(self.s.store, token, self.id.links, self.s.now())
        if link.done:
            return self._undone_already(request, session)
        if link.problem is not None:
            return self._undo_refused(request, session, link.problem)
        assert link.restored_email is not None and link.dropped_email is not None
        if link.taken:
            return self._undo_refused(request, session, undo_cmd.taken_problem(link.restored_email, link.contact), 409)
        return self._render(request, "account/email_undo.html", {
            "token": token, "restored_email": link.restored_email, "changed_at": link.changed_at,
            "dropped_email": settings_cmd.masked(link.dropped_email)}, session)

    def undo_email(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        token = str(data.get("token") or "")[:1000]
        try:
            stream, _ = undo_cmd.read_link(self.id.links, token)
            grants = export_q.closing(self.s.reads, str(stream), self.s.clock())["grant_ids"]
            reverted = undo_cmd.revert_email_change(self.s.store, token, tuple(UUID(str(g)) for g in grants),
                                                    self._meta(session), self.id.links)
        except InvalidInput as exc:
            if exc.problems and exc.problems[0].rule == "used":
                return self._undone_already(request, session)
            return self._undo_refused(request, session, undo_cmd.refusal(exc, undo_cmd.staff_contact(self.s.store)))
        except Conflict as exc:  # another account took the old address meanwhile
            return self._undo_refused(request, session, exc.detail, 409)
        except NotFound:
            return self._undo_refused(request, session, undo_cmd.NOT_VALID)
        signed_out_everywhere(self.id, reverted.account_id, reverted.key_ids)
        self._wait(reverted.position, ["accounts_view", oauth_q.VIEW, mail_q.VIEW])
        response = self._message(
            request, None, "Change undone",
            f"Your account is back at {reverted.restored_email}. Every browser signed in to it was signed out, its "
            "API keys and connected apps stopped working, and its password no longer signs in: we sent a link to "
            f"{reverted.restored_email} to choose a new one (it works for an hour; after that, ask for another).",
            200, [("/reset", "Ask for a new password link")])
        if session is not None:  # this browser's session ended with the others
            response.delete_cookie(self.session_cookie, path="/", secure=self.secure, httponly=True, samesite="lax")
        return response
