"""The SMTP adapter: one plain-text message per call, over a fresh connection.

`SMTP_URL`: ``smtp://[user[:password]@]host[:port][?starttls=1&from=addr]``
or ``smtps://...`` (TLS from the first byte, port 465 by default).
The outbox sender (`workers/mail.py`) calls it for each due message; without
`SMTP_URL` the messages go to the local mailbox (`workers/adapters/mailbox.py`)
or, with that off too, stay `queued` in the outbox.
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, unquote, urlsplit

from workers.adapters.mail_message import plain_message


@dataclass(frozen=True)
class SmtpMailer:
    """Sends one plain-text message per call over SMTP (a fresh connection each time)."""

    host: str
    port: int
    sender: str
    username: str | None = None
    password: str | None = None
    tls: bool = False  # implicit TLS (smtps)
    starttls: bool = False
    timeout: float = 20.0

    @classmethod
    def from_url(cls, url: str, default_sender: str) -> SmtpMailer:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError("SMTP_URL must start with smtp:// or smtps://")
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        tls = parts.scheme == "smtps"
        starttls = query.get("starttls", "").lower() in ("1", "true", "yes")
        return cls(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or (465 if tls else 587 if starttls else 25),
            sender=query.get("from") or default_sender,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=tls,
            starttls=starttls,
        )

    def send(self, to: str, subject: str, text: str, at: datetime, unsubscribe_url: str | None = None,
             sender_name: str | None = None) -> None:
        message = plain_message(self.sender, to, subject, text, at, unsubscribe_url=unsubscribe_url,
                                sender_name=sender_name)
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if self.tls:
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        with smtp:
            if self.starttls:
                smtp.starttls(context=context)
            if self.username:
                smtp.login(self.username, self.password or "")
            smtp.send_message(message)
