"""People's reviews through the commands and the projections: the genuine-only rating, edits, hiding, the texts."""

from __future__ import annotations

from typing import Any

import pytest

from commands import community, reviews
from events.errors import Conflict
from queries import reviews as reviews_q
from queries.paging import Paging
from tests.integration.test_listing_updates import _listing, _meta, _person
from tests.integration.test_listing_view import profile

TEXT = "Does exactly what the page says, and the setup took five minutes."
VIEWS = ("listing_view", "launches_view", "reviews_view", "updates_view", "accounts_view")


def sync(c: Any) -> None:
    for name in VIEWS:
        c.runtime.catch_up(name)


def rating(c: Any, slug: str) -> dict[str, Any]:
    sync(c)
    return dict(profile(c, slug)["community"]["rating"])


def test_reviews_count_at_once_edits_replace_and_hidden_ones_stop_counting(container) -> None:  # type: ignore[no-untyped-def]
    owner, _ = _person(container)
    listing_id, slug = _listing(container, "Reviewed Thing", owner)
    a, _ = _person(container)
    b, _ = _person(container)
    first, _ = reviews.write_review(container.store, listing_id, a, 5, TEXT, _meta(f"account:{a}"))
    reviews.write_review(container.store, listing_id, b, "3", TEXT + " Support answered.", _meta(f"account:{b}"))
    assert rating(container, slug) == {"average": 4.0, "count": 2}

    again, _ = reviews.write_review(container.store, listing_id, a, 1, "Changed my mind after a month of use.", _meta(f"account:{a}"))
    assert again == first  # one review per person and listing
    assert rating(container, slug) == {"average": 2.0, "count": 2}
    shown = reviews_q.listing_reviews(container.services.reads, listing_id, Paging())
    assert [r["rating"] for r in shown["items"]] == [3, 1] and shown["total"] == 2  # newest written first
    assert shown["items"][1]["edited_at"] is not None

    reviews.hide_review(container.store, first, "Written about another product", _meta("staff:ops@example.com"))
    assert rating(container, slug) == {"average": 3.0, "count": 1}
    assert [r["rating"] for r in reviews_q.listing_reviews(container.services.reads, listing_id, Paging())["items"]] == [3]
    staff = reviews_q.staff_reviews(container.services.reads, "hidden", Paging())
    [hidden] = staff["items"]
    assert (hidden["review_id"], hidden["hidden_reason"], hidden["slug"]) == (first, "Written about another product", slug)
    assert hidden["hidden_by"] == "staff:ops@example.com" and hidden["email"]

    reviews.restore_review(container.store, first, _meta("staff:ops@example.com"))
    assert rating(container, slug) == {"average": 2.0, "count": 2}


def test_owners_cannot_review_and_older_reviews_still_wait_for_moderation(container) -> None:  # type: ignore[no-untyped-def]
    owner, _ = _person(container)
    listing_id, slug = _listing(container, "Owned Thing", owner)
    with pytest.raises(Conflict, match="own listing"):
        reviews.write_review(container.store, listing_id, owner, 5, TEXT, _meta(f"account:{owner}"))
    older, _ = community.write_review(container.store, listing_id, "imported-1", 4, "fine", _meta())
    assert rating(container, slug) == {"average": None, "count": 0}
    community.moderate_review(container.store, older, "approved", _meta())
    assert rating(container, slug) == {"average": 4.0, "count": 1}
    reviews.hide_review(container.store, older, "Spam from a bot farm", _meta())
    community.moderate_review(container.store, older, "approved", _meta())  # moderation does not un-hide
    assert rating(container, slug) == {"average": None, "count": 0}
