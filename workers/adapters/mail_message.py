"""The plain-text message every mail adapter delivers: built once, so SMTP and the local mailbox send the same bytes."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.policy import EmailPolicy, default
from email.utils import format_datetime, formataddr, make_msgid, parseaddr


def plain_message(sender: str, to: str, subject: str, text: str, at: datetime,
                  policy: EmailPolicy[EmailMessage] = default, unsubscribe_url: str | None = None,
                  sender_name: str | None = None) -> EmailMessage:
    """From, To, Subject, Date (the claim's time) and a Message-ID in the sender's domain.

    `sender_name`: the name the reader's mail program shows for a sender
    address configured without one (the site's name as staff set it, so the
    From line agrees with the mail's subject and sign-off); an address
    configured with a name keeps it.

    `policy`: the standard one folds lines at 78 characters, so a long link
    is sent quoted-printable; the local mailbox passes a longer limit to keep
    its files readable as they are. `unsubscribe_url`: the one-click
    unsubscribe of RFC 8058 (`List-Unsubscribe` with `List-Unsubscribe-Post`),
    which mail programs show as their own unsubscribe button and which large
    mailbox providers ask of mail sent to many people.
    """
    msg = EmailMessage(policy=policy)
    msg["From"] = from_line(sender, sender_name)
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(at)
    msg["Message-ID"] = make_msgid(domain=sender.rsplit("@", 1)[-1].strip(">") or None)
    if unsubscribe_url:
        msg["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(text)
    return msg


def from_line(sender: str, name: str | None) -> str:
    """`sender` with `name` shown before the address when the address has no name of its own."""
    shown, address = parseaddr(sender)
    return formataddr((name, address)) if name and not shown and address else sender
