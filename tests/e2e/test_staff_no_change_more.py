"""More staff commands that change nothing say so and record nothing (exit code 3, `nothing changed: <why>`):
the staff role granted twice or revoked from someone not staff, a blog post published twice or unpublished while
down, a founder edit or a blog revision that changes no field, a site setting set to its value. These have no
staff web page; the command line is their door. Against the running site's container, as the other staff tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from click.testing import CliRunner

from aggregates import catalog, content
from commands import account as account_cmd
from commands import content as content_cmd
from commands.catalog import current_catalog
from launchdir.cli import main
from tests.e2e.test_staff_review_web import account, now_meta

UNCHANGED = 3  # the exit code of a staff command that changed nothing


def _cli(server: Any, *args: str) -> Any:
    return CliRunner().invoke(main, ["staff", *args, "--actor", "ops"], obj=server.container)


def _length(server: Any, stream_id: UUID) -> int:
    return len(server.container.store.stream(stream_id))


def _unchanged(result: Any, why: str) -> None:
    assert result.exit_code == UNCHANGED, result.output
    assert f"nothing changed: {why}" in result.stderr and result.stdout == ""


def test_the_staff_role_granted_twice_or_revoked_from_someone_not_staff_changes_nothing(server: Any) -> None:
    c = server.container
    account(server, staff=True)  # another staff account: the last one would keep the role
    _, email = account(server, staff=False)
    state = account_cmd.find_account(c.store, email)
    assert state is not None
    before = _length(server, state.id)

    _unchanged(_cli(server, "revoke", email), f"{email} is not staff, so there is no staff role to take away")
    assert _length(server, state.id) == before
    granted = _cli(server, "grant", email)
    assert granted.exit_code == 0 and granted.stdout.strip() == f"{email}: staff"
    _unchanged(_cli(server, "grant", email), f"{email} is staff already")
    assert _length(server, state.id) == before + 1
    assert _cli(server, "revoke", email).exit_code == 0
    assert _length(server, state.id) == before + 2
    found = account_cmd.find_account(c.store, email)
    assert found is not None and not found.is_staff
    assert _cli(server, "grant", "nobody-at-all@example.com").exit_code == 1  # no such account: an error, not a no-op


def test_a_blog_post_published_twice_or_unpublished_while_down_changes_nothing(server: Any, tmp_path: Path) -> None:
    c = server.container
    slug = f"noop-{uuid4().hex[:8]}"
    content_cmd.write_blog_post(c.store, content_cmd.WriteBlogPost(slug=slug, title="Nothing new", markdown="# Hi"),
                                now_meta())
    post = content.post_stream(slug)
    before = _length(server, post)

    _unchanged(_cli(server, "blog", "unpublish", slug),
               f"blog post {slug} is not published, so there is nothing to take off the site")
    assert _cli(server, "blog", "publish", slug).stdout.strip() == f"blog post {slug}: published"
    _unchanged(_cli(server, "blog", "publish", slug), f"blog post {slug} is published already")
    _unchanged(_cli(server, "blog", "revise", slug, "--title", "Nothing new"), f"blog post {slug} has that title already")
    text = tmp_path / "same.md"
    text.write_text("# Hi", encoding="utf-8")
    _unchanged(_cli(server, "blog", "revise", slug, "--title", "Nothing new", "--markdown-file", str(text)),
               f"blog post {slug} has that title, markdown already")
    nothing = _cli(server, "blog", "revise", slug)
    assert nothing.exit_code == 2 and "--title, --summary or --markdown-file" in nothing.output
    assert _length(server, post) == before + 1  # the publish only
    assert _cli(server, "blog", "unpublish", slug).exit_code == 0
    _unchanged(_cli(server, "blog", "unpublish", slug),
               f"blog post {slug} is not published, so there is nothing to take off the site")
    assert _length(server, post) == before + 2
    assert not content_cmd.blog_post_state(c.store, slug).published


def test_a_founder_edit_that_changes_no_field_changes_nothing(server: Any) -> None:
    c = server.container
    slug = f"noop-founder-{uuid4().hex[:8]}"
    content_cmd.create_founder_profile(c.store, content_cmd.CreateFounderProfile(
        slug=slug, name="Ada Lovelace", country="GB", socials={"x": "https://x.com/ada"}), now_meta())
    founder = content.founder_stream(slug)
    before = _length(server, founder)

    _unchanged(_cli(server, "founder", "edit", slug, "name", "Ada Lovelace"),
               f"founder {slug}'s name has that value already")
    _unchanged(_cli(server, "founder", "edit", slug, "country", "gb"), f"founder {slug}'s country has that value already")
    _unchanged(_cli(server, "founder", "edit", slug, "socials", json.dumps({"x": "https://x.com/ada"})),
               f"founder {slug}'s socials has that value already")
    assert _length(server, founder) == before
    edited = _cli(server, "founder", "edit", slug, "bio", "Wrote the first program.")
    assert edited.exit_code == 0 and edited.stdout.strip() == f"founder {slug}: bio changed"
    assert _length(server, founder) == before + 1


def test_a_site_setting_set_to_its_value_changes_nothing(server: Any) -> None:
    c = server.container
    state = current_catalog(c.store)
    weeks = state.site["free_queue_max_weeks"]
    _unchanged(_cli(server, "site-setting", "free_queue_max_weeks", str(weeks)),
               f"free_queue_max_weeks is {weeks} already")
    purpose = state.site["purpose"]
    _unchanged(_cli(server, "site-setting", "purpose", json.dumps(purpose)), f"purpose is {json.dumps(purpose)} already")
    assert current_catalog(c.store).version == state.version  # nothing recorded
    assert current_catalog(c.store).site == state.site
    assert len(c.store.stream(catalog.CATALOG_ID)) == state.version
