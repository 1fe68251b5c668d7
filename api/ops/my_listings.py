"""The owner's listing operations (SPEC §4.5): list and read your listings, edit them, post updates, milestones, story.

Writes answer with what the owner now sees (read-your-writes: the adapter waits,
bounded, for `listing_view` to apply the write). The free plan is
`api/ops/free_plan.py`, the interview `api/ops/interview.py`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from api.ops.caller import account_of, wait_for
from api.registry import Operation
from api.services import Call, Services
from commands import my_listings as cmd
from commands.my_listing_inputs import AddMilestone, DeleteMilestone, PostListingUpdate, SetFounderStory, UpdateMyListing
from projections.runtime import BEHIND_RETRY, ReadModelBehind
from queries import my_listings as q
from queries.listings import ListingUpdate, Milestone
from queries.paging import Paging

VIEWS = ("listing_view",)
TAG = "my listings"


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
                  scope="account:read", tag=TAG),
        Operation("get_my_listing", "GET", mine, q.GetMyListing, q.MyListing, _get, scope="account:read", tag=TAG),
        Operation("update_my_listing", "PATCH", mine, UpdateMyListing, q.MyListing, _update,
                  scope="listings:write", idempotency_key=True, tag=TAG),
        Operation("post_listing_update", "POST", f"{mine}/updates", PostListingUpdate, UpdatePosted, _post_update,
                  scope="listings:write", idempotency_key=True, success_status=201, tag=TAG),
        Operation("add_milestone", "POST", f"{mine}/milestones", AddMilestone, MilestoneAdded, _add_milestone,
                  scope="listings:write", idempotency_key=True, success_status=201, tag=TAG),
        Operation("delete_milestone", "DELETE", f"{mine}/milestones/{{milestone_id}}", DeleteMilestone,
                  MilestoneDeleted, _delete_milestone, scope="listings:write", idempotency_key=True,
                  destructive=True, tag=TAG),
        Operation("set_founder_story", "PUT", f"{mine}/story", SetFounderStory, StorySet, _set_story,
                  scope="listings:write", idempotency_key=True, tag=TAG),
    ]
