"""The website's "your data" pages: download everything held about you, and close your account.

- `GET /account/data`: what the download holds, and the button.
- `GET /account/data/export`: the JSON file (`Content-Disposition: attachment`, a dated name),
  built by `queries/account_export.py`, plus what lives outside the read tables: the sessions
  and each API key's last use.
- `GET /account/close`: what closing does, said plainly, with the person's own listings by
  name and what becomes of each; the refusals (an order awaiting payment, the last staff
  account) are said before anyone types a password.
- `POST /account/close`: the current password and the address typed again (a wrong password
  counts against the sign-in throttle, as on `/signin`); then every session ends and the
  browser lands on a signed-out page (docs/identity.md, "Closing an account").
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote
from uuid import UUID

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.sessions import WebSession
from api.web_account_settings import signed_out_everywhere
from api.web_pages import WebPages, form_problems
from commands import account_closure as closure_cmd
from events import text as text_rule
from events.errors import Conflict, InvalidInput, NotFound
from queries import account_export as export_q
from queries import accounts as accounts_q
from queries import claims as claims_q
from queries import mail as mail_q

CLOSE_VIEWS = ["accounts_view", "draft_view", "listing_view", "oauth_view", export_q.UPDATES, mail_q.VIEW]


class AccountDataPages(WebPages):
    """/account/data, /account/data/export, /account/close."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/account/data", page(self.data_page), methods=["GET"]),
            Route("/account/data/export", page(self.export), methods=["GET"]),
            Route("/account/close", page(self.close_page), methods=["GET"]),
            Route("/account/close", page(self.close, form=True, invalid=self._close_invalid), methods=["POST"]),
            Route("/account/closed", page(self.closed_page), methods=["GET"]),
        ]

    def _signin(self, path: str) -> Response:
        return self._redirect("/signin?next=" + quote(path))

    # ------------------------------------------------------------ download

    def data_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin("/account/data")
        return self._render(request, "account/data.html", {}, session)

    def export(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin("/account/data")
        now = self.s.clock()
        doc = export_q.account_export(self.s.reads, session.account_id, now)
        if doc is None:
            return self._message(request, session, "No such account", "This account is not known.", 404)
        used = self.id.usage.last_used([k["key_id"] for k in doc["api_keys"]])
        for key in doc["api_keys"]:
            last = used.get(key["key_id"])
            key["last_used_at"] = last.isoformat() if last else None
        doc["sessions"] = [{"browser": s.user_agent, "ip": s.ip, "signed_in_at": s.created_at.isoformat(),
                            "last_seen_at": s.last_seen_at.isoformat(), "this_browser": s.current}
                           for s in self.id.sessions.live(session.account_id, session.id)]
        body = json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=False, default=str)
        name = f"launchdir-data-{now.astimezone(self.s.timezone).date().isoformat()}.json"
        response = Response(body.encode(), media_type="application/json")
        response.headers["content-disposition"] = f'attachment; filename="{name}"'
        self._private(response)
        return response

    # ------------------------------------------------------------ closing

    def _close_context(self, session: WebSession) -> dict[str, Any]:
        closing = export_q.closing(self.s.reads, session.account_id, self.s.clock())
        me = accounts_q.account(self.s.reads, session.account_id)
        staff_left = accounts_q.counts(self.s.reads)["staff"]
        blockers = []
        if closing["pending_orders"]:
            numbers = ", ".join(closing["pending_orders"])
            blockers.append(f"Order {numbers} is awaiting payment. Pay it or let it expire, then close the account.")
        if me is not None and me["is_staff"] and staff_left <= 1:
            blockers.append("This is the last staff account. Make another account staff first, so someone can run "
                            "the site.")
        return {"closing": closing, "blockers": blockers, "staff_left": staff_left}

    def close_page(self, request: Request, data: FormData, session: WebSession | None,
                   extra: dict[str, Any] | None = None, status: int = 200) -> Response:
        if session is None:
            return self._signin("/account/close")
        return self._render(request, "account/close.html", {**self._close_context(session), **(extra or {})}, session,
                            status)

    def _close_invalid(self, request: Request, data: FormData, session: WebSession | None,
                       errors: dict[str, str]) -> Response:
        if session is None:
            return self._signin("/account/close")
        values = {"email": text_rule.storable(str(data.get("email") or ""))}
        return self.close_page(request, data, session, {"errors": errors, "values": values}, 400)

    def close(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin("/account/close")
        values = {"email": str(data.get("email") or "")}
        me = accounts_q.account(self.s.reads, session.account_id)
        keys = [f"email:{me['email'] if me else session.account_id}", f"ip:{self._ip(request)}"]
        if (locked := self.id.throttle.locked_for(keys)) is not None:  # the sign-in throttle: no guessing here either
            minutes = max(1, int(locked.total_seconds() // 60) + 1)
            return self.close_page(request, data, session, {"errors": {
                "password": f"Too many failed attempts. Try again in {minutes} minutes."}, "values": values}, 429)
        ctx = self._close_context(session)
        closing = ctx["closing"]
        self._wait(self.s.store.position(), [export_q.UPDATES])  # a follow clicked just before is listed too
        scope = closure_cmd.ClosureScope(
            draft_ids=tuple(UUID(d["draft_id"]) for d in closing["drafts"]),
            listing_ids=tuple(int(item["listing_id"]) for item in closing["listings"]),
            grant_ids=tuple(UUID(g) for g in closing["grant_ids"]),
            followed_ids=tuple(int(f["listing_id"]) for f in export_q.following(self.s.reads, session.account_id)),
            verified_claims={int(item["listing_id"]): tuple(claims_q.verified_claim_ids(self.s.reads,
                                                                                        int(item["listing_id"])))
                             for item in closing["listings"]},
            order_numbers=tuple(closing["pending_orders"]),
            staff_ids=accounts_q.staff_ids(self.s.reads))
        try:
            cmd = closure_cmd.CloseAccount(account_id=UUID(session.account_id), email=values["email"],
                                           password=str(data.get("password") or ""))  # type: ignore[arg-type]
            closed = closure_cmd.close_account(self.s.store, cmd, scope, self._meta(session), self.id.links)
        except (InvalidInput, ValidationError) as exc:
            if isinstance(exc, InvalidInput) and any(p.field == "password" for p in exc.problems):
                self.id.throttle.failed(keys)
            return self.close_page(request, data, session, {"errors": form_problems(exc), "values": values}, 400)
        except Conflict as exc:
            return self.close_page(request, data, session, {"errors": {"form": _sentence(exc.detail)},
                                                            "values": values}, 409)
        except NotFound:
            return self._signin("/account/close")
        signed_out_everywhere(self.id, session.account_id, closed.key_ids)
        self._wait(closed.position, CLOSE_VIEWS)
        response = self._redirect("/account/closed")
        response.delete_cookie(self.session_cookie, path="/", secure=self.secure, httponly=True, samesite="lax")
        return response

    def closed_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._message(request, session, "Your account is closed",
                             "You are signed out everywhere, and your API keys and connected apps no longer work. "
                             "We emailed you a confirmation. Your address is free: you can sign up with it again "
                             "at any time, as a new account.", 200, [("/", "Go to the home page"), ("/signup", "Sign up")])


def _sentence(detail: str) -> str:
    """A domain error's detail as a sentence for the page."""
    return detail[:1].upper() + detail[1:] + ("" if detail.endswith(".") else ".")
