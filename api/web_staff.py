"""The website's staff overview: /staff (accounts and mail counts) and /staff/outbox (the mail sent or queued).

Only staff accounts see them (`WebPages._staff_only`, the 403 page every staff
page gives). Other staff pages live beside their feature (review and audit in
`api/web_staff_review.py`, claims in `api/web_claims.py`).
"""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.sessions import WebSession
from api.web_pages import WebPages
from queries import accounts as accounts_q
from queries import mail as mail_q


class StaffPages(WebPages):
    """/staff and /staff/outbox."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/staff", self._page(self.staff_page), methods=["GET"]),
            Route("/staff/outbox", self._page(self.staff_outbox), methods=["GET"]),
        ]

    def staff_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        ctx = {"counts": accounts_q.counts(self.s.reads), "accounts": accounts_q.recent_accounts(self.s.reads),
               "mail": mail_q.status_counts(self.s.reads), "delivering": self.id.sender is not None}
        return self._render(request, "account/staff.html", ctx, session)

    def staff_outbox(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        to = (request.query_params.get("to") or "").strip().lower()[:254] or None
        messages = mail_q.outbox(self.s.reads, limit=100, to=to)
        return self._render(request, "account/outbox.html",
                            {"messages": messages, "to": to or "", "delivering": self.id.sender is not None}, session)
