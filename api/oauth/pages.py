"""The website's OAuth pages: consent (/oauth/consent) and connected apps (/account/apps).

Both run on identity's sessions, CSRF tokens and templates (`api/web_pages.py`). The
consent page needs a signed-in person with a confirmed address (like API
keys); it shows the client's name and domain (for a client ID metadata
document the host of its URL, which served the document; for a registered
client the host it sends you back to, its name being its own claim; for an
app on the person's device, whose redirect URI has a private-use scheme and
no domain, that scheme), the scopes asked for (marking the new ones when the
app is connected already and asks for more) and the resource, with Allow and
Deny. The answer is sent
back to the client's redirect URI with `iss` (RFC 9207).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit
from uuid import UUID

from mcp.server.auth.provider import construct_redirect_uri
from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.oauth import OAuthRefused
from api.oauth.provider import PendingRequests
from api.sessions import WebSession
from api.identity import Identity
from api.web_account import SCOPE_LABELS
from api.web_pages import WebPages
from commands import oauth as oauth_cmd
from events.errors import NotFound
from queries import accounts as accounts_q
from queries import oauth as oauth_q

VIEWS = ["oauth_view"]
EXPIRED = ("This request has expired or was already answered. Go back to the app and connect it again: "
           "it will send you here with a new request.")


class WebOAuth(WebPages):
    def __init__(self, identity: Identity, pending: PendingRequests, issuer: str, resources: dict[str, str]) -> None:
        super().__init__(identity)
        self.pending = pending
        self.issuer = issuer
        self.resource_names = {url: ("the MCP server" if channel == "mcp" else "the REST API")
                               for channel, url in resources.items()}

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/oauth/consent", page(self.consent_page), methods=["GET"]),
            Route("/oauth/consent", page(self.decide, form=True), methods=["POST"]),
            Route("/account/apps", page(self.apps_page), methods=["GET"]),
            Route("/account/apps/{grant_id}/revoke", page(self.revoke_app, form=True), methods=["POST"]),
        ]

    def _signin_first(self, request_id: str) -> Response:
        return self._redirect("/signin?next=" + quote("/oauth/consent?request=" + quote(request_id), safe=""))

    def _unconfirmed(self, request: Request, session: WebSession) -> Response | None:
        me = accounts_q.account(self.s.reads, session.account_id)
        if me is not None and me["email_verified"]:
            return None
        return self._message(request, session, "Confirm your email address first",
                             "Apps can connect to your account once your email address is confirmed. Open the link "
                             "we emailed you, then go back to the app and connect it again.", 403,
                             [("/account", "Your account")])

    # ------------------------------------------------------------ consent

    def consent_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        request_id = request.query_params.get("request", "")[:100]
        pending = self.pending.get(request_id, self.s.clock())
        if pending is None:
            return self._message(request, session, "This request does not work", EXPIRED, 400)
        if session is None:
            return self._signin_first(request_id)
        if (refused := self._unconfirmed(request, session)) is not None:
            return refused
        if self._already_allowed(session, pending):  # remembered while the app stays connected (docs/oauth.md)
            taken = self.pending.take(request_id, self.s.clock())
            if taken is not None:
                return self._allow(session, taken)
        granted = self._granted(session, pending)
        ctx = {
            "request_id": request_id, "client": pending, "scopes": pending["scopes"], "scope_labels": SCOPE_LABELS,
            "resource": pending["resource"], "resource_name": self.resource_names.get(pending["resource"], "this site"),
            "redirect": redirect_target(pending["redirect_uri"]),
            "verified_domain": pending["client_kind"] == "metadata_document",
            "granted": granted, "new_scopes": [s for s in pending["scopes"] if granted and s not in granted],
        }
        return self._render(request, "oauth/consent.html", ctx, session)

    def decide(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        request_id = str(data.get("request") or "")[:100]
        if session is None:
            return self._signin_first(request_id)
        if (refused := self._unconfirmed(request, session)) is not None:
            return refused
        decision = str(data.get("decision") or "")
        if decision not in ("allow", "deny"):
            return self._message(request, session, "Choose Allow or Deny", "Go back and choose Allow or Deny.", 400)
        pending = self.pending.take(request_id, self.s.clock())
        if pending is None:
            return self._message(request, session, "This request does not work", EXPIRED, 400)
        back = pending["redirect_uri"]
        if decision == "deny":
            return self._redirect(construct_redirect_uri(
                back, error="access_denied", error_description="the account holder did not allow access",
                state=pending["state"], iss=self.issuer))
        return self._allow(session, pending)

    def _already_allowed(self, session: WebSession, pending: dict[str, Any]) -> bool:
        """This account has this app connected (live tokens) for the same resource and at least these scopes."""
        granted = self._granted(session, pending)
        return bool(granted) and set(pending["scopes"]) <= granted

    def _granted(self, session: WebSession, pending: dict[str, Any]) -> set[str]:
        """The scopes this account allowed this app for the same resource (live tokens); empty when not connected.

        A request for more than these is a step-up: the consent page marks which scopes are new.
        """
        granted: set[str] = set()
        for app in oauth_q.connected_apps(self.s.reads, session.account_id, self.s.clock()):
            if str(app["client_id"]) == str(pending["client_id"]) and pending["resource"] in app["resources"]:
                granted |= set(app["scopes"])
        return granted

    def _allow(self, session: WebSession, pending: dict[str, Any]) -> Response:
        """Record the consent, issue one code and send the browser back to the client with it."""
        back = pending["redirect_uri"]
        try:
            cmd = oauth_cmd.GiveConsent(
                account_id=session.account_id, client_id=pending["client_id"], client_name=pending["client_name"],
                client_host=pending["client_host"], client_kind=pending["client_kind"], scopes=pending["scopes"],
                resource=pending["resource"], redirect_uri=back,
                redirect_uri_explicit=pending["redirect_uri_explicit"], code_challenge=pending["code_challenge"])
            issued = oauth_cmd.give_consent(self.s.store, cmd, self._meta(session))
        except (OAuthRefused, ValidationError) as exc:
            detail = exc.detail if isinstance(exc, OAuthRefused) else "the request is not valid"
            return self._redirect(construct_redirect_uri(back, error="invalid_request", error_description=detail,
                                                         state=pending["state"], iss=self.issuer))
        self._wait(issued.position, VIEWS)
        return self._redirect(construct_redirect_uri(back, code=issued.code, state=pending["state"], iss=self.issuer))

    # ------------------------------------------------------------ connected apps

    def apps_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._redirect("/signin?next=" + quote("/account/apps", safe=""))
        notices = []
        if request.query_params.get("revoked"):
            notices.append("The app was disconnected. Its tokens no longer work; it has to ask you again to connect.")
        apps = oauth_q.connected_apps(self.s.reads, session.account_id, self.s.clock())
        for app in apps:
            app["resource_names"] = [self.resource_names.get(r, r) for r in app["resources"]]
        ctx: dict[str, Any] = {"apps": apps, "notices": notices, "scope_labels": SCOPE_LABELS}
        return self._render(request, "oauth/apps.html", ctx, session)

    def revoke_app(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._redirect("/signin?next=" + quote("/account/apps", safe=""))
        try:
            cmd = oauth_cmd.RevokeGrant(grant_id=UUID(request.path_params["grant_id"][:36]), account_id=session.account_id)
            position = oauth_cmd.revoke_grant(self.s.store, cmd, self._meta(session))
        except (NotFound, ValueError, ValidationError):
            return self._message(request, session, "No such app", "No app with this id is connected to your account.",
                                 404, [("/account/apps", "Connected apps")])
        self._wait(position, VIEWS)
        return self._redirect("/account/apps?revoked=1")


LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


def redirect_target(uri: str) -> dict[str, str]:
    """Where the answer goes, as the consent page says it: a web `host`, a program on this computer (`loopback`),
    or an `app` on the person's device, opened by its private-use URI scheme (RFC 8252 §7.1), which has no domain
    to show: the page shows the scheme instead."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return {"kind": "app", "scheme": uri.split(":", 1)[0], "host": ""}
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    if scheme in ("http", "https") and host:
        return {"kind": "loopback" if host in LOOPBACK_HOSTS else "web", "scheme": scheme, "host": host}
    return {"kind": "app", "scheme": scheme, "host": host}
