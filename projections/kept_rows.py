"""A batch's new listing rows kept on a projection until its `flush`: one statement for a batch's creations.

A catch-up over a directory's history is mostly listings created and put
live, a few events each. A projection that keeps the rows its batch creates
changes them in memory through the events listed in `kept_events` and
writes them at `flush`; any other event writes them first, so its statement
finds the row it changes (docs/projections.md). The memory belongs to the
batch's cursor (one transaction): a new cursor forgets it, so nothing kept
outlives a rollback; `projections/batches.py` applies one batch at a time per
projection object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar
from uuid import UUID

from psycopg import Cursor

from projections.base import Tables

if TYPE_CHECKING:  # a mixin of projections: checked as one, a plain class at run time
    from projections.base import Projection as _Base
else:
    _Base = object

Row = dict[str, Any]


class KeptRows(_Base):
    """Mixed into a projection before `Projection`: `class V(KeptRows, Projection)`."""

    kept_events: ClassVar[frozenset[type[Any]]] = frozenset()
    """Events whose handlers change kept rows in memory (and write in SQL the rows not kept)."""

    _batch_cursor: Any = None
    _pending: dict[UUID, Row] = {}  # stream id -> the row kept back
    _ids: dict[int, Row] = {}  # listing id -> the same rows

    def _batch(self, cur: Cursor[Any]) -> dict[UUID, Row]:
        """The rows kept in this batch (forgotten, with `_new_batch`, when the cursor is another)."""
        if self._batch_cursor is not cur:
            self._batch_cursor, self._pending, self._ids = cur, {}, {}
            self._new_batch()
        return self._pending

    def _new_batch(self) -> None:
        """Forget what else the projection keeps for a batch."""

    def _keep(self, cur: Cursor[Any], stream: UUID, listing_id: int, row: Row) -> bool:
        """Keep a new row; False when its stream or id is already kept (created twice: write it as it comes)."""
        kept = self._batch(cur)
        if stream in kept or listing_id in self._ids:
            return False
        kept[stream] = self._ids[listing_id] = row
        return True

    def _kept(self, cur: Cursor[Any], stream: UUID, **changes: Any) -> bool:
        """Change the kept-back row of `stream` in memory; False when it is not kept back (write it in SQL)."""
        row = self._batch(cur).get(stream)
        if row is not None:
            row.update(changes)
        return row is not None

    def _keeps_any(self) -> bool:
        """Whether anything is kept for `flush` to write."""
        return bool(self._pending)

    def _taken(self) -> list[Row]:
        """The kept rows, forgotten (for `flush`)."""
        rows = list(self._pending.values())
        self._pending, self._ids = {}, {}
        return rows

    def apply(self, cur: Cursor[Any], t: Tables, event: Any, position: int = 0, checked: bool = False) -> None:
        """As `Projection.apply`; an event not handled in memory first writes what is kept."""
        self._batch(cur)
        if type(event) not in self.kept_events and self._keeps_any():
            self.flush(cur, t)
        super().apply(cur, t, event, position, checked)
