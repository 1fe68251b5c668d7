"""The plain-text message every mail adapter delivers: built once, so SMTP and the local mailbox send the same bytes."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.policy import EmailPolicy, default
from email.utils import format_datetime, make_msgid


def plain_message(sender: str, to: str, subject: str, text: str, at: datetime,
                  policy: EmailPolicy[EmailMessage] = default) -> EmailMessage:
    """From, To, Subject, Date (the claim's time) and a Message-ID in the sender's domain.

    `policy`: the standard one folds lines at 78 characters, so a long link
    is sent quoted-printable; the local mailbox passes a longer limit to keep
    its files readable as they are.
    """
    msg = EmailMessage(policy=policy)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(at)
    msg["Message-ID"] = make_msgid(domain=sender.rsplit("@", 1)[-1].strip(">") or None)
    msg.set_content(text)
    return msg
