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

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic
from psycopg import Cursor
from psycopg.types.json import Jsonb

from events.catalog import CategoryAdded, CategoryChanged
from events.community import (
    ListingFollowed,
    ListingUnfollowed,
    ListingViewsCounted,
    ReviewEdited,
    ReviewHidden,
    ReviewModerated,
    ReviewRestored,
    ReviewWritten,
    VoteCast,
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
from events.votes import VoteRestored, VoteVoided
from projections import listing_docs as docs
from projections.base import Projection, Tables, handles
from events.text import is_clean, storable_value
from projections import listing_counters as counters
from projections import listing_rows as rows
from projections import listing_tables as tables
from projections.listing_tables import TALLY

NAME = "listing_view"
UPDATE_TOPICS = (get_topic(ListingUpdatePosted), get_topic(ListingUpdateRemoved))
OLDER_UPDATES_PAGE = 50
"""A removed update's listing is read back this many update events at a time (`_latest_updates_upto`)."""


FLUSH_EVERY = 250
"""Events of a batch between two writes of its rows (`ListingView.apply`)."""


class ListingView(Projection):
    name = NAME
    tables = ("profiles", "listings", "votes", "reviews", "domain_ratings", "categories")
    shape = 2  # 2: the card gained `verified`; cards stored before read false until rebuilt (projections/reshape.py)
    catch_up_batch = 5000  # with the rows written every FLUSH_EVERY events, faster than 1,000 (docs/performance.md)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        tables.create(cur, t)

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        """Indexes added after the first release: made on start-up for generations created before them."""
        tables.upgrade(cur, t)

    def apply(self, cur: Cursor[Any], t: Tables, event: Any, position: int = 0, checked: bool = False) -> None:
        """One event; every `FLUSH_EVERY` events of a batch, the rows kept so far are written.

        The batch's statements are pipelined: PostgreSQL runs the rows written
        here (text vectors, documents, indexes) while the next events are
        applied in Python, instead of all of them after the last event. A
        listing changed again after it was written is written again at the
        next flush, as before (its events are mostly next to each other in the log).
        """
        super().apply(cur, t, event, position, checked)
        self._batch(cur)
        self._since_flush += 1
        if self._since_flush >= FLUSH_EVERY:
            self.flush(cur, t)

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
        row = self._rows.get(e.listing_id)
        if row is None or not row.new:  # created twice in one batch: written once, with the later state
            row = rows.Row(e.listing_id, str(e.originator_id), None, rows.zero_counters(), new=True)
            self._rows[e.listing_id] = row
        row.state, row.counters = docs.new_state(e), rows.zero_counters()
        self._streams[row.stream_id] = e.listing_id
        self._absent.difference_update((e.listing_id, row.stream_id))
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
        row = self._row(cur, t, stream=e.originator_id, state=True)
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

    @handles(VoteCast)
    def _vote(self, cur: Cursor[Any], t: Tables, e: VoteCast) -> None:
        self._cast(cur, t, e.listing_id, e.account_id, docs.trend_exponent(e.timestamp))

    @handles(VoteRestored)  # staff restored a voided vote: counted again, weighed by its own time
    def _restored(self, cur: Cursor[Any], t: Tables, e: VoteRestored) -> None:
        self._cast(cur, t, e.listing_id, e.account_id, docs.trend_exponent(e.cast_at))

    def _cast(self, cur: Cursor[Any], t: Tables, listing_id: int, account_id: str, x: float) -> None:
        """Count one vote (a repeated one changes nothing) and fold it into the trending log-sum."""
        if self._voted(cur, t, listing_id, account_id):
            return
        self._votes[(listing_id, account_id)] = True
        self._new_votes.append((listing_id, account_id, x))
        row = self._row(cur, t, listing_id=listing_id)
        if row is not None:  # a vote for a listing not created (yet) is kept, not counted
            row.counters["votes"] += 1
            row.counters["trend_log"] = rows.folded_vote(row.counters["trend_log"], x)
            row.counted.add("votes")

    @handles(VoteWithdrawn, VoteVoided)  # a voided vote is out of the count, like a withdrawn one
    def _unvote(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn | VoteVoided) -> None:
        """In SQL: the trending log-sum is recomputed from the listing's remaining votes."""
        self._forget(cur, t, e.listing_id)
        self._votes[(e.listing_id, e.account_id)] = False
        if counters.withdraw_vote(cur, t, e.listing_id, e.account_id):
            self._patch_counter(cur, t, e.listing_id, "votes")

    @handles(ListingFollowed, ListingUnfollowed)
    def _follow(self, cur: Cursor[Any], t: Tables, e: ListingFollowed | ListingUnfollowed) -> None:
        row = self._row(cur, t, listing_id=e.listing_id)
        if row is not None:
            step = 1 if isinstance(e, ListingFollowed) else -1
            row.counters["followers"] = max(row.counters["followers"] + step, 0)
            row.counted.add("followers")

    @handles(ListingViewsCounted)
    def _views(self, cur: Cursor[Any], t: Tables, e: ListingViewsCounted) -> None:
        pairs = [(int(k), int(v)) for k, v in e.counts.items() if str(k).isdigit() and int(v) > 0]
        self._load(cur, t, ids=[p[0] for p in pairs])
        for listing_id, n in pairs:
            row = self._row(cur, t, listing_id=listing_id)
            if row is not None:
                row.counters["views"] += n
                row.counted.add("views")

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

    # ------------------------------------------------------------ batch memory
    #
    # Every listing the batch touches is kept as a `Row` (`projections/listing_rows.py`): read once (the rows a
    # batch's events name are read together in `prepare`), changed in memory by the handlers, and written at
    # `flush`, one statement per table. The memory belongs to the batch's cursor (one transaction): a new cursor
    # forgets it, so nothing kept can outlive a rollback. Events whose change is made in SQL (a withdrawn vote, a
    # review, a category's new name) write what was kept first; the listing's row is then read again when needed.

    _batch_cursor: Any = None
    _since_flush = 0  # events applied since the last flush
    _names_cache: dict[str, str] | None = None
    _rows: dict[int, rows.Row] = {}
    _streams: dict[str, int] = {}  # stream id -> listing id, for the rows in `_rows`
    _absent: set[int | str] = set()  # listing ids and stream ids read and not found
    _votes: dict[tuple[int, str], bool] = {}  # (listing id, account id) -> whether a vote is counted
    _new_votes: list[tuple[int, str, float]] = []

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._names_cache, self._rows, self._streams, self._absent = cur, None, {}, {}, set()
            self._votes, self._new_votes = {}, []
            self._since_flush = 0

    def prepare(self, cur: Cursor[Any], t: Tables, events: Sequence[Any]) -> None:
        """Read the rows of the listings the batch's events name, and whether their voters voted: two statements."""
        self._batch(cur)
        created = {e.listing_id for e in events if isinstance(e, ListingCreated)}
        ids: set[int] = set()
        state_ids: set[int] = set()
        state_streams: set[str] = set()
        pairs: set[tuple[int, str]] = set()
        for e in events:
            kind = type(e)
            if kind in BY_STREAM:
                state_streams.add(str(e.originator_id))
            elif kind in BY_LISTING:
                state_ids.add(e.listing_id)
            elif kind in COUNTED:
                ids.add(e.listing_id)
                if kind in CAST and isinstance(e.account_id, str) and is_clean(e.account_id):
                    pairs.add((e.listing_id, e.account_id))
            elif kind is ListingViewsCounted:
                ids.update(int(k) for k in e.counts if str(k).isdigit())
        self._load(cur, t, ids=(ids | state_ids) - created, streams=state_streams, state_ids=state_ids,
                   state_streams=state_streams)
        wanted = [p for p in pairs if p not in self._votes]
        found = rows.voted(cur, t, wanted)
        self._votes.update((p, p in found) for p in wanted)

    def _load(self, cur: Cursor[Any], t: Tables, ids: Iterable[int] = (), streams: Iterable[str] = (),
              state_ids: Iterable[int] = (), state_streams: Iterable[str] = ()) -> None:
        """Read, in one statement, the rows of these listings the batch has not read yet."""
        self._batch(cur)
        ids = {i for i in ids if i not in self._rows and i not in self._absent}
        streams = {s for s in streams if s not in self._streams and s not in self._absent}
        if not ids and not streams:
            return
        for row in rows.read(cur, t, ids, streams, state_ids, state_streams):
            if row.listing_id not in self._rows:
                self._rows[row.listing_id] = row
                self._streams[row.stream_id] = row.listing_id
        self._absent.update(i for i in ids if i not in self._rows)
        self._absent.update(s for s in streams if s not in self._streams)

    def _row(self, cur: Cursor[Any], t: Tables, *, stream: UUID | None = None, listing_id: int | None = None,
             state: bool = False) -> rows.Row | None:
        """The listing's row, with its state when `state` (None for a listing this generation never saw created)."""
        self._batch(cur)
        found = listing_id
        if stream is not None:
            key = str(stream)
            found = self._streams.get(key)
            if found is None and key not in self._absent:
                self._load(cur, t, streams=[key], state_streams=[key] if state else [])
                found = self._streams.get(key)
        elif listing_id is not None and listing_id not in self._rows and listing_id not in self._absent:
            self._load(cur, t, ids=[listing_id], state_ids=[listing_id] if state else [])
        row = self._rows.get(found) if found is not None else None
        if row is not None and state and row.state is None:
            row.state = rows.read_state(cur, t, row.listing_id)
        return row

    def _voted(self, cur: Cursor[Any], t: Tables, listing_id: int, account_id: str) -> bool:
        self._batch(cur)
        pair = (listing_id, account_id)
        if pair not in self._votes:
            self._votes[pair] = pair in rows.voted(cur, t, [pair])
        return self._votes[pair]

    def _forget(self, cur: Cursor[Any], t: Tables, listing_id: int) -> None:
        """The listing's counters are about to change in SQL: write what was kept, and read its row again if needed."""
        self.flush(cur, t)
        row = self._rows.pop(listing_id, None)
        if row is not None:
            self._streams.pop(row.stream_id, None)

    def _names(self, cur: Cursor[Any], t: Tables) -> dict[str, str]:
        """Category names, read once per batch."""
        self._batch(cur)
        if self._names_cache is None:
            self._names_cache = dict(cur.execute(f"SELECT slug, name FROM {t['categories']}").fetchall())
        return self._names_cache

    def _change(self, cur: Cursor[Any], t: Tables, mutate: Any, *, stream: UUID | None = None,
                listing_id: int | None = None) -> None:
        """Apply `mutate` to the listing's state, kept for `flush` (nothing for a listing never created)."""
        row = self._row(cur, t, stream=stream, listing_id=listing_id, state=True)
        if row is None:
            return
        mutate(row.state)
        self._changed(row)

    def _changed(self, row: rows.Row) -> None:
        """The row's state changed: rewritten at `flush`."""
        row.changed()

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write every row the batch changed and its new votes: one statement per table."""
        self._batch(cur)
        self._since_flush = 0
        dirty = [row for row in self._rows.values() if row.new or row.content or row.counted]  # `Row.dirty`
        if not dirty and not self._new_votes:
            return
        names = self._names(cur, t) if any(row.new or row.content for row in dirty) else {}
        rows.write(cur, t, dirty, names, self._new_votes)
        for row in dirty:
            row.written()
        self._new_votes = []


# What `prepare` reads for each event class: the state by stream, the state by listing id, the counters only.
BY_STREAM = frozenset({
    ListingEdited, ListingEvidenceSet, ListingEditReverted, ListingStorySet, ListingMilestoneAdded,
    ListingMilestoneDeleted, ListingUpdatePosted, ListingUpdateRemoved, ListingSectionsUnlocked, ListingAlternativesApproved,
    ListingOwnerAdded, ListingOwnerRemoved, ListingVerified, ListingVerificationWithdrawn, ListingFeatured, ListingQueuedForFree, ListingBadgeLost, ListingScheduled,
    ListingLaunched, ListingPublishedByStaff, ListingUnpublished,
})
BY_LISTING = frozenset({DomainRatingRecorded, RevenueRecorded, BillboardContributed})
CAST = frozenset({VoteCast, VoteRestored})
COUNTED = CAST | {ListingFollowed, ListingUnfollowed}
