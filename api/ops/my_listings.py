"""The owner's listing operations (SPEC §4.5): list and read your listings, edit them, post updates, milestones, story.

Writes answer with what the owner now sees (read-your-writes: the adapter waits,
bounded, for `listing_view` and `history_view` to apply the write, so the
listing and its version history both show it). The free plan is
`api/ops/free_plan.py`, the interview `api/ops/interview.py`.

get_my_listing_history is beyond the specification (docs/api.md): the owners'
version history the website shows at `/my/listings/{id}/history`, readable by
agents too.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from api.ops.caller import EXISTS, account_of, naming, owns, wait_for
from api.registry import Operation
from api.services import Call, Services
from commands import my_listings as cmd
from commands.my_listing_inputs import AddMilestone, DeleteMilestone, PostListingUpdate, SetFounderStory, UpdateMyListing
from events.errors import FieldProblem, NotFound
from projections.runtime import BEHIND_RETRY, ReadModelBehind
from queries import history as history_q
from queries import my_listings as q
from queries.listings import ListingUpdate, Milestone
from queries.paging import PageInfo, Paging, page_of

VIEWS = ("listing_view", "search_view", "history_view")
TAG = "my listings"
MINE = "listing_id"  # the path parameter a 404 is about


class UpdatePosted(BaseModel):
    listing_id: int
    update: ListingUpdate
    shown_publicly: bool


class MilestoneAdded(BaseModel):
    listing_id: int
    milestone: Milestone
    shown_publicly: bool


class MilestoneDeleted(BaseModel):
    listing_id: int
    milestone_id: int
    deleted: bool


class StorySet(BaseModel):
    listing_id: int
    story: dict[str, str]
    shown_publicly: bool


class GetMyListingHistory(Paging):
    """The version history of one of your listings, newest first: every edit, update, milestone and story change,
    with who made it, when, through what (`rest`, `mcp`, `web`, ...), each field before and after, and its review.

    Versions are numbered 1, 2, 3... in the listing's own order (`number`). Every write of the owner's
    operations (update_my_listing, post_listing_update, add_milestone, delete_milestone, set_founder_story,
    update_draft on a saved draft) shows here as soon as it answers.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    listing_id: int = Field(ge=1, le=2_147_483_647, description="Listing id (from submit_draft or list_my_listings).")


class ListingVersion(BaseModel):
    """One version of your listing: who changed what, when and through what, each field before and after."""

    number: int = Field(description="Its place among the listing's versions, oldest first, from 1.")
    version_id: int = Field(description="The version's id (it orders versions across all listings).")
    at: datetime
    kind: str = Field(description="created, edited, story, milestone_added, milestone_deleted, update, revert or "
                                  "update_removed.")
    actor: str = Field(description="`account:<id>`, `staff:<email>` or `system`.")
    actor_email: str | None = Field(None, description="The account's email when the actor is an account.")
    channel: str = Field(description="Through what: rest, mcp, web, cli or system.")
    changes: dict[str, dict[str, Any]] = Field(description="Each changed field: {before, after}.")
    review: str = Field(description="The site team's review: pending, not_needed, accepted, reverted or removed.")
    reverted_fields: list[str] = Field(description="Fields of this version the site team put back.")
    revert_of_number: int | None = Field(None, description="For a revert: the version whose fields it put back.")


class ListingHistory(PageInfo):
    listing_id: int
    items: list[ListingVersion]


def _mine(s: Services, c: Call, listing_id: int, position: int | None = None) -> dict[str, Any]:
    if position is not None:
        wait_for(s, position, VIEWS)
    return q.get_my_listing(s.reads, account_of(c), listing_id, s.links)


def _find(items: list[dict[str, Any]], key: str, value: int | None) -> dict[str, Any]:
    """The new part in the read model; a 503 when the view passed the write without showing it (a skipped event)."""
    found = next((item for item in items if item[key] == value), None)
    if found is None:
        raise ReadModelBehind("saved, but the read model of listings does not show it yet; retry later", BEHIND_RETRY)
    return found


def _list(s: Services, i: q.ListMyListings, c: Call) -> dict[str, Any]:
    return q.list_my_listings(s.reads, account_of(c), Paging(page=i.page, per_page=i.per_page), s.links)


def _get(s: Services, i: q.GetMyListing, c: Call) -> dict[str, Any]:
    return _mine(s, c, i.listing_id)


def _history(s: Services, i: GetMyListingHistory, c: Call) -> dict[str, Any]:
    doc = _mine(s, c, i.listing_id)  # yours, or a 404 (never says whether it exists)
    paging = Paging(page=i.page, per_page=i.per_page)
    try:
        found = history_q.history(s.reads, doc["listing_id"], paging)
    except NotFound:  # the history has not seen the listing yet
        found = page_of([], paging, 0)
    keep = ListingVersion.model_fields
    return {**found, "listing_id": doc["listing_id"],
            "items": [{k: v for k, v in version.items() if k in keep} for version in found["items"]]}


def _which(s: Services, i: DeleteMilestone, c: Call) -> list[FieldProblem]:
    """A milestone's 404: the listing is not yours, or the listing is and the milestone is not on it."""
    if not owns(s, c, i.listing_id):
        return [FieldProblem(MINE, EXISTS, "no such listing among yours")]
    return [FieldProblem("milestone_id", EXISTS, f"no milestone {i.milestone_id} on this listing")]


def _update(s: Services, i: UpdateMyListing, c: Call) -> dict[str, Any]:
    written = cmd.update_my_listing(s.store, i, account_of(c), c.meta())
    return _mine(s, c, i.listing_id, written.position)


def _post_update(s: Services, i: PostListingUpdate, c: Call) -> dict[str, Any]:
    written = cmd.post_listing_update(s.store, i, account_of(c), c.meta())
    doc = _mine(s, c, i.listing_id, written.position)
    update = _find(doc["latest_updates"], "update_id", written.new_id)
    return {"listing_id": i.listing_id, "update": update, "shown_publicly": doc["public"]}


def _add_milestone(s: Services, i: AddMilestone, c: Call) -> dict[str, Any]:
    written = cmd.add_milestone(s.store, i, account_of(c), c.meta())
    doc = _mine(s, c, i.listing_id, written.position)
    milestone = _find(doc["milestones"], "milestone_id", written.new_id)
    return {"listing_id": i.listing_id, "milestone": milestone,
            "shown_publicly": doc["public"] and "milestones" in doc["unlocked_sections"]}


def _delete_milestone(s: Services, i: DeleteMilestone, c: Call) -> dict[str, Any]:
    written = cmd.delete_milestone(s.store, i, account_of(c), c.meta())
    wait_for(s, written.position, VIEWS)
    return {"listing_id": i.listing_id, "milestone_id": i.milestone_id, "deleted": True}


def _set_story(s: Services, i: SetFounderStory, c: Call) -> dict[str, Any]:
    written = cmd.set_founder_story(s.store, i, account_of(c), c.meta())
    doc = _mine(s, c, i.listing_id, written.position)
    return {"listing_id": i.listing_id, "story": doc["story"],
            "shown_publicly": doc["public"] and "story" in doc["unlocked_sections"]}


def operations() -> list[Operation]:
    """The my-listing rows of the operation table."""
    mine = "/me/listings/{listing_id}"
    return [
        Operation("list_my_listings", "GET", "/me/listings", q.ListMyListings, q.MyListingPage, _list,
                  scope="account:read", tag=TAG,
                  next_steps="Next: get_my_listing for one listing (its `next_step` says what to do with it)."),
        Operation("get_my_listing", "GET", mine, q.GetMyListing, q.MyListing, naming(MINE, _get),
                  scope="account:read", tag=TAG,
                  next_steps="`next_step` says what to do now (e.g. choose_free_listing or create_checkout while "
                             "saved); get_my_listing_history lists every change."),
        Operation("update_my_listing", "PATCH", mine, UpdateMyListing, q.MyListing, naming(MINE, _update),
                  scope="listings:write", idempotency_key=True, tag=TAG,
                  next_steps="Each edit is a version in get_my_listing_history."),
        Operation("post_listing_update", "POST", f"{mine}/updates", PostListingUpdate, UpdatePosted,
                  naming(MINE, _post_update), scope="listings:write", idempotency_key=True, success_status=201,
                  tag=TAG),
        Operation("add_milestone", "POST", f"{mine}/milestones", AddMilestone, MilestoneAdded,
                  naming(MINE, _add_milestone), scope="listings:write", idempotency_key=True, success_status=201,
                  tag=TAG, next_steps="The answer's `milestone.milestone_id` is what delete_milestone takes."),
        Operation("delete_milestone", "DELETE", f"{mine}/milestones/{{milestone_id}}", DeleteMilestone,
                  MilestoneDeleted, naming(_which, _delete_milestone), scope="listings:write", idempotency_key=True,
                  destructive=True, tag=TAG),
        Operation("set_founder_story", "PUT", f"{mine}/story", SetFounderStory, StorySet, naming(MINE, _set_story),
                  scope="listings:write", idempotency_key=True, tag=TAG),
        Operation("get_my_listing_history", "GET", f"{mine}/history", GetMyListingHistory, ListingHistory,
                  naming(MINE, _history), scope="account:read", tag=TAG),
    ]
