"""The search read side: one narrow row per listing that searches match, filter and order on, and the vocabulary.

Tables (per generation, `projections/search_tables.py`): `search` (filters,
counters, the trending log-sum, the folded name and the text vectors),
`sources` (what those are made from), `votes` (for the trending sum) and
`words` (every word of the searched fields of live and upcoming listings,
for typo correction and completions). Searches read ids here and fetch the
cards from the listing view by id (`queries/search_postgres.py`).

Fed by the listing events the listing view also reads, apart from it: the
text vectors (the English parser and stemmer over every listing's texts) are
the largest single cost of building the read side, and kept in their own
projection they run on their own connection, and a rebuild of either
projection does not redo the other's work (docs/performance.md).

A batch keeps the listings its events touch in memory and writes each table
once at `flush` (`projections/search_rows.py`), as the listing view does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from psycopg import Cursor

from events.community import ListingFollowed, ListingUnfollowed, ListingViewsCounted, VoteCast, VoteWithdrawn
from events.listing import (
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
)
from events.text import is_clean
from events.votes import VoteRestored, VoteVoided
from projections import listing_counters as counters
from projections import listing_docs as docs
from projections import search_rows as rows
from projections import search_tables as tables
from projections.base import Projection, Tables, handles
from projections.listing_rows import folded_vote, voted  # the same vote tables, one reader
from projections.listing_status import STATUS_AFTER, STATUS_EVENTS

NAME = "search_view"
FLUSH_EVERY = 250
"""Events of a batch between two writes of its rows (as `listing_view.FLUSH_EVERY`: PostgreSQL makes the text
vectors of the rows written while the next events are applied in Python)."""


class SearchView(Projection):
    name = NAME
    tables = ("search", "sources", "votes", "words")
    catch_up_batch = 5000

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        tables.create(cur, t)

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        tables.upgrade(cur, t)

    def apply(self, cur: Cursor[Any], t: Tables, event: Any, position: int = 0, checked: bool = False) -> None:
        """One event; every `FLUSH_EVERY` events of a batch, the rows kept so far are written."""
        super().apply(cur, t, event, position, checked)
        self._batch(cur)
        self._since_flush += 1
        if self._since_flush >= FLUSH_EVERY:
            self.flush(cur, t)

    # ------------------------------------------------------------ content and status

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        if self._entry(cur, t, listing_id=e.listing_id) is not None:
            return  # created twice: the first creation stands, as the listing view's rows do
        source = rows.source_of(e.profile, e.socials)
        entry = rows.Entry(e.listing_id, str(e.originator_id), source | {
            "status": "draft", "week": None, "listed_at": None, "launched_at": None,
            "categories": list(e.categories)}, rows.zero_counters(), new=True)
        self._entries[e.listing_id] = entry
        self._streams[entry.stream_id] = e.listing_id
        self._absent.difference_update((e.listing_id, entry.stream_id))
        self._changed(entry)

    @handles(ListingEdited, ListingEditReverted)  # a staff revert puts fields back like an edit
    def _edited(self, cur: Cursor[Any], t: Tables, e: ListingEdited | ListingEditReverted) -> None:
        changes = e.changes
        if not any(k in rows.SOURCE_FIELDS or k in ("categories", "socials") for k in changes):
            return  # nothing a search row is made from

        def edit(state: dict[str, Any]) -> None:
            for k, v in changes.items():
                if k == "categories":
                    state["categories"] = list(v or [])
                elif k == "socials":
                    state["socials"] = {"website": (v or {}).get("website")}
                elif k in rows.SOURCE_FIELDS:
                    if v is None:
                        state["profile"].pop(k, None)
                    else:
                        state["profile"][k] = v

        self._change(cur, t, edit, stream=e.originator_id, source=True)

    @handles(*STATUS_EVENTS)
    def _status(self, cur: Cursor[Any], t: Tables, e: Any) -> None:
        """A listing queued, scheduled, live, waiting for its badge again or unpublished (as the listing view keeps it)."""
        status = STATUS_AFTER[type(e)]
        at = e.timestamp.isoformat()

        def move(state: dict[str, Any]) -> None:
            state["status"] = status
            if isinstance(e, (ListingQueuedForFree, ListingScheduled)):
                state.update(week=e.week, listed_at=at)
            elif isinstance(e, (ListingLaunched, ListingPublishedByStaff)):
                state.update(week=e.week, launched_at=at, listed_at=at)

        self._change(cur, t, move, stream=e.originator_id)

    # ------------------------------------------------------------ counters (kept in memory)

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
        entry = self._entry(cur, t, listing_id=listing_id)
        if entry is not None:  # a vote for a listing not created (yet) is kept, not counted
            entry.counters["votes"] += 1
            entry.counters["trend_log"] = folded_vote(entry.counters["trend_log"], x)
            entry.counted.add("votes")

    @handles(VoteWithdrawn, VoteVoided)  # a voided vote is out of the count, like a withdrawn one
    def _unvote(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn | VoteVoided) -> None:
        """In SQL: the trending log-sum is recomputed from the listing's remaining votes."""
        self.flush(cur, t)
        entry = self._entries.pop(e.listing_id, None)
        if entry is not None:
            self._streams.pop(entry.stream_id, None)
        self._votes[(e.listing_id, e.account_id)] = False
        counters.withdraw_vote(cur, t, e.listing_id, e.account_id, counted="search")

    @handles(ListingFollowed, ListingUnfollowed)
    def _follow(self, cur: Cursor[Any], t: Tables, e: ListingFollowed | ListingUnfollowed) -> None:
        entry = self._entry(cur, t, listing_id=e.listing_id)
        if entry is not None:
            step = 1 if isinstance(e, ListingFollowed) else -1
            entry.counters["followers"] = max(entry.counters["followers"] + step, 0)
            entry.counted.add("followers")

    @handles(ListingViewsCounted)
    def _views(self, cur: Cursor[Any], t: Tables, e: ListingViewsCounted) -> None:
        pairs = [(int(k), int(v)) for k, v in e.counts.items() if str(k).isdigit() and int(v) > 0]
        self._load(cur, t, ids=[p[0] for p in pairs])
        for listing_id, n in pairs:
            entry = self._entry(cur, t, listing_id=listing_id)
            if entry is not None:
                entry.counters["views"] += n
                entry.counted.add("views")

    # ------------------------------------------------------------ batch memory
    #
    # As in the listing view: every listing the batch touches is kept as an `Entry`, read once (the entries a
    # batch's events name are read together in `prepare`), changed in memory and written at `flush`. The memory
    # belongs to the batch's cursor (one transaction): a new cursor forgets it, so nothing kept outlives a rollback.

    _batch_cursor: Any = None
    _since_flush = 0
    _entries: dict[int, rows.Entry] = {}
    _streams: dict[str, int] = {}  # stream id -> listing id, for the entries in `_entries`
    _absent: set[int | str] = set()  # listing ids and stream ids read and not found
    _votes: dict[tuple[int, str], bool] = {}  # (listing id, account id) -> whether a vote is counted
    _new_votes: list[tuple[int, str, float]] = []
    _words: list[str] = []
    _words_seen: set[str] = set()

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._entries, self._streams, self._absent = cur, {}, {}, set()
            self._votes, self._new_votes, self._words, self._words_seen = {}, [], [], set()
            self._since_flush = 0

    def prepare(self, cur: Cursor[Any], t: Tables, events: Sequence[Any]) -> None:
        """Read the entries of the listings the batch's events name, and whether their voters voted: two statements."""
        self._batch(cur)
        created = {e.listing_id for e in events if isinstance(e, ListingCreated)}
        ids: set[int] = set()
        streams: set[str] = set()
        pairs: set[tuple[int, str]] = set()
        for e in events:
            kind = type(e)
            if kind in BY_STREAM:
                streams.add(str(e.originator_id))
            elif kind in COUNTED:
                ids.add(e.listing_id)
                if kind in CAST and isinstance(e.account_id, str) and is_clean(e.account_id):
                    pairs.add((e.listing_id, e.account_id))
            elif kind is ListingViewsCounted:
                ids.update(int(k) for k in e.counts if str(k).isdigit())
        self._load(cur, t, ids=ids | created, streams=streams, state_streams=streams)
        wanted = [p for p in pairs if p not in self._votes]
        found = voted(cur, t, wanted)
        self._votes.update((p, p in found) for p in wanted)

    def _load(self, cur: Cursor[Any], t: Tables, ids: Iterable[int] = (), streams: Iterable[str] = (),
              state_streams: Iterable[str] = ()) -> None:
        """Read, in one statement, the entries of these listings the batch has not read yet."""
        self._batch(cur)
        ids = {i for i in ids if i not in self._entries and i not in self._absent}
        streams = {s for s in streams if s not in self._streams and s not in self._absent}
        if not ids and not streams:
            return
        for entry in rows.read(cur, t, ids, streams, (), state_streams):
            if entry.listing_id not in self._entries:
                self._entries[entry.listing_id] = entry
                self._streams[entry.stream_id] = entry.listing_id
        self._absent.update(i for i in ids if i not in self._entries)
        self._absent.update(s for s in streams if s not in self._streams)

    def _entry(self, cur: Cursor[Any], t: Tables, *, stream: UUID | None = None, listing_id: int | None = None,
               state: bool = False) -> rows.Entry | None:
        """The listing's entry, with its state when `state` (None for a listing this generation never saw created)."""
        self._batch(cur)
        found = listing_id
        if stream is not None:
            key = str(stream)
            found = self._streams.get(key)
            if found is None and key not in self._absent:
                self._load(cur, t, streams=[key], state_streams=[key] if state else [])
                found = self._streams.get(key)
        elif listing_id is not None and listing_id not in self._entries and listing_id not in self._absent:
            self._load(cur, t, ids=[listing_id])
        entry = self._entries.get(found) if found is not None else None
        if entry is not None and state and entry.state is None:
            rows.read_state(cur, t, entry)
        return entry

    def _voted(self, cur: Cursor[Any], t: Tables, listing_id: int, account_id: str) -> bool:
        self._batch(cur)
        pair = (listing_id, account_id)
        if pair not in self._votes:
            self._votes[pair] = pair in voted(cur, t, [pair])
        return self._votes[pair]

    def _change(self, cur: Cursor[Any], t: Tables, mutate: Any, *, stream: UUID, source: bool = False) -> None:
        """Apply `mutate` to the listing's state, kept for `flush` (nothing for a listing never created).

        `source`: the change is to what `sources` keeps (an edit), not only to the search row (a status)."""
        entry = self._entry(cur, t, stream=stream, state=True)
        if entry is None:
            return
        mutate(entry.state)
        entry.source = entry.source or source
        self._changed(entry)

    def _changed(self, entry: rows.Entry) -> None:
        """The entry's state changed: rewritten at `flush`, its new words added to the vocabulary then."""
        words = entry.changed()
        if words and not self._words_seen.issuperset(words):  # most listings bring no word the batch has not seen
            new = [w for w in words if w not in self._words_seen]
            self._words_seen.update(new)
            self._words += new

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write every entry the batch changed, its new votes and new words: one statement per table."""
        self._batch(cur)
        self._since_flush = 0
        dirty = [e for e in self._entries.values() if e.new or e.content or e.counted]
        if not dirty and not self._new_votes and not self._words:
            return
        rows.write(cur, t, dirty, self._new_votes, self._words)
        for entry in dirty:
            entry.flushed()
        self._new_votes, self._words = [], []


BY_STREAM = frozenset({ListingEdited, ListingEditReverted, *STATUS_EVENTS})
"""Events that name their listing by stream and change its state (read with it in `prepare`)."""
CAST = frozenset({VoteCast, VoteRestored})
COUNTED = CAST | {ListingFollowed, ListingUnfollowed}
