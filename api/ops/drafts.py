"""Draft operations (SPEC §4.3): submit a site, read and edit drafts, invite co-founders, save as a listing.

Writes answer with the draft as the projection shows it after the write
(read-your-writes: the handler waits, bounded, for `draft_view` to reach the
write's position; when it does not, the answer is a 503 saying the read model
is behind, never a stale or missing draft). Background work (crawl, draft,
redraft, competitor) goes through the `draft_jobs` port of the services, and URLs are
checked by their `check_url` port (both wired in `launchdir/bootstrap.py`).
"""

from __future__ import annotations

from typing import Any

from aggregates import draft as d
from api.ops.caller import naming
from api.registry import Operation
from api.services import Call, Services
from commands import draft as draft_cmd
from commands import invites as invites_cmd
from events.errors import FieldProblem, Unauthorized
from projections.runtime import BEHIND_RETRY, ReadModelBehind
from queries import drafts as drafts_q
from queries import my_listings as my_listings_q
from queries.paging import Paging

VIEWS = ("draft_view",)
LISTING_VIEWS = ("draft_view", "listing_view", "search_view", "history_view")  # a saved draft's edits are versions of its listing


class DraftSaved(drafts_q.DraftAsListing):
    """submit_draft's answer: the draft with its `listing_id`, whether this call created the listing, and what to
    do next with the listing (get_my_listing's `next_step`)."""

    next_step: str
WAIT = 2.0


def _account(c: Call) -> str:
    if c.principal is None:  # the executor refuses anonymous calls first; kept for direct callers
        raise Unauthorized("this operation needs credentials")
    return c.principal.account_id


def _wait(s: Services, position: int, views: tuple[str, ...] = VIEWS) -> None:
    s.runtime.require([v for v in views if v in s.runtime.projections], position, WAIT)


def _read(s: Services, draft_id: Any, account_id: str) -> dict[str, Any]:
    return drafts_q.get_draft(s.reads, draft_id, account_id, s.now())


def _submit_listing(s: Services, cmd: draft_cmd.SubmitListing, c: Call) -> dict[str, Any]:
    account = _account(c)
    result = draft_cmd.submit_listing(s.store, cmd, account, c.meta(), check_url=s.check_url, jobs=None)
    try:
        _wait(s, result.position)
        return {**_read(s, result.draft_id, account), "existing": result.existing}
    finally:  # queued after the answer is read, so a new draft is answered in status `crawling` (SPEC §3.1)
        if not result.existing:
            draft_cmd.queue_job(lambda: s.draft_jobs.crawl(result.draft_id))


def _get_draft(s: Services, q: drafts_q.GetDraft, c: Call) -> dict[str, Any]:
    return _read(s, q.id, _account(c))


def _list_drafts(s: Services, q: drafts_q.ListMyDrafts, c: Call) -> dict[str, Any]:
    return drafts_q.list_my_drafts(s.reads, _account(c), Paging(page=q.page, per_page=q.per_page))


def _update_draft(s: Services, cmd: draft_cmd.UpdateDraft, c: Call) -> dict[str, Any]:
    account = _account(c)
    position = draft_cmd.update_draft(s.store, cmd, account, c.meta(), check_url=s.check_url, jobs=s.draft_jobs)
    _wait(s, position, LISTING_VIEWS)
    return _read(s, cmd.id, account)


def _update_more(s: Services, raw: dict[str, Any], c: Call, schema: list[FieldProblem]) -> list[FieldProblem]:
    """The categories and competitor URL checked with a refused input, so one 400 names every mistake."""
    return draft_cmd.input_problems(s.store, raw, s.check_url, {p.field for p in schema})


def _invite(s: Services, cmd: draft_cmd.InviteCofounder, c: Call) -> dict[str, Any]:
    account = _account(c)
    invited = invites_cmd.invite_cofounder(s.store, cmd, account, c.meta(), website=s.links["website"])
    _wait(s, invited.position)
    doc = _read(s, cmd.id, account)
    invite = next((i for i in doc["invites"] if i["id"] == invited.invite_id), None)
    if invite is None:  # the view passed the write's position without showing the invite (e.g. a skipped event)
        raise ReadModelBehind("the invite is saved, but the read model of drafts does not show it; retry later", BEHIND_RETRY)
    return {"draft_id": doc["id"], "invite": invite, "invites_left": max(0, d.MAX_INVITES - len(doc["invites"]))}


def _submit_draft(s: Services, cmd: draft_cmd.SubmitDraft, c: Call) -> dict[str, Any]:
    account = _account(c)
    listed = draft_cmd.submit_draft(s.store, cmd, account, c.meta(), s.site_taken)
    _wait(s, listed.position, LISTING_VIEWS)
    step = my_listings_q.get_my_listing(s.reads, account, listed.listing_id, s.links)["next_step"]
    return {**_read(s, cmd.id, account), "listing_id": listed.listing_id, "created": listed.created,
            "next_step": step}


FLOW = ("The founder's path: submit_listing, get_draft until `ready`, update_draft (optional), submit_draft "
        "(answers `listing_id`), then choose_free_listing or create_checkout with product `launch`.")


def operations() -> list[Operation]:
    """The draft rows of the operation table."""
    return [
        Operation("submit_listing", "POST", "/drafts", draft_cmd.SubmitListing, drafts_q.SubmittedDraft,
                  _submit_listing, scope="listings:write", idempotency_key=True, success_status=201, tag="drafts",
                  next_steps=f"Next: get_draft with the answer's `id` until `status` is `ready` (or `failed`: "
                             f"`failure` says why). {FLOW}"),
        Operation("list_my_drafts", "GET", "/drafts", drafts_q.ListMyDrafts, drafts_q.DraftList, _list_drafts,
                  scope="account:read", tag="drafts",
                  next_steps="Next: get_draft with an item's `id`; an item with a `listing_id` is saved already "
                             "(get_my_listing)."),
        Operation("get_draft", "GET", "/drafts/{id}", drafts_q.GetDraft, drafts_q.Draft, naming("id", _get_draft),
                  scope="account:read", tag="drafts",
                  next_steps="Stop polling at `ready` or `failed` (`failure` says why; submit_listing again to "
                             "retry). When `ready`: update_draft to fix or fill fields (`missing` and "
                             "`not_found_on_website` list what the website did not state), then submit_draft."),
        Operation("update_draft", "PATCH", "/drafts/{id}", draft_cmd.UpdateDraft, drafts_q.Draft,
                  naming("id", _update_draft), scope="listings:write", idempotency_key=True, tag="drafts",
                  more_problems=_update_more,
                  next_steps="`regenerate` runs in the background: poll get_draft until `regenerating` is empty. "
                             "Next: submit_draft."),
        Operation("invite_cofounder", "POST", "/drafts/{id}/invites", draft_cmd.InviteCofounder, drafts_q.InviteSent,
                  naming("id", _invite), scope="listings:write", idempotency_key=True, success_status=201,
                  tag="drafts"),
        Operation("submit_draft", "POST", "/drafts/{id}/submit", draft_cmd.SubmitDraft, DraftSaved,
                  naming("id", _submit_draft), scope="listings:write", idempotency_key=True, tag="drafts",
                  next_steps="The draft must be `ready` (409 while it is crawling or drafting). The answer's "
                             "`next_step` says what to do with the listing: choose_free_listing with its "
                             "`listing_id` to launch free, or quote_order and create_checkout with product "
                             "`launch` and that `listing_id` to launch paid."),
    ]
