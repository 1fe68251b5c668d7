"""search_listings on PostgreSQL at scale settings: capped counts, both read plans, the name cap, corrections.

The caps that matter at 100,000 listings are lowered here so a small directory
takes every path: the estimated total, walking an order's index instead of
sorting, and scoring only the shortest name matches. Whatever the path, paging
must list every match exactly once, in one order.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from commands import community
from commands import listing as listing_cmd
from queries import listings as listings_q
from queries.search_postgres import PostgresSearch
from queries.search_words import AFFIX_MIN, _by_halves, _by_variants, correct, one_edit_variants
from tests.integration.test_listing_view import AT, META, sync

NOUNS = ["Editor", "Tracker", "Planner", "Notes"]


@pytest.fixture
def crowd(container):  # type: ignore[no-untyped-def]
    """60 live listings: names with common nouns of different lengths, shared tagline and description words."""
    rng = random.Random(3)
    cmds = []
    for i in range(60):
        noun = NOUNS[i % len(NOUNS)]
        prefix = "".join(rng.choice("bcdfgklmnprstvz") + rng.choice("aeiou") for _ in range(1 + i % 4))
        cmds.append(listing_cmd.CreateListing(
            profile={"name": f"{prefix.capitalize()} {noun}", "tagline": f"The {noun.lower()} for busy teams",
                     "description": "Collaborative workspace. " + ("Private by design. " if i % 3 == 0 else ""),
                     "website_url": f"https://site{i}.example", "keywords": ["productivity"]},
            categories=["productivity"]))
    cmds.append(listing_cmd.CreateListing(profile={"name": "Editor", "tagline": "Just an editor",
                                                   "website_url": "https://editor.example"},
                                          categories=["productivity"]))
    cmds.append(listing_cmd.CreateListing(profile={"name": "Slack", "tagline": "Team chat",
                                                   "website_url": "https://slack.example"},
                                          categories=["productivity"]))
    cmds.append(listing_cmd.CreateListing(profile={"name": "Mailfox", "tagline": "Email campaigns that land",
                                                   "website_url": "https://mailfox.example"},
                                          categories=["marketing"]))
    created = listing_cmd.create_listings_batch(container.store, cmds, META, publish_week="2026-11-16")
    for n, made in enumerate(created[:40]):
        for voter in range(n % 5):
            community.cast_vote(container.store, made.listing_id, f"voter-{n}-{voter}", META)
    sync(container)
    return container


def page(c: Any, backend: PostgresSearch, **params: Any) -> dict[str, Any]:
    out = listings_q.search_listings(c.services.reads, backend, listings_q.SearchListings(**params), AT.date())
    listings_q.ListingSearchPage.model_validate(out)
    return out


def all_pages(c: Any, backend: PostgresSearch, per_page: int, **params: Any) -> list[str]:
    """Every slug, page by page, following has_more."""
    slugs: list[str] = []
    for number in range(1, 100):
        out = page(c, backend, page=number, per_page=per_page, **params)
        slugs += [i["slug"] for i in out["items"]]
        if not out["has_more"]:
            return slugs
    raise AssertionError("has_more never turned false")


QUERIES = [{"q": "editr"}, {"q": "collaborative"}, {"q": "workspace private"}, {"q": "teams"},
           {"q": "busy teams", "sort": "votes"}, {"q": "planner", "sort": "newest"}, {"q": "notes", "sort": "trending"},
           {}, {"sort": "most_viewed"}, {"category": "productivity", "sort": "most_followed"}]


@pytest.mark.parametrize("params", QUERIES)
def test_both_read_plans_give_the_same_pages(crowd, params) -> None:  # type: ignore[no-untyped-def]
    reads = crowd.services.reads
    walked = all_pages(crowd, PostgresSearch(reads, plan_cap=0), 7, **params)  # always walk the order's index
    sorted_ = all_pages(crowd, PostgresSearch(reads, plan_cap=10**9), 7, **params)  # always read and sort
    assert walked == sorted_ and len(walked) == len(set(walked)) and walked


@pytest.mark.parametrize("params", QUERIES)
def test_a_capped_count_estimates_the_total_and_paging_still_ends(crowd, params) -> None:  # type: ignore[no-untyped-def]
    reads = crowd.services.reads
    exact = page(crowd, PostgresSearch(reads), per_page=100, **params)
    assert exact["total_exact"] is True and exact["total"] == len(exact["items"]) > 5
    capped = PostgresSearch(reads, total_cap=5)
    first = page(crowd, capped, per_page=3, **params)
    assert first["total_exact"] is False and first["total"] >= 6 and first["has_more"] is True
    # Paging by has_more lists every match once, in the order the exact count gives.
    assert all_pages(crowd, capped, 4, **params) == [i["slug"] for i in exact["items"]]


def test_estimated_total_is_close_to_the_real_one(crowd) -> None:  # type: ignore[no-untyped-def]
    reads = crowd.services.reads
    real = page(crowd, PostgresSearch(reads), q="teams")["total"]  # every crowd listing's tagline
    estimate = page(crowd, PostgresSearch(reads, total_cap=20), q="teams")["total"]
    assert real >= 60 and real / 2 <= estimate <= real * 2


def test_only_the_shortest_names_are_scored_and_the_rest_still_follow(crowd) -> None:  # type: ignore[no-untyped-def]
    reads = crowd.services.reads
    full = all_pages(crowd, PostgresSearch(reads), 10, q="editor")
    capped = all_pages(crowd, PostgresSearch(reads, name_cap=3), 10, q="editor")
    assert full[0] == capped[0] == "editor"  # the exact name first either way
    assert sorted(full) == sorted(capped) and len(capped) == len(set(capped))  # nobody lost or repeated
    names = {i["slug"]: i["name"] for i in page(crowd, PostgresSearch(reads), q="editor", per_page=100)["items"]}
    scored = capped[:3]
    longest_scored = max(len(names[s]) for s in scored)
    assert all(len(names[s]) >= longest_scored for s in capped[3:] if "Editor" in names[s])


def test_one_edit_corrections_and_completions(crowd) -> None:  # type: ignore[no-untyped-def]
    reads = crowd.services.reads
    slak, emial = correct(reads, ["slak", "emial"])
    assert slak.words == ("slack",) and emial.words == ("email",)  # dropped letter, swapped letters
    (partial,) = correct(reads, ["mailf"])
    assert "mailfox" in partial.completions  # type-ahead on the last word
    backend = PostgresSearch(reads)
    assert [i["slug"] for i in page(crowd, backend, q="slak")["items"]] == ["slack"]
    assert [i["slug"] for i in page(crowd, backend, q="emial campaigns")["items"]] == ["mailfox"]
    assert [i["slug"] for i in page(crowd, backend, q="mailf")["items"]] == ["mailfox"]


def test_one_edit_by_halves_finds_what_the_variants_find(crowd) -> None:  # type: ignore[no-untyped-def]
    """Every kind of edit at every position of long vocabulary words, and tokens two edits away: same answers."""
    reads = crowd.services.reads
    words = reads.tables("search_view")["words"]
    with crowd.pool.connection() as conn:
        vocabulary = [r[0] for r in conn.execute(f"SELECT word FROM {words} WHERE length(word) >= %s ORDER BY word",
                                                 (AFFIX_MIN - 1,)).fetchall()]
        assert len(vocabulary) >= 10
        rng = random.Random(7)
        tokens = {v for word in vocabulary[:12] for v in one_edit_variants(word)
                  if len(v) >= AFFIX_MIN and (v[0] in word[:2] or v[-1] in word[-2:] or rng.random() < 0.05)}
        tokens |= {word[:2] + word[3:-2] + "q" + word[-1] for word in vocabulary}  # two edits: nothing, or others
        tokens -= set(vocabulary)
        found = 0
        for tok in sorted(tokens):
            expected = _by_variants(reads, conn, tok)
            assert _by_halves(reads, conn, tok) == expected, tok
            found += bool(expected)
    assert found > len(tokens) // 2  # most of them are one edit from a vocabulary word


def test_one_edit_variants() -> None:
    variants = one_edit_variants("ab")
    assert {"a", "b", "ba", "xab", "axb", "abx", "xb", "ax"} <= variants and "ab" not in variants
    assert all(abs(len(v) - 2) <= 1 for v in variants)


def test_many_concurrent_searches_share_a_small_pool(crowd) -> None:  # type: ignore[no-untyped-def]
    """Each search holds one pooled connection at a time, so a pool smaller than the threads only queues them."""
    from concurrent.futures import ThreadPoolExecutor

    from psycopg_pool import ConnectionPool

    from projections.reads import ReadStore

    with ConnectionPool(crowd.conninfo, min_size=1, max_size=2, timeout=20, open=True) as pool:
        reads = ReadStore(pool, crowd.runtime)
        backend = PostgresSearch(reads)
        expected = [i["slug"] for i in page(crowd, PostgresSearch(crowd.services.reads), q="editr")["items"]]

        def one(_: int) -> list[str]:
            out = listings_q.search_listings(reads, backend, listings_q.SearchListings(q="editr"), AT.date())
            return [i["slug"] for i in out["items"]]

        with ThreadPoolExecutor(max_workers=16) as threads:
            results = list(threads.map(one, range(64)))
    assert results == [expected] * 64


def test_start_up_adds_the_completions_index_to_an_older_generation(container) -> None:  # type: ignore[no-untyped-def]
    words = container.runtime.tables("search_view")["words"]
    index = f"{words}_prefix"
    with container.pool.connection() as conn:
        conn.execute(f"DROP INDEX {index}")  # a generation made before the index existed
    container.runtime.setup()  # what every start does
    with container.pool.connection() as conn:
        found = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", (index,)).fetchone()
    assert found is not None and "text_pattern_ops" in found[0]
