"""The listing read side: one public profile document and one search/summary row per listing.

Tables (per generation):

- `profiles`: the private state (every fact the events told) and the public
  get_listing document built from it (`projections/listing_docs.py`).
- `listings`: what summaries read: status, filters (categories, stage,
  country, pricing, domain), counters (votes, followers, views, rating), the
  trending log-sum, and the card.
- `search`: only what searches filter, order and match on (filters,
  counters, the trending log-sum, the folded name and the text vectors),
  written with the listings row in the same statement, so a search reads
  narrow rows and fetches cards from `listings` by id (docs/search.md).
- `votes` (cast times, for trending), `reviews` (ratings and moderation,
  `projections/review_tally.py`), `domain_ratings` (snapshots), `categories`
  (names for the documents), `words` (the search vocabulary for typo
  correction: every word of the searched fields of live and upcoming listings).

Content events rebuild a listing's document from its state; counter events
(votes, follows, views, reviews) patch the document in SQL. Billboard money is
kept in the document's labelled `billboard` section only: it never reaches a
search column or the community section.
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any
from uuid import UUID

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
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
    ListingSectionsUnlocked,
    ListingStorySet,
    ListingUnpublished,
    ListingUpdatePosted,
    ListingVerified,
)
from events.metrics import BillboardContributed, DomainRatingRecorded, RevenueRecorded
from events.votes import VoteRestored, VoteVoided
from projections import listing_docs as docs
from projections.base import Projection, Tables, handles
from projections.listing_cards import (
    PUBLIC_STATUSES,
    UPCOMING_STATUSES,
    domain_of,
    fold,
    key_of,
    text_of,
    website_of,
    words_of,
)
from projections import listing_counters as counters
from projections import listing_tables as tables
from projections.listing_tables import TALLY

NAME = "listing_view"
SEARCHABLE = PUBLIC_STATUSES + UPCOMING_STATUSES
COUNTERS = "l.votes, l.followers, l.views, l.rating_avg, l.rating_count"


class ListingView(Projection):
    name = NAME
    tables = ("profiles", "listings", "search", "votes", "reviews", "domain_ratings", "categories", "words")
    catch_up_batch = 1000  # measured: its catch-up took 26-30 s at 1,000 and 36-45 s at 5,000 (docs/performance.md)

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        tables.create(cur, t)

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        """Indexes added after the first release: made on start-up for generations created before them."""
        tables.upgrade(cur, t)

    # ------------------------------------------------------------ catalogue: category names

    @handles(CategoryAdded)
    def _category_added(self, cur: Cursor[Any], t: Tables, e: CategoryAdded) -> None:
        cur.execute(
            f"INSERT INTO {t['categories']} (slug, name, parent, attributes) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (slug) DO NOTHING",
            (e.slug, e.name, e.parent_slug, Jsonb(list(e.attributes))),
        )
        self._names_cache = None

    @handles(CategoryChanged)
    def _category_changed(self, cur: Cursor[Any], t: Tables, e: CategoryChanged) -> None:
        c = e.changes
        cur.execute(
            f"UPDATE {t['categories']} SET name = coalesce(%s, name), attributes = coalesce(%s, attributes), "
            "parent = CASE WHEN %s THEN %s ELSE parent END WHERE slug = %s",
            (c.get("name"), Jsonb(c["attributes"]) if "attributes" in c else None, "parent_slug" in c,
             c.get("parent_slug"), e.slug),
        )
        self._names_cache = None  # names are re-read on the next write
        if "name" in c:  # documents and cards carry category names
            self.flush(cur, t)
            rows = cur.execute(f"SELECT listing_id FROM {t['listings']} WHERE categories @> ARRAY[%s]", (e.slug,)).fetchall()
            for (listing_id,) in rows:
                self._change(cur, t, lambda s: None, listing_id=listing_id)

    # ------------------------------------------------------------ listing content and status

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        self._write(cur, t, docs.new_state(e), _zero_counters(), None, insert=True)

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
        u = {"update_id": e.update_id, "title": e.title, "body": e.body, "posted_at": e.timestamp.isoformat()}
        self._change(cur, t, lambda s: docs.add_update(s, u), stream=e.originator_id)

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
        rows = cur.execute(
            f"SELECT measured_on, value, source FROM {t['domain_ratings']} WHERE listing_id = %s", (e.listing_id,)
        ).fetchall()
        trend = docs.domain_rating_trend([(r[0], int(r[1]), str(r[2])) for r in rows])
        self._change(cur, t, lambda s: s.update(domain_rating=trend), listing_id=e.listing_id)

    @handles(RevenueRecorded)
    def _revenue(self, cur: Cursor[Any], t: Tables, e: RevenueRecorded) -> None:
        self._change(cur, t, lambda s: docs.record_revenue(s, e.amount_cents, e.period, e.source), listing_id=e.listing_id)

    @handles(BillboardContributed)
    def _billboard(self, cur: Cursor[Any], t: Tables, e: BillboardContributed) -> None:
        # Paid placement: kept in its labelled document section, never in search or community fields.
        self._change(cur, t, lambda s: s.update(billboard_cents=int(s["billboard_cents"]) + e.amount_cents),
                     listing_id=e.listing_id)

    # ------------------------------------------------------------ community counters (patched in SQL)

    @handles(VoteCast)
    def _vote(self, cur: Cursor[Any], t: Tables, e: VoteCast) -> None:
        self._forget(cur, t, e.listing_id)
        counters.cast_vote(cur, t, e.listing_id, e.account_id, docs.trend_exponent(e.timestamp))
        self._patch_counter(cur, t, e.listing_id, "votes")

    @handles(VoteRestored)  # staff restored a voided vote: counted again, weighed by its own time
    def _restored(self, cur: Cursor[Any], t: Tables, e: VoteRestored) -> None:
        self._forget(cur, t, e.listing_id)
        counters.cast_vote(cur, t, e.listing_id, e.account_id, docs.trend_exponent(e.cast_at))
        self._patch_counter(cur, t, e.listing_id, "votes")

    @handles(VoteWithdrawn, VoteVoided)  # a voided vote is out of the count, like a withdrawn one
    def _unvote(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn | VoteVoided) -> None:
        self._forget(cur, t, e.listing_id)
        if not counters.withdraw_vote(cur, t, e.listing_id, e.account_id):
            return
        self._patch_counter(cur, t, e.listing_id, "votes")

    @handles(ListingFollowed, ListingUnfollowed)
    def _follow(self, cur: Cursor[Any], t: Tables, e: ListingFollowed | ListingUnfollowed) -> None:
        self._forget(cur, t, e.listing_id)
        step = 1 if isinstance(e, ListingFollowed) else -1
        counters.follow(cur, t, e.listing_id, step)
        self._patch_counter(cur, t, e.listing_id, "followers")

    @handles(ListingViewsCounted)
    def _views(self, cur: Cursor[Any], t: Tables, e: ListingViewsCounted) -> None:
        pairs = [(int(k), int(v)) for k, v in e.counts.items() if str(k).isdigit() and int(v) > 0]
        if not pairs:
            return
        self._forget(cur, t, *(p[0] for p in pairs))
        counters.add_views(cur, t, pairs)

    @handles(ReviewWritten)
    def _review_written(self, cur: Cursor[Any], t: Tables, e: ReviewWritten) -> None:
        TALLY.written(cur, t["reviews"], t["listings"], e)
        if getattr(e, "genuine", False):
            self._rating(cur, t, e.listing_id)

    @handles(ReviewModerated)
    def _review_moderated(self, cur: Cursor[Any], t: Tables, e: ReviewModerated) -> None:
        TALLY.moderated(cur, t["reviews"], t["listings"], e)
        self._rating(cur, t, e.listing_id)

    @handles(ReviewEdited)
    def _review_edited(self, cur: Cursor[Any], t: Tables, e: ReviewEdited) -> None:
        TALLY.edited(cur, t["reviews"], t["listings"], e)
        self._rating(cur, t, e.listing_id)

    @handles(ReviewHidden, ReviewRestored)
    def _review_hidden(self, cur: Cursor[Any], t: Tables, e: ReviewHidden | ReviewRestored) -> None:
        TALLY.hidden(cur, t["reviews"], t["listings"], e)
        self._rating(cur, t, e.listing_id)

    def _rating(self, cur: Cursor[Any], t: Tables, listing_id: int) -> None:
        """Copy the listing's recounted rating into its public document."""
        self._forget(cur, t, listing_id)
        cur.execute(
            f"""UPDATE {t['profiles']} p SET doc = jsonb_set(p.doc, '{{community,rating}}',
                    jsonb_build_object('average', l.rating_avg::float8, 'count', l.rating_count))
                FROM {t['listings']} l WHERE l.listing_id = p.listing_id AND p.listing_id = %s""",
            (listing_id,),
        )

    # ------------------------------------------------------------ writing

    def _patch_counter(self, cur: Cursor[Any], t: Tables, listing_id: int, column: str) -> None:
        cur.execute(
            f"""UPDATE {t['profiles']} p SET doc = jsonb_set(p.doc, '{{community,{column}}}', to_jsonb(l.{column}))
                FROM {t['listings']} l WHERE l.listing_id = p.listing_id AND p.listing_id = %s""",
            (listing_id,),
        )

    def _change(self, cur: Cursor[Any], t: Tables, mutate: Any, *, stream: UUID | None = None,
                listing_id: int | None = None) -> None:
        """Load a listing's state, apply `mutate`, and write the document and search row again."""
        self._batch(cur)
        known = self._streams.get(str(stream)) if stream is not None else listing_id
        if known is not None and known in self._states:
            state, counters, text_key = self._states[known]
            mutate(state)
            self._write(cur, t, state, counters, text_key)
            return
        where, key = ("p.stream_id = %s", stream) if stream is not None else ("p.listing_id = %s", listing_id)
        row = cur.execute(
            f"SELECT p.state, {COUNTERS}, l.text_key FROM {t['profiles']} p "
            f"JOIN {t['listings']} l USING (listing_id) WHERE {where}",
            (key,),
        ).fetchone()
        if row is None:  # an event for a listing this generation never saw created: nothing to show
            return
        state = row[0]
        mutate(state)
        counters = dict(zip(("votes", "followers", "views", "rating_avg", "rating_count"), row[1:6], strict=True))
        self._write(cur, t, state, counters, row[6])

    # ------------------------------------------------------------ batch memory
    #
    # What this batch has read or written, kept in memory for the batch only: the runtime opens one
    # cursor per batch (one transaction), and a new cursor forgets everything, so nothing here can
    # outlive a rollback. It saves a round trip per event when, say, a listing is created and
    # published in the same batch.

    _batch_cursor: Any = None
    _names_cache: dict[str, str] | None = None
    _words_seen: set[str] = set()
    _states: dict[int, tuple[dict[str, Any], dict[str, Any], str | None]] = {}
    _streams: dict[str, int] = {}
    _pending: dict[int, tuple[dict[str, Any], dict[str, Any], str | None, bool]] = {}  # kept back for `flush`

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._names_cache, self._words_seen, self._states, self._streams = cur, None, set(), {}, {}
            self._pending = {}

    def _forget(self, cur: Cursor[Any], t: Tables, *listing_ids: int) -> None:
        """A counter is about to change in SQL: write what was kept back, and forget the remembered counters."""
        self.flush(cur, t)
        for listing_id in listing_ids:
            self._states.pop(listing_id, None)

    def _names(self, cur: Cursor[Any], t: Tables) -> dict[str, str]:
        """Category names, read once per batch."""
        self._batch(cur)
        if self._names_cache is None:
            self._names_cache = dict(cur.execute(f"SELECT slug, name FROM {t['categories']}").fetchall())
        return self._names_cache

    def _write(self, cur: Cursor[Any], t: Tables, state: dict[str, Any], counters: dict[str, Any],
               old_text_key: str | None, insert: bool = False) -> None:
        """Keep the listing's new state for `flush`: a listing created and published in one batch is written once.

        The row as the database has it (absent, or with `old_text_key`) is the
        one of the first write kept back, so `flush` inserts or updates and
        recomputes text vectors exactly as writing each change would.
        """
        self._batch(cur)
        listing_id = state["listing_id"]
        before = self._pending.get(listing_id)
        if before is not None:
            old_text_key, insert = before[2], before[3]
        self._pending[listing_id] = (state, counters, old_text_key, insert)
        self._states[listing_id] = (state, counters, self._text_key(state))
        self._streams[str(state["stream_id"])] = listing_id

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write every listing kept back in this batch, once each (before SQL reads or patches their rows)."""
        self._batch(cur)
        pending, self._pending = self._pending, {}
        for state, tallies, old_text_key, insert in pending.values():
            self._write_now(cur, t, state, tallies, old_text_key, insert)

    @staticmethod
    def _text_key(state: dict[str, Any]) -> str:
        """A digest of what the text vectors are made of (they are recomputed only when it changes)."""
        p = state["profile"]
        searchable = state["status"] in SEARCHABLE
        name = str(p.get("name") or "")
        tk = text_of(p.get("tagline")) + " " + text_of(p.get("keywords"))
        description = text_of(p.get("description"))
        return hashlib.blake2b(repr((searchable, name, tk, description)).encode(), digest_size=12).hexdigest()

    def _write_now(self, cur: Cursor[Any], t: Tables, state: dict[str, Any], counters: dict[str, Any],
                   old_text_key: str | None, insert: bool = False) -> None:
        """Write the state, the document and the search row; text vectors only when the searched text changed.

        Only searchable listings (live or upcoming) carry text vectors and add their words to the vocabulary.
        """
        names = self._names(cur, t)
        p = state["profile"]
        # Only live listings are public: other statuses keep an empty document (rebuilt when they go live).
        doc = docs.public_doc(state, counters, names) if state["status"] in PUBLIC_STATUSES else {}
        searchable = state["status"] in SEARCHABLE
        name = str(p.get("name") or "")
        tk = text_of(p.get("tagline")) + " " + text_of(p.get("keywords"))
        description = text_of(p.get("description"))
        text_key = self._text_key(state)
        country = str(p.get("country") or "").strip().upper()
        params = {
            "id": state["listing_id"], "stream": state["stream_id"], "slug": state["slug"], "state": Jsonb(state),
            "doc": Jsonb(doc), "status": state["status"], "week": state["week"], "plan": state["plan"],
            "listed_at": state["listed_at"], "launched_at": state["launched_at"], "categories": state["categories"],
            "primary": state["categories"][0] if state["categories"] else None,
            "stage": key_of(p.get("stage")), "pricing": key_of(p.get("pricing_model")),
            "country": country if len(country) == 2 and country.isalpha() else None,
            "domain": domain_of(website_of(p, state["socials"])), "name_lc": fold(name), "card": Jsonb(docs.summary_card(state, names)),
            "name": name, "tk": tk, "description": description, "text_key": text_key, "searchable": searchable,
        }
        name_fts = "CASE WHEN %(searchable)s THEN to_tsvector('english', %(name)s) END"
        head = """CASE WHEN %(searchable)s THEN setweight(to_tsvector('english', %(name)s), 'A')
                    || setweight(to_tsvector('english', %(tk)s), 'B') END"""
        # Only matched (`@@` without weights or phrases), never ranked: lexemes without positions, a quarter smaller.
        fts = """CASE WHEN %(searchable)s THEN strip(to_tsvector('english', %(name)s)
                    || to_tsvector('english', %(tk)s) || to_tsvector('english', %(description)s)) END"""
        params["words"] = self._new_words(cur, words_of(name, tk, description)) if searchable and text_key != old_text_key else []
        # The vocabulary only grows (an insert that finds the word changes nothing); a rebuild trims it.
        words = f"w AS (INSERT INTO {t['words']} (word) SELECT unnest(%(words)s::text[]) ON CONFLICT DO NOTHING)"
        # The search row (`listing_tables.SEARCH_COLUMNS`) is written in the same statement as the listings row;
        # its counters are the listings row's defaults on insert and are left to the counter handlers after.
        if insert:
            cur.execute(
                f"""WITH {words}, p AS (INSERT INTO {t['profiles']} (listing_id, stream_id, slug, status, state, doc)
                               VALUES (%(id)s, %(stream)s, %(slug)s, %(status)s, %(state)s, %(doc)s)),
                         s AS (INSERT INTO {t['search']} (listing_id, status, week, listed_at, launched_at, categories,
                               stage, country, pricing, domain, name_lc, name_fts, head, fts)
                               VALUES (%(id)s, %(status)s, %(week)s, %(listed_at)s, %(launched_at)s, %(categories)s,
                               %(stage)s, %(country)s, %(pricing)s, %(domain)s, %(name_lc)s, {name_fts}, {head}, {fts}))
                    INSERT INTO {t['listings']} (listing_id, slug, status, week, plan, listed_at, launched_at,
                        categories, primary_category, stage, country, pricing, domain, card, text_key)
                    VALUES (%(id)s, %(slug)s, %(status)s, %(week)s, %(plan)s, %(listed_at)s, %(launched_at)s,
                        %(categories)s, %(primary)s, %(stage)s, %(country)s, %(pricing)s, %(domain)s,
                        %(card)s, %(text_key)s)""",
                params,
            )
        else:
            changed = text_key != old_text_key
            text = f", name_lc = %(name_lc)s, name_fts = {name_fts}, head = {head}, fts = {fts}" if changed else ""
            cur.execute(
                f"""WITH {words}, p AS (UPDATE {t['profiles']} SET state = %(state)s, doc = %(doc)s, status = %(status)s
                               WHERE listing_id = %(id)s),
                         s AS (UPDATE {t['search']} SET status = %(status)s, week = %(week)s, listed_at = %(listed_at)s,
                               launched_at = %(launched_at)s, categories = %(categories)s, stage = %(stage)s,
                               country = %(country)s, pricing = %(pricing)s, domain = %(domain)s {text}
                               WHERE listing_id = %(id)s)
                    UPDATE {t['listings']} SET status = %(status)s, week = %(week)s, plan = %(plan)s,
                        listed_at = %(listed_at)s, launched_at = %(launched_at)s, categories = %(categories)s,
                        primary_category = %(primary)s, stage = %(stage)s, country = %(country)s, pricing = %(pricing)s,
                        domain = %(domain)s, card = %(card)s {', text_key = %(text_key)s' if changed else ''}
                    WHERE listing_id = %(id)s""",
                params,
            )

    def _new_words(self, cur: Cursor[Any], words: list[str]) -> list[str]:
        """The words this batch has not added yet."""
        self._batch(cur)
        new = [w for w in words if w not in self._words_seen]
        self._words_seen.update(new)
        return new


def _zero_counters() -> dict[str, Any]:
    return {"votes": 0, "followers": 0, "views": 0, "rating_avg": None, "rating_count": 0}
