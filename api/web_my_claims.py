"""Claiming a listed product from the browser: `/claim/{slug}`, `/my/claims`, `/my/claims/{id}` and its check.

The public listing page links here ("Is this yours? Claim it"). The person
chooses a method (DNS TXT record, meta tag, file under /.well-known/, or an
email to an address at the product's domain); claim_listing's handler starts
the claim and the claim's page, which names the listing, shows what to publish
(or, for an email claim, where the link went). "Check now" runs
verify_claim's handler with the server's claim checks; a failed check shows
its reason and detail, and how many checks are left. Another person's claim is
the 404 page, as for one that does not exist (the claims query answers both
the same).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.identity import Identity
from api.sessions import WebSession
from api.web_founder_pages import FounderPages, nested_problems
from commands import claims as cmd
from commands.claim_inputs import ClaimListing, VerifyClaim
from events.errors import Conflict, InvalidInput, NotFound
from queries import claims as q
from queries.listings import live_document, names_by_id
from queries.paging import Paging

VIEWS = ["claims_view"]
VERIFIED_VIEWS = ["claims_view", "listing_view", "launches_view"]
DNS_ON_IP = "this listing's website is an IP address"
"""How the claim command begins its refusal of the DNS method for a website at an IP address."""
LABELS = {"method": "How to prove it", "email": "Email address"}  # the claim form's fields, for the error summary
METHODS = [("meta", "A meta tag on the homepage", "Add a tag to the <head> of your homepage."),
           ("file", "A file on the website", "Serve a small text file under /.well-known/ on your website."),
           ("dns", "A DNS TXT record", "Add a TXT record at your DNS provider (not for websites on an IP address)."),
           ("email", "An email to an address at the domain", "We send a link to an address at your domain; open it "
                                                              "and confirm.")]
METHOD_WORDS = {value: label for value, label, _ in METHODS}
STARTED = {"meta": "Your claim is started. Put the tag below on your homepage, then press Check now.",
           "file": "Your claim is started. Serve the file below on your website, then press Check now.",
           "dns": "Your claim is started. Add the TXT record below at your DNS provider, then press Check now.",
           "email": "Your claim is started. Open the link we emailed and press Confirm; there is nothing to publish."}
NOTICES = {"repeated": "You already had this claim open; here it is.",
           "checked": "Checked just now; the result is below."}


class MyClaimPages(FounderPages):
    """The claim form, the person's claims, one claim and its check."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/claim/{slug}", page(self.claim_page), methods=["GET"]),
            Route("/claim/{slug}", page(self.claim, form=True), methods=["POST"]),
            Route("/my/claims", page(self.list_page), methods=["GET"]),
            Route("/my/claims/{claim_id}", page(self.claim_detail), methods=["GET"]),
            Route("/my/claims/{claim_id}/verify", page(self.verify, form=True), methods=["POST"]),
        ]

    def claim_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        return self._claim_form(request, session)

    def claim(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        values = self._form(data, "method", "email")
        slug = str(request.path_params["slug"])
        try:
            command = ClaimListing.model_validate({"slug": slug, "method": values["method"] or None,
                                                   "email": values["email"] or None})
            started = cmd.claim_listing(self.s.store, command, session.account_id, self._meta(session),
                                        website=self.s.links["website"])
        except (ValidationError, InvalidInput) as exc:
            return self._claim_form(request, session, values, nested_problems(exc), 400)
        except NotFound:
            return self._missing(request, session, "listing")
        except Conflict as exc:
            return self._claim_form(request, session, values, refusal(exc.detail), 409)
        self._wait(started.position, VIEWS)
        return self._redirect(f"/my/claims/{started.claim_id}?done={'repeated' if started.repeated else 'started'}")

    def _claim_form(self, request: Request, session: WebSession, values: dict[str, str] | None = None,
                    errors: dict[str, str] | None = None, status: int = 200) -> Response:
        slug = str(request.path_params["slug"])
        listing = live_document(self.s.reads, slug) if len(slug) <= 220 else None
        if listing is None:
            return self._message(request, session, "No such listing",
                                 "Only a live listing can be claimed, and there is none at this address.", 404)
        ctx = {"listing": listing, "methods": METHODS, "values": values or {"method": "meta"}, "errors": errors or {},
               "nav_here": "claims", "error_labels": LABELS}
        return self._render(request, "founder/my/claim.html", ctx, session, status)

    def list_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        found = q.list_my_claims(self.s.reads, session.account_id, Paging(page=1, per_page=100), self.s.now())
        claims = self._named(found["items"])
        ctx = {"found": found, "claims": claims, "methods": METHOD_WORDS, "nav_here": "claims"}
        return self._render(request, "founder/my/claims.html", ctx, session)

    def claim_detail(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        claim = self._claim(session, self._int_param(request, "claim_id"))
        if claim is None:
            return self._missing(request, session, "claim")
        done = request.query_params.get("done", "")
        notice = STARTED.get(claim["method"]) if done == "started" else self._notice(request, NOTICES)
        ctx = {"c": self._named([claim])[0], "notice": notice, "methods": METHOD_WORDS, "nav_here": "claims"}
        return self._render(request, "founder/my/claim_detail.html", ctx, session)

    def verify(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if session is None:
            return self._signin(request)
        claim = self._claim(session, self._int_param(request, "claim_id"))
        if claim is None:
            return self._missing(request, session, "claim")
        back = [(f"/my/claims/{claim['claim_id']}", "Back to the claim")]
        if self.s.claim_checks is None:
            return self._message(request, session, "Please try again later", "Claim checks are not configured on "
                                 "this server.", 503, back)
        try:
            checked = cmd.verify_claim(self.s.store, VerifyClaim(claim_id=claim["claim_id"]), session.account_id,
                                       self._meta(session), self.s.claim_checks)
        except NotFound:
            return self._missing(request, session, "claim")
        except (Conflict, InvalidInput) as exc:
            return self._message(request, session, "This claim cannot be checked", exc.detail, 409, back)
        self._wait(checked.position, VERIFIED_VIEWS if checked.outcome and checked.outcome.ok else VIEWS)
        return self._redirect(f"/my/claims/{claim['claim_id']}?done=checked")

    def _named(self, claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Claims with their listing's `name` (a claim knows the listing by id and slug; the slug when it has none)."""
        names = names_by_id(self.s.reads, [int(c["listing_id"]) for c in claims]) if claims else {}
        return [{**c, "name": names.get(int(c["listing_id"])) or c["slug"]} for c in claims]

    def _claim(self, session: WebSession, claim_id: int | None) -> dict[str, Any] | None:
        if claim_id is None:
            return None
        try:
            return q.get_claim(self.s.reads, claim_id, session.account_id, self.s.now())
        except NotFound:
            return None


def refusal(detail: str) -> dict[str, str]:
    """A refused claim in the form's words: the DNS method on a website at an IP address at the methods (its
    message names the methods as the form does), any other refusal as a sentence at the top."""
    if detail.startswith(DNS_ON_IP):
        return {"method": "This listing's website is an IP address, which has no DNS records: choose the meta tag on "
                          "the homepage or the file on the website instead."}
    text = detail.strip().rstrip(".")
    return {"form": f"{text[:1].upper()}{text[1:]}."}


def my_claim_routes(identity: Identity) -> list[BaseRoute]:
    return MyClaimPages(identity).routes()
