"""The editor of a listing's public profile: `/my/listings/{id}/edit`, with a preview before saving.

The form holds the public fields of update_my_listing, the company links and
the FAQs. "Preview" validates with the operation's own input model and shows
each changed field before and after (the staff pages' diff, `api/web_diff.py`);
"Save" runs the same handler as the API. Only what differs from the listing is
sent (socials and FAQs whole, as the API replaces them), so saving an untouched
form records nothing. Errors are the model's, worded for people (`api/web_errors.py`), next to the
box they name and, with its label, in the summary above the form.

A field is labelled as the draft editor labels it (`api.field_labels`, the
pricing model's menu of `api.web_draft_view`), with hints in the same words
and this operation's own limits. What update_my_listing cannot change (the
name, stage, categories, tags, logo) is said above the form, with where it is
changed: the listing's draft, when the owner has one, else the site team.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annotated_types import MaxLen
from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.sessions import WebSession
from api.field_labels import FIELD_LABELS
from api.web_diff import field_diffs
from api.web_draft_view import choices
from api.web_founder_pages import FounderPages, lines, nested_problems
from api.web_my_listings import edits_show
from commands import my_listings as cmd
from commands.my_listing_inputs import MyListingFields, UpdateMyListing
from events.draft_fields import SOCIAL_KEYS, SOCIAL_LABELS
from events.errors import Conflict, InvalidInput, NotFound
from queries import notices as notices_q

VIEWS = ["listing_view", "search_view", "history_view"]
TEXTS = ("tagline", "short_description", "description", "headline", "summary", "pricing_model", "pricing_summary",
         "country", "city", "founded_year", "demo_video_url", "contact_email", "seo_title", "seo_description")
LISTS = ("features", "usps", "keywords")
LONG = {"description", "summary", "short_description", "seo_description"}  # shown as a textarea
MENUS = ("pricing_model",)  # a menu of the drafter's values, as in the draft editor (a typed value kept)
HINTS = {"country": "Two-letter code, e.g. DE.", "founded_year": "Four digits, e.g. 2024.",
         "demo_video_url": "An http or https address.", "contact_email": "Not shown publicly.",
         "pricing_model": "The models search filters by; the details go in the pricing summary."}
"""The draft editor's hints (`api.web_draft_view.HINTS`) for the fields both edit; lengths come from the model."""
NOT_HERE = "The name, stage, categories, tags and logo"
"""The profile fields the draft editor has and update_my_listing does not (SPEC §4.5), said above the form."""
MAX_FAQS = 10
BLANK_FAQS = 2  # empty question/answer pairs offered below the existing ones


def _hint(name: str) -> str:
    """A field's hint in the draft editor's words, with this operation's limit ("One line, up to 200 characters.")."""
    if name in HINTS:
        return HINTS[name]
    if name == "city":
        return ""  # no hint in the draft editor either
    limit = next((m.max_length for m in MyListingFields.model_fields[name].metadata if isinstance(m, MaxLen)), None)
    if limit is None:
        return ""
    if name in LISTS:
        return f"One per line, up to {limit}."
    return f"{'' if name in LONG else 'One line, '}up to {limit:,} characters.".capitalize()


def _label(name: str) -> str:
    return FIELD_LABELS.get(name) or name.replace("_", " ").capitalize()


def current_values(doc: dict[str, Any]) -> dict[str, Any]:
    """The editable fields as the listing holds them now (the form's starting values)."""
    values: dict[str, Any] = {name: doc.get(name) for name in TEXTS if not name.startswith("seo_")}
    values["seo_title"], values["seo_description"] = doc["seo"]["title"], doc["seo"]["description"]
    for name in LISTS:
        values[name] = list(doc.get(name) or [])
    values["socials"] = dict(doc.get("socials") or {})
    values["faqs"] = [{"question": f["question"], "answer": f["answer"]} for f in doc.get("faqs") or []]
    return values


class MyListingEditor(FounderPages):
    """GET shows the form with the listing's values; POST previews or saves."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/my/listings/{listing_id}/edit", self._page(self.edit_page), methods=["GET"]),
            Route("/my/listings/{listing_id}/edit", self._page(self.edit, form=True), methods=["POST"]),
        ]

    def edit_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        return self._editor(request, session, doc, self._shown(current_values(doc)))

    def edit(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        doc = self._my_listing(session, self._int_param(request, "listing_id"))
        if doc is None:
            return self._missing(request, session, "listing")
        before = current_values(doc)
        sent = {k: str(v).strip() for k, v in data.items() if isinstance(v, str)}
        sent.update(self._form(data, *TEXTS, *LISTS))
        changed = self._changed(before, sent)
        body: dict[str, Any] = {"listing_id": doc["listing_id"], "fields": changed or None}
        socials = {k: sent.get(f"social-{k}", "") for k in SOCIAL_KEYS}
        if {k: v for k, v in socials.items() if v} != before["socials"]:
            body["socials"] = {k: v or None for k, v in socials.items()}
        faqs, rows = _faqs(sent)
        if [{"question": f["question"], "answer": f["answer"]} for f in faqs] != before["faqs"]:
            body["faqs"] = faqs
        rename = _renamer(rows)
        try:
            update = UpdateMyListing.model_validate(body)
        except ValidationError as exc:
            return self._editor(request, session, doc, sent, nested_problems(exc, rename), 400)
        after = update.changes()
        if data.get("action") != "save":
            diffs = field_diffs({k: {"before": before[k], "after": after.get(k)} for k in after})
            return self._editor(request, session, doc, sent, preview=diffs)
        if not after:
            return self._redirect(f"/my/listings/{doc['listing_id']}?done=unchanged")
        try:
            written = cmd.update_my_listing(self.s.store, update, session.account_id, self._meta(session))
        except InvalidInput as exc:
            return self._editor(request, session, doc, sent, nested_problems(exc, rename), 400)
        except NotFound:
            return self._missing(request, session, "listing")
        except Conflict as exc:
            return self._message(request, session, "This cannot be saved", exc.detail, 409,
                                 [(f"/my/listings/{doc['listing_id']}", "Back to the listing")])
        self._wait(written.position, VIEWS)
        return self._redirect(f"/my/listings/{doc['listing_id']}?done=saved")

    def _editor(self, request: Request, session: WebSession, doc: dict[str, Any], values: dict[str, str],
                errors: dict[str, str] | None = None, status: int = 200, preview: list[Any] | None = None) -> Response:
        fields = [{"name": n, "label": _label(n), "hint": _hint(n), "long": n in LONG or n in LISTS,
                   "options": choices(n, values.get(n, "")) if n in MENUS else None} for n in (*TEXTS, *LISTS)]
        filled = sum(1 for i in range(MAX_FAQS) if values.get(f"faq-{i}-question") or values.get(f"faq-{i}-answer"))
        labels = {f["name"]: f["label"] for f in fields}
        labels |= {f"social-{k}": f"Company links: {SOCIAL_LABELS.get(k, k)}" for k in SOCIAL_KEYS}
        for i in range(MAX_FAQS):
            labels |= {f"faq-{i}-question": f"FAQ {i + 1}: Question", f"faq-{i}-answer": f"FAQ {i + 1}: Answer"}
        ctx = {"l": doc, "fields": fields, "values": values, "errors": errors or {}, "preview": preview,
               "socials": SOCIAL_KEYS, "faq_rows": range(min(MAX_FAQS, filled + BLANK_FAQS)), "error_labels": labels,
               "edits_show": edits_show(str(doc["status"])), "not_here": NOT_HERE,
               "draft_id": self._draft_of(session, int(doc["listing_id"])),
               "contact": notices_q.contact_address(self.s.reads)}
        return self._render(request, "founder/my/edit.html", ctx, session, status)

    @staticmethod
    def _shown(values: dict[str, Any]) -> dict[str, str]:
        """Stored values as form text: lists one item per line, none as ""."""
        out: dict[str, str] = {}
        for name, value in values.items():
            if name == "socials":
                out.update({f"social-{k}": str(v) for k, v in value.items()})
            elif name == "faqs":
                for i, faq in enumerate(value):
                    out[f"faq-{i}-question"], out[f"faq-{i}-answer"] = faq["question"], faq["answer"]
            else:
                out[name] = "\n".join(value) if isinstance(value, list) else ("" if value is None else str(value))
        return out

    @staticmethod
    def _changed(before: dict[str, Any], sent: dict[str, str]) -> dict[str, Any]:
        """The fields whose sent value differs from the stored one, in the input model's shape."""
        out: dict[str, Any] = {}
        for name in TEXTS:
            new: Any = sent[name]
            if name == "founded_year":
                new = None if new == "" else new  # the model reads the number (or says why it is not one)
                if str(before[name] or "") != (new or ""):
                    out[name] = new
            elif new != (before[name] or ""):
                out[name] = new
        for name in LISTS:
            if lines(sent[name]) != before[name]:
                out[name] = lines(sent[name])
        return out


def _faqs(sent: dict[str, str]) -> tuple[list[dict[str, str]], list[int]]:
    """The FAQ pairs filled in (both blank: left out) and the form row of each, for naming errors."""
    faqs, rows = [], []
    for i in range(MAX_FAQS):
        question, answer = sent.get(f"faq-{i}-question", ""), sent.get(f"faq-{i}-answer", "")
        if question or answer:
            faqs.append({"question": question, "answer": answer})
            rows.append(i)
    return faqs, rows


def _renamer(rows: list[int]) -> Callable[[str], str]:
    """The input model's location -> the form field: `fields.city` -> `city`, `socials.x` -> `social-x`,
    `faqs.1.answer` -> the answer box of the form row that FAQ came from."""
    def rename(path: str) -> str:
        parts = path.split(".")
        if parts[0] == "fields" and len(parts) > 1:
            return parts[1]
        if parts[0] == "socials" and len(parts) > 1:
            return f"social-{parts[1]}"
        if parts[0] == "faqs" and len(parts) > 2 and parts[1].isdigit() and int(parts[1]) < len(rows):
            return f"faq-{rows[int(parts[1])]}-{parts[2]}"
        return path
    return rename


def my_listing_edit_routes(identity: Identity) -> list[BaseRoute]:
    return MyListingEditor(identity).routes()
