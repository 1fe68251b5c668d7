"""Evidence of drafted values: kept from creation, dropped with an edit of its field, set again by the draft,
and only for public fields in the public document."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from functools import reduce
from typing import Any
from uuid import uuid4

from aggregates import listing
from aggregates.base import Meta
from aggregates.draft.state import DraftState, Slot
from aggregates.draft.to_listing import drafted_evidence
from aggregates.draft_listing import decide_create_from_draft, decide_sync
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


ITEMS = {"faqs.0": [{"url": "https://acme.example/faq", "quote": "Yes, it works offline."}],
         "founders.0": [{"url": "https://acme.example/about", "quote": "Ada Lee, founder"}],
         "socials.github": [{"url": "https://acme.example/", "quote": "https://github.example/acme"}]}


def with_items() -> listing.ListingState:
    state = listing.initial(listing.listing_stream(4))
    events = listing.decide_create(state, listing_id=4, slug="acme", owner_ids=["a"], source="draft", draft_id="d",
                                   profile={"name": "Acme", "tagline": "Invoices in a minute"}, categories=["analytics"],
                                   socials={"github": "https://github.example/acme"},
                                   faqs=[{"question": "Offline?", "answer": "Yes."}], founders=[{"name": "Ada Lee"}],
                                   evidence={**QUOTES, **ITEMS}, meta=META)
    return reduce(lambda s, e: listing.evolve(e, s), events, state)


def test_the_draft_sets_evidence_of_items_the_listing_holds_only() -> None:
    state = with_items()
    beyond = {"faqs.1": ITEMS["faqs.0"], "founders.x": ITEMS["founders.0"], "socials.x": ITEMS["socials.github"]}
    [event] = listing.decide_set_evidence(state, {**ITEMS, **beyond}, META)
    assert isinstance(event, ListingEvidenceSet) and event.evidence == ITEMS


def test_an_edit_of_a_section_drops_the_evidence_of_its_items_only() -> None:
    state = with_items()
    changes = {"faqs": [{"question": "Offline?", "answer": "Mostly."}], "socials": {"github": "https://github.example/a"}}
    edited = reduce(lambda s, e: listing.evolve(e, s), listing.decide_edit(state, changes, META), state)
    assert set(edited.evidence) == {"tagline", "contact_email", "founders.0"}


def test_the_public_document_shows_evidence_of_the_items_it_shows() -> None:
    state = with_items()
    _, event = created()
    doc_state = docs.new_state(event)
    doc_state.update(faqs=list(state.faqs), founders=list(state.founders), socials={"github": "", "x": "https://x.example/a"},
                     evidence={**state.evidence, "faqs.3": ITEMS["faqs.0"], "socials.x": ITEMS["socials.github"]})
    assert docs.evidence_doc(doc_state) == {"tagline": QUOTES["tagline"], "faqs.0": ITEMS["faqs.0"],
                                            "founders.0": ITEMS["founders.0"], "socials.x": ITEMS["socials.github"]}
    docs.apply_edit(doc_state, {"founders": [{"name": "Ada Lee"}]})
    assert set(docs.evidence_doc(doc_state)) == {"tagline", "faqs.0", "socials.x"}


def test_the_draft_gives_the_listing_evidence_of_items_still_as_drafted() -> None:
    site = {"url": "https://acme.example/faq", "quote": "Yes, it works offline.", "source": "text"}
    drafted = DraftState(id=uuid4(), version=3, slots={
        "faqs": Slot(value=[{"question": "Offline?", "answer": "Yes.", "evidence": [site]}], state="ai"),
        "founders": Slot(value=[{"name": "Ada Lee", "evidence": [site]}], state="edited"),
        "company_socials": Slot(value={"github": "https://github.example/acme"}, state="ai"),
    }, social_evidence={"github": (site,), "x": (site,)})
    quote = [{"url": site["url"], "quote": site["quote"]}]
    assert drafted_evidence(drafted, {}) == {"faqs.0": quote, "socials.github": quote}  # founders: a person's edit


def test_the_listing_follows_the_draft_and_an_edited_section_loses_its_items_evidence() -> None:
    site = {"url": "https://acme.example/faq", "quote": "Yes, it works offline.", "source": "text"}
    faq = {"question": "Offline?", "answer": "Yes.", "evidence": [site]}
    draft = DraftState(id=uuid4(), version=3, account_id="a", url="https://acme.example", status="ready", slots={
        "name": Slot(value="Acme", state="ai", evidence=(site,)), "categories": Slot(value=["analytics"], state="ai"),
        "faqs": Slot(value=[faq], state="ai")})
    fresh, slug = listing.initial(listing.listing_stream(5)), listing.SlugState(id=listing.slug_stream("acme"))
    created = decide_create_from_draft(draft, fresh, slug, listing_id=5, slug="acme", meta=META)
    state = reduce(lambda s, e: listing.evolve(e, s), [e for e in created if e.originator_id == fresh.id], fresh)
    assert set(state.evidence) == {"name", "faqs.0"}
    edited = replace(draft, slots={**draft.slots, "faqs": Slot(value=[{"question": "Offline?", "answer": "Mostly."}],
                                                                 state="edited")})
    moved = [e for e in decide_sync(state, edited, META) if e.originator_id == state.id]
    synced = reduce(lambda s, e: listing.evolve(e, s), moved, state)
    assert synced.faqs == ({"question": "Offline?", "answer": "Mostly."},) and set(synced.evidence) == {"name"}
