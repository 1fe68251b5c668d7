"""A database holding events from before the text rule, and one event a projection cannot apply, starts and serves.

The events are stored by one container, which is closed; a second one on the
same database is what `launchdir serve` after a restart is. NUL and lone
surrogates are projected storably; the draft event stored without its field
stops `draft_view` (failing) while the server starts, reads of other
projections serve, waits on `draft_view` answer 503, and a staff skip with a
reason moves it on.
"""

from __future__ import annotations

import httpx
from click.testing import CliRunner

from launchdir.cli_projections import projections
from projections.failures import RetryPolicy
from tests.conftest import Databases, RunningServer, free_port
from tests.conftest import test_settings as settings_for
from tests.integration.poison_helpers import (
    draft,
    edit_field,
    edit_without_field,
    person,
    register,
    register_with_lone_surrogate,
)


def test_a_database_with_poison_events_starts_serves_and_is_repaired_by_a_skip(databases: Databases) -> None:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    port = free_port()
    settings = settings_for(databases.create(), port=port, rate_limits=False)
    before = bootstrap(settings)
    ensure_catalog(before)
    account_id, key = person(before.store, before.services.timezone)
    register(before.store, "nul\x00x@example.org")
    register_with_lone_surrogate(before.store)
    mine = draft(before.store, account_id, "fine.example.org")
    edit_field(before.store, mine, account_id, "a\x00b")
    broken = draft(before.store, account_id, "broken.example.org")
    poison = edit_without_field(before.store, broken, account_id)
    before.close()

    c = bootstrap(settings)  # the restart
    c.runtime.retry_policy = RetryPolicy(first=0.0, cap=0.0, attempts=1, slow=3600.0)  # failing at the first attempt
    runner = CliRunner()
    try:
        with RunningServer(c, port) as server, httpx.Client(
            base_url=server.url + "/api/v1", headers={"Authorization": f"Bearer {key}"}, timeout=30
        ) as http:
            assert http.get("/me").status_code == 200  # accounts_view moved past the NUL and the lone surrogate
            got = http.get(f"/drafts/{mine}")
            assert got.status_code == 200 and got.json()["fields"]["name"]["value"] == "a\ufffdb"

            refused = http.post(f"/drafts/{mine}/invites", json={"email": "cofounder@example.org"})
            assert refused.status_code == 503, refused.text
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.headers["retry-after"] == "60"
            problem = refused.json()
            assert problem["type"].endswith("/unavailable") and f"draft_view (at event {poison})" in problem["detail"]

            status = runner.invoke(projections, ["status"], obj=c)
            assert status.exit_code == 2, status.output
            assert "failing" in status.output and f"event {poison}" in status.output
            assert "AttributeError" in status.output

            skipped = runner.invoke(projections, ["skip", "draft_view", str(poison), "--reason",
                                                  "stored without its field", "--actor", "ops@example.org"], obj=c)
            assert skipped.exit_code == 0, skipped.output
            assert "staff:ops@example.org" in skipped.output
            healthy = runner.invoke(projections, ["status"], obj=c)
            assert healthy.exit_code == 0, healthy.output
            assert "stored without its field" in healthy.output  # the recorded skip is listed

            invited = http.post(f"/drafts/{mine}/invites", json={"email": "another@example.org"})
            assert invited.status_code == 201, invited.text
    finally:
        c.close()
