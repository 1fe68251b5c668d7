"""The privacy-preserving signals a website vote carries, and the first signed-in page view of each account.

Addresses and user agents never leave this module in the clear: the network
prefix (/24 of an IPv4 address, /48 of an IPv6 one; an IPv4-mapped IPv6
address counts as IPv4) and the User-Agent header are each reduced to an
HMAC-SHA256 under the vote-signal key. Without the key the hashes cannot be
tested against guessed addresses; with it, staff can only tell "the same
network" or "the same browser" apart from "different" (docs/voting.md).

The key is `LAUNCHDIR_VOTE_SIGNAL_SECRET` when set (the same value in every
process: hashes from different processes then match), else a random secret
created once in the database (`vote-signals` in the secrets table).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import threading
from datetime import datetime

from aggregates.base import Meta
from commands import votes as votes_cmd
from commands.store import EventStore
from projections.reads import ReadStore

SEEN_MAX = 100_000  # accounts remembered as "first view recorded" per process; then the memory starts again


def vote_signal_key(secret: str | None, reads: ReadStore) -> bytes:
    """The HMAC key: derived from the setting when given, else from the database's own vote-signal secret."""
    from api.sessions import signing_secret

    raw = secret.encode() if secret else signing_secret(reads.primary, "vote-signals")
    return hashlib.sha256(b"launchdir-vote-signals:" + raw).digest()


def network_prefix(address: str) -> str:
    """The /24 (IPv4) or /48 (IPv6) network of an address; "" when it is not an address."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


class VoteSignals:
    """Keyed hashes of a request's network prefix and user agent."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _hash(self, kind: str, value: str) -> str:
        if not value:
            return ""
        return hmac.new(self._key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()

    def network_hash(self, address: str) -> str:
        return self._hash("net", network_prefix(address))

    def agent_hash(self, user_agent: str) -> str:
        return self._hash("ua", user_agent.strip()[:1000])


class FirstViews:
    """Records each account's first signed-in page view once; remembers in memory whom it has seen.

    Like counted listing views, the record is the site's own bookkeeping, not
    something the person did: it is stored as actor and channel `system`.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._seen: set[str] = set()
        self._first: dict[str, datetime] = {}  # recorded first views: a stored one never changes
        self._lock = threading.Lock()

    def first(self, account_id: str) -> datetime | None:
        """When the account's first signed-in page view was recorded (None: not yet), read once per process.

        A vote carries it as a signal; the stream stores only the first view,
        so once read it is kept (a person votes many times in a burst, and each
        read of the stream was a round trip).
        """
        with self._lock:
            known = self._first.get(account_id)
        if known is not None:
            return known
        at = votes_cmd.first_view(self.store, account_id)
        if at is not None:
            with self._lock:
                if len(self._first) >= SEEN_MAX:
                    self._first.clear()
                self._first[account_id] = at
        return at

    def seen(self, account_id: str, at: datetime) -> None:
        with self._lock:
            if account_id in self._seen:
                return
            if len(self._seen) >= SEEN_MAX:
                self._seen.clear()
        meta = Meta(at=at, actor="system", channel="system")
        votes_cmd.record_first_view(self.store, account_id, meta)  # the stream decides: only the first is stored
        with self._lock:
            self._seen.add(account_id)
