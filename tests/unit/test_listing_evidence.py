"""Evidence of drafted values: kept from creation, dropped with an edit of its field, set again by the draft,
and only for public fields in the public document."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import reduce
from typing import Any

from aggregates import listing
from aggregates.base import Meta
from events.listing import ListingEvidenceSet
from projections import listing_docs as docs

AT = datetime(2026, 11, 23, 12, tzinfo=timezone.utc)
META = Meta(at=AT, actor="account:a", channel="rest", via="api_key:k1")
QUOTES = {"tagline": [{"url": "https://acme.example/", "quote": "Invoices in a minute"}],
          "contact_email": [{"url": "https://acme.example/contact", "quote": "hello@acme.example"}]}


def created() -> tuple[listing.ListingState, Any]:
    state = listing.initial(listing.listing_stream(3))
    events = listing.decide_create(state, listing_id=3, slug="acme", owner_ids=["a"], source="draft", draft_id="d",
                                   profile={"name": "Acme", "tagline": "Invoices in a minute",
                                            "contact_email": "hello@acme.example"},
                                   categories=["analytics"], evidence=QUOTES, meta=META)
    return reduce(lambda s, e: listing.evolve(e, s), events, state), events[0]


def test_an_edit_drops_the_evidence_of_its_fields_only() -> None:
    state, _ = created()
    assert state.evidence == QUOTES
    edited = reduce(lambda s, e: listing.evolve(e, s), listing.decide_edit(state, {"tagline": "Our words"}, META), state)
    assert set(edited.evidence) == {"contact_email"}


def test_the_draft_sets_evidence_again_and_the_same_evidence_changes_nothing() -> None:
    state, _ = created()
    assert listing.decide_set_evidence(state, QUOTES, META) == []
    [event] = listing.decide_set_evidence(state, {"tagline": QUOTES["tagline"], "city": QUOTES["tagline"]}, META)
    assert isinstance(event, ListingEvidenceSet) and set(event.evidence) == {"tagline"}  # city: not a listing field


def test_the_public_document_shows_evidence_of_public_fields_only() -> None:
    _, event = created()
    state = docs.new_state(event)
    assert docs.evidence_doc(state) == {"tagline": QUOTES["tagline"]}
    docs.apply_edit(state, {"tagline": "Our words"})
    assert docs.evidence_doc(state) == {}
