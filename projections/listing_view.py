"""The listing read side: one public profile document and one summary row per listing.

Tables (per generation):

- `profiles`: the private state (every fact the events told) and the public
  get_listing document built from it (`projections/listing_docs.py`).
- `listings`: what summaries read: status, filters (categories, stage,
  country, pricing, domain), counters (votes, followers, views, rating), the
  trending log-sum, and the card (searches fetch their cards from here by id).
- `votes` (cast times, for trending), `reviews` (ratings and moderation,
  `projections/review_tally.py`), `domain_ratings` (snapshots), `categories`
  (names for the documents).

What searches match and order on is the search view's (`projections/search_view.py`),
fed by the same events: the two projections catch up and rebuild apart, each
on its own connection (docs/projections.md).

A batch keeps the listings its events touch in memory and writes each
table once at `flush` (`projections/listing_rows.py`). Content events rebuild
a listing's document from its state; votes, follows and views are counted in
memory and patch only the document's counters; a withdrawn vote and a review
recount in SQL (`listing_counters.py`, `review_tally.py`). Billboard money is
kept in the document's labelled `billboard` section only: it never reaches a
search column or the community section.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic
from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.catalog import CategoryAdded, CategoryChanged
from events.community import (
    ReviewEdited,
    ReviewHidden,
    ReviewModerated,
    ReviewRestored,
    ReviewWritten,
    VoteWithdrawn,
)
from events.listing import (
    ListingAlternativesApproved,
    ListingBadgeLost,
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingEvidenceSet,
    ListingFeatured,
    ListingLaunched,
    ListingMilestoneAdded,
    ListingMilestoneDeleted,
    ListingOwnerAdded,
    ListingOwnerRemoved,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingSectionsUnlocked,
    ListingStorySet,
    ListingUnpublished,
    ListingUpdatePosted,
    ListingUpdateRemoved,
    ListingVerificationWithdrawn,
    ListingVerified,
)
from events.metrics import BillboardContributed, DomainRatingRecorded, RevenueRecorded
from events.votes import VoteVoided
from projections import listing_docs as docs
from projections.base import Tables, handles
from projections.listing_batch import ListingBatch
from events.text import storable_value
from projections import listing_counters as counters
from projections import listing_rows as rows
from projections import listing_tables as tables
from projections.listing_tables import TALLY

NAME = "listing_view"
UPDATE_TOPICS = (get_topic(ListingUpdatePosted), get_topic(ListingUpdateRemoved))
OLDER_UPDATES_PAGE = 50
"""A removed update's listing is read back this many update events at a time (`_latest_updates_upto`)."""




class ListingView(ListingBatch[rows.Row]):
    name = NAME
    tables = ("profiles", "listings", "votes", "reviews", "domain_ratings", "categories")
    shape = 2  # 2: the card gained `verified`; cards stored before read false until rebuilt (projections/reshape.py)
    catch_up_batch = 5000  # with the rows written every `flush_every` events, faster than 1,000 (docs/performance.md)
    deferred_btrees = ("listings",)  # domain, week and category pages' indexes: handlers read by id, slug, categories
    # What `prepare` reads for each event class beside the counters: the state by stream, the state by listing id.
    by_stream = frozenset({
        ListingEdited, ListingEvidenceSet, ListingEditReverted, ListingStorySet, ListingMilestoneAdded,
        ListingMilestoneDeleted, ListingUpdatePosted, ListingUpdateRemoved, ListingSectionsUnlocked,
        ListingAlternativesApproved, ListingOwnerAdded, ListingOwnerRemoved, ListingVerified,
        ListingVerificationWithdrawn, ListingFeatured, ListingQueuedForFree, ListingBadgeLost, ListingScheduled,
        ListingLaunched, ListingPublishedByStaff, ListingUnpublished,
    })
    by_listing = frozenset({DomainRatingRecorded, RevenueRecorded, BillboardContributed})

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        tables.create(cur, t)

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        """Indexes added after the first release: made on start-up for generations created before them."""
        tables.upgrade(cur, t)

    # ------------------------------------------------------------ catalogue: category names

    @handles(CategoryAdded)
    def _category_added(self, cur: Cursor[Any], t: Tables, e: CategoryAdded) -> None:
        self.flush(cur, t)  # what was kept is written with the names it was changed under
        cur.execute(
            f"INSERT INTO {t['categories']} (slug, name, parent, attributes) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (slug) DO NOTHING",
            (e.slug, e.name, e.parent_slug, Jsonb(list(e.attributes))),
        )
        self._names_cache = None

    @handles(CategoryChanged)
    def _category_changed(self, cur: Cursor[Any], t: Tables, e: CategoryChanged) -> None:
        c = e.changes
        self.flush(cur, t)
        cur.execute(
            f"UPDATE {t['categories']} SET name = coalesce(%s, name), attributes = coalesce(%s, attributes), "
            "parent = CASE WHEN %s THEN %s ELSE parent END WHERE slug = %s",
            (c.get("name"), Jsonb(c["attributes"]) if "attributes" in c else None, "parent_slug" in c,
             c.get("parent_slug"), e.slug),
        )
        self._names_cache = None  # names are re-read on the next write
        if "name" in c:  # documents and cards carry category names
            found = cur.execute(f"SELECT listing_id FROM {t['listings']} WHERE categories @> ARRAY[%s]", (e.slug,)).fetchall()
            self._load(cur, t, ids=[r[0] for r in found], state_ids=[r[0] for r in found])
            for (listing_id,) in found:
                self._change(cur, t, lambda s: None, listing_id=listing_id)

    # ------------------------------------------------------------ listing content and status

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        self._batch(cur)
        row = self._kept.get(e.listing_id)
        if row is None or not row.new:  # created twice in one batch: written once, with the later state
            row = rows.Row(e.listing_id, e.originator_id, None, rows.zero_counters(), new=True)
        row.state, row.counters = docs.new_state(e), rows.zero_counters()
        self._keep(row)
        self._changed(row)

    @handles(ListingEdited)
    def _edited(self, cur: Cursor[Any], t: Tables, e: ListingEdited) -> None:
        self._change(cur, t, lambda s: docs.apply_edit(s, e.changes), stream=e.originator_id)

    @handles(ListingEvidenceSet)
    def _evidence(self, cur: Cursor[Any], t: Tables, e: ListingEvidenceSet) -> None:
        self._change(cur, t, lambda s: s.update(evidence=dict(e.evidence)), stream=e.originator_id)

    @handles(ListingEditReverted)
    def _reverted(self, cur: Cursor[Any], t: Tables, e: ListingEditReverted) -> None:
        self._change(cur, t, lambda s: docs.apply_revert(s, e.changes), stream=e.originator_id)

    @handles(ListingStorySet)
    def _story(self, cur: Cursor[Any], t: Tables, e: ListingStorySet) -> None:
        self._change(cur, t, lambda s: s.update(story=dict(e.story)), stream=e.originator_id)

    @handles(ListingMilestoneAdded)
    def _milestone_added(self, cur: Cursor[Any], t: Tables, e: ListingMilestoneAdded) -> None:
        m = {"milestone_id": e.milestone_id, "date": e.date, "title": e.title, "description": e.description, "url": e.url}
        self._change(cur, t, lambda s: docs.add_milestone(s, m), stream=e.originator_id)

    @handles(ListingMilestoneDeleted)
    def _milestone_deleted(self, cur: Cursor[Any], t: Tables, e: ListingMilestoneDeleted) -> None:
        def drop(s: dict[str, Any]) -> None:
            s["milestones"] = [m for m in s["milestones"] if m.get("milestone_id") != e.milestone_id]

        self._change(cur, t, drop, stream=e.originator_id)

    @handles(ListingUpdatePosted)
    def _update_posted(self, cur: Cursor[Any], t: Tables, e: ListingUpdatePosted) -> None:
        u = docs.update_of(e)
        self._change(cur, t, lambda s: docs.add_update(s, u), stream=e.originator_id)

    @handles(ListingUpdateRemoved)
    def _update_removed(self, cur: Cursor[Any], t: Tables, e: ListingUpdateRemoved) -> None:
        """Staff removed an update: it leaves the listing's latest updates, and the newest one not shown moves up.

        The state keeps only the updates shown, so the remaining ones are read from the listing's own stream in
        the log (the events up to this one): a removal is rare, and it alone pays for it. An update not shown
        changes nothing.
        """
        row = self._entry(cur, t, stream=e.originator_id, state=True)
        state = row.state if row is not None else None
        if row is None or state is None or not any(u.get("update_id") == e.update_id for u in state["updates"]):
            return
        if self.event_log is None:  # outside a runtime: only what the state holds
            state["updates"] = [u for u in state["updates"] if u.get("update_id") != e.update_id]
        else:
            state["updates"] = self._latest_updates_upto(e)
        self._changed(row)

    def _latest_updates_upto(self, e: ListingUpdateRemoved) -> list[dict[str, Any]]:
        """The listing's newest updates posted before `e` and not removed by then (`e` included), newest first.

        Read newest first, a page at a time, so a removal is met before the update it removes; events after `e`
        (a rebuild reads behind the log's head) are left to their own handlers.
        """
        assert self.event_log is not None
        kept: list[dict[str, Any]] = []
        gone: set[int] = set()
        before: int | None = None
        while True:
            found = self.event_log.newest(before, OLDER_UPDATES_PAGE, UPDATE_TOPICS, e.originator_id)
            for _, older in found:
                if not isinstance(older, (ListingUpdatePosted, ListingUpdateRemoved)):
                    continue  # an event this code cannot read: it never showed
                if older.originator_version > e.originator_version:
                    continue
                if isinstance(older, ListingUpdateRemoved):
                    gone.add(older.update_id)
                elif older.update_id not in gone:
                    kept.append(docs.update_of(storable_value(older)))  # stored before the text rule: made storable
                    if len(kept) == docs.LATEST_UPDATES:
                        return kept
            if len(found) < OLDER_UPDATES_PAGE:
                return kept
            before = found[-1][0]

    @handles(ListingSectionsUnlocked)
    def _unlocked(self, cur: Cursor[Any], t: Tables, e: ListingSectionsUnlocked) -> None:
        self._change(cur, t, lambda s: s.update(unlocked=sorted(set(s["unlocked"]) | set(e.sections))), stream=e.originator_id)

    @handles(ListingAlternativesApproved)
    def _alternatives(self, cur: Cursor[Any], t: Tables, e: ListingAlternativesApproved) -> None:
        self._change(cur, t, lambda s: s.update(alternatives=list(e.slugs)), stream=e.originator_id)

    @handles(ListingOwnerAdded)
    def _owner(self, cur: Cursor[Any], t: Tables, e: ListingOwnerAdded) -> None:
        self._change(cur, t, lambda s: s.update(owner_ids=[*s["owner_ids"], e.account_id]), stream=e.originator_id)

    @handles(ListingVerified)
    def _verified(self, cur: Cursor[Any], t: Tables, e: ListingVerified) -> None:
        self._change(cur, t, lambda s: s.update(verified=True), stream=e.originator_id)

    @handles(ListingOwnerRemoved)
    def _owner_removed(self, cur: Cursor[Any], t: Tables, e: ListingOwnerRemoved) -> None:
        self._change(cur, t, lambda s: s.update(owner_ids=[o for o in s["owner_ids"] if o != e.account_id]),
                     stream=e.originator_id)

    @handles(ListingVerificationWithdrawn)
    def _unverified(self, cur: Cursor[Any], t: Tables, e: ListingVerificationWithdrawn) -> None:
        self._change(cur, t, lambda s: s.update(verified=False), stream=e.originator_id)

    @handles(ListingFeatured)
    def _featured(self, cur: Cursor[Any], t: Tables, e: ListingFeatured) -> None:
        self._change(cur, t, lambda s: s.update(featured_weeks=sorted({*s["featured_weeks"], e.week})), stream=e.originator_id)

    @handles(ListingQueuedForFree)
    def _queued(self, cur: Cursor[Any], t: Tables, e: ListingQueuedForFree) -> None:
        at = e.timestamp.isoformat()
        self._change(cur, t, lambda s: s.update(status="awaiting_badge", plan="free", week=e.week, listed_at=at),
                     stream=e.originator_id)

    @handles(ListingBadgeLost)  # no badge when its week began: waiting for it again (docs/free-plan.md)
    def _badge_lost(self, cur: Cursor[Any], t: Tables, e: ListingBadgeLost) -> None:
        self._change(cur, t, lambda s: s.update(status="awaiting_badge"), stream=e.originator_id)

    @handles(ListingScheduled)
    def _scheduled(self, cur: Cursor[Any], t: Tables, e: ListingScheduled) -> None:
        at = e.timestamp.isoformat()
        self._change(cur, t, lambda s: s.update(status="scheduled", plan=e.plan, week=e.week, listed_at=at),
                     stream=e.originator_id)

    @handles(ListingLaunched, ListingPublishedByStaff)
    def _live(self, cur: Cursor[Any], t: Tables, e: ListingLaunched | ListingPublishedByStaff) -> None:
        at = e.timestamp.isoformat()
        self._change(cur, t, lambda s: s.update(status="live", plan=e.plan, week=e.week, launched_at=at, listed_at=at),
                     stream=e.originator_id)

    @handles(ListingUnpublished)
    def _unpublished(self, cur: Cursor[Any], t: Tables, e: ListingUnpublished) -> None:
        self._change(cur, t, lambda s: s.update(status="unpublished"), stream=e.originator_id)

    # ------------------------------------------------------------ metrics

    @handles(DomainRatingRecorded)
    def _domain_rating(self, cur: Cursor[Any], t: Tables, e: DomainRatingRecorded) -> None:
        cur.execute(
            f"INSERT INTO {t['domain_ratings']} (listing_id, measured_on, value, source) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (listing_id, measured_on) DO UPDATE SET value = EXCLUDED.value, source = EXCLUDED.source",
            (e.listing_id, date.fromisoformat(e.measured_on), e.value, e.source),
        )
        points = cur.execute(
            f"SELECT measured_on, value, source FROM {t['domain_ratings']} WHERE listing_id = %s", (e.listing_id,)
        ).fetchall()
        trend = docs.domain_rating_trend([(r[0], int(r[1]), str(r[2])) for r in points])
        self._change(cur, t, lambda s: s.update(domain_rating=trend), listing_id=e.listing_id)

    @handles(RevenueRecorded)
    def _revenue(self, cur: Cursor[Any], t: Tables, e: RevenueRecorded) -> None:
        self._change(cur, t, lambda s: docs.record_revenue(s, e.amount_cents, e.period, e.source), listing_id=e.listing_id)

    @handles(BillboardContributed)
    def _billboard(self, cur: Cursor[Any], t: Tables, e: BillboardContributed) -> None:
        # Paid placement: kept in its labelled document section, never in search or community fields.
        self._change(cur, t, lambda s: s.update(billboard_cents=int(s["billboard_cents"]) + e.amount_cents),
                     listing_id=e.listing_id)

    # ------------------------------------------------------------ community counters (kept in memory)

    @handles(VoteWithdrawn, VoteVoided)  # a voided vote is out of the count, like a withdrawn one
    def _unvote(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn | VoteVoided) -> None:
        """In SQL: the trending log-sum is recomputed from the listing's remaining votes."""
        self._forget(cur, t, e.listing_id)
        self._votes[(e.listing_id, e.account_id)] = False
        if counters.withdraw_vote(cur, t, e.listing_id, e.account_id):
            self._patch_counter(cur, t, e.listing_id, "votes")

    @handles(ReviewWritten)
    def _review_written(self, cur: Cursor[Any], t: Tables, e: ReviewWritten) -> None:
        genuine = bool(getattr(e, "genuine", False))
        if genuine:  # counted at once: the listing's rows are written first, so the recount finds them
            self._forget(cur, t, e.listing_id)
        TALLY.written(cur, t["reviews"], t["listings"], e)
        if genuine:
            self._rating(cur, t, e.listing_id)

    @handles(ReviewModerated)
    def _review_moderated(self, cur: Cursor[Any], t: Tables, e: ReviewModerated) -> None:
        self._forget(cur, t, e.listing_id)
        TALLY.moderated(cur, t["reviews"], t["listings"], e)
        self._rating(cur, t, e.listing_id)

    @handles(ReviewEdited)
    def _review_edited(self, cur: Cursor[Any], t: Tables, e: ReviewEdited) -> None:
        self._forget(cur, t, e.listing_id)
        TALLY.edited(cur, t["reviews"], t["listings"], e)
        self._rating(cur, t, e.listing_id)

    @handles(ReviewHidden, ReviewRestored)
    def _review_hidden(self, cur: Cursor[Any], t: Tables, e: ReviewHidden | ReviewRestored) -> None:
        self._forget(cur, t, e.listing_id)
        TALLY.hidden(cur, t["reviews"], t["listings"], e)
        self._rating(cur, t, e.listing_id)

    def _rating(self, cur: Cursor[Any], t: Tables, listing_id: int) -> None:
        """Copy the listing's recounted rating into its public document."""
        cur.execute(
            f"""UPDATE {t['profiles']} p SET doc = jsonb_set(p.doc, '{{community,rating}}',
                    jsonb_build_object('average', l.rating_avg::float8, 'count', l.rating_count))
                FROM {t['listings']} l WHERE l.listing_id = p.listing_id AND p.listing_id = %s""",
            (listing_id,),
        )

    def _patch_counter(self, cur: Cursor[Any], t: Tables, listing_id: int, column: str) -> None:
        cur.execute(
            f"""UPDATE {t['profiles']} p SET doc = jsonb_set(p.doc, '{{community,{column}}}', to_jsonb(l.{column}))
                FROM {t['listings']} l WHERE l.listing_id = p.listing_id AND p.listing_id = %s""",
            (listing_id,),
        )

    # ------------------------------------------------------------ batch memory (`projections/listing_batch.py`)

    _names_cache: dict[str, str] | None = None

    def _read(self, cur: Cursor[Any], t: Tables, ids: Iterable[int], streams: Iterable[UUID],
              state_ids: Iterable[int], state_streams: Iterable[UUID]) -> list[rows.Row]:
        return rows.read(cur, t, ids, streams, state_ids, state_streams)

    def _read_state(self, cur: Cursor[Any], t: Tables, entry: rows.Row) -> None:
        entry.state = rows.read_state(cur, t, entry.listing_id)

    def _reset(self) -> None:
        self._names_cache = None

    def _names(self, cur: Cursor[Any], t: Tables) -> dict[str, str]:
        """Category names, read once per batch."""
        self._batch(cur)
        if self._names_cache is None:
            self._names_cache = dict(cur.execute(f"SELECT slug, name FROM {t['categories']}").fetchall())
        return self._names_cache

    def _write(self, cur: Cursor[Any], t: Tables, dirty: list[rows.Row]) -> None:
        """The changed rows (documents rebuilt with the batch's category names) and the new votes."""
        names = self._names(cur, t) if any(row.new or row.content for row in dirty) else {}
        rows.write(cur, t, dirty, names, self._new_votes)
