"""The website's claim pages: the emailed link of an email claim, and the staff's list of claims.

GET /claims/confirm?claim=..&token=.. shows what is being claimed (the
listing by its name) and a Confirm button; only the POST (CSRF-protected)
verifies the claim (`commands.claims.confirm_claim_link`) and answers with a
redirect to GET /claims/confirmed?claim=..&token=.., the result, so reloading
it posts nothing again. A GET never changes anything, because
mail filters open links to scan them: an address that merely received the
link must not hand the listing over. No sign-in is needed: the link's secret
is what proves the mailbox, and the claim already names its claimant.
GET /staff/claims lists claims for the site team (`?status=pending` ...);
POST /staff/claims/{claim_id}/void (a reason is required) voids a verified
claim (`commands.claims.void_claim`): its claimant stops owning the listing
and both sides are mailed. A claim that is not verified, or voided already, is
refused with a page that says so (409); a reason out of bounds shows the list
again with the rule next to that claim's field (400).
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.base import Meta
from aggregates.claim import ClaimState
from api.identity import Identity
from api.sessions import WebSession
from api.web_pages import WebPages, form_problems
from commands import claims as claims_cmd
from events.claim import STATUSES
from events.errors import Conflict, InvalidInput, NotFound
from queries import claims as claims_q
from queries.listings import names_by_id

NOT_VALID = "This confirmation link is not valid. Ask the person who started the claim to start a new one."
VIEWS = ["claims_view", "listing_view", "launches_view"]
MAX_TOKEN = 200
METHODS = {"dns": "DNS record", "meta": "Meta tag", "file": "File on the website", "email": "Email link"}
"""How each claim was to be proven, in the staff table's few words (the claimant's pages say it at length)."""


class WebClaims(WebPages):
    """The claim routes, on the identity pages' sessions, CSRF tokens and templates."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/claims/confirm", self._page(self.confirm_page), methods=["GET"]),
            Route("/claims/confirm", self._page(self.confirm, form=True), methods=["POST"]),
            Route("/claims/confirmed", self._page(self.confirmed_page), methods=["GET"]),
            Route("/staff/claims", self._page(self.staff_claims), methods=["GET"]),
            Route("/staff/claims/{claim_id:int}/void", self._page(self.void, form=True), methods=["POST"]),
        ]

    def _linked(self, request: Request) -> tuple[str, str, ClaimState | None]:
        """The claim id, token and claim the address names (the claim None when the link is not ours)."""
        claim_id, token = request.query_params.get("claim", ""), request.query_params.get("token", "")
        return claim_id, token, self._claim(claim_id, token)

    def confirm_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        claim_id, token, state = self._linked(request)
        if state is None:
            return self._message(request, session, "This link does not work", NOT_VALID, 404)
        if state.status == "verified":
            return self._message(request, session, "Already confirmed", "This claim was confirmed already.", 200)
        if state.status != "pending" or state.is_due_to_expire(self.s.now()):
            return self._message(request, session, "This link has expired",
                                 "This claim is closed. The person who started it can start a new one.", 409)
        ctx = {"claim": {"claim_id": state.claim_id, "slug": state.slug, "name": self._name(state), "email": state.email,
                         "domain": state.domain, "expires_at": state.expires_at}, "token": token}
        return self._render(request, "claims/confirm.html", ctx, session)

    def confirm(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        claim_id, token = str(data.get("claim") or ""), str(data.get("token") or "")
        if self._claim(claim_id, token) is None:
            return self._message(request, session, "This link does not work", NOT_VALID, 404)
        actor = f"account:{session.account_id}" if session else "anonymous"
        meta = Meta(at=self.s.now(), actor=actor, channel="web", via=f"claim_link:{claim_id}")
        try:
            done = claims_cmd.confirm_claim_link(self.s.store, int(claim_id), token, meta)
        except (Conflict, NotFound) as exc:
            return self._message(request, session, "This claim cannot be confirmed", exc.detail, 409)
        self._wait(done.position, VIEWS)
        return self._redirect("/claims/confirmed?" + urlencode({"claim": claim_id, "token": token}))

    def confirmed_page(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        """The result of the Confirm button (post/redirect/get): confirmed, or expired before it was."""
        claim_id, token, state = self._linked(request)
        if state is None:
            return self._message(request, session, "This link does not work", NOT_VALID, 404)
        if state.status == "pending" and not state.is_due_to_expire(self.s.now()):  # not confirmed yet
            return self._redirect("/claims/confirm?" + urlencode({"claim": claim_id, "token": token}))
        if state.status == "verified":
            name = self._name(state)
            return self._message(request, session, "Claim confirmed",
                                 f"Thank you. The account that asked is now an owner of {name}, "
                                 "and the listing is marked as verified.", 200,
                                 [(f"/listings/{state.slug}", f"See {name}")])
        return self._message(request, session, "This link has expired",
                             "This claim expired before it was confirmed. The person who started it can start "
                             "a new one.", 409)

    def staff_claims(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._staff_list(request, session)

    def _staff_list(self, request: Request, session: WebSession | None, errors: dict[int, str] | None = None,
                    reason: str = "", status_code: int = 200) -> Response:
        status = request.query_params.get("status") or None
        if status is not None and status not in STATUSES:
            return self._message(request, session, "Unknown status", "Status is one of " + ", ".join(STATUSES) + ".", 400)
        claims = claims_q.staff_claims(self.s.reads, self.s.now(), status, limit=200)
        voided = request.query_params.get("voided", "")
        notice = (f"Claim {voided} is voided: its claimant is no longer an owner of the listing, and the claimant and "
                  "the owners were mailed the reason." if voided.isascii() and voided.isdigit() and len(voided) <= 10
                  else None)
        here = "/staff/claims" + (f"?status={status}" if status else "")
        return self._render(request, "claims/staff.html",
                            {"claims": claims, "status": status or "", "statuses": STATUSES, "notice": notice,
                             "methods": METHODS,
                             "void_errors": errors or {}, "reason": reason, "here": here}, session, status_code)

    def void(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        """Void a verified claim with the staff's reason (post/redirect/get back to the list)."""
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        claim_id = int(request.path_params["claim_id"])
        reason = str(data.get("reason") or "")
        back = [("/staff/claims", "Claims")]
        state = claims_cmd.load(self.s.store, claim_id)
        if not state.exists:
            return self._message(request, session, "No such claim", f"There is no claim {claim_id}.", 404, back)
        others = claims_q.verified_claim_ids(self.s.reads, state.listing_id)
        try:
            done = claims_cmd.void_claim(self.s.store, claim_id, reason, self._staff_meta(session), others)
        except InvalidInput as exc:
            message = form_problems(exc).get("reason") or exc.detail
            return self._staff_list(request, session, {claim_id: message}, reason, 400)
        except Conflict as exc:
            return self._message(request, session, "This claim cannot be voided", exc.detail.capitalize() + ".", 409,
                                 back)
        self._wait(done.position, VIEWS)
        return self._redirect(f"/staff/claims?voided={claim_id}")

    def _name(self, state: ClaimState) -> str:
        """The claimed listing's name (its slug when the read side has none)."""
        return names_by_id(self.s.reads, [state.listing_id]).get(state.listing_id) or state.slug

    def _claim(self, claim_id: str, token: str) -> ClaimState | None:
        """The claim when the link's secret matches; None for anything else."""
        if not (claim_id.isascii() and claim_id.isdigit()) or len(claim_id) > 10 or not token or len(token) > MAX_TOKEN:
            return None
        try:
            return claims_cmd.load_link(self.s.store, int(claim_id), token)
        except NotFound:
            return None


def claim_routes(identity: Identity) -> list[BaseRoute]:
    return WebClaims(identity).routes()
