"""People's reviews through the commands and the projections: the genuine-only rating, edits, hiding, the texts."""

from __future__ import annotations

import json
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


def test_staff_list_hide_and_restore_reviews_from_the_command_line(container) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from launchdir.cli import main

    owner, _ = _person(container)
    listing_id, slug = _listing(container, "Cli Reviewed", owner)
    author, email = _person(container)
    review_id, _ = reviews.write_review(container.store, listing_id, author, 2, TEXT, _meta(f"account:{author}"))
    sync(container)
    runner = CliRunner()  # the container handed to the command (click obj) is used as it is

    listed = runner.invoke(main, ["staff", "reviews", "list", "--state", "approved"], obj=container)
    assert listed.exit_code == 0, listed.output
    assert review_id in listed.output and email in listed.output and slug in listed.output
    short = runner.invoke(main, ["staff", "reviews", "hide", review_id, "--reason", "no"], obj=container)
    assert short.exit_code == 1 and "reason" in short.output  # a clean message naming the field, nothing stored
    hidden = runner.invoke(main, ["staff", "reviews", "hide", review_id, "--reason", "Not about the product",
                                  "--actor", "ops"], obj=container)
    assert hidden.exit_code == 0 and f"review {review_id} hidden" in hidden.output, hidden.output
    assert rating(container, slug) == {"average": None, "count": 0}
    as_json = runner.invoke(main, ["staff", "reviews", "list", "--state", "hidden", "--json"], obj=container)
    [row] = [r for r in json.loads(as_json.output[as_json.output.index("["):]) if r["review_id"] == review_id]
    assert (row["hidden_reason"], row["hidden_by"]) == ("Not about the product", "staff:ops")
    restored = runner.invoke(main, ["staff", "reviews", "restore", review_id], obj=container)
    assert restored.exit_code == 0, restored.output
    assert rating(container, slug) == {"average": 2.0, "count": 1}
