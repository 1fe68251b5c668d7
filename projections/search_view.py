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
once at `flush` (`projections/search_rows.py`), with the listing view's batch
memory (`projections/listing_batch.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from psycopg import Cursor

from events.community import VoteWithdrawn
from events.listing import (
    ListingCreated,
    ListingEdited,
    ListingEditReverted,
    ListingLaunched,
    ListingPublishedByStaff,
    ListingQueuedForFree,
    ListingScheduled,
)
from events.votes import VoteVoided
from projections import listing_counters as counters
from projections import search_rows as rows
from projections import search_tables as tables
from projections.base import Tables, handles
from projections.listing_batch import ListingBatch
from projections.listing_status import STATUS_AFTER, STATUS_EVENTS

NAME = "search_view"
MAX_KNOWN_WORDS = 1_000_000  # vocabulary words remembered as committed (tens of MiB at most)


class SearchView(ListingBatch[rows.Entry]):
    name = NAME
    tables = ("search", "sources", "votes", "words")
    keyed_by = "sources"  # `_read` finds entries there by listing id and stream
    catch_up_batch = 10_000  # fewer batch boundaries, where PostgreSQL waits for Python (docs/performance.md)
    deferred_btrees = ("search", "words")  # sort orders, the words' prefixes: handlers read by listing id and word only
    by_stream = frozenset({ListingEdited, ListingEditReverted, *STATUS_EVENTS})  # they change the state
    read_created = True  # a listing created twice keeps its first creation

    def __init__(self) -> None:
        self._words_known: dict[int, set[str]] = {}  # words table (object id) -> words committed there

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        tables.create(cur, t)

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        tables.upgrade(cur, t)

    # ------------------------------------------------------------ content and status

    @handles(ListingCreated)
    def _created(self, cur: Cursor[Any], t: Tables, e: ListingCreated) -> None:
        if self._entry(cur, t, listing_id=e.listing_id) is not None:
            return  # created twice: the first creation stands, as the listing view's rows do
        source = rows.source_of(e.profile, e.socials)
        entry = rows.Entry(e.listing_id, e.originator_id, source | {
            "status": "draft", "week": None, "listed_at": None, "launched_at": None,
            "categories": list(e.categories)}, rows.zero_counters(), new=True)
        self._keep(entry)
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

        entry = self._change(cur, t, edit, stream=e.originator_id)
        if entry is not None:
            entry.source = True  # what `sources` keeps changed too, not only the search row (as a status does)

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

    @handles(VoteWithdrawn, VoteVoided)  # a voided vote is out of the count, like a withdrawn one
    def _unvote(self, cur: Cursor[Any], t: Tables, e: VoteWithdrawn | VoteVoided) -> None:
        """In SQL: the trending log-sum is recomputed from the listing's remaining votes."""
        self._forget(cur, t, e.listing_id)
        self._votes[(e.listing_id, e.account_id)] = False
        counters.withdraw_vote(cur, t, e.listing_id, e.account_id, counted="search")

    # ------------------------------------------------------------ batch memory (`projections/listing_batch.py`)

    _words: list[str] = []  # the batch's new words, written at `flush`
    _words_seen: set[str] = set()
    _words_sent: list[str] = []  # the words the batch's flushes sent: known to be in the table once it commits
    _words_table: int | None = None  # the batch's words table, by object id (a table made again is another table)

    def _read(self, cur: Cursor[Any], t: Tables, ids: Iterable[int], streams: Iterable[UUID],
              state_ids: Iterable[int], state_streams: Iterable[UUID]) -> list[rows.Entry]:
        return rows.read(cur, t, ids, streams, state_ids, state_streams)

    def _read_state(self, cur: Cursor[Any], t: Tables, entry: rows.Entry) -> None:
        rows.read_state(cur, t, entry)

    def _reset(self) -> None:
        self._words, self._words_seen, self._words_sent, self._words_table = [], set(), [], None

    def _unwritten(self) -> bool:
        return bool(self._words)

    def _changed(self, entry: rows.Entry) -> None:
        """The entry's state changed: rewritten at `flush`, its new words added to the vocabulary then."""
        super()._changed(entry)
        new = entry.changed(self._words_seen)  # the order does not matter: the table keeps each word once
        if new:
            self._words_seen |= new
            self._words += new

    def _write(self, cur: Cursor[Any], t: Tables, dirty: list[rows.Entry]) -> None:
        if self._words_table is None:
            (self._words_table,) = cur.execute("SELECT %s::regclass::oid::int", (t["words"],)).fetchone()  # type: ignore[misc]
        known = self._words_known.get(self._words_table, set())
        words = [w for w in self._words if w not in known]  # what earlier batches committed is not sent again
        rows.write(cur, t, dirty, self._new_votes, words)
        self._words_sent += words
        self._words = []

    def committed(self, t: Tables) -> None:
        """The batch's words are in the vocabulary for good: later batches need not send them again.

        Each batch used to send every word of the listings it wrote that it
        had not sent itself (an insert that finds the word changes nothing):
        235,161 words over the 100,000-listing history for 101,441 distinct
        ones (docs/performance.md, "Sort indexes built after the catch-up").
        Only a committed batch's words are kept, so a rolled-back one cannot
        leave a word out of the table.
        """
        if self._words_table is None:
            return  # nothing written
        known = self._words_known.setdefault(self._words_table, set())
        if len(known) + len(self._words_sent) > MAX_KNOWN_WORDS:
            known.clear()  # bounded memory: forgetting only means sending a word again
        known.update(self._words_sent)
        self._words_sent = []
