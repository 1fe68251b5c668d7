"""Wiring of listing updates for `launchdir serve`: the follower fan-out loop and the unsubscribe page.

One unsubscribe token signer serves both: the notifier signs the links it
puts in emails and the website reads them. Its key is the site's link secret
(`api/sessions.py`, the one of the account emails) under a salt of its own.
"""

from __future__ import annotations

from api.app import WebConfig
from api.services import Services
from api.sessions import signing_secret
from api.web_auth import Identity
from api.web_unsubscribe import unsubscribe_routes
from commands.updates import UnsubscribeTokens
from workers.updates import UpdateNotifier


def update_notifier(services: Services, tokens: UnsubscribeTokens) -> UpdateNotifier:
    """The fan-out loop, woken whenever `updates_view` moves."""
    notifier = UpdateNotifier(services.store, services.reads, tokens, services.links["website"], services.clock)
    services.runtime.on_move(notifier.on_move)
    return notifier


def wire_updates(config: WebConfig, services: Services, identity: Identity) -> UpdateNotifier:
    """Start and stop the notifier with the server, and add /unsubscribe/<token> to the website."""
    tokens = UnsubscribeTokens(signing_secret(services.reads.primary))
    notifier = update_notifier(services, tokens)
    config.on_startup.append(notifier.start)
    config.on_shutdown.insert(0, notifier.stop)
    config.extra_routes.extend(unsubscribe_routes(identity, tokens))
    return notifier
