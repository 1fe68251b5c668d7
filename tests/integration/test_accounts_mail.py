"""The outbox and its SMTP sender against a real SMTP server (aiosmtpd on 127.0.0.1)."""

from __future__ import annotations

import email
import email.policy
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timezone
from email.message import EmailMessage
from uuid import uuid4

import pytest
from aiosmtpd.controller import Controller

from aggregates.base import Meta
from commands import account as account_cmd
from commands import catalog as catalog_cmd
from commands import mail as mail_cmd
from queries import mail as mail_q
from tests.conftest import free_port
from workers.adapters.smtp import SmtpMailer
from workers.mail import OutboxSender


class LocalSmtp:
    """A real SMTP server on 127.0.0.1 that keeps what it receives (shared with the e2e tests)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.port = free_port()
        self._lock = threading.Lock()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]  # noqa: N802 - aiosmtpd's name
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.messages.append(message)  # type: ignore[arg-type]
        return "250 Message accepted for delivery"

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if m["To"] == address]

    def wait_for(self, address: str, count: int = 1, timeout: float = 15.0) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.to(address)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no email to {address} within {timeout} s")

    def __enter__(self) -> LocalSmtp:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()


@pytest.fixture
def smtp() -> Iterator[LocalSmtp]:
    with LocalSmtp() as server:
        yield server


def _meta() -> Meta:
    return Meta(at=datetime.now(timezone.utc), actor="anonymous", channel="web")


def _sender(container, url: str) -> OutboxSender:  # type: ignore[no-untyped-def]
    mailer = SmtpMailer.from_url(url, default_sender="launchdir <noreply@launchdir.test>")
    return OutboxSender(container.store, container.services.reads, mailer, container.services.clock)


def test_sign_up_mail_goes_out_over_smtp_once(container, smtp: LocalSmtp) -> None:  # type: ignore[no-untyped-def]
    address = f"mail-{uuid4().hex[:8]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=address, password="long enough password")
    account_cmd.register_account(container.store, cmd, _meta(), container.identity.links)
    container.runtime.catch_up("mail_view")
    sender = _sender(container, smtp.url)
    assert sender.run_once() == 1
    [message] = smtp.wait_for(address)
    assert message["From"] == "launchdir <noreply@launchdir.test>"
    assert message["Subject"] == "Confirm your email address for launchdir"
    assert container.services.links["website"] + "verify?token=" in message.get_content()
    container.runtime.catch_up("mail_view")
    [row] = mail_q.outbox(container.services.reads, to=address)
    assert row["status"] == "sent" and row["attempts"] == 1
    assert sender.run_once() == 0 and len(smtp.to(address)) == 1


def test_racing_senders_send_a_message_once(container, smtp: LocalSmtp) -> None:  # type: ignore[no-untyped-def]
    address = f"race-{uuid4().hex[:8]}@example.com"
    for n in range(5):
        mail_cmd.queue_email(container.store, mail_cmd.QueueEmail(
            to=address, subject=f"Hello {n}", text="Text", kind="test", dedupe_key=f"race:{address}:{n}"), _meta())
    container.runtime.catch_up("mail_view")
    senders = [_sender(container, smtp.url) for _ in range(4)]
    threads = [threading.Thread(target=s.run_once) for s in senders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(0.2)
    subjects = sorted(m["Subject"] for m in smtp.to(address))
    assert subjects == [f"Hello {n}" for n in range(5)]


def test_an_unreachable_server_is_recorded_and_retried_later(container) -> None:  # type: ignore[no-untyped-def]
    address = f"down-{uuid4().hex[:8]}@example.com"
    msg_id, _ = mail_cmd.queue_email(container.store, mail_cmd.QueueEmail(
        to=address, subject="Hello", text="Text", kind="test", dedupe_key=f"down:{address}"), _meta())
    container.runtime.catch_up("mail_view")
    sender = _sender(container, f"smtp://127.0.0.1:{free_port()}")  # nothing listens there
    assert sender.run_once() == 0
    container.runtime.catch_up("mail_view")
    row = mail_q.message(container.services.reads, msg_id)
    assert row is not None and row["status"] == "failed" and row["attempts"] == 1
    assert row["retry_at"] > datetime.now(timezone.utc) and "Connection" in row["last_error"]
    assert sender.run_once() == 0  # not due before retry_at


def test_without_smtp_the_sign_up_mail_is_delivered_to_the_local_mailbox(container, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The offline default: one readable .eml file a message, the link whole in it, the outbox row sent."""
    from launchdir.bootstrap import mail_sender

    address = f"box-{uuid4().hex[:8]}@example.com"
    cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=address, password="long enough password")
    account_cmd.register_account(container.store, cmd, _meta(), container.identity.links)
    container.runtime.catch_up("mail_view")
    box = tmp_path / "mail"
    sender = mail_sender(container.services, replace(container.settings, smtp_url=None, mail_dir=box))
    assert sender is not None and sender.run_once() == 1
    [path] = [p for p in box.iterdir() if p.name.endswith(".eml")]
    assert not [p for p in box.iterdir() if p.name.endswith(".tmp")]
    raw = path.read_text(encoding="ascii")
    message = email.message_from_string(raw, policy=email.policy.default)
    assert message["To"] == address and message["Subject"] == "Confirm your email address for launchdir"
    link = container.services.links["website"] + "verify?token="
    assert link in message.get_content()
    assert link in raw  # not quoted-printable: the link reads whole in the file itself
    container.runtime.catch_up("mail_view")
    [row] = mail_q.outbox(container.services.reads, to=address)
    assert row["status"] == "sent" and row["attempts"] == 1
    assert sender.run_once() == 0 and len(list(box.glob("*.eml"))) == 1


def test_without_smtp_nor_mailbox_mail_stays_queued(container) -> None:  # type: ignore[no-untyped-def]
    from launchdir.bootstrap import mail_sender

    assert mail_sender(container.services, replace(container.settings, smtp_url=None, mail_dir=None)) is None


def test_queueing_with_one_dedupe_key_queues_one_message(container) -> None:  # type: ignore[no-untyped-def]
    cmd = mail_cmd.QueueEmail(to="once@example.com", subject="Once", text="T", kind="test", dedupe_key=f"k:{uuid4()}")
    first, _ = mail_cmd.queue_email(container.store, cmd, _meta())
    second, _ = mail_cmd.queue_email(container.store, cmd, _meta())
    assert first == second and len(container.store.stream(first)) == 1


def test_smtp_urls() -> None:
    plain = SmtpMailer.from_url("smtp://127.0.0.1:2525", "x <a@b.c>")
    assert (plain.host, plain.port, plain.tls, plain.starttls, plain.sender) == ("127.0.0.1", 2525, False, False, "x <a@b.c>")
    full = SmtpMailer.from_url("smtp://us%40er:p%3Ass@mail.example.com?starttls=1&from=hi@example.com", "x <a@b.c>")
    assert (full.port, full.starttls, full.username, full.password, full.sender) == (
        587, True, "us@er", "p:ss", "hi@example.com")
    assert SmtpMailer.from_url("smtps://mail.example.com", "a@b.c").port == 465
    with pytest.raises(ValueError):
        SmtpMailer.from_url("http://mail.example.com", "a@b.c")


def test_the_from_line_names_the_site_as_staff_named_it(container, smtp: LocalSmtp) -> None:  # type: ignore[no-untyped-def]
    """An address configured without a name is shown with the site's name (as the subject and sign-off say it);
    one configured with a name keeps it."""
    catalog_cmd.change_site_settings(container.store, catalog_cmd.ChangeSiteSettings(changes={"name": "Shipyard"}), _meta())
    container.runtime.catch_up("catalog_view")  # the account mails read the name from the catalogue's view
    bare, named = (f"{kind}-{uuid4().hex[:8]}@example.com" for kind in ("bare", "named"))
    for address in (bare, named):
        cmd = account_cmd.RegisterAccount(account_id=uuid4(), email=address, password="long enough password")
        account_cmd.register_account(container.store, cmd, _meta(), container.identity.links)
    container.runtime.catch_up("mail_view")
    plain = SmtpMailer.from_url(smtp.url, default_sender="noreply@launchdir.test")
    sender = OutboxSender(container.store, container.services.reads, plain, container.services.clock)
    assert sender.run_once() == 2
    [message] = smtp.wait_for(bare)
    assert message["From"] == "Shipyard <noreply@launchdir.test>"
    assert message["Subject"].endswith("Shipyard")
    chosen = SmtpMailer.from_url(smtp.url + "?from=Team%20Desk%20%3Cdesk%40launchdir.test%3E", default_sender="x@y.test")
    chosen.send(named, "Hello", "text", datetime.now(timezone.utc), sender_name="Shipyard")
    assert smtp.wait_for(named)[-1]["From"] == "Team Desk <desk@launchdir.test>"
