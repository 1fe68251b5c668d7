"""/staff/votes: the vote integrity report for staff, with forms to void and restore the votes it shows.

The report is `queries.vote_integrity.integrity_report` (the CLI prints the
same document: `launchdir staff votes report`). Each finding lists its votes
with a tick box, none ticked at first (one press must never void votes nobody
chose); staff tick the ones to act on, give a reason, and void or restore them
(POST with CSRF). Voiding a whole finding is its own form, folded under the
finding, whose button names how many votes it voids. What follows a decision (views catching up,
awards of a closed week recomputed) is the `VoteDecisions` port the
composition root wires (`launchdir/vote_review.py`), so this module imports
no worker. Only staff see or use it (`WebPages._staff_only`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol
from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from aggregates.base import Meta
from api.identity import Identity
from api.sessions import WebSession
from api.web_pages import WebPages, form_problems
from commands.votes import VoteChange
from events.errors import Conflict, InvalidInput
from queries.vote_integrity import integrity_report
from queries.weeks import resolve_week

KIND_TITLES = {"shared_network": "Shared network", "shared_agent": "Shared browser", "new_accounts": "New accounts",
               "unverified": "Unverified email", "velocity": "Velocity"}
NOTICES = {"voided": "{n} vote(s) voided.", "restored": "{n} vote(s) restored."}
NOTHING_TICKED = {True: "No vote was ticked, so nothing was voided. Tick the votes to void, or open \"Void the whole "
                        "finding\" under a finding to void all of its counted votes.",
                  False: "No vote was ticked, so nothing was restored. Tick the votes to restore."}


class Reviewed(Protocol):
    @property
    def changed(self) -> Sequence[VoteChange]: ...

    @property
    def recomputed(self) -> Sequence[str]: ...


class VoteDecisions(Protocol):
    """Void or restore votes and let rankings and closed weeks' awards follow (`launchdir.vote_review.VoteReview`)."""

    def void(self, vote_ids: list[str], reason: str, meta: Meta) -> Reviewed: ...

    def restore(self, vote_ids: list[str], reason: str, meta: Meta) -> Reviewed: ...


class StaffVotePages(WebPages):
    def __init__(self, identity: Identity, decisions: VoteDecisions) -> None:
        super().__init__(identity)
        self.decisions = decisions

    def routes(self) -> list[BaseRoute]:
        page = self._page
        return [
            Route("/staff/votes", page(self.report), methods=["GET"]),
            Route("/staff/votes/void", page(self.void, form=True), methods=["POST"]),
            Route("/staff/votes/restore", page(self.restore, form=True), methods=["POST"]),
        ]

    def report(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        return self._show(request, session, request.query_params.get("week") or "this", {})

    def void(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._decide(request, data, session, void=True)

    def restore(self, request: Request, data: FormData, session: WebSession | None) -> Response:
        return self._decide(request, data, session, void=False)

    def _show(self, request: Request, session: WebSession | None, week: str, errors: dict[str, str],
              status: int = 200, values: dict[str, str] | None = None) -> Response:
        try:
            monday = resolve_week(week, self.s.today())
        except InvalidInput as exc:
            errors, monday = {**errors, **form_problems(exc)}, resolve_week("this", self.s.today())
            status = 400
        self.s.runtime.catch_up("vote_integrity_view")
        doc = integrity_report(self.s.reads, monday, self.s.timezone, self.s.now())
        ctx = {"report": doc, "titles": KIND_TITLES, "week": monday.isoformat(), "errors": errors,
               "values": values or {}, "notice": self._notice(request), "here": f"/staff/votes?week={monday.isoformat()}"}
        return self._render(request, "staff/votes.html", ctx, session, status)

    def _decide(self, request: Request, data: FormData, session: WebSession | None, void: bool) -> Response:
        if (refused := self._staff_only(request, session)) is not None:
            return refused
        assert session is not None  # _staff_only refuses anyone signed out
        week = str(data.get("week") or "this")
        vote_ids = [str(v) for v in data.getlist("vote")]
        reason = str(data.get("reason") or "")
        if not vote_ids:  # nothing is ticked by default: say what to do rather than the command's words
            return self._show(request, session, week, {"form": NOTHING_TICKED[void]}, 400, {"reason": reason})
        try:
            act = self.decisions.void if void else self.decisions.restore
            done = act(vote_ids, reason, self._staff_meta(session))
        except InvalidInput as exc:
            return self._show(request, session, week, form_problems(exc), 400, {"reason": reason})
        except Conflict as exc:
            return self._show(request, session, week, {"form": exc.detail}, 409, {"reason": reason})
        query = {"week": week, "notice": "voided" if void else "restored", "n": str(len(done.changed))}
        if done.recomputed:
            query["awards"] = ",".join(done.recomputed)
        return self._redirect("/staff/votes?" + urlencode(query))

    @staticmethod
    def _notice(request: Request) -> str | None:
        kind, n = request.query_params.get("notice", ""), request.query_params.get("n", "")
        if kind not in NOTICES or not (n.isascii() and n.isdigit()):
            return None
        if int(n) == 0:  # every chosen vote was so already: nothing was recorded
            state = "voided" if kind == "voided" else "counting"
            return f"Nothing changed: the chosen votes were all {state} already, so nothing was recorded."
        text = NOTICES[kind].format(n=int(n))
        awards = request.query_params.get("awards", "")
        if awards and all(len(w) == 10 for w in awards.split(",")):
            text += f" Awards recomputed for the week(s) of {awards.replace(',', ', ')}."
        return text


def staff_vote_routes(identity: Identity, decisions: VoteDecisions) -> list[BaseRoute]:
    return StaffVotePages(identity, decisions).routes()
