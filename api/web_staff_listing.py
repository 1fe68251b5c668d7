"""Taking a listing down, and putting it back, from the staff's page of the listing's history.

- `POST /staff/listings/{slug}/take-down` (`reason`): `ListingUnpublished`, out of
  every public read at once; the listing's owners with a confirmed address are
  mailed the reason (docs/notices.md), and the notice after it says who was: a
  listing nobody owns mails nobody, and the page says so rather than claim a
  mail. Nothing happens to a listing that is down already.
- `POST /staff/listings/{slug}/put-back`: live again in its own launch week and
  plan (`ListingPublishedByStaff`), as `launchdir staff publish SLUG --week W`.
- `POST /staff/listings/{slug}/owners/remove` (`account_id`, `reason`): one owner
  leaves the listing (`commands.owners.remove_owner`); the last owner of a
  listing with an open order, and an owner who came by a verified claim (void
  the claim instead), are refused with a page saying why (409).

Taking down a listing that is down already, or putting back one that is not
down, changes nothing and records nothing: the page says so and why
(`?notice=unchanged-...`), as the command line does with exit code 3.

The listing's other staff tools (unlocking paid sections by hand, checking its
badge now) are in `api/web_staff_listing_tools.py`; their routes come with these.

Both are CSRF-protected forms answering with a redirect back to the history
page and a notice (post/redirect/get); a reason out of bounds answers 400
naming the rule. Staff only, recorded as `staff:<email>`, like the review forms
(`api/web_staff_review.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.base import Meta
from api.identity import Identity
from api.sessions import WebSession
from api.web_pages import WebPages
from api.web_staff_listing_tools import staff_listing_tools_routes
from commands import listing as listing_cmd
from commands import owners as owners_cmd
from events.errors import Conflict, InvalidInput
from queries import claims as claims_q
from queries import listings as listings_q
from queries import notices as notices_q
from queries import owners as owners_q

VIEWS = ["listing_view", "search_view", "history_view"]


class WebStaffListing(WebPages):
    """The take-down and put-back forms, on the identity pages' sessions, CSRF tokens and templates."""

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/staff/listings/{slug}/take-down", page(self.take_down, form=True), methods=["POST"]),
            Route("/staff/listings/{slug}/put-back", page(self.put_back, form=True), methods=["POST"]),
            Route("/staff/listings/{slug}/owners/remove", page(self.remove_owner, form=True), methods=["POST"]),
        ]

    def take_down(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        reason = str(data.get("reason") or "")

        def take(listing: dict[str, Any], meta: Meta) -> str:
            done = listing_cmd.take_down(self.s.store, listing["listing_id"], reason, meta)
            self._wait(done.position, VIEWS)
            return self._told(int(listing["listing_id"])) if done.events else "unchanged-down"

        return self._act(request, session, take)

    def put_back(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        def publish(listing: dict[str, Any], meta: Meta) -> str:
            if listing["status"] != "unpublished":
                return "unchanged-up"  # nothing to put back: the history page says where it stands
            self._wait(listing_cmd.put_back(self.s.store, listing["listing_id"], meta), VIEWS)
            return "put-back"

        return self._act(request, session, publish)

    def remove_owner(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        account_id, reason = str(data.get("account_id") or "")[:100], str(data.get("reason") or "")

        def remove(listing: dict[str, Any], meta: Meta) -> str:
            listing_id = int(listing["listing_id"])
            # the claims and orders read up to now, as the command line does: a claim verified a moment ago
            # is then known, and its claimant refused (void the claim instead) rather than left verified and not owning
            self._wait(self.s.store.position(), ["claims_view", "orders_view"])
            done = owners_cmd.remove_owner(self.s.store, listing_id, account_id, reason, meta,
                                           owners_q.open_orders(self.s.reads, listing_id, self.s.now()),
                                           claims_q.verified_claim_ids(self.s.reads, listing_id),
                                           website=self.s.links["website"])  # the mail links to the public page
            self._wait(done.position, VIEWS)
            return "owner-removed"

        return self._act(request, session, remove)

    def _told(self, listing_id: int) -> str:
        """Which take-down notice is true: the owners mailed, some of them, or nobody (none owns it, or none has a
        confirmed address: the notices mail only confirmed ones, `workers/notices.py`)."""
        owners = [o["account_id"] for o in owners_q.owners(self.s.reads, listing_id)]
        if not owners:
            return "taken-down-unowned"
        mailed = notices_q.addresses(self.s.reads, owners)
        if not mailed:
            return "taken-down-unmailed"
        return "taken-down" if len(mailed) == len(owners) else "taken-down-some"

    def _act(self, request: Request, session: WebSession | None, do: Callable[[dict[str, Any], Meta], str]) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None
        slug = str(request.path_params["slug"])
        here = f"/staff/listings/{quote(slug)}/history"
        listing = listings_q.standing(self.s.reads, slug)
        if listing is None:
            return self._message(request, session, "No such listing", f"No listing has the slug {slug[:220]!r}.", 404,
                                 [("/staff/review", "Review queue")])
        try:
            done = do(listing, self._staff_meta(session))
        except (Conflict, InvalidInput) as exc:
            status = 409 if isinstance(exc, Conflict) else 400
            text = " ".join(p.message for p in exc.problems) if isinstance(exc, InvalidInput) and exc.problems else exc.detail
            return self._message(request, session, "This cannot be done", text, status, [(here, "Back")])
        return self._redirect(f"{here}?notice={done}")


def staff_listing_routes(identity: Identity) -> list[BaseRoute]:
    return [*WebStaffListing(identity).routes(), *staff_listing_tools_routes(identity)]
