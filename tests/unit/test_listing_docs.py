"""Pure rules of the listing read side: documents, paid sections, DR trend, revenue, trending, search text."""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from datetime import date, datetime, timedelta, timezone
from types import SimpleNamespace
from urllib.parse import urlsplit
from uuid import uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections import listing_docs as docs
from projections.listing_cards import domain_of, fold, key_of, word_set, words_of
from queries.search import Correction, SearchRequest, tokens_of
from queries.search_elasticsearch import ElasticsearchSearch
from queries.search_words import any_tsquery_text, tsquery_text
from workers.views import ViewCounter

AT = datetime(2026, 11, 18, 12, tzinfo=timezone.utc)


def _state(**profile: object) -> dict[str, object]:
    created = SimpleNamespace(
        listing_id=7, slug="acme", originator_id=uuid4(), profile={"name": "Acme", **profile}, categories=["design"],
        socials={}, faqs=[], founders=[], story={"title": "Why"}, milestones=[{"milestone_id": 1, "date": "2025-01-01",
                                                                                  "title": "Beta"}],
        not_found_on_website=[], owner_ids=["acct-1"], timestamp=AT,
    )
    return docs.new_state(created)


def test_paid_sections_are_hidden_until_unlocked_or_paid() -> None:
    state = _state(media=["https://cdn.example/a.png"])
    assert not {"story", "milestones", "media"} & set(docs.public_doc(state, {}, {}))
    state["unlocked"] = ["milestones"]
    assert {"milestones"} == {"story", "milestones", "media"} & set(docs.public_doc(state, {}, {}))
    state["plan"] = "paid"
    doc = docs.public_doc(state, {}, {})
    assert doc["story"] == {"title": "Why"} and doc["media"][0]["url"] == "https://cdn.example/a.png"


def test_document_normalises_values_for_the_output_schema() -> None:
    state = _state(founded_year="2019", features="One feature", country="de", website_url="https://acme.example")
    doc = docs.public_doc(state, {"votes": 3, "rating_avg": 4.333, "rating_count": 3}, {"design": "Design"})
    assert doc["founded_year"] == 2019 and doc["features"] == ["One feature"]
    assert doc["community"] == {"votes": 3, "followers": 0, "views": 0, "rating": {"average": 4.33, "count": 3}}
    assert doc["categories"]["primary"] == {"slug": "design", "name": "Design"}
    assert doc["url"] == doc["links"]["website"] == "https://acme.example"
    assert "owner_ids" not in doc and doc["billboard"]["paid"] is True


def test_domain_rating_trend() -> None:
    points = [(date(2026, 1, 1), 10, "staff"), (date(2026, 3, 1), 15, "staff"), (date(2026, 3, 25), 12, "seo")]
    trend = docs.domain_rating_trend(points)
    assert trend is not None
    assert (trend["value"], trend["previous"], trend["change"], trend["trend"]) == (12, 15, -3, "down")
    assert trend["change_30d"] == 2  # value on or before 2026-02-23 is the one of 2026-01-01
    assert trend["change_90d"] is None and trend["source"] == "seo"
    assert docs.domain_rating_trend([]) is None
    single = docs.domain_rating_trend([(date(2026, 1, 1), 10, "staff")])
    assert single is not None and single["change"] is None and single["trend"] is None


def test_revenue_keeps_the_latest_period_and_labels_it() -> None:
    state = _state()
    docs.record_revenue(state, 100, "2026-05", "verified")
    docs.record_revenue(state, 50, "2026-04", "self_reported")
    assert state["revenue"] == {"amount_cents": 100, "period": "2026-05", "source": "verified", "label": "verified",
                                "verified": True}
    docs.record_revenue(state, 70, "2026-05", "self_reported")  # same period, later record replaces
    assert state["revenue"]["label"] == "self-reported"  # type: ignore[index]


def test_trending_score_is_the_decayed_vote_sum() -> None:
    votes = [AT - timedelta(hours=h) for h in (0, 10, 36, 72)]
    log2_sum = None
    for v in votes:
        x = docs.trend_exponent(v)
        log2_sum = x if log2_sum is None else max(log2_sum, x) + math.log2(1 + 2 ** -abs(log2_sum - x))
    for now in (AT, AT + timedelta(days=2)):
        expected = sum(0.5 ** ((now - v).total_seconds() / 3600 / docs.HALF_LIFE_HOURS) for v in votes)
        assert docs.trending_score(log2_sum, now) == pytest.approx(expected, rel=1e-12)
    assert docs.trending_score(None, AT) == 0.0
    assert docs.trending_score(docs.trend_exponent(AT), AT + timedelta(days=3650)) == 0.0  # underflow is 0


def test_attribute_values_for_comparison() -> None:
    doc = docs.public_doc(_state(pricing_model="Freemium", attributes={"open_source": True, "platforms": ["web", "ios"]}),
                          {}, {})
    assert docs.attribute_value(doc, "pricing_model") == "Freemium"
    assert docs.attribute_value(doc, "open_source") == "yes"
    assert docs.attribute_value(doc, "platforms") == "web, ios"
    assert docs.attribute_value(doc, "regions") is None


def test_filter_keys_domains_and_words() -> None:
    assert key_of("Open Beta") == "open-beta" and key_of("") is None
    assert domain_of("https://www.Notion.so/product") == "notion.so"
    assert domain_of("www.figma.com") == "figma.com" and domain_of(None) is None
    assert words_of("Café Notes, café NOTES!", "x") == ["cafe", "notes"]
    assert tokens_of("Notin  the WORKSPACE") == ["notin", "the", "workspace"]


def test_tsquery_text_keeps_the_typed_word_and_the_completions_of_the_last() -> None:
    corrections = (Correction("notin", ("notion", "noting")), Correction("calendar", ("calendar",), ("calendars",)))
    assert tsquery_text(corrections) == "(notin | notion | noting) & (calendar | calendars)"
    assert any_tsquery_text(corrections) == "notin | notion | noting | calendar | calendars"
    assert ":*" not in tsquery_text((Correction("noti", (), ("notion", "notify")),))  # no partial-match query
    assert SearchRequest(text="notin calendar", corrections=corrections).fuzzy is False  # the vocabulary helped
    assert SearchRequest(text="qqq", corrections=(Correction("qqq", ()),)).fuzzy is True  # it had nothing
    assert SearchRequest(text=None).order == "votes" and SearchRequest(text=None, status="upcoming").order == "soonest"


def test_elasticsearch_request_body() -> None:
    request = SearchRequest(text="figmaa", corrections=(Correction("figmaa", ("figma",)),), country="US",
                            categories=("design",), status="upcoming", this_week="2026-11-16", limit=5, offset=10)
    body = ElasticsearchSearch(reads=None, client=None, alias="x").body(request)  # type: ignore[arg-type]
    assert body["from_"] == 10 and body["size"] == 5 and body["track_total_hits"] is True
    filters = body["query"]["bool"]["filter"]
    assert {"term": {"country": "US"}} in filters and {"terms": {"categories": ["design"]}} in filters
    assert body["sort"][0] == {"_score": "desc"}
    assert "billboard" not in str(body)


def test_view_counter_is_thread_safe() -> None:
    counter = ViewCounter()

    def hit() -> None:
        for _ in range(10_000):
            counter.hit(1)

    threads = [threading.Thread(target=hit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.take() == {1: 80_000} and counter.take() == {}
    counter.put_back({2: 3})
    assert counter.pending() == 3


def test_folding_ascii_skips_the_normalisation_and_gives_what_it_gave() -> None:
    def normalised(text: str) -> str:
        return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()

    every_ascii = "".join(map(chr, range(128)))
    assert fold(every_ascii) == normalised(every_ascii)
    assert fold("Café Ünïcode ﬁne ½") == normalised("Café Ünïcode ﬁne ½") == "cafe unicode fine 12"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=80)
                | st.text(alphabet="aZ09 -_.,;:!?'\"\t\n\x00éÜﬁ½ß", max_size=80), min_size=1, max_size=3))
def test_words_are_the_runs_of_letters_and_digits_of_the_folded_texts(texts: list[str]) -> None:
    """The byte-table split gives what the regular expression gave: distinct runs of [a-z0-9], 2 to 40 long."""
    runs = re.findall(r"[a-z0-9]+", fold(" ".join(texts)))
    assert words_of(*texts) == [w for w in dict.fromkeys(runs) if 2 <= len(w) <= 40]
    assert word_set(*texts) == set(words_of(*texts))  # the vocabulary's, unordered


def test_the_vocabulary_leaves_out_single_letters_and_words_over_forty() -> None:
    assert word_set("a b1 c", "x" * 40, "y" * 41) == {"b1", "x" * 40}
    assert word_set("") == set() and word_set("é ü") == set()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab1 -é", max_size=60), min_size=1, max_size=3),
       st.sets(st.text(alphabet="ab1", max_size=4) | st.just("x" * 41)))
def test_the_vocabulary_leaves_out_the_words_known(texts: list[str], known: set[str]) -> None:
    assert word_set(*texts, known=known) == set(words_of(*texts)) - known
    assert word_set(*texts, "x" * 41, known=known) == set(words_of(*texts)) - known  # too long, known or not


def _domain_by_urlsplit(url: str) -> str | None:
    """What `domain_of` gave before its regular expression: `urlsplit` for every URL."""
    text = url.strip()
    text = text if "://" in text else "http://" + text
    try:
        host = urlsplit(text).hostname or ""
    except ValueError:
        return None
    return host.lower().rstrip(".").removeprefix("www.") or None


@settings(max_examples=1500, deadline=None)
@given(st.one_of(
    st.text(alphabet="hHtps:/wW.aZ09-@[]%?#\t\r\n :x", max_size=40),
    st.builds("".join, st.lists(st.sampled_from(
        ["http://", "https://", "HTTPS://", "ftp://", "www.", "WWW.", "a", "Z", "0", "-", ".", ":", ":80", "/",
         "?", "#", "@", "user@", "[::1]", "%", " ", "\t", "\n", "\x01", "é", "/p@th"]), max_size=10)),
))
def test_a_plain_url_gives_the_host_urlsplit_gives(url: str) -> None:
    assert domain_of(url) == (_domain_by_urlsplit(url) if url else None)


def test_filter_keys_are_the_same_when_remembered() -> None:
    """`key_of` remembers keys by text: asked again (or for an equal value of another type) it gives the same key."""
    for value in ("Open Beta", "  Free -- Trial ", "Öffentlich", "", "---", 42, 42.0):
        expected = re.sub(r"[^a-z0-9]+", "-", fold(str(value))).strip("-") or None
        assert key_of(value) == key_of(value) == expected
    assert key_of(None) is None
