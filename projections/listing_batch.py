"""The batch memory of a projection that keeps one entry per listing: read together, changed in memory, written once.

The listing view and the search view are fed by the same listing events and
both spend most of a catch-up reading and writing one row per listing. Each
keeps every listing a batch touches as an entry (`listing_rows.Row`,
`search_rows.Entry`): read once (the entries a batch's events name are read
together in `prepare`), changed in memory by the handlers, and written at
`flush`, one statement per table, every `flush_every` events so PostgreSQL
writes the rows while Python applies the next events (the statements are
pipelined). This base holds that memory; a subclass says how its entries are
read and written, and what its handlers do with them.

The memory belongs to the batch's cursor (one transaction): a new cursor
forgets it, so nothing kept can outlive a rollback. Events whose change is
made in SQL (a withdrawn vote, a review) write what was kept first
(`_forget`); the listing's entry is then read again when needed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar
from uuid import UUID

from psycopg import Cursor

from events.community import ListingFollowed, ListingUnfollowed, ListingViewsCounted, VoteCast
from events.listing import ListingCreated
from events.text import is_clean
from events.votes import VoteRestored
from projections.base import Projection, Tables, handles
from projections.listing_docs import trend_exponent
from projections.listing_rows import folded_vote, voted  # both views keep their votes in a `votes` table of one shape

CAST = frozenset({VoteCast, VoteRestored})
COUNTED = CAST | {ListingFollowed, ListingUnfollowed}
"""Events that change only a listing's counters: `prepare` reads the counters, not the state."""


class Kept(Protocol):
    """What the batch memory needs of an entry; the rest is the subclass's."""

    listing_id: int
    stream_id: UUID  # kept as the events carry it: hashing a UUID costs less than making its text
    state: dict[str, Any] | None  # None until a handler needs it (counter events need only the counters)
    counters: dict[str, Any]
    new: bool  # no rows yet: inserted at `flush`
    content: bool  # the state changed
    counted: set[str]  # the counters that changed

    def written(self) -> None:
        """Its rows now hold what the entry holds."""


E = TypeVar("E", bound=Kept)


class ListingBatch(Projection, Generic[E]):
    """A projection whose handlers change one entry per listing, kept for the batch and written at `flush`.

    Subclasses set `by_stream` (events naming their listing by stream whose
    handler needs its state), `by_listing` (the same, named by listing id),
    and implement `_read`, `_read_state` and `_write`.
    """

    flush_every: ClassVar[int] = 250
    """Events of a batch between two writes of its entries (`apply`): PostgreSQL writes the rows sent while the
    next events are applied in Python (docs/performance.md, "The batch's rows written every 250 events")."""
    by_stream: ClassVar[frozenset[type[Any]]] = frozenset()
    by_listing: ClassVar[frozenset[type[Any]]] = frozenset()
    read_created: ClassVar[bool] = False
    """True when the creation handler looks whether the listing exists (`prepare` then reads created listings too)."""
    keyed_by: ClassVar[str] = ""
    """The table `_read` finds entries in by listing id (with `read_created`, `prepare` asks it for its highest id)."""

    _batch_cursor: Any = None
    _since_flush = 0  # events applied since the last flush
    _kept: dict[int, Any] = {}  # listing id -> entry
    _dirty: dict[int, Any] = {}  # the entries changed since the last flush (a flush writes these, not every entry kept)
    _streams: dict[UUID, int] = {}  # stream id -> listing id, for the entries in `_kept`
    _absent: set[int | UUID] = set()  # listing ids and stream ids read and not found
    _votes: dict[tuple[int, str], bool] = {}  # (listing id, account id) -> whether a vote is counted
    _new_votes: list[tuple[int, str, float]] = []

    # ------------------------------------------------------------ what a subclass says

    def _read(self, cur: Cursor[Any], t: Tables, ids: Iterable[int], streams: Iterable[UUID],
              state_ids: Iterable[int], state_streams: Iterable[UUID]) -> list[E]:
        """The entries of listings `ids` and `streams` in one statement; the state only of those in `state_*`."""
        raise NotImplementedError

    def _read_state(self, cur: Cursor[Any], t: Tables, entry: E) -> None:
        """Give an entry read without its state its state."""
        raise NotImplementedError

    def _write(self, cur: Cursor[Any], t: Tables, dirty: list[E]) -> None:
        """Write the changed entries and `_new_votes` (and whatever else the subclass kept): one statement per table."""
        raise NotImplementedError

    def _reset(self) -> None:
        """A new batch: forget what the subclass keeps beside the entries."""

    def _unwritten(self) -> bool:
        """Whether the subclass keeps something to write beside the entries and votes."""
        return False

    def _changed(self, entry: E) -> None:
        """The entry's state changed: rewritten at `flush` (a subclass that overrides this calls it)."""
        entry.content = True
        self._dirty[entry.listing_id] = entry

    def _count(self, entry: E, counter: str) -> None:
        """One of the entry's counters changed: its counter columns are written at `flush`."""
        entry.counted.add(counter)
        self._dirty[entry.listing_id] = entry

    # ------------------------------------------------------------ counters (kept in memory, the same in both views)
    #
    # A withdrawn or voided vote is each view's own (the trending sum is recounted in SQL, and the listing view
    # patches its document's counters).

    @handles(VoteCast)
    def _vote(self, cur: Cursor[Any], t: Tables, e: VoteCast) -> None:
        self._cast(cur, t, e.listing_id, e.account_id, trend_exponent(e.timestamp))

    @handles(VoteRestored)  # staff restored a voided vote: counted again, weighed by its own time
    def _restored(self, cur: Cursor[Any], t: Tables, e: VoteRestored) -> None:
        self._cast(cur, t, e.listing_id, e.account_id, trend_exponent(e.cast_at))

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
            self._count(entry, "votes")

    @handles(ListingFollowed, ListingUnfollowed)
    def _follow(self, cur: Cursor[Any], t: Tables, e: ListingFollowed | ListingUnfollowed) -> None:
        entry = self._entry(cur, t, listing_id=e.listing_id)
        if entry is not None:
            step = 1 if isinstance(e, ListingFollowed) else -1
            entry.counters["followers"] = max(entry.counters["followers"] + step, 0)
            self._count(entry, "followers")

    @handles(ListingViewsCounted)
    def _views(self, cur: Cursor[Any], t: Tables, e: ListingViewsCounted) -> None:
        pairs = [(int(k), int(v)) for k, v in e.counts.items() if str(k).isdigit() and int(v) > 0]
        self._load(cur, t, ids=[p[0] for p in pairs])
        for listing_id, n in pairs:
            entry = self._entry(cur, t, listing_id=listing_id)
            if entry is not None:
                entry.counters["views"] += n
                self._count(entry, "views")

    # ------------------------------------------------------------ the batch

    def apply(self, cur: Cursor[Any], t: Tables, event: Any, position: int = 0, checked: bool = False) -> None:
        """One event; every `flush_every` events of a batch, the entries kept so far are written.

        The batch's statements are pipelined: PostgreSQL writes the rows
        (text vectors, documents, indexes) while the next events are applied
        in Python, instead of all of them after the last event. A listing
        changed again after it was written is written again at the next flush.
        """
        super().apply(cur, t, event, position, checked)
        self._batch(cur)
        self._since_flush += 1
        if self._since_flush >= self.flush_every:
            self.flush(cur, t)

    def _batch(self, cur: Cursor[Any]) -> None:
        if self._batch_cursor is not cur:
            self._batch_cursor, self._kept, self._dirty, self._streams, self._absent = cur, {}, {}, {}, set()
            self._votes, self._new_votes = {}, []
            self._since_flush = 0
            self._reset()

    def prepare(self, cur: Cursor[Any], t: Tables, events: Sequence[Any]) -> None:
        """Read the entries of the listings the batch's events name, and whether their voters voted: three statements.

        Only listings that can have rows are looked for. A listing created in
        the batch is named by its id, not by its stream, and an id above the
        highest the table holds has no row: in a catch-up, where nearly every
        listing a batch names is created in it, looking each up by id and by
        stream found 57 of 200,000 and was an eighth of `search_view`'s time
        (docs/performance.md, "Looking up only listings that can exist").
        """
        self._batch(cur)
        created = {e.originator_id: e.listing_id for e in events if isinstance(e, ListingCreated)}
        ids: set[int] = set()
        state_ids: set[int] = set()
        streams: set[UUID] = set()
        pairs: set[tuple[int, str]] = set()
        for e in events:
            kind = type(e)
            if kind in self.by_stream:
                stream = e.originator_id
                if stream not in created:
                    streams.add(stream)
                elif self.read_created:  # its row, if it has one, is the created listing's
                    state_ids.add(created[stream])
            elif kind in self.by_listing:
                state_ids.add(e.listing_id)
            elif kind in COUNTED:
                ids.add(e.listing_id)
                if kind in CAST and isinstance(e.account_id, str) and is_clean(e.account_id):
                    pairs.add((e.listing_id, e.account_id))
            elif kind is ListingViewsCounted:
                ids.update(int(k) for k in e.counts if str(k).isdigit())
        ids |= state_ids
        ids = ids | set(created.values()) if self.read_created else ids - set(created.values())
        if self.read_created and created:  # only what the batch creates is usually above every row (a catch-up)
            highest = self._highest(cur, t)
            beyond = {i for i in created.values() if highest is None or i > highest}
            self._absent |= beyond
            self._absent.update(s for s, i in created.items() if i in beyond)
            ids -= beyond
        self._load(cur, t, ids=ids, streams=streams, state_ids=state_ids, state_streams=streams)
        wanted = [p for p in pairs if p not in self._votes]
        found = voted(cur, t, wanted)
        self._votes.update((p, p in found) for p in wanted)

    def _highest(self, cur: Cursor[Any], t: Tables) -> int | None:
        """The highest listing id with an entry's rows (None: none yet)."""
        row = cur.execute(f"SELECT max(listing_id) FROM {t[self.keyed_by]}").fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def _load(self, cur: Cursor[Any], t: Tables, ids: Iterable[int] = (), streams: Iterable[UUID] = (),
              state_ids: Iterable[int] = (), state_streams: Iterable[UUID] = ()) -> None:
        """Read, in one statement, the entries of these listings the batch has not read yet."""
        self._batch(cur)
        ids = {i for i in ids if i not in self._kept and i not in self._absent}
        streams = {s for s in streams if s not in self._streams and s not in self._absent}
        if not ids and not streams:
            return
        for entry in self._read(cur, t, ids, streams, state_ids, state_streams):
            if entry.listing_id not in self._kept:
                self._keep(entry)
        self._absent.update(i for i in ids if i not in self._kept)
        self._absent.update(s for s in streams if s not in self._streams)

    def _keep(self, entry: E) -> None:
        """Keep a new entry for the batch (read, or made by the creation handler)."""
        self._kept[entry.listing_id] = entry
        self._streams[entry.stream_id] = entry.listing_id
        self._absent.difference_update((entry.listing_id, entry.stream_id))

    def _entry(self, cur: Cursor[Any], t: Tables, *, stream: UUID | None = None, listing_id: int | None = None,
               state: bool = False) -> E | None:
        """The listing's entry, with its state when `state` (None for a listing this generation never saw created)."""
        self._batch(cur)
        found = listing_id
        if stream is not None:
            found = self._streams.get(stream)
            if found is None and stream not in self._absent:
                self._load(cur, t, streams=[stream], state_streams=[stream] if state else [])
                found = self._streams.get(stream)
        elif listing_id is not None and listing_id not in self._kept and listing_id not in self._absent:
            self._load(cur, t, ids=[listing_id], state_ids=[listing_id] if state else [])
        entry: E | None = self._kept.get(found) if found is not None else None
        if entry is not None and state and entry.state is None:
            self._read_state(cur, t, entry)
        return entry

    def _voted(self, cur: Cursor[Any], t: Tables, listing_id: int, account_id: str) -> bool:
        """Whether the account's vote for the listing is counted (read once per batch, then kept)."""
        self._batch(cur)
        pair = (listing_id, account_id)
        if pair not in self._votes:
            self._votes[pair] = pair in voted(cur, t, [pair])
        return self._votes[pair]

    def _forget(self, cur: Cursor[Any], t: Tables, listing_id: int) -> None:
        """The listing's counters are about to change in SQL: write what was kept, and read its entry again if needed."""
        self.flush(cur, t)
        entry = self._kept.pop(listing_id, None)
        if entry is not None:
            self._streams.pop(entry.stream_id, None)

    def _change(self, cur: Cursor[Any], t: Tables, mutate: Callable[[dict[str, Any]], Any], *,
                stream: UUID | None = None, listing_id: int | None = None) -> E | None:
        """Apply `mutate` to the listing's state, kept for `flush` (nothing for a listing never created)."""
        entry = self._entry(cur, t, stream=stream, listing_id=listing_id, state=True)
        if entry is None:
            return None
        assert entry.state is not None
        mutate(entry.state)
        self._changed(entry)
        return entry

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write every entry the batch changed and its new votes: one statement per table."""
        self._batch(cur)
        self._since_flush = 0
        dirty = list(self._dirty.values())  # each was marked by `_changed` or `_count`
        if not dirty and not self._new_votes and not self._unwritten():
            return
        self._write(cur, t, dirty)
        for entry in dirty:
            entry.written()
        self._dirty, self._new_votes = {}, []
