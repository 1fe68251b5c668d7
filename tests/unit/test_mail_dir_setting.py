"""`LAUNCHDIR_MAIL_DIR`: the local mailbox is the default without SMTP, can be moved or turned off, and SMTP wins."""

from __future__ import annotations

from pathlib import Path

from launchdir.settings import Settings


def test_without_smtp_mail_goes_to_the_data_directorys_mailbox(tmp_path: Path) -> None:
    settings = Settings.from_env({"LAUNCHDIR_DATA_DIR": str(tmp_path)})
    assert settings.mail_dir == tmp_path / "mail"


def test_the_mailbox_can_be_moved_or_turned_off(tmp_path: Path) -> None:
    moved = Settings.from_env({"LAUNCHDIR_DATA_DIR": str(tmp_path), "LAUNCHDIR_MAIL_DIR": str(tmp_path / "inbox")})
    assert moved.mail_dir == tmp_path / "inbox"
    for off in ("off", "OFF", "none", "0"):
        assert Settings.from_env({"LAUNCHDIR_DATA_DIR": str(tmp_path), "LAUNCHDIR_MAIL_DIR": off}).mail_dir is None


def test_with_smtp_there_is_no_mailbox(tmp_path: Path) -> None:
    settings = Settings.from_env({"LAUNCHDIR_DATA_DIR": str(tmp_path), "SMTP_URL": "smtp://127.0.0.1:2525",
                                  "LAUNCHDIR_MAIL_DIR": str(tmp_path / "inbox")})
    assert settings.mail_dir is None and settings.smtp_url == "smtp://127.0.0.1:2525"


def test_settings_made_in_code_have_no_mailbox() -> None:
    assert Settings().mail_dir is None  # the tests' containers keep their mail queued unless they ask
