"""`launchdir staff`: each one-step command says what it did and records its events as the acting staff member."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from aggregates import catalog, content
from commands import account as account_cmd
from commands import listing as listing_cmd
from launchdir.cli import main
from tests.conftest import test_settings as settings_for
from tests.integration.test_launches_kit import create, utc


def test_staff_commands_answer_and_record_who_acted(fresh_db: str, tmp_path: Path) -> None:
    from launchdir.bootstrap import bootstrap, ensure_catalog

    c = bootstrap(settings_for(fresh_db))
    try:
        ensure_catalog(c)
        account_cmd.register_account(c.store, account_cmd.RegisterAccount(
            account_id="00000000-0000-4000-8000-00000000beef", email="grace@example.com", password=None,
            verified=True), c.system_meta(), None)
        account_cmd.register_account(c.store, account_cmd.RegisterAccount(
            account_id="00000000-0000-4000-8000-00000000cafe", email="lin@example.com", password=None,
            verified=True), c.system_meta(), None)
        listing_id, slug = create(c, "Staff Tool", utc(2026, 11, 16, 9))
    finally:
        c.close()
    post = tmp_path / "post.md"
    post.write_text("# Hello\n\nFirst words.\n", encoding="utf-8")
    runner = CliRunner(env={"DATABASE_URL": fresh_db, "LAUNCHDIR_DATA_DIR": str(tmp_path), "LAUNCHDIR_STAFF": "ops"})

    def run(*args: str) -> str:
        result = runner.invoke(main, ["staff", *args])
        assert result.exit_code == 0, result.output
        return result.stdout.strip()

    said = run("set-price", "featured", "4200", "--actor", "lee")
    assert said.startswith("featured: 4200 cents (event position ") and said.endswith(")")
    assert run("site-setting", "purpose", '"Made by staff"') == 'purpose = "Made by staff"'
    assert run("grant", "grace@example.com") == "grace@example.com: staff"
    last = runner.invoke(main, ["staff", "revoke", "grace@example.com"])
    assert last.exit_code == 1 and "Error: this is the last staff account" in last.output  # the site keeps one
    assert run("grant", "lin@example.com") == "lin@example.com: staff"
    assert run("revoke", "grace@example.com") == "grace@example.com: not staff"
    assert run("publish", slug, "--week", "2026-11-16") == f"{slug}: live"
    short = runner.invoke(main, ["staff", "unpublish", slug, "--reason", "no"])
    assert short.exit_code != 0 and "3 to 500 characters" in short.output  # the rule, not a traceback
    assert run("unpublish", slug, "--reason", "Spam report upheld") == f"{slug}: taken down"
    assert run("publish", slug, "--week", "2026-11-16") == f"{slug}: live"  # and put back
    assert run("founder", "create", "ada", "Ada Lovelace", "--social", "x=https://x.com/ada") == "founder ada created"
    assert run("founder", "edit", "ada", "socials", '{"x": "https://x.com/ada2"}') == "founder ada: socials changed"
    assert run("blog", "write", "hello", str(post), "--title", "Hello") == "blog post hello written"
    assert run("blog", "revise", "hello", "--title", "Hello again") == "blog post hello: title changed"
    assert run("blog", "publish", "hello") == "blog post hello: published"
    assert run("blog", "unpublish", "hello") == "blog post hello: unpublished"
    assert run("site-setting", "free_queue_min_weeks", "5") == "free_queue_min_weeks = 5"
    bad = runner.invoke(main, ["staff", "founder", "edit", "ada", "socials", "{not json"])
    assert bad.exit_code == 1 and "Error:" in bad.output  # a clean message, not a traceback
    assert runner.invoke(main, ["staff", "grant", "nobody@example.com"]).exit_code == 1

    c = bootstrap(settings_for(fresh_db))
    try:
        prices = c.store.stream(catalog.CATALOG_ID)
        assert [e.actor for e in prices[-3:]] == ["staff:lee", "staff:ops", "staff:ops"]  # set-price, site-setting twice
        site = c.store.load(catalog.CATALOG_ID, catalog).site
        assert (site["purpose"], site["free_queue_min_weeks"]) == ("Made by staff", 5)
        state = account_cmd.find_account(c.store, "grace@example.com")
        assert state is not None and not state.is_staff
        listing = listing_cmd.load(c.store, listing_id)
        assert listing.status == "live" and listing.week == "2026-11-16"
        founder = c.store.load(content.founder_stream("ada"), content.FOUNDER)
        assert json.dumps(founder.fields["socials"]) == '{"x": "https://x.com/ada2"}'
        post_state = c.store.load(content.post_stream("hello"), content.POST)
        assert post_state.fields["title"] == "Hello again" and not post_state.published
        staff_events = (c.store.stream(state.id)[-2:] + c.store.stream(content.post_stream("hello"))
                        + c.store.stream(content.founder_stream("ada")))
        assert len(staff_events) == 2 + 4 + 2
        assert all(e.actor == "staff:ops" and e.channel == "cli" and e.via == "staff" for e in staff_events)
    finally:
        c.close()
