"""Identity: what sessions, sign-in and bearer credentials add to the service, built once by `build_identity`.

This module holds the state the website's pages share (sessions, CSRF, email
links, the mail ports) and nothing of the pages themselves, so every page
module (`api/web_pages.py` and the modules built on it) can import it without
a cycle. The pages are assembled by `api/web_auth.py` `identity_routes`.

Sign-up and reset requests answer before the address is looked up (the
`DeferredWork` port runs that part), so their timing does not tell whether an
account exists. Both mail ports are implemented in `workers/mail.py` and wired
in `launchdir/bootstrap.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from starlette.types import ASGIApp

from api.auth import ApiKeyVerifier, BearerAuthenticator, KeyUsage, McpBearerGuard, challenge_for
from api.csrf import Csrf
from api.services import Services
from api.sessions import SessionStore, SigninThrottle, setup as setup_sessions, signing_secret
from commands import account as account_cmd
from queries import catalog as catalog_q


class MailSender(Protocol):
    """Sends the outbox's due messages on a thread of its own; identity starts and stops it."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


class DeferredWork(Protocol):
    """Runs named work after the answer, in order; `stop` runs what is queued first."""

    def submit(self, name: str, work: Callable[[], object]) -> None: ...

    def stop(self) -> None: ...


@dataclass
class Identity:
    """What identity adds to the service: the bearer authenticator, sessions, email links, the mail sender."""

    services: Services
    base_url: str
    links: account_cmd.AccountLinks
    sessions: SessionStore
    throttle: SigninThrottle
    csrf: Csrf
    usage: KeyUsage
    api_keys: ApiKeyVerifier
    authenticator: BearerAuthenticator
    challenge: Callable[..., str]
    sender: MailSender | None  # SMTP or the local mailbox; None with neither: mail stays queued in the outbox
    secure_cookies: bool
    deferred: DeferredWork  # sign-up and reset work, after the answer

    def mcp_guard(self, app: ASGIApp) -> ASGIApp:
        return McpBearerGuard(app, self.authenticator, self.base_url)

    def start(self) -> None:
        self.usage.start()
        if self.sender is not None:
            self.sender.start()

    def stop(self) -> None:
        self.deferred.stop()  # runs what is queued: its mail reaches the outbox before the sender stops
        if self.sender is not None:
            self.sender.stop()
        self.usage.stop()


def build_identity(services: Services, base_url: str, *, sender: MailSender | None, deferred: DeferredWork) -> Identity:
    """Create the identity tables, read the signing secret, and wire the verifier chain with the mail ports."""
    pool = services.reads.primary  # sessions, keys, throttles: written here, read back at once
    setup_sessions(pool)
    secret = signing_secret(pool)
    usage = KeyUsage(pool)
    usage.setup()
    api_keys = ApiKeyVerifier(services.reads, services.clock, usage)
    # An OAuth access-token verifier joins this chain when the authorization server exists.
    authenticator = BearerAuthenticator([api_keys])
    secure = base_url.startswith("https://")
    return Identity(
        services=services, base_url=base_url, links=account_cmd.AccountLinks(
            secret, services.links["website"], partial(catalog_q.site_name, services.reads)),  # mails say the site's name
        sessions=SessionStore(pool, services.clock), throttle=SigninThrottle(pool, services.clock),
        csrf=Csrf(secret, ("__Host-" if secure else "") + "ld_csrf"), usage=usage, api_keys=api_keys,
        authenticator=authenticator, challenge=challenge_for(base_url), sender=sender, secure_cookies=secure,
        deferred=deferred,
    )
