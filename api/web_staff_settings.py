"""The staff's site settings page: `/staff/settings`.

The settings people meet on every page: the site's name (every page's title and
mail), its purpose (the home page's lead), the contact address (owners are
pointed to it; mail answers go there) and the weeks a free launch is queued
out (`free_queue_min_weeks` to `free_queue_max_weeks`). One form changes them
all with the command `launchdir staff site-setting` calls
(`commands.catalog.change_site_settings`), recorded as `staff:<email>` on
channel `web`; the catalogue's rules (`aggregates.catalog._check_site`) refuse
what breaks them, each next to its field, and the form comes back as typed. A
form sent with the values the site has records nothing and says so. The site's
links (`urls`) stay with the catalogue file and the command line: they are
the site's own addresses, not text. Staff only.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api import web_errors
from api.identity import Identity
from api.sessions import WebSession
from api.web_founder_pages import FounderPages
from commands.catalog import ChangeSiteSettings, change_site_settings, current_catalog
from events import text as text_rule
from events.errors import InvalidInput

VIEWS = ["catalog_view"]
TEXTS = ("name", "purpose", "contact_email")
WEEKS = ("free_queue_min_weeks", "free_queue_max_weeks")
LABELS = {"name": "Site name", "purpose": "Purpose", "contact_email": "Contact address",
          "free_queue_min_weeks": "Earliest week", "free_queue_max_weeks": "Latest week"}
NOT_WHOLE = "Give a whole number of weeks with the digits 0-9, like 6."
NOTICES = {
    "saved": "The settings are saved; every page shows them now.",
    "unchanged": "Nothing changed: the site already has these settings, so nothing was recorded.",
}


class StaffSettingsPages(FounderPages):
    """/staff/settings, for staff accounts only."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/staff/settings", self._page(self.settings_page), methods=["GET"]),
            Route("/staff/settings", self._page(self.save, form=True, invalid=self._invalid), methods=["POST"]),
        ]

    def settings_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        site = current_catalog(self.s.store).site
        values = {k: str(site.get(k) or "") for k in (*TEXTS, *WEEKS)}
        return self._form_page(request, session, values, {}, 200)

    def save(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        values = self._values(data)
        changes, errors = changes_of(values)
        if not errors:
            try:
                done = change_site_settings(self.s.store, ChangeSiteSettings(changes=changes), self._staff_meta(session))
            except InvalidInput as exc:
                found = {path: message for path, message in reversed(web_errors.worded(exc))}  # each field's first
                errors = {k: found[k] for k in (*TEXTS, *WEEKS, *found) if k in found}  # in the form's order
            else:
                if not done.events:
                    return self._redirect("/staff/settings?done=unchanged")
                self._wait(done.position, VIEWS)
                return self._redirect("/staff/settings?done=saved")
        return self._form_page(request, session, values, errors, 400)

    def _invalid(self, request: Request, data: FormData, session: WebSession | None,
                 errors: dict[str, str]) -> Response:
        """A field that breaks the text rule: the form again with the message, once the person is known as staff."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._form_page(request, session, self._values(data), errors, 400)

    def _form_page(self, request: Request, session: WebSession | None, values: dict[str, str],
                   errors: dict[str, str], status: int) -> Response:
        ctx = {"values": values, "errors": errors, "error_labels": LABELS, "staff_here": "settings",
               "notice": self._notice(request, NOTICES)}
        return self._render(request, "staff/settings.html", ctx, session, status)

    @staticmethod
    def _values(data: FormData) -> dict[str, str]:
        """The form as typed: storable, trimmed, the purpose on one line (it is a lead sentence)."""
        values = {k: text_rule.storable(str(data.get(k) or "")).strip() for k in (*TEXTS, *WEEKS)}
        values["purpose"] = " ".join(values["purpose"].split())
        return values


def changes_of(values: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The settings the form gives (weeks as numbers, no contact address as none), and the weeks that are no number."""
    errors = {k: NOT_WHOLE for k in WEEKS if not (values[k].isascii() and values[k].isdigit() and len(values[k]) <= 3)}
    changes: dict[str, Any] = {"name": values["name"], "purpose": values["purpose"],
                               "contact_email": values["contact_email"] or None}
    changes |= {k: int(values[k]) for k in WEEKS if k not in errors}
    return changes, errors


def staff_settings_routes(identity: Identity) -> list[BaseRoute]:
    return StaffSettingsPages(identity).routes()
