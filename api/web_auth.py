"""The identity pages assembled: sign-in (`api/web_signin.py`), account (`api/web_account.py`) and staff
(`api/web_staff.py`), plus the protected-resource metadata the bearer challenge points at.

`identity_routes` is what the composition root adds to the website; every page
module's routes are listed there, one line each (`launchdir/bootstrap.py`
`web_app`). The layering keeps imports one-way: `api/identity.py` (state and
ports) <- `api/web_pages.py` (plumbing) <- the page modules <- this module.
No page module imports this one for its own use; the names below stay
importable from here for the page modules written before the split
(`WebAuth` is the shared base, `api.web_pages.WebPages`).
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from api.auth import protected_resource_routes
from api.identity import DeferredWork, Identity, MailSender, build_identity
from api.web_account import SCOPE_LABELS, AccountPages
from api.web_account_data import AccountDataPages
from api.web_account_settings import AccountSettingsPages
from api.web_pages import WebPages, text_problems
from api.web_signin import SigninPages
from api.web_staff import StaffPages

__all__ = ["SCOPE_LABELS", "DeferredWork", "Identity", "MailSender", "WebAuth", "build_identity", "identity_routes",
           "text_problems"]

WebAuth = WebPages  # the base of every page class, under the name page modules import it by


def identity_routes(identity: Identity) -> list[BaseRoute]:
    """Sign-up to reset, the account page and keys, /staff and /staff/outbox, and the RFC 9728 metadata."""
    pages = [SigninPages(identity), AccountPages(identity), AccountSettingsPages(identity), AccountDataPages(identity), StaffPages(identity)]
    return [route for p in pages for route in p.routes()] + protected_resource_routes(identity.base_url)
