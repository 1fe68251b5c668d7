"""`launchdir staff history`, `launchdir staff review` (queue, accept, revert) and `launchdir audit`, as staff run them."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner, Result

from commands import listing as listing_cmd
from launchdir.cli import main
from queries import listings as listings_q
from tests.integration.test_history_review import STAFF, live_listing, owner, owner_meta, sync


def run(c: Any, *args: str) -> Result:
    runner = CliRunner(env={"LAUNCHDIR_STAFF": "reviewer@example.com"})
    result = runner.invoke(main, list(args), obj=c)
    assert result.exit_code == 0, result.output
    return result


def test_an_owner_edit_shows_in_history_and_the_queue_and_a_revert_restores_the_profile(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    account_id, email = owner(c)
    made = live_listing(c, "Cli Review", account_id)
    edit = listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "Spammy tagline", "city": "Nice"},
                                    owner_meta(account_id, 1))
    story = listing_cmd.set_story(c.store, made.listing_id, {"title": "New story"}, owner_meta(account_id, 2))

    history = json.loads(run(c, "staff", "history", "cli-review", "--json").stdout)
    newest = history["items"][1]
    assert newest["version_id"] == edit and newest["actor_email"] == email and newest["review"] == "pending"
    assert newest["changes"]["tagline"] == {"before": "The original tagline", "after": "Spammy tagline"}
    table = run(c, "staff", "history", "cli-review").stdout
    assert table.splitlines()[0].split() == ["VERSION", "AT", "WHO", "VIA", "KIND", "REVIEW", "FIELD", "BEFORE", "AFTER"]
    assert f"{edit}" in table and "Spammy tagline" in table and "rest/api_key:k1" in table

    queue = json.loads(run(c, "staff", "review", "--json").stdout)
    assert [v["version_id"] for v in queue["items"]] == [edit, story]
    assert "cli-review" in run(c, "staff", "review").stdout

    reverted = json.loads(run(c, "staff", "review", "revert", str(edit), "tagline", "--json").stdout)
    assert reverted["version"]["review"] == "reverted" and reverted["version"]["reverted_fields"] == ["tagline"]
    assert reverted["version"]["reviewed_by"] == "staff:reviewer@example.com"
    sync(c)
    doc = listings_q.get_listing(c.services.reads, listings_q.GetListing(slug="cli-review"), c.services.links)
    assert doc["tagline"] == "The original tagline"

    accepted = run(c, "staff", "review", "accept", str(story)).stdout
    assert f"version {story}: accepted" in accepted
    assert json.loads(run(c, "staff", "review", "--json").stdout)["items"] == []
    assert "nothing waits for review" in run(c, "staff", "review").stdout

    refused = CliRunner().invoke(main, ["staff", "review", "revert", str(edit), "founders"], obj=c)
    assert refused.exit_code == 1 and "did not change founders" in refused.output
    missing = CliRunner().invoke(main, ["staff", "review", "accept", "999999"], obj=c)
    assert missing.exit_code == 1 and "no version 999999" in missing.output


def test_audit_lists_events_with_who_and_when_and_filters(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    account_id, email = owner(c)
    made = live_listing(c, "Cli Audit", account_id)
    edit = listing_cmd.edit_listing(c.store, made.listing_id, {"tagline": "Audited"}, owner_meta(account_id, 1))

    found = json.loads(run(c, "audit", "--listing", "cli-audit", "--actor", email, "--json").stdout)
    assert [i["position"] for i in found["items"]] == [edit]
    assert found["items"][0]["actor"] == f"account:{account_id}" and found["items"][0]["type"] == "ListingEdited"
    table = run(c, "audit", "--listing", "cli-audit", "--type", "ListingCreated").stdout
    assert table.splitlines()[0].split()[:4] == ["POSITION", "AT", "TYPE", "LISTING"]
    assert "ListingCreated" in table and STAFF.actor in table and "ListingEdited" not in table
    limited = json.loads(run(c, "audit", "--limit", "1", "--json").stdout)
    assert len(limited["items"]) == 1 and limited["next_before"] == limited["items"][0]["position"]

    bad = CliRunner().invoke(main, ["audit", "--type", "Nope"], obj=c)
    assert bad.exit_code == 1 and "unknown event type" in bad.output
    bad_date = CliRunner().invoke(main, ["audit", "--since", "yesterday"], obj=c)
    assert bad_date.exit_code == 2 and "YYYY-MM-DD" in bad_date.output
