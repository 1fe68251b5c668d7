"""What the listing page and the review form show of reviews, shared by both page modules (which never import each other).

A page of shown review texts (genuine, not hidden; newest first, 10 a page),
the signed-in person's own review (to edit) and whether they own the listing
(owners get a note instead of the form), and the text bounds the form states.
"""

from __future__ import annotations

from typing import Any

from aggregates import reviews as review_rules
from projections.reads import ReadStore
from queries import reviews as reviews_q
from queries.paging import Paging

RULES = {"text_min": review_rules.TEXT_MIN, "text_max": review_rules.TEXT_MAX}
PER_PAGE = 10


def review_section(reads: ReadStore, listing_id: int, account_id: str | None, page: int) -> dict[str, Any]:
    paging = Paging(page=min(max(page, 1), 1000), per_page=PER_PAGE)
    return {
        "reviews": reviews_q.listing_reviews(reads, listing_id, paging),
        "my_review": reviews_q.my_review(reads, listing_id, account_id) if account_id else None,
        "owns": reviews_q.owns_listing(reads, listing_id, account_id) if account_id else False,
        "review_rules": RULES,
    }
