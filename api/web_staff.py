"""The website's staff overview: /staff (every staff page, the staff role, accounts) and /staff/outbox (mail).

Only staff accounts see them (`WebPages._staff_only`, the 403 page every staff
page gives). Other staff pages live beside their feature (review and audit in
`api/web_staff_review.py`, claims in `api/web_claims.py`, ...).

The staff role is given and taken away here with the commands `launchdir staff
grant` and `revoke` call (`commands.account.change_staff`), recorded as
`staff:<email>` on channel `web`. Nobody takes the role from themselves on the
website, so the person acting always stays staff and the site never ends up
without anyone who can reach these pages (the command line still can, as the
site's operator). A step that changes nothing (the account is staff already,
or no longer) records nothing and says so.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.sessions import WebSession
from api.web_founder_pages import FounderPages
from commands.account import change_staff
from events.errors import Conflict, NotFound
from queries import accounts as accounts_q
from queries import mail as mail_q

NOTICES = {
    "granted": "{email} is staff now: the staff pages open for them at their next page.",
    "revoked": "{email} is no longer staff.",
    "already": "Nothing changed: {email} is staff already, so nothing was recorded.",
    "not-staff": "Nothing changed: {email} is not staff, so there was no role to take away and nothing was recorded.",
}
NO_ACCOUNT = "No account has this address. The person signs up first; then give them the role."
NOT_YOURSELF = "You cannot take the staff role from yourself here; ask another staff member."
LAST_STAFF = "This is the last staff account now, so it keeps the role: make another account staff first."


class StaffPages(FounderPages):
    """/staff, its staff-role forms, and /staff/outbox."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/staff", self._page(self.staff_page), methods=["GET"]),
            Route("/staff/roles/grant", self._page(self.grant, form=True), methods=["POST"]),
            Route("/staff/roles/revoke", self._page(self.revoke, form=True), methods=["POST"]),
            Route("/staff/outbox", self._page(self.staff_outbox), methods=["GET"]),
        ]

    def staff_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._home(request, session, {}, {}, 200)

    def grant(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._change(request, data, session, staff=True)

    def revoke(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._change(request, data, session, staff=False)

    def _change(self, request: Request, data: FormData, session: WebSession | None, staff: bool) -> Response:
        """Give or take the role with the CLI's command; unknown addresses and oneself are refused by the field."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        email = self._form(data, "email")["email"].lower()
        field = "email" if staff else "revoke-error"  # the grant form's box, or the line under the staff list
        me = accounts_q.account(self.s.reads, session.account_id)
        if not staff and me is not None and email == me["email"]:
            return self._home(request, session, {field: email}, {field: NOT_YOURSELF}, 400)
        try:
            done = change_staff(self.s.store, email, staff, self._staff_meta(session),
                                accounts_q.staff_ids(self.s.reads))
        except NotFound:
            return self._home(request, session, {field: email}, {field: NO_ACCOUNT}, 400)
        except Conflict:  # the last staff account: another one revoked at the same instant
            return self._home(request, session, {field: email}, {field: LAST_STAFF}, 409)
        word = ("granted" if staff else "revoked") if done.events else ("already" if staff else "not-staff")
        if done.events:
            self._wait(done.position)
        return self._redirect(f"/staff?{urlencode({'done': word, 'email': email})}")

    def _home(self, request: Request, session: WebSession | None, values: dict[str, str], errors: dict[str, str],
              status: int) -> Response:
        done, email = request.query_params.get("done", ""), request.query_params.get("email", "")[:254]
        notice = NOTICES[done].format(email=email) if done in NOTICES and email else None
        me = accounts_q.account(self.s.reads, session.account_id) if session else None
        ctx = {"counts": accounts_q.counts(self.s.reads), "accounts": accounts_q.recent_accounts(self.s.reads),
               "staff_accounts": accounts_q.staff_accounts(self.s.reads), "my_email": me["email"] if me else "",
               "mail": mail_q.status_counts(self.s.reads), "delivering": self.id.sender is not None,
               "notice": notice, "values": values, "errors": errors,
               "error_labels": {"email": "Give the staff role to", "revoke-error": "Take the staff role away"}}
        return self._render(request, "account/staff.html", ctx, session, status)

    def staff_outbox(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        to = (request.query_params.get("to") or "").strip().lower()[:254] or None
        messages = mail_q.outbox(self.s.reads, limit=100, to=to)
        return self._render(request, "account/outbox.html",
                            {"messages": messages, "to": to or "", "delivering": self.id.sender is not None}, session)
