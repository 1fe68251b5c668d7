"""`launchdir staff votes report`, `void` and `restore`, as staff run them."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any
from uuid import UUID

from click.testing import CliRunner, Result

from events.votes import VoteVoided
from launchdir.cli import main
from tests.integration.test_launches_kit import launched, ok, unique, utc
from tests.integration.test_vote_integrity import _organic, _planted

WEEK = "2026-09-21"
MON = utc(2026, 9, 21, 9)


def run(c: Any, *args: str, code: int = 0) -> Result:
    result = CliRunner(env={"LAUNCHDIR_STAFF": "integrity@example.com"}).invoke(main, list(args), obj=c)
    assert result.exit_code == code, result.output
    return result


def test_the_report_prints_findings_with_their_votes_and_staff_void_and_restore_them(container) -> None:  # type: ignore[no-untyped-def]
    c = container
    name = unique("Cli Gamed")
    gamed, slug = launched(c, name, WEEK, MON)
    calm_name = unique("Cli Calm")
    calm, _ = launched(c, calm_name, WEEK, MON)
    _organic(c, calm, 6, MON + timedelta(hours=1))
    planted = _planted(c, gamed, 4, MON + timedelta(days=1))

    text = run(c, "staff", "votes", "report", "--week", "2026-09-23").output  # any day of the week names it
    assert f"\nweek of {WEEK}: 10 votes on 2 listings" in text
    assert f"[shared network] {name} ({slug}): 4 votes" in text and "[new accounts]" in text
    assert all(v in text for v in planted) and calm_name not in text

    doc = json.loads(run(c, "staff", "votes", "report", "--week", WEEK, "--json").stdout)
    mine = [f for f in doc["clusters"] if f["listing"]["slug"] == slug]
    assert {f["kind"] for f in mine} == {"shared_network", "new_accounts"}
    assert {v["vote_id"] for v in mine[0]["votes"]} == set(planted)
    assert doc["rules"]["cluster_min_votes"] == 3

    voided = run(c, "staff", "votes", "void", *planted, "--reason", "one network, brand new accounts").output
    assert "4 vote(s) voided; 0 unchanged" in voided
    event = c.store.stream(UUID(planted[0]))[-1]
    assert isinstance(event, VoteVoided) and event.actor == "staff:integrity@example.com"
    assert ok(c, "get_listing", slug=slug)["community"]["votes"] == 0
    assert text.count("VOIDED") == 0 and run(c, "staff", "votes", "report", "--week", WEEK).output.count("VOIDED") >= 4

    restored = run(c, "staff", "votes", "restore", *planted, "--reason", "appeal upheld").output
    assert "4 vote(s) restored" in restored
    assert ok(c, "get_listing", slug=slug)["community"]["votes"] == 4

    refused = run(c, "staff", "votes", "void", "nonsense", "--reason", "x", code=1)
    assert "not a vote id" in refused.output
    run(c, "staff", "votes", "void", planted[0], code=2)  # --reason is required
