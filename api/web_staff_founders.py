"""The staff's founder-profile pages: every profile, making one, and changing one.

- `/staff/founders`: every founder profile, linked to a live listing or not,
  by name, 50 a page, with how many listings name it and a link to its public
  page (a profile shows on `/founders` only once a live listing links it).
- `/staff/founders/new`: make a profile (slug, name, bio, country, picture,
  links), as `launchdir staff founder create` does.
- `/staff/founders/{slug}`: change its name, bio, country, picture and links.

A listing links a profile through the `founder_slug` of one of its founders,
so the slug is the profile's lasting address and cannot be changed. Each form
calls the command the CLI calls (`commands.content`), recorded as
`staff:<email>` on channel `web`, and its refusals are shown next to the
fields. The web forms take only web addresses (`http://` or `https://`) for the
picture and the links, which the public page shows as images and links; a form
sent with the values the profile has records nothing and says so. Staff only,
with the refusal every staff page gives (`WebPages._staff_only`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates import content
from api import web_errors
from api.identity import Identity
from api.sessions import WebSession
from api.web_founder_pages import NEW_IS_THE_FORM, FounderPages
from commands import content as content_cmd
from commands.content import CreateFounderProfile, EditFounderProfile
from events import text as text_rule
from events.draft_fields import SOCIAL_LABELS
from events.errors import Conflict, InvalidInput, NotFound
from queries import founders as founders_q

VIEWS = ["content_view"]
PER_PAGE = 50
PLATFORMS = tuple(SOCIAL_LABELS)  # one address box per platform the site names
TEXT_FIELDS = ("slug", "name", "bio", "country", "avatar_url")
LABELS = {"slug": "Slug", "name": "Name", "bio": "Bio", "country": "Country", "avatar_url": "Picture"} | {
    f"social-{k}": label for k, label in SOCIAL_LABELS.items()}
TAKEN = "A founder profile has this slug already; choose another."
NOT_WEB = "Give a web address that starts with https:// or http://."
NOTICES = {
    "created": "The profile is made. It shows on the founders page once a live listing names it as a founder.",
    "changed": "The changes are saved.",
    "unchanged": "Nothing changed: the profile already has these values, so nothing was recorded.",
}


class StaffFounderPages(FounderPages):
    """/staff/founders and its forms, for staff accounts only."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/staff/founders", page(self.list_page), methods=["GET"]),
            Route("/staff/founders/new", page(self.new_page), methods=["GET"]),
            Route("/staff/founders/new", page(self.create, form=True, invalid=self._new_invalid), methods=["POST"]),
            Route("/staff/founders/{slug}", page(self.profile_page), methods=["GET"]),
            Route("/staff/founders/{slug}", page(self.change, form=True, invalid=self._profile_invalid),
                  methods=["POST"]),
        ]

    # ------------------------------------------------------------ every profile

    def list_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        paging = self._paging(request, PER_PAGE)
        founders = founders_q.staff_founders(self.s.reads, paging)
        more = f"/staff/founders?{urlencode({'page': paging.page + 1})}" if founders["has_more"] else None
        ctx = {"founders": founders, "more": more, "staff_here": "founders"}
        return self._render(request, "staff/founders.html", ctx, session)

    # ------------------------------------------------------------ making a profile

    def new_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._new(request, session, {}, {}, 200)

    def create(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        values = self._values(data)
        fields, errors = self._fields(values)
        if values["slug"] == "new":
            errors = {"slug": NEW_IS_THE_FORM} | errors
        if errors:
            return self._new(request, session, values, errors, 400)
        try:
            command = CreateFounderProfile.model_validate({"slug": values["slug"], **fields})
            position = content_cmd.create_founder_profile(self.s.store, command, self._staff_meta(session))
        except (ValidationError, InvalidInput) as exc:
            errors = problems(exc)
            if "slug" not in errors and self._taken(values["slug"]):  # every problem at once, the slug's too
                errors = {"slug": TAKEN} | errors
            return self._new(request, session, values, errors, 400)
        except Conflict:
            return self._new(request, session, values, {"slug": TAKEN}, 409)
        self._wait(position, VIEWS)
        return self._redirect(f"/staff/founders/{command.slug}?done=created")

    def _taken(self, slug: str) -> bool:
        return bool(content.SLUG.match(slug)) and content_cmd.founder_exists(self.s.store, slug)

    def _new(self, request: Request, session: WebSession | None, values: dict[str, str], errors: dict[str, str],
             status: int) -> Response:
        ctx = {"values": values, "errors": errors, "error_labels": LABELS, "platforms": PLATFORMS,
               "staff_here": "founders"}
        return self._render(request, "staff/founder_new.html", ctx, session, status)

    def _new_invalid(self, request: Request, data: FormData, session: WebSession | None,
                     errors: dict[str, str]) -> Response:
        """A field that breaks the text rule: the form again with the message, once the person is known as staff."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._new(request, session, self._values(data), errors, 400)

    # ------------------------------------------------------------ one profile

    def profile_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        founder = self._staff_founder(request, session)
        if isinstance(founder, Response):
            return founder
        fields = founder.fields
        values = {"name": fields.get("name") or "", "bio": fields.get("bio") or "",
                  "country": fields.get("country") or "", "avatar_url": fields.get("avatar_url") or ""}
        values |= {f"social-{k}": str(v) for k, v in (fields.get("socials") or {}).items()}
        return self._profile_form(request, session, founder, values, {}, 200)

    def change(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        founder = self._staff_founder(request, session)
        if isinstance(founder, Response):
            return founder
        assert session is not None
        values = self._values(data, extra=founder.fields.get("socials") or {})
        changes, errors = self._fields(values)
        if errors:
            return self._profile_form(request, session, founder, values, errors, 400)
        try:
            done = content_cmd.edit_founder_profile(self.s.store, EditFounderProfile(slug=founder.slug, changes=changes),
                                                    self._staff_meta(session))
        except (ValidationError, InvalidInput) as exc:
            return self._profile_form(request, session, founder, values, problems(exc), 400)
        except NotFound:
            return self._no_founder(request, session)
        if not done.events:
            return self._redirect(f"/staff/founders/{founder.slug}?done=unchanged")
        self._wait(done.position, VIEWS)
        return self._redirect(f"/staff/founders/{founder.slug}?done=changed")

    def _profile_form(self, request: Request, session: WebSession | None, founder: content.FounderState,
                      values: dict[str, str], errors: dict[str, str], status: int) -> Response:
        extra = [k for k in (founder.fields.get("socials") or {}) if k not in PLATFORMS]
        ctx = {"founder": founder, "slug": founder.slug, "name": founder.fields.get("name") or founder.slug,
               "values": values, "errors": errors, "error_labels": LABELS | {f"social-{k}": k for k in extra},
               "platforms": PLATFORMS + tuple(extra), "staff_here": "founders", "notice": self._notice(request, NOTICES)}
        return self._render(request, "staff/founder_profile.html", ctx, session, status)

    def _profile_invalid(self, request: Request, data: FormData, session: WebSession | None,
                         errors: dict[str, str]) -> Response:
        """A field that breaks the text rule: the profile's form again with the message and what was typed."""
        founder = self._staff_founder(request, session)
        if isinstance(founder, Response):
            return founder
        return self._profile_form(request, session, founder,
                                  self._values(data, extra=founder.fields.get("socials") or {}), errors, 400)

    def _staff_founder(self, request: Request, session: WebSession | None) -> content.FounderState | Response:
        """The profile of the address, for staff only: the refusal or the not-found page when there is none."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        slug = str(request.path_params.get("slug", ""))
        founder = content_cmd.founder_state(self.s.store, slug) if content.SLUG.match(slug) else None
        return founder if founder is not None and founder.exists else self._no_founder(request, session)

    def _no_founder(self, request: Request, session: WebSession | None) -> Response:
        return self._message(request, session, "No such founder profile", "There is no founder profile with this slug.",
                             404, [("/staff/founders", "Founder profiles")])

    # ------------------------------------------------------------ the form's values

    @staticmethod
    def _values(data: FormData, extra: dict[str, Any] | None = None) -> dict[str, str]:
        """The form as typed (storable and trimmed, the bio's line ends as LF), a box per link platform."""
        names = [*TEXT_FIELDS, *(f"social-{k}" for k in (*PLATFORMS, *(extra or {})))]
        values = {n: text_rule.storable(str(data.get(n) or "")).strip() for n in names}
        values["bio"] = values["bio"].replace("\r\n", "\n")
        return values

    @staticmethod
    def _fields(values: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
        """The command's fields from the form (empty boxes: no value), and the boxes that hold no web address."""
        socials = {k.removeprefix("social-"): v for k, v in values.items() if k.startswith("social-") and v}
        errors = {f"social-{k}": NOT_WEB for k, v in socials.items() if not _web_address(v)}
        if values["avatar_url"] and not _web_address(values["avatar_url"]):
            errors["avatar_url"] = NOT_WEB
        fields = {"name": values["name"], "bio": values["bio"], "country": values["country"].upper() or None,
                  "avatar_url": values["avatar_url"] or None, "socials": socials}
        return fields, errors


def _web_address(text: str) -> bool:
    """An address a browser opens as a web page: http(s), a host, no spaces."""
    scheme, sep, rest = text.partition("://")
    return bool(sep) and scheme.lower() in ("http", "https") and bool(rest) and not any(c.isspace() for c in text)


def problems(exc: ValidationError | InvalidInput) -> dict[str, str]:
    """Form field -> its first problem, worded for people; a link's problem names its platform's box."""
    out: dict[str, str] = {}
    for path, message in web_errors.worded(exc):
        field, _, rest = path.partition(".")
        out.setdefault(f"social-{rest}" if field == "socials" and rest else field, message)
    return out


def staff_founder_routes(identity: Identity) -> list[BaseRoute]:
    return StaffFounderPages(identity).routes()
