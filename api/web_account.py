"""The website's account page: who you are, your API keys (create, see when last used, revoke).

Connected OAuth apps (/account/apps) are the OAuth server's page
(`api/oauth/pages.py`); it shows the scopes with the same `SCOPE_LABELS`.
A new key's secret is shown once, on the page that answers its creation.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote
from uuid import UUID

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.account import SCOPES
from api.sessions import WebSession
from api.web_pages import WebPages, form_problems
from commands import apikeys as apikeys_cmd
from events import text as text_rule
from events.errors import InvalidInput, NotFound
from queries import accounts as accounts_q

SCOPE_LABELS = {
    "account:read": "Read your account, drafts, listings, claims and orders",
    "listings:write": "Submit and edit drafts and listings, claims, invites, the free plan",
    "orders:write": "Quote orders and create checkout links",
}


class AccountPages(WebPages):
    """/account and /account/keys."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/account", page(self.account_page), methods=["GET"]),
            Route("/account/keys", page(self.create_key, form=True, invalid=self._key_form_invalid), methods=["POST"]),
            Route("/account/keys/{key_id}/revoke", page(self.revoke_key, form=True), methods=["POST"]),
        ]

    def _key_form_invalid(self, request: Request, data: FormData, session: WebSession | None,
                          errors: dict[str, str]) -> Response:
        if session is None:
            return self._redirect("/signin?next=/account")
        values = {"name": text_rule.storable(str(data.get("name") or "")),
                  "expires_on": text_rule.storable(str(data.get("expires_on") or "")),
                  "scopes": [text_rule.storable(str(v)) for v in data.getlist("scopes")]}
        return self.account_page(request, data, session, {"errors": errors, "values": values}, 400)

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
        elif request.query_params.get("verification") == "recent":
            notices.append("A confirmation link was sent less than a minute ago: look for it in your mailbox, or ask "
                           "again in a minute.")
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
                errors = form_problems(exc)
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
