"""What a projection is: a name, the tables it owns, and one handler per event class.

Table names are versioned by generation (`<name>_g<n>_<table>`), so a rebuild
fills fresh tables while the old ones keep serving, then reads switch over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from eventsourcing.utils import get_topic
from psycopg import Cursor

from events.base import Event
from events.text import is_clean, storable_value

if TYPE_CHECKING:
    from projections.log import EventLog

Handler = Callable[..., None]  # (self, cur, tables, event), and the event's log position when `positioned`
H = TypeVar("H", bound=Handler)
NAME = re.compile(r"^[a-z][a-z0-9_]{0,40}$")


class Tables:
    """Physical names of a projection's tables for one generation."""

    def __init__(self, projection: str, generation: int, logical: tuple[str, ...]) -> None:
        self.generation = generation
        self._names = {t: f"{projection}_g{generation}_{t}" for t in logical}

    def __getitem__(self, logical: str) -> str:
        return self._names[logical]

    def all(self) -> list[str]:
        return list(self._names.values())


def handles(*event_classes: type[Event]) -> Callable[[H], H]:
    """Mark a method as the handler of these event classes."""

    def mark(fn: H) -> H:
        fn.__handles__ = event_classes  # type: ignore[attr-defined]
        return fn

    return mark


class Projection:
    """Subclass with `name`, `tables`, `create()` and `@handles` methods.

    Handlers receive an open cursor inside the batch transaction; they must
    only write this projection's tables. The runtime commits their writes
    together with the new tracking position.
    """

    name: ClassVar[str]
    tables: ClassVar[tuple[str, ...]]
    positioned: ClassVar[bool] = False
    """True when handlers also take the event's log position: `handler(self, cur, t, event, position)`."""
    shape: ClassVar[int] = 1
    """What the tables hold, as a number: bump it when that changes (a new field in a stored document, a new column
    filled from events); a deploy then rebuilds the projection by itself (`projections/reshape.py`). Additions that
    need no rebuild (an index) go in `upgrade` instead. Each generation records the shape it was created with."""
    catch_up_batch: ClassVar[int] = 5000
    """Events per transaction when catching up over a long log (a rebuild, a new projection): the per-batch
    work and the one-statement-per-table writes of `flush` are shared by that many. A projection may set it
    lower where a larger batch measured no faster (`listing_view`: shorter transactions, less memory)."""
    deferred_btrees: ClassVar[tuple[str, ...]] = ()
    """Tables whose non-unique b-tree indexes no handler reads by (only queries do): a catch-up from position 0 and
    a rebuild fill them without those indexes and build them at the end, as they do GIN indexes
    (`projections/deferred_indexes.py`)."""
    event_log: EventLog | None = None
    """The log the runtime reads, set by the runtime (None outside one). For handlers of rare events only: one that
    needs what earlier events of a stream said (a removed update's older ones, `listing_view`) reads them here."""
    _handlers: ClassVar[dict[type[Any], Handler]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "name"):
            return  # a base for projections (`projections/listing_batch.py`), not one itself
        if not NAME.match(cls.name):
            raise ValueError(f"bad projection name {cls.name!r}")
        cls._handlers = {}
        for klass in reversed(cls.__mro__):  # a base's handlers too (`projections/listing_batch.py`); the most
            for name, attr in vars(klass).items():  # derived class's handler of an event class wins
                for event_class in getattr(attr, "__handles__", ()):
                    cls._handlers[event_class] = getattr(cls, name)  # a subclass may override it by name

    @classmethod
    def topics(cls) -> tuple[str, ...]:
        """Stored topics this projection reads; the database filters the rest out."""
        return tuple(sorted(get_topic(c) for c in cls._handlers))

    def create(self, cur: Cursor[Any], t: Tables) -> None:
        """Create this generation's tables (and indexes)."""
        raise NotImplementedError

    def upgrade(self, cur: Cursor[Any], t: Tables) -> None:
        """Bring an existing generation up to what `create` makes now (idempotent; run at every start).

        For additions that need no rebuild, such as a new index: `projections.ddl.create_index`, which takes no lock
        when the index exists (a running projector writes these tables while another process starts).
        """

    def prepare(self, cur: Cursor[Any], t: Tables, events: Sequence[Any]) -> None:
        """Read ahead, in a few statements, the rows the handlers of a batch's events will need.

        Called once per batch, in its transaction, before the first event; the
        events are as stored (not yet made storable, see `apply`). Only a
        shortcut: handlers must still read what they miss, since a failed
        batch is applied event by event without it.
        """

    def flush(self, cur: Cursor[Any], t: Tables) -> None:
        """Write what the handlers kept back, before the batch's position is written (called once per batch).

        A projection whose handlers touch the same rows many times in a batch
        (a listing created, then published) can keep the rows in memory and
        write each once here. The runtime calls it in the batch's transaction,
        and after every event when it applies a failed batch event by event.
        """

    def committed(self, t: Tables) -> None:
        """The batch just applied to `t` is committed: what it wrote is there for good.

        Called after a whole batch's transaction commits, never after a batch
        applied event by event (whose savepoints may have undone some of it).
        A projection may remember here what it need not write again.
        """

    def apply(self, cur: Cursor[Any], t: Tables, event: Any, position: int = 0, checked: bool = False) -> None:
        """Dispatch one event to its handler, with every string in it storable.

        Events stored before the text rule reached every door may hold NUL or
        lone surrogates, which PostgreSQL refuses in `text` and `jsonb`. The
        handler sees a copy with those characters replaced by U+FFFD (the log
        keeps the original). A clean event is passed as it is, after a quick look
        (about 1.5 µs for a small one, tens for a listing's profile;
        docs/projections.md). `checked` says the stored JSON already showed it
        clean (`projections/decoding.py`), which skips the look.
        """
        handler = self._handlers.get(type(event))
        if handler is not None:
            if not checked and not all(map(_clean, vars(event).values())):  # copying costs more than looking
                event = storable_value(event)
            if self.positioned:
                handler(self, cur, t, event, position)
            else:
                handler(self, cur, t, event)


def _clean(value: Any) -> bool:
    """True when no string in a JSON-like value (keys included) breaks the text rule."""
    if isinstance(value, str):
        return is_clean(value)
    if isinstance(value, dict):
        return all(_clean(k) and _clean(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(map(_clean, value))
    return True
