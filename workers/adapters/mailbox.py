"""The local mailbox: the outbox's offline default, one `.eml` file a message in a directory.

Without `SMTP_URL` a fresh install still has to deliver its mail somewhere a
person can read it: the link that confirms an address, a password reset, a
claim's code. Each message is written as a standard RFC 5322 file (any mail
client opens it, and lines are not folded below the standard's 998
characters, so a link reads whole in a plain text viewer) into
`LAUNCHDIR_MAIL_DIR`, by default `mail/` in the data directory, and the
server's log names the file. Written to a temporary name and renamed, so a
reader never sees half a message; the file name starts with the time, so the
newest sorts last.
"""

from __future__ import annotations

import logging
import os
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from email.policy import default
from pathlib import Path

from workers.adapters.mail_message import plain_message

log = logging.getLogger(__name__)
READABLE = default.clone(max_line_length=998)  # RFC 5322's limit: text with links stays 7bit, unencoded


@dataclass(frozen=True)
class MailboxMailer:
    """Delivers each message as a `.eml` file in `directory` (made when missing)."""

    directory: Path
    sender: str

    def send(self, to: str, subject: str, text: str, at: datetime, unsubscribe_url: str | None = None,
             sender_name: str | None = None) -> None:
        message = plain_message(self.sender, to, subject, text, at, READABLE, unsubscribe_url, sender_name)
        self.directory.mkdir(parents=True, exist_ok=True)
        stamp = at.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S")
        name = f"{stamp}-{_slug(to)}-{uuid.uuid4().hex[:8]}.eml"
        final = self.directory / name
        partial = self.directory / f".{name}.tmp"
        partial.write_bytes(message.as_bytes())
        os.replace(partial, final)
        log.info("mail to %s (%s) delivered to %s", to, subject, final)


def _slug(address: str) -> str:
    """The address as a safe piece of a file name."""
    return re.sub(r"[^A-Za-z0-9@._-]+", "_", address)[:80]
